package dev.weft.core.solver;

import dev.weft.core.InvalidInputException;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.pd.PdSolver;
import dev.weft.core.solver.xpbd.IterationMode;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import java.util.List;

/** Solvers by the names the command line and scene files use. */
public final class Solvers {
    private Solvers() {
    }

    public static List<String> names() {
        return List.of("xpbd", "pd", "pbd", "implicit", "mass-spring", "relaxation");
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
        if ("pbd".equals(name)) {
            return new XpbdSolver(pbd(xpbd), pool);
        }
        if (SpringSolvers.handles(name)) {
            return SpringSolvers.create(name, pool);
        }
        throw new InvalidInputException("--solver", "unknown solver '" + name + "'; available: "
                + String.join(", ", names()));
    }

    /**
     * Position-based dynamics with seed 001's Jacobi solver (algorithm 3): every distance constraint
     * projected to its rest length from the same positions (equal particle masses split the correction
     * in halves), corrections weighted by 1/max(n_a, n_b) (the seed divides by each particle's own n_p,
     * which leaks momentum at borders; see JacobiGather). That is XPBD's Jacobi mode
     * with zero stretch and shear compliance (then Δλ = (L − d)/Σw, XPBD's update is PBD's), so this reuses
     * it; bending and tethers keep the given settings.
     */
    public static XpbdSettings pbd(XpbdSettings base) {
        return base.withMode(IterationMode.JACOBI).withCompliance(0f, 0f, base.bendCompliance());
    }
}
