package dev.weft.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.parallel.WorkerPool;
import org.junit.jupiter.api.Test;

/**
 * The blow-up checks' scans on the solver's threads: whatever the threads, a scan names the offender a single thread
 * stopping at its first would name (the lowest index), and nothing where there is none.
 */
class RunawayScanTest {
    private static final int PARTICLES = 100_000;

    @Test
    void theLowestFarOrNonFiniteParticleIsFoundOnAnyNumberOfThreads() {
        float[] x = new float[3 * PARTICLES];
        RunawayScan scan = new RunawayScan();
        float limit2 = 1e8f;
        assertThat(scan.firstFar(x, limit2, null)).isEqualTo(-1);
        x[3 * 90_000 + 1] = 2e4f; // far, in the last thread's range
        x[3 * 60_000 + 2] = Float.NaN; // not finite, earlier
        x[3 * 70_000] = Float.POSITIVE_INFINITY;
        assertThat(scan.firstFar(x, limit2, null)).isEqualTo(60_000);
        for (int threads = 1; threads <= 3; threads++) {
            try (WorkerPool pool = new WorkerPool(threads)) {
                assertThat(scan.firstFar(x, limit2, pool)).as("%d threads", threads).isEqualTo(60_000);
                if (threads > 1) {
                    assertThat(pool.rangesRunOnWorkers()).as("the scan split").isPositive();
                }
            }
        }
    }

    @Test
    void theLowestStretchedConstraintIsFoundOnAnyNumberOfThreadsAndASeamIsNeverStretched() {
        // constraint c joins particles c and c + 1, rest length 1; the particles one apart along x
        int constraints = PARTICLES - 1;
        int[] pairs = new int[2 * constraints];
        float[] rest = new float[constraints];
        float[] x = new float[3 * PARTICLES];
        for (int c = 0; c < constraints; c++) {
            pairs[2 * c] = c;
            pairs[2 * c + 1] = c + 1;
            rest[c] = 1f;
        }
        for (int i = 0; i < PARTICLES; i++) {
            x[3 * i] = i;
        }
        RunawayScan scan = new RunawayScan();
        assertThat(scan.firstStretched(x, pairs, rest, 100f, null)).isEqualTo(-1);
        // particle 80,000 flung away: constraints 79,999 and 80,000 stretched; a seam at 79,999 is not
        x[3 * 80_000 + 1] = 500f;
        rest[79_999] = 0f;
        for (int threads = 1; threads <= 3; threads++) {
            try (WorkerPool pool = new WorkerPool(threads)) {
                assertThat(scan.firstStretched(x, pairs, rest, 100f, pool)).as("%d threads", threads)
                        .isEqualTo(80_000);
            }
        }
        rest[79_999] = 1f;
        try (WorkerPool pool = new WorkerPool(2)) {
            assertThat(scan.firstStretched(x, pairs, rest, 100f, pool)).isEqualTo(79_999);
        }
    }
}
