package dev.weft.core.solver;

import dev.weft.core.InvalidInputException;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.pd.PdSolver;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import java.util.List;

/** Solvers by the names the command line and scene files use. */
public final class Solvers {
    private Solvers() {
    }

    public static List<String> names() {
        return List.of("xpbd", "pd");
    }

    public static Solver create(String name, XpbdSettings xpbd, WorkerPool pool) {
        return create(name, xpbd, PdSettings.defaults(), pool);
    }

    /** As {@link #create(String, XpbdSettings, WorkerPool)}, with the settings of Projective Dynamics ({@code pd}). */
    public static Solver create(String name, XpbdSettings xpbd, PdSettings pd, WorkerPool pool) {
        if ("xpbd".equals(name)) {
            return new XpbdSolver(xpbd, pool);
        }
        if ("pd".equals(name)) {
            return new PdSolver(pd, pool);
        }
        throw new InvalidInputException("--solver", "unknown solver '" + name + "'; available: "
                + String.join(", ", names()));
    }
}
