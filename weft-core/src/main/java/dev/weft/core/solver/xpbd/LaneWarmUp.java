package dev.weft.core.solver.xpbd;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Compiles the tetrahedron lanes before a step uses them. Until C2 has compiled {@link VectorTetKernel}'s parts
 * (about 15,000 calls each), every vector is a heap object and a lane step is several times slower than the
 * scalar loop: on the 22³ block the first frame took 3.1–3.7 s instead of 0.55 s. So the first model with
 * tetrahedra starts, once per process, a daemon thread that runs the kernel on a private copy of that model's
 * first color until it is compiled, while the solver's steps keep the scalar loop; then the lanes take over.
 * Both give the same bits, so when they take over changes no result (and threads that see the switch at
 * different moments still agree).
 */
final class LaneWarmUp {
    /** Lane steps per timed batch of the warm-up. */
    static final int BATCH = 1_000;
    /** Lane steps before the warm-up may end: each part well past C2's compile threshold (about 15,000 calls). */
    static final int MIN_ROUNDS = 20_000;
    /** Lane steps after which it ends regardless (a JIT that never compiles them: the lanes are used anyway). */
    static final int MAX_ROUNDS = 400_000;
    private static final AtomicBoolean STARTED = new AtomicBoolean();
    private static final CountDownLatch DONE = new CountDownLatch(1);
    private static volatile boolean warm;

    private LaneWarmUp() {
    }

    /** Whether the lanes are compiled (or the warm-up gave up): the solver's steps may use them. */
    static boolean warm() {
        return warm;
    }

    /**
     * Starts the warm-up once per process: on a daemon thread, {@code kernel} (bound to arrays only it writes)
     * projects tetrahedra [{@code begin}, {@code begin} + 8) in batches until, past {@link #MIN_ROUNDS}, three
     * batches in a row are no 10 % faster than the best: compiled and installed.
     */
    static void start(TetLaneKernel kernel, int begin) {
        if (warm || !STARTED.compareAndSet(false, true)) {
            return;
        }
        Thread warmer = new Thread(() -> {
            try {
                // until the batches stop getting faster: C2's code installed, not only queued
                long best = Long.MAX_VALUE;
                int sinceBest = 0;
                for (int rounds = 0; rounds < MAX_ROUNDS && (rounds < MIN_ROUNDS || sinceBest < 3);
                        rounds += BATCH) {
                    long t0 = System.nanoTime();
                    for (int r = 0; r < BATCH; r++) {
                        kernel.project(begin, begin + TetLaneKernel.WIDTH);
                    }
                    long t = System.nanoTime() - t0;
                    if (t < best * 9 / 10) {
                        best = t;
                        sinceBest = 0;
                    } else {
                        sinceBest++;
                    }
                }
            } finally {
                warm = true; // also after a failure: the lanes' own tests then show it, not a silent scalar loop
                DONE.countDown();
            }
        }, "weft-lane-warm-up");
        warmer.setDaemon(true);
        warmer.start();
    }

    /** Waits up to {@code seconds} for a warm-up started earlier; whether the lanes are warm (tests). */
    static boolean await(long seconds) throws InterruptedException {
        return warm || STARTED.get() && DONE.await(seconds, TimeUnit.SECONDS);
    }
}
