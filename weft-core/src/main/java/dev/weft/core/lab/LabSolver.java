package dev.weft.core.lab;

import dev.weft.core.InvalidInputException;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.IterativeSolver;
import dev.weft.core.solver.Solvers;
import dev.weft.core.solver.pd.InnerSolver;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.pd.PdSolver;
import dev.weft.core.solver.xpbd.IterationMode;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import java.util.List;

/**
 * One of the solvers the convergence laboratory compares, taken apart into begin / iterate / end so
 * that the residual can be measured after every iteration. One iteration is one local/global
 * alternation with one inner sweep (Projective Dynamics) or one constraint sweep (XPBD).
 *
 * <p>XPBD runs with compliance 1/k, the same springs as Projective Dynamics with stiffness k (both from
 * the model's material, {@link ConvergenceExperiment#model}): both
 * minimise the same implicit-Euler energy, so their residuals are comparable.
 */
public final class LabSolver implements AutoCloseable {
    /** The solvers of {@code weft converge}, by name. */
    public static final List<String> NAMES = List.of("gs", "jacobi", "rbgs", "rbgs+sor", "jacobi+chebyshev",
            "xpbd-colored");
    /** Also available: seed 001's position-based dynamics baseline (algorithm 3, no stiffness). */
    public static final String PBD_JACOBI = "pbd-jacobi";
    /** Also available: seed 001's Jacobi as printed (algorithm 6, update divided by n_p). */
    public static final String SEED_JACOBI = "jacobi-seed";
    /**
     * Also available: the global step solved exactly (prefactored Cholesky, Bouaziz et al. 2014), so that its
     * curve is the local/global alternation's own convergence, without an inner solver's.
     */
    public static final String CHOLESKY = "cholesky";
    /** Every name {@link #create} accepts. */
    public static final List<String> ALL_NAMES = List.of("gs", "jacobi", "rbgs", "rbgs+sor", "jacobi+chebyshev",
            "xpbd-colored", PBD_JACOBI, SEED_JACOBI, CHOLESKY);

    private final String name;
    private final IterativeSolver solver;
    private final ConvergenceExperiment experiment;
    private State state;

    private LabSolver(String name, IterativeSolver solver, ConvergenceExperiment experiment) {
        this.name = name;
        this.solver = solver;
        this.experiment = experiment;
    }

    /**
     * @param base  ω of SOR and ρ of Chebyshev come from here (the springs' stiffness from the model's material); "rbgs+sor" uses {@code base.omega()}
     *              (seed: 1.7) and every other solver ω = 1
     */
    public static LabSolver create(String name, ConvergenceExperiment experiment, PdSettings base, WorkerPool pool) {
        PdSettings pd = pdSettings(name, base);
        if (pd != null) {
            return new LabSolver(name, new PdSolver(pd, pool), experiment);
        }
        switch (name) {
            case "xpbd-colored": {
                XpbdSettings s = XpbdSettings.defaults().withMode(IterationMode.COLORED).withIterations(1)
                        .withStretchPasses(1).withTethers(false);
                return new LabSolver(name, new XpbdSolver(s, pool), experiment);
            }
            case PBD_JACOBI: {
                XpbdSettings s = Solvers.jacobiPbd(XpbdSettings.defaults().withIterations(1).withTethers(false));
                return new LabSolver(name, new XpbdSolver(s, pool), experiment);
            }
            default:
                throw new InvalidInputException("--solvers", "unknown solver '" + name + "'; allowed: "
                        + String.join(", ", ALL_NAMES));
        }
    }

    /**
     * Solver {@code name} built elsewhere: a Projective Dynamics solver on a device (weft-app makes it from
     * {@link #pdSettings}; weft-core knows no device). Closing the laboratory solver closes {@code solver}.
     */
    public static LabSolver of(String name, IterativeSolver solver, ConvergenceExperiment experiment) {
        return new LabSolver(name, solver, experiment);
    }

    /**
     * The Projective Dynamics settings of laboratory solver {@code name} (one alternation of one sweep per
     * iteration), or null for a position-based one (xpbd-colored, pbd-jacobi) or an unknown name.
     *
     * @param base ω of "rbgs+sor" and ρ of "jacobi+chebyshev"; every other solver ω = 1
     */
    public static PdSettings pdSettings(String name, PdSettings base) {
        PdSettings plain = base.withIterations(1, 1).withOmega(1f).withChebyshev(false, base.chebyshevRho());
        switch (name) {
            case "gs":
                return plain.withInner(InnerSolver.GAUSS_SEIDEL);
            case "jacobi":
                return plain.withInner(InnerSolver.JACOBI);
            case "rbgs":
                return plain.withInner(InnerSolver.RED_BLACK_GAUSS_SEIDEL);
            case "rbgs+sor":
                return plain.withInner(InnerSolver.RED_BLACK_GAUSS_SEIDEL).withOmega(base.omega());
            case "jacobi+chebyshev":
                return plain.withInner(InnerSolver.JACOBI).withChebyshev(true, base.chebyshevRho());
            case SEED_JACOBI:
                return plain.withInner(InnerSolver.SEED_JACOBI);
            case CHOLESKY:
                return plain.withInner(InnerSolver.CHOLESKY);
            default:
                return null;
        }
    }

    public String name() {
        return name;
    }

    /** Starts a step: a Verlet prediction (hanging) or the current positions as they are (enlarged). */
    public void begin(Model m, State s) {
        state = s;
        if (experiment.integrates()) {
            solver.beginStep(m, s, experiment.environment(), ConvergenceExperiment.STEP);
        } else {
            solver.beginRelax(m, s, ConvergenceExperiment.STEP);
        }
    }

    public void iterate() {
        solver.iterateOnce();
    }

    /** Ends the step (enlarged: the iterate becomes the state's positions, as a step would leave them). */
    public void end() {
        solver.endStep(state);
    }

    /**
     * The positions the current iterations work on, to measure between {@link #iterate} calls: during a
     * step they are local to each body (lengths and residuals are right, absolute values are not), after
     * {@link #end} the state's.
     */
    public float[] positions() {
        return solver.iteratePositions();
    }

    /** Releases the solver (a device solver's context and buffers; nothing for the CPU's). */
    @Override
    public void close() {
        solver.close();
    }

    /** A whole step of {@code iterations} iterations. */
    public void step(Model m, State s, int iterations) {
        begin(m, s);
        for (int i = 0; i < iterations; i++) {
            iterate();
        }
        end();
    }
}
