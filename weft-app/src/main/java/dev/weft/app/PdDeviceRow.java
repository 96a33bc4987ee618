package dev.weft.app;

import dev.weft.core.lab.ConvergenceExperiment;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.solver.Solver;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.step.Environment;
import java.util.Arrays;

/**
 * What a benchmark needs for a Projective Dynamics row on a device ({@code OpenClPdSolver}, constructed
 * {@code new OpenClPdSolver(settings, device)}) beside the CPU's {@code PdSolver}: the settings, the
 * cloth and a timing loop. The cloth is seed 001's hanging lattice (4-neighbour springs, k = 1000 N/m,
 * pinned at its top corners, no tethers), on which both solvers run the red-black lattice kernels.
 */
final class PdDeviceRow {
    /**
     * "RBGS, 10 iterations": 10 local/global alternations of one red-black Gauss–Seidel sweep each (an
     * iteration as seed 001 and {@code weft bench}'s pd rows count it: one local step and one sweep), ω = 1,
     * tethers off (the device refuses them).
     */
    static final PdSettings RBGS_10 = PdSettings.defaults().withIterations(10, 1).withTethers(false);
    /** Seed 001's step: 8 per 60 Hz frame. */
    static final float STEP = ConvergenceExperiment.STEP;
    /** Seed 001's spring weight. */
    private static final float STIFFNESS = 1000f;
    /** Calls timed before the sample size is chosen (the first binds and uploads the model). */
    private static final int SETTLE_CALLS = 3;
    /** Each timed sample runs about this long. */
    private static final double SAMPLE_SECONDS = 0.05;

    private PdDeviceRow() {
    }

    /** Seed 001's hanging lattice of side × side particles over 1 m. */
    static Model cloth(int side) {
        return ConvergenceExperiment.HANGING.model(side, STIFFNESS);
    }

    /**
     * Median steps per second of {@code solver} on {@code model} from rest under gravity, steps of
     * {@link #STEP}, each call one step whose State is back on the host when it returns: {@code samples}
     * batches of about 50 ms after {@code warmup} untimed ones. A non-finite position is an exception.
     */
    static double stepsPerSecond(Solver solver, Model model, int warmup, int samples) {
        Environment env = Environment.earth();
        State state = State.atRest(model);
        long t0 = System.nanoTime();
        for (int k = 0; k < SETTLE_CALLS; k++) {
            solver.step(model, state, env, STEP);
        }
        double perCall = (System.nanoTime() - t0) / 1e9 / SETTLE_CALLS;
        int calls = (int) Math.max(1, Math.min(100_000, Math.round(SAMPLE_SECONDS / perCall)));
        double[] rates = new double[samples];
        for (int s = 0; s < warmup + samples; s++) {
            long start = System.nanoTime();
            for (int c = 0; c < calls; c++) {
                solver.step(model, state, env, STEP);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            if (s >= warmup) {
                rates[s - warmup] = calls / seconds;
            }
        }
        for (float x : state.positions()) {
            if (!Float.isFinite(x)) {
                throw new IllegalStateException("pd bench: the cloth blew up (a non-finite position)");
            }
        }
        Arrays.sort(rates);
        return rates[samples / 2];
    }
}
