package dev.weft.core.solver;

import dev.weft.core.InvalidInputException;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.implicit.ImplicitSolver;
import dev.weft.core.solver.massspring.MassSpringSolver;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.pd.PdSolver;
import dev.weft.core.solver.relaxation.RelaxationSolver;
import dev.weft.core.solver.xpbd.IterationMode;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import java.util.List;

/** The one registry of solvers, by the names the command line and scenes use. */
public final class Solvers {
    private static final List<String> NAMES = List.of("xpbd", "pd", "pbd", "implicit", "mass-spring", "relaxation");
    private static final List<String> SPRING_BASED = List.of("implicit", "mass-spring", "relaxation");

    private Solvers() {
    }

    public static List<String> names() {
        return NAMES;
    }

    /**
     * Whether {@code name} is one of the solvers that build their own springs from the model (implicit,
     * seed 000; mass-spring, seed 004; relaxation, seed 002) rather than projecting its constraints.
     */
    public static boolean springBased(String name) {
        return SPRING_BASED.contains(name);
    }

    /** {@code name} itself when it is a solver's name; otherwise an error listing the names. */
    public static String check(String name) {
        if (!NAMES.contains(name)) {
            throw new InvalidInputException("--solver", "unknown solver '" + name + "'; available: "
                    + String.join(", ", NAMES));
        }
        return name;
    }

    /** Solver {@code name} with its part of {@code settings}. */
    public static Solver create(String name, SolverSettings settings, WorkerPool pool) {
        switch (check(name)) {
            case "xpbd":
                return new XpbdSolver(settings.xpbd(), pool);
            case "pbd":
                return new XpbdSolver(pbd(settings.xpbd()), pool);
            case "pd":
                return new PdSolver(settings.pd(), pool);
            case "implicit":
                return new ImplicitSolver(settings.implicit(), pool);
            case "mass-spring":
                return new MassSpringSolver(settings.massSpring(), pool);
            case "relaxation":
                return new RelaxationSolver(settings.relaxation(), pool);
            default:
                throw new AssertionError(name);
        }
    }

    /** Solver {@code name} with every solver's defaults. */
    public static Solver create(String name, WorkerPool pool) {
        return create(name, SolverSettings.defaults(), pool);
    }

    /** With these XPBD settings (xpbd, pbd) and every other solver's defaults. */
    public static Solver create(String name, XpbdSettings xpbd, WorkerPool pool) {
        return create(name, SolverSettings.defaults().withXpbd(xpbd), pool);
    }

    /** With these XPBD and Projective Dynamics settings and every other solver's defaults. */
    public static Solver create(String name, XpbdSettings xpbd, PdSettings pd, WorkerPool pool) {
        return create(name, SolverSettings.defaults().withXpbd(xpbd).withPd(pd), pool);
    }

    /**
     * Position-based dynamics with seed 001's Jacobi solver (algorithm 3): every distance constraint
     * projected to its rest length from the same positions (equal particle masses split the correction
     * in halves), corrections weighted by 1/max(n_a, n_b) (the seed divides by each particle's own n_p,
     * which leaks momentum at borders; see JacobiGather). That is XPBD's Jacobi mode
     * with stretch and shear rigid whatever the material (then Δλ = (L − d)/Σw, XPBD's update is PBD's), so
     * this reuses it; bending follows the material, tethers the given settings; one pass per iteration, as
     * the seed's algorithm.
     */
    public static XpbdSettings pbd(XpbdSettings base) {
        return base.withMode(IterationMode.JACOBI).withRigid(true).withStretchPasses(1);
    }
}
