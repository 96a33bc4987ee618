package dev.weft.core.solver;

import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.model.Elasticity;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.model.TetBodySpec;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.step.Environment;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;


/**
 * No allocation inside a step: after the first steps (which size the scratch arrays and build the
 * grids), stepping a cloth with wind, colliders and self-collision (vertex–triangle contacts too), and an elastic
 * tetrahedral block where the solver takes one, on 2 threads allocates nothing on
 * any thread. Measured with HotSpot's per-thread allocation counters over all live threads but the
 * test runner's; skipped (and reported so) on a JVM without them.
 */
class StepAllocationTest {
    /**
     * Slack for the measurement itself (the counters' arrays: measured 232–648 bytes in all) and what
     * the JVM may allocate on these threads meanwhile. 40 steps or more run in the window (10 frames of
     * 4 to 256 substeps), so a 100-byte object per step, let alone an array per particle, exceeds it.
     */
    private static final long SLACK_BYTES = 4 * 1024;

    private static final List<String> TETRAHEDRA = List.of("xpbd", "pbd", "pd", "implicit", "mass-spring");

    static List<String> solvers() {
        return Solvers.names();
    }

    @ParameterizedTest
    @MethodSource("solvers")
    void steppingAllocatesNothingOnAnyThread(String name) {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        // without HotSpot's per-thread allocation counters there is nothing to measure with: reported
        // as skipped, not passed
        assumeTrue(bean instanceof com.sun.management.ThreadMXBean,
                "this JVM has no com.sun.management.ThreadMXBean (per-thread allocation counters)");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
        assumeTrue(threads.isThreadAllocatedMemorySupported(),
                "this JVM does not support per-thread allocation counters");
        threads.setThreadAllocatedMemoryEnabled(true);
        assumeTrue(threads.isThreadAllocatedMemoryEnabled(), "per-thread allocation counters could not be enabled");
        ModelBuilder b = new ModelBuilder();
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", 24, 24, 0.6f, 0.6f)
                .withOrigin(-0.3f, 0.6f, -0.3f));
        b.pinCorners(cloth, "top-left", "top-right");
        if (TETRAHEDRA.contains(name)) {
            // and an elastic block on the floor beside it, for the solvers that take tetrahedra
            b.addTetBody(TetBodySpec.box("block", new float[] {0.5f, 0.006f, -0.1f}, new float[] {0.7f, 0.206f, 0.1f},
                    3, 3, 3, 1000f, new Elasticity(1e5f, 0.45f)));
        }
        Model m = b.build();
        Environment env = new Environment(new float[] {0f, -9.81f, 0f},
                List.of(new SphereCollider("ball", new float[] {0f, 0.3f, 0f}, 0.15f, 0.005f, 0.3f),
                        PlaneCollider.floor(0f, 0.005f, 0.5f)))
                .withWind(new float[] {1f, 0f, 2f}).withAir(1.2f, 1f, 0.02f);
        int substeps = "mass-spring".equals(name) ? 256 : 4; // explicit: h·√(k/m) < 2
        try (WorkerPool pool = new WorkerPool(2)) {
            Solver solver = Solvers.create(name, XpbdSettings.defaults(), pool);
            ((ParticleContactSolver) solver).withParticleContacts(ParticleContactSettings.defaults().withVertexTriangle(true));
            try (Simulation sim = new Simulation(m, State.atRest(m), solver, env, substeps)) {
                for (int f = 0; f < 30; f++) { // warm-up: first-step sizing, JIT
                    sim.advance(1f / 60f);
                }
                // until the JIT has compiled the vector lanes (uncompiled, the Vector API allocates its vectors):
                // blocks of 10 frames, at most 20, until one allocates within the slack (measured: the second)
                for (int block = 0; block < 20; block++) {
                    long[] warming = measuredThreads();
                    long at = allocated(threads, warming);
                    for (int f = 0; f < 10; f++) {
                        sim.advance(1f / 60f);
                    }
                    if (allocated(threads, warming) - at < SLACK_BYTES) {
                        break;
                    }
                }
                pool.resetCounters();
                long[] ids = measuredThreads();
                long started = threads.getTotalStartedThreadCount();
                long before = allocated(threads, ids);
                for (int f = 0; f < 10; f++) {
                    sim.advance(1f / 60f);
                }
                long bytes = allocated(threads, ids) - before;
                assertThat(threads.getTotalStartedThreadCount()).as("%s: threads started in the window", name)
                        .isEqualTo(started);
                assertThat(bytes).as("%s: bytes allocated over 10 frames of %d steps", name, substeps)
                        .isLessThan(SLACK_BYTES);
                // and the measured window did use the worker (the dispatch path and worker-side code)
                assertThat(pool.rangesRunOnWorkers()).as("%s: ranges run on the worker", name).isPositive();
            }
        }
    }

    /**
     * Every live thread but the calling one and the test runner's own (surefire's stream flusher
     * allocates about 100 bytes a second whatever runs: under load, over mass-spring's 20-second
     * window, more than the slack). That no thread starts in the window is checked apart.
     */
    private static long[] measuredThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t != Thread.currentThread() && !t.getName().startsWith("surefire"))
                .mapToLong(Thread::getId).toArray();
    }

    private static long allocated(com.sun.management.ThreadMXBean threads, long[] ids) {
        long[] bytes = threads.getThreadAllocatedBytes(ids);
        long sum = 0;
        for (long b : bytes) {
            if (b > 0) { // -1: the thread has ended
                sum += b;
            }
        }
        // the calling thread separately, so that the array above does not count
        return sum + threads.getThreadAllocatedBytes(Thread.currentThread().getId());
    }
}
