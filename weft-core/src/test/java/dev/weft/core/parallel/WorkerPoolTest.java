package dev.weft.core.parallel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
