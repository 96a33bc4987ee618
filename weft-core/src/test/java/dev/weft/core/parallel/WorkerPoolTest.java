package dev.weft.core.parallel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WorkerPoolTest {
    @Test
    void everyIndexIsVisitedExactlyOnceForAnyThreadCount() {
        for (int threads = 1; threads <= 4; threads++) {
            try (WorkerPool pool = new WorkerPool(threads)) {
                for (int n : new int[] {0, 1, 255, 256, 1000, 10007}) {
                    int[] hits = new int[n];
                    for (int rep = 0; rep < 20; rep++) {
                        pool.parallelFor(0, n, (b, e) -> {
                            for (int i = b; i < e; i++) {
                                hits[i]++;
                            }
                        });
                    }
                    for (int i = 0; i < n; i++) {
                        assertThat(hits[i]).as("index %d, %d threads", i, 0).isEqualTo(20);
                    }
                }
            }
        }
    }

    @Test
    void aFailureInAWorkerReachesTheCaller() {
        try (WorkerPool pool = new WorkerPool(2)) {
            assertThatThrownBy(() -> pool.parallelFor(0, 10_000, (b, e) -> {
                if (e == 10_000) {
                    throw new IllegalStateException("boom");
                }
            })).isInstanceOf(IllegalStateException.class).hasMessage("boom");
            // and the pool still works afterwards
            int[] sum = new int[1];
            pool.parallelFor(0, 300, (b, e) -> {
                synchronized (sum) {
                    sum[0] += e - b;
                }
            });
            assertThat(sum[0]).isEqualTo(300);
        }
    }

    /** The counter agrees with what the bodies themselves saw: which thread ran each range. */
    @Test
    void rangesRunOnWorkersCountsExactlyTheRangesThatLeftTheCallingThread() {
        for (int threads = 2; threads <= 4; threads++) {
            try (WorkerPool pool = new WorkerPool(threads)) {
                Thread caller = Thread.currentThread();
                AtomicInteger offCaller = new AtomicInteger();
                AtomicInteger onCaller = new AtomicInteger();
                RangeBody body = (b, e) -> (Thread.currentThread() == caller ? onCaller : offCaller).incrementAndGet();
                for (int rep = 0; rep < 50; rep++) {
                    pool.parallelFor(0, 10_000, body);
                }
                // every chunk of a 10,000-item range is non-empty: threads - 1 of them per pass on workers
                assertThat(pool.rangesRunOnWorkers()).as("%d threads", threads)
                        .isEqualTo(offCaller.get()).isEqualTo(50L * (threads - 1));
                assertThat(onCaller.get()).isEqualTo(50);
                assertThat(pool.passesSplit()).isEqualTo(50);
                assertThat(pool.passesInline()).isZero();

                pool.resetCounters();
                assertThat(pool.rangesRunOnWorkers()).isZero();
                assertThat(pool.passesSplit()).isZero();
                // two items with minItems 1: on 2 threads one each; on more threads than items chunk 0 is
                // empty and the workers run both
                offCaller.set(0);
                onCaller.set(0);
                pool.parallelFor(0, 2, 1, body);
                assertThat(onCaller.get()).isEqualTo(threads == 2 ? 1 : 0);
                assertThat(pool.rangesRunOnWorkers()).isEqualTo(offCaller.get()).isEqualTo(threads == 2 ? 1 : 2);
            }
        }
    }

    @Test
    void nothingRunsOnWorkersForOneThreadOrAShortRange() {
        try (WorkerPool one = new WorkerPool(1)) {
            one.parallelFor(0, 100_000, (b, e) -> { });
            assertThat(one.rangesRunOnWorkers()).isZero();
            assertThat(one.passesSplit()).isZero();
            assertThat(one.passesInline()).isEqualTo(1);
        }
        try (WorkerPool pool = new WorkerPool(3)) {
            Thread caller = Thread.currentThread();
            AtomicInteger offCaller = new AtomicInteger();
            RangeBody body = (b, e) -> {
                if (Thread.currentThread() != caller) {
                    offCaller.incrementAndGet();
                }
            };
            pool.parallelFor(0, WorkerPool.MIN_PARALLEL_ITEMS - 1, body);
            pool.parallelFor(0, 1000, 1001, body);
            pool.parallelFor(5, 5, body); // empty: not a pass
            pool.parallelFor(7, 8, body); // one item: cannot split, not counted as inline
            assertThat(offCaller.get()).isZero();
            assertThat(pool.rangesRunOnWorkers()).isZero();
            assertThat(pool.passesSplit()).isZero();
            assertThat(pool.passesInline()).isEqualTo(2);
            // the smallest range that splits does
            pool.parallelFor(0, WorkerPool.MIN_PARALLEL_ITEMS, body);
            assertThat(pool.rangesRunOnWorkers()).isEqualTo(offCaller.get()).isEqualTo(2);
            assertThat(pool.passesSplit()).isEqualTo(1);
        }
    }

    @Test
    void aRangeThatFailedOnAWorkerStillCounts() {
        try (WorkerPool pool = new WorkerPool(2)) {
            assertThatThrownBy(() -> pool.parallelFor(0, 10_000, (b, e) -> {
                if (e == 10_000) {
                    throw new IllegalStateException("boom");
                }
            })).hasMessage("boom");
            assertThat(pool.rangesRunOnWorkers()).isEqualTo(1);
        }
    }
}
