package dev.weft.app;

import dev.weft.core.InvalidInputException;
import dev.weft.core.scene.Scene;
import dev.weft.scene.SceneFile;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code weft validate FILE...}: reads scene files and builds their models without simulating; each
 * problem is printed as file:line:column: key path: what is wrong and what is allowed. Exit 2 when any
 * file has one.
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = "Check scene files without simulating: every problem as FILE:LINE:COLUMN: KEY: what is "
                + "wrong and what is allowed. Exit 2 if any file has one.")
final class ValidateCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Scene files (.json).")
    List<Path> files;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        int bad = 0;
        for (Path file : files) {
            try {
                Scene s = SceneFile.read(file);
                out.printf(Locale.ROOT, "%s: ok: scene %s, %d bod%s, %d particles, %d colliders, %d frames at %s fps%n",
                        file, s.name(), s.model().objects().size(), s.model().objects().size() == 1 ? "y" : "ies",
                        s.model().particleCount(),
                        s.environment().colliders().length, s.frames(), s.fps());
            } catch (InvalidInputException e) {
                err.println(e.getMessage());
                bad++;
            }
        }
        out.flush();
        err.flush();
        return bad == 0 ? 0 : WeftMain.EXIT_BAD_INPUT;
    }
}
