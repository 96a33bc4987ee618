package dev.weft.app;

import dev.weft.core.model.Model;
import dev.weft.core.scene.Scene;
import dev.weft.core.scene.SolverSteps;
import dev.weft.core.solver.Solvers;
import dev.weft.scene.SceneLibrary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Lists the shipped scenes (scenes/*.json), with the steps per frame each solver takes on them and what they are made of. */
@Command(name = "scenes", mixinStandardHelpOptions = true, description = "List the scenes that ship with Weft (the files of scenes/).")
final class ScenesCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        for (String name : SceneLibrary.names()) {
            Scene s = SceneLibrary.load(name);
            spec.commandLine().getOut().printf("%-10s %s%s%n", name, s.description(),
                    name.equals(SceneLibrary.DEFAULT) ? " (default)" : "");
            spec.commandLine().getOut().printf("%-10s steps per frame: %s%s%n", "", steps(s),
                    "xpbd".equals(s.defaultSolver()) ? "" : "; runs with " + s.defaultSolver() + " unless --solver says");
            spec.commandLine().getOut().printf("%-10s %s%n", "", materials(s.model()));
        }
    }

    /** "made of: stretch 2000 N/m, …" when every body is described alike, else each body's. */
    static String materials(Model m) {
        java.util.Set<String> distinct = new java.util.LinkedHashSet<>();
        for (int o = 0; o < m.objects().size(); o++) {
            distinct.add(MaterialOptions.describe(m, o));
        }
        if (distinct.size() == 1) {
            return "made of: " + distinct.iterator().next();
        }
        StringBuilder b = new StringBuilder("made of:");
        for (int o = 0; o < m.objects().size(); o++) {
            b.append(o == 0 ? " " : "; ").append(m.objects().get(o).name()).append(' ')
                    .append(MaterialOptions.describe(m, o));
        }
        return b.toString();
    }

    /** "24; pd 16, relaxation 48 x 3": the scene's substeps, then the solvers' own (x their iterations). */
    static String steps(Scene s) {
        StringBuilder b = new StringBuilder().append(s.substeps());
        String sep = "; ";
        for (String solver : Solvers.names()) {
            SolverSteps own = s.solverSteps().get(solver);
            if (own != null) {
                b.append(sep).append(solver).append(' ').append(own.substeps());
                if (own.iterations() > 0) {
                    b.append(" x ").append(own.iterations());
                }
                sep = ", ";
            }
        }
        return b.toString();
    }
}
