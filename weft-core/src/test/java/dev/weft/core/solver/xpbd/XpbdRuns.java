package dev.weft.core.solver.xpbd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.PoolChecks;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.step.Environment;
import java.util.function.Predicate;

/**
 * Runs of a model under gravity for the tests that hold XPBD's paths to the same bits: on 1, 2 and 3 threads with
 * every pass split, and in the vector lanes against the scalar loops (4 substeps a frame at 60 Hz).
 */
final class XpbdRuns {
    private static final float FRAME = 1f / 60f;
    private static final int SUBSTEPS = 4;

    private XpbdRuns() {
    }

    /** The positions after {@code frames} frames on 1, 2 and 3 threads (3 splits the ranges unevenly), each pass split. */
    static float[][] onOneTwoAndThreeThreads(Model m, XpbdSettings s, int frames) {
        float[][] result = new float[3][];
        for (int t = 1; t <= 3; t++) {
            try (WorkerPool pool = new WorkerPool(t);
                 Simulation sim = new Simulation(m, State.atRest(m), new XpbdSolver(s, pool), Environment.earth(),
                         SUBSTEPS)) {
                advance(sim, frames);
                result[t - 1] = sim.state().positions().clone();
                PoolChecks.assertEveryPassSplit(pool, t + " threads");
            }
        }
        return result;
    }

    /**
     * The positions after {@code frames} frames on 2 threads with the scalar loops ([0]) and the vector lanes ([1]),
     * {@code inLanes} (named {@code what}) false for the first solver and true for the second.
     */
    static float[][] scalarAndInLanes(Model m, XpbdSettings s, int frames, Predicate<XpbdSolver> inLanes, String what) {
        float[][] result = new float[2][];
        for (int lanes = 0; lanes < 2; lanes++) {
            WorkerPool pool = new WorkerPool(2);
            XpbdSolver solver = LaneChoice.solver(s, pool, lanes == 1);
            try (pool; Simulation sim = new Simulation(m, State.atRest(m), solver, Environment.earth(), SUBSTEPS)) {
                advance(sim, frames);
                assertThat(inLanes.test(solver)).as("%s, run %d", what, lanes).isEqualTo(lanes == 1);
                result[lanes] = sim.state().positions().clone();
            }
        }
        return result;
    }

    private static void advance(Simulation sim, int frames) {
        for (int f = 0; f < frames; f++) {
            sim.advance(FRAME);
        }
    }
}
