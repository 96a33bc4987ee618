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
     * Position-based dynamics (Müller et al. 2007): stretch and shear projected to their rest lengths whatever the
     * material (zero compliance: then Δλ = (L − d)/Σw and XPBD's update is PBD's), bending as the material says,
     * in the iteration mode, iterations, stretch passes and tethers of {@code base}. By default that is a
     * graph-colored Gauss–Seidel sweep (Müller's original sweep is Gauss–Seidel; Fratarcangeli and Pellacini
     * 2015, whom seed 001 cites, color it to run in parallel). Seed 001's own PBD, its Jacobi solver (algorithm
     * 3: every constraint from the same positions, corrections weighted by 1/max(n_a, n_b); see JacobiGather), is
     * {@code base} in {@link IterationMode#JACOBI} with one stretch pass ({@code --mode jacobi --stretch-passes 1}):
     * Jacobi carries a correction about half as far per sweep, so on the default scene it stretched 40 % at its
     * peak where the colored sweep stays under 10 % (README, "Every solver on the default scene").
     */
    public static XpbdSettings pbd(XpbdSettings base) {
        return base.withRigid(true);
    }

    /**
     * Seed 001's PBD exactly: {@link #pbd} in the Jacobi mode with one stretch pass (algorithm 3; the convergence
     * laboratory's {@code pbd-jacobi}, {@code weft run --solver pbd --mode jacobi --stretch-passes 1}).
     */
    public static XpbdSettings jacobiPbd(XpbdSettings base) {
        return pbd(base).withMode(IterationMode.JACOBI).withStretchPasses(1);
    }
}
