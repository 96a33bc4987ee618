package dev.weft.core.solver;

import dev.weft.core.InvalidInputException;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import java.util.List;

/** Solvers by the names the command line and scene files use. */
public final class Solvers {
    private Solvers() {
    }

    public static List<String> names() {
        return List.of("xpbd", "implicit", "mass-spring", "relaxation");
    }

    public static Solver create(String name, XpbdSettings xpbd, WorkerPool pool) {
        if ("xpbd".equals(name)) {
            return new XpbdSolver(xpbd, pool);
        }
        if (SpringSolvers.handles(name)) {
            return SpringSolvers.create(name, pool);
        }
        throw new InvalidInputException("--solver", "unknown solver '" + name + "'; available: "
                + String.join(", ", names()));
    }
}
