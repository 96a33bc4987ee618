package dev.weft.core.parallel;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks for the "1 and N threads give the same bits" tests: such a test proves nothing unless the
 * passes it compares really ran on more than one thread.
 */
public final class PoolChecks {
    private PoolChecks() {
    }

    /**
     * Every non-empty pass since the pool was made (or its counters reset) was split over all of its
     * threads: none stayed on the calling thread and each worker ran a range of every pass. On a
     * one-thread pool: nothing ran on a worker.
     */
    public static void assertEveryPassSplit(WorkerPool pool, String what) {
        if (pool.threads() == 1) {
            assertThat(pool.rangesRunOnWorkers()).as("%s: ranges run on workers of a 1-thread pool", what).isZero();
            return;
        }
        assertThat(pool.passesInline()).as("%s: passes that stayed on the calling thread (%d threads, %d split)",
                what, pool.threads(), pool.passesSplit()).isZero();
        assertThat(pool.passesSplit()).as("%s: passes split", what).isPositive();
        assertThat(pool.rangesRunOnWorkers()).as("%s: ranges run on the %d workers over %d passes", what,
                pool.threads() - 1, pool.passesSplit()).isEqualTo(pool.passesSplit() * (pool.threads() - 1));
    }
}
