package dev.weft.app;

import dev.weft.core.scene.BuiltInScenes;
import dev.weft.core.scene.Scene;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Lists the built-in scenes. */
@Command(name = "scenes", mixinStandardHelpOptions = true, description = "List the built-in scenes.")
final class ScenesCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        for (String name : BuiltInScenes.names()) {
            Scene s = BuiltInScenes.byName(name);
            spec.commandLine().getOut().printf("%-10s %s%s%n", name, s.description(),
                    name.equals(BuiltInScenes.DEFAULT) ? " (default)" : "");
        }
    }
}
