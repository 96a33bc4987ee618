package dev.weft.core.solver.xpbd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.model.Elasticity;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.model.TetBodySpec;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.step.Environment;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * XPBD's colored tetrahedron sweep in vector lanes ({@link VectorTetKernel}, where the JDK's Vector API module is
 * present, as in this test run) gives the scalar loop's bits: lane by lane the same IEEE operations in the same
 * order, a lane the scalar step leaves adding −0. Checked on tetrahedral blocks large enough that every color has
 * many groups of eight and, on two threads, is split: rubber (ν = 0.45: volume and shape, the 2 × 2 step), ν = 0
 * (no volume term: the shape's 1 × 1 step), ν = 0.5 (incompressible: α̃_v = 0), a block hanging from pinned
 * corners (inverse mass 0) and two iterations; a block landing on the floor and one at rest (C = 0, the shape
 * left out at ‖E‖ = 0).
 */
class TetLanesTest {
    private static final int NODES = 12; // 11³ cells: 6655 tetrahedra, every color hundreds long

    /**
     * The lanes take over from the scalar loop once compiled ({@link LaneWarmUp}): binding a block starts the
     * process's warm-up, and the tests below wait for it, so that their steps run in lanes.
     */
    @BeforeAll
    static void compileTheLanes() throws InterruptedException {
        Model m = block(0.45f, false);
        try (WorkerPool pool = new WorkerPool(1)) {
            new TetProjection(m, m.restPositions().clone(), new float[3 * m.particleCount()], m.invMass(),
                    IterationMode.COLORED, pool, TetLaneKernel.create());
        }
        assertThat(LaneWarmUp.await(300)).as("the lanes' warm-up finished").isTrue();
    }

    private static Model block(float poisson, boolean hang) {
        ModelBuilder b = new ModelBuilder();
        b.material(Material.cloth().withDamping(1f).withFriction(1f));
        float side = 0.03f * (NODES - 1);
        ModelObject body = b.addTetBody(TetBodySpec.box("block", new float[] {-side / 2, 0.05f, -side / 2},
                new float[] {side / 2, 0.05f + side, side / 2}, NODES - 1, NODES - 1, NODES - 1, 1100f,
                new Elasticity(5e5f, poisson)));
        if (hang) {
            // the top face's two edges along x: a sagging, twisting body, pinned corners in many tetrahedra
            float top = 0.05f + side;
            b.pinInBox(body, new float[] {-1f, top - 1e-4f, -side / 2 - 1e-4f}, new float[] {1f, top + 1e-4f,
                    -side / 2 + 1e-4f});
            b.pinInBox(body, new float[] {-1f, top - 1e-4f, side / 2 - 1e-4f}, new float[] {1f, top + 1e-4f,
                    side / 2 + 1e-4f});
        }
        return b.build();
    }

    private static Environment floor() {
        return Environment.earth().withColliders(new Collider[] {PlaneCollider.floor(0f, 0.005f, 0.6f)});
    }

    private static State run(Model m, XpbdSolver solver, Environment env, int steps) {
        State s = State.atRest(m);
        for (int k = 0; k < steps; k++) {
            solver.step(m, s, env, 1f / 240f);
        }
        return s;
    }

    private static float lowest(State s) {
        float min = Float.POSITIVE_INFINITY;
        for (int i = 1; i < s.positions().length; i += 3) {
            min = Math.min(min, s.positions()[i]);
        }
        return min;
    }

    @Test
    void theLanesGiveTheScalarLoopsBitsOnTetrahedralBlocks() {
        Object[][] cases = {
                {0.45f, false, 1}, {0.45f, false, 2}, {0f, false, 1}, {0.5f, false, 1}, {0.45f, true, 1},
                {0.5f, true, 2},
        };
        for (Object[] k : cases) {
            float poisson = (Float) k[0];
            boolean hang = (Boolean) k[1];
            int iterations = (Integer) k[2];
            String what = "ν = " + poisson + (hang ? ", hanging" : ", dropped") + ", " + iterations + " iterations";
            Model m = block(poisson, hang);
            XpbdSettings s = XpbdSettings.defaults().withIterations(iterations);
            try (WorkerPool pool = new WorkerPool(1)) {
                XpbdSolver scalar = LaneChoice.solver(s, pool, false);
                XpbdSolver lanes = LaneChoice.solver(s, pool, true);
                // 0.125 s at 240 Hz: the dropped block (0.05 m up) lands at ~0.1 s and is squeezed
                State a = run(m, scalar, floor(), 30);
                State b = run(m, lanes, floor(), 30);
                assertThat(lanes.tetrahedraInLanes()).as(what).isTrue();
                assertThat(scalar.tetrahedraInLanes()).as(what).isFalse();
                // every color holds far more than eight: all but a few per color go through the lanes
                int count = m.tets().count();
                assertThat(lanes.tetrahedraInLaneGroups()).as(what).isGreaterThan(count * 9 / 10);
                assertThat(scalar.tetrahedraInLaneGroups()).as(what).isZero();
                assertThat(b.positions()).as(what).containsExactly(a.positions());
                assertThat(b.velocities()).as(what).containsExactly(a.velocities());
                // and the body moved: it fell onto the floor, or sagged from its pins
                if (hang) {
                    assertThat(a.positions()[3 * (m.particleCount() / 2) + 1]).as(what)
                            .isLessThan(m.restPositions()[3 * (m.particleCount() / 2) + 1] - 1e-3f);
                } else {
                    assertThat(lowest(a)).as(what).isLessThan(0.01f);
                }
            }
        }
    }

    @Test
    void aBlockAtRestStaysExactlyWhereItIsInLanes() {
        // no gravity, no floor: C = 0 everywhere, the shape left out at ‖E‖ = 0 and Δλ = 0, so nothing moves
        Model m = block(0.45f, false);
        try (WorkerPool pool = new WorkerPool(1)) {
            XpbdSolver lanes = LaneChoice.solver(XpbdSettings.defaults(), pool, true);
            State s = State.atRest(m);
            for (int k = 0; k < 10; k++) {
                lanes.step(m, s, new Environment(new float[3], java.util.List.of()), 1f / 240f);
            }
            assertThat(lanes.tetrahedraInLanes()).isTrue();
            assertThat(s.positions()).containsExactly(m.restPositions());
        }
    }

    @Test
    void oneAndTwoThreadsGiveTheSameBitsInLanesWithTheWorkSplit() {
        Model m = block(0.45f, false);
        XpbdSettings s = XpbdSettings.defaults().withIterations(1);
        State one;
        try (WorkerPool pool = new WorkerPool(1)) {
            one = run(m, LaneChoice.solver(s, pool, true), floor(), 30);
        }
        try (WorkerPool pool = new WorkerPool(2)) {
            XpbdSolver lanes = LaneChoice.solver(s, pool, true);
            pool.resetCounters();
            State two = run(m, lanes, floor(), 30);
            assertThat(lanes.tetrahedraInLanes()).isTrue();
            assertThat(pool.rangesRunOnWorkers()).as("ranges run on the second thread").isGreaterThan(0L);
            assertThat(two.positions()).containsExactly(one.positions());
            assertThat(two.velocities()).containsExactly(one.velocities());
        }
    }

    @Test
    void steppingInLanesAllocatesNothingOnceCompiled() {
        java.lang.management.ThreadMXBean bean = java.lang.management.ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean,
                "this JVM has no com.sun.management.ThreadMXBean (per-thread allocation counters)");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
        org.junit.jupiter.api.Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported(),
                "this JVM does not support per-thread allocation counters");
        threads.setThreadAllocatedMemoryEnabled(true);
        Model m = block(0.45f, false);
        long id = Thread.currentThread().getId();
        try (WorkerPool pool = new WorkerPool(1)) {
            XpbdSolver lanes = LaneChoice.solver(XpbdSettings.defaults().withIterations(1), pool, true);
            State s = State.atRest(m);
            Environment env = floor();
            // until C2 has compiled the lane parts (interpreted or C1-compiled, each vector is an object):
            // windows of 20 steps (16,000 lane groups) until one allocates less than 4 kB, at most 100 of them
            long bytes = Long.MAX_VALUE;
            for (int window = 0; window < 100 && bytes >= 4096; window++) {
                long before = threads.getThreadAllocatedBytes(id);
                for (int k = 0; k < 20; k++) {
                    lanes.step(m, s, env, 1f / 240f);
                }
                bytes = threads.getThreadAllocatedBytes(id) - before;
            }
            assertThat(lanes.tetrahedraInLanes()).isTrue();
            // a vector left boxed is 8 lanes × 4 bytes and a header, hundreds per group: megabytes per window
            assertThat(bytes).as("bytes allocated over 20 steps in lanes").isLessThan(4096L);
        }
    }

    /** The kernel, counting what it projects (this test's own counter, on one thread). */
    private static final class Counting implements TetLaneKernel {
        final TetLaneKernel inner = TetLaneKernel.create();
        final AtomicLong projected = new AtomicLong();

        @Override
        public void bind(int[] tets, float[] data, int count, float[] lambda, float[] invMass, float[] y, float[] d) {
            inner.bind(tets, data, count, lambda, invMass, y, d);
        }

        @Override
        public int project(int begin, int end) {
            int stop = inner.project(begin, end);
            projected.addAndGet(stop - begin);
            return stop;
        }
    }

    @Test
    void aSweepInLanesProjectsEachColorsGroupsOfEightAndMovesWhatTheScalarSweepMoves() {
        assertThat(TetLaneKernel.create()).as("the Vector API module is in this test run").isNotNull();
        Model m = block(0.45f, false);
        int n = m.particleCount();
        // a squeezed and sheared prediction: every tetrahedron is off its rest shape
        float[] y = m.restPositions().clone();
        for (int i = 0; i < n; i++) {
            y[3 * i] += 0.1f * y[3 * i + 1];
            y[3 * i + 1] *= 0.9f;
        }
        float[] dScalar = new float[3 * n];
        float[] dLanes = new float[3 * n];
        Counting counting = new Counting();
        try (WorkerPool pool = new WorkerPool(1)) {
            TetProjection scalar = new TetProjection(m, y, dScalar, m.invMass(), IterationMode.COLORED, pool);
            TetProjection lanes = new TetProjection(m, y, dLanes, m.invMass(), IterationMode.COLORED, pool, counting);
            scalar.begin(1f / 240f);
            lanes.begin(1f / 240f);
            for (int sweep = 0; sweep < 2; sweep++) {
                scalar.sweep();
                lanes.sweep();
            }
            assertThat(lanes.inLanes()).isTrue();
            assertThat(scalar.inLanes()).isFalse();
            // one thread: each color is one range, so the lanes took exactly its groups of eight, twice
            assertThat(counting.projected.get()).isEqualTo(2L * lanes.tetrahedraInLanes());
            assertThat(dLanes).containsExactly(dScalar);
            float largest = 0f;
            for (float v : dScalar) {
                largest = Math.max(largest, Math.abs(v));
            }
            assertThat(largest).as("the sweep moved the corners").isGreaterThan(1e-3f);
        }
    }
}
