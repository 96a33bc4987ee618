package dev.weft.core.contact;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.parallel.PoolChecks;
import dev.weft.core.parallel.WorkerPool;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ParticleGridTest {
    private static float[] cloud(int n, long seed) {
        Random r = new Random(seed);
        float[] x = new float[3 * n];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) (r.nextGaussian() * 0.1); // dense in the middle: buckets with many particles
        }
        return x;
    }

    /** Neighbours within the cell size found through the grid's 27-cell blocks. */
    private static TreeSet<Long> pairs(ParticleGrid g, float[] x, float radius) {
        TreeSet<Long> out = new TreeSet<>();
        int n = x.length / 3;
        int[] sorted = g.sorted();
        for (int i = 0; i < n; i++) {
            for (int dz = -1; dz <= 1; dz++) {
                for (int dy = -1; dy <= 1; dy++) {
                    for (int dx = -1; dx <= 1; dx++) {
                        int cx = g.cellX(i) + dx;
                        int cy = g.cellY(i) + dy;
                        int cz = g.cellZ(i) + dz;
                        int b = g.bucket(cx, cy, cz);
                        for (int k = g.start(b); k < g.end(b); k++) {
                            int j = sorted[k];
                            if (j > i && g.cellX(j) == cx && g.cellY(j) == cy && g.cellZ(j) == cz
                                    && dist2(x, i, j) < radius * radius) {
                                out.add((long) i * n + j);
                            }
                        }
                    }
                }
            }
        }
        return out;
    }

    private static float dist2(float[] x, int i, int j) {
        float dx = x[3 * i] - x[3 * j];
        float dy = x[3 * i + 1] - x[3 * j + 1];
        float dz = x[3 * i + 2] - x[3 * j + 2];
        return dx * dx + dy * dy + dz * dz;
    }

    @Test
    void findsExactlyThePairsThatBruteForceFinds() {
        int n = 3000;
        float[] x = cloud(n, 1);
        float radius = 0.02f;
        ParticleGrid g = new ParticleGrid(n, radius);
        try (WorkerPool pool = new WorkerPool(2)) {
            g.build(x, pool);
        }
        TreeSet<Long> brute = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (dist2(x, i, j) < radius * radius) {
                    brute.add((long) i * n + j);
                }
            }
        }
        assertThat(brute).hasSizeGreaterThan(1000); // a meaningful number of close pairs
        assertThat(pairs(g, x, radius)).isEqualTo(brute);
        // every particle is listed exactly once
        int[] seen = new int[n];
        for (int p : g.sorted()) {
            seen[p]++;
        }
        assertThat(seen).containsOnly(1);
    }

    /**
     * 40,000 particles: a table of 65,536 buckets, so every phase splits on 2 and 3 threads, the
     * prefix sum's four blocks of 16,384 buckets included (which never split before it got its own
     * minimum of two blocks).
     */
    @Test
    void buildIsIdenticalForAnyThreadCount() {
        int n = 40000;
        float[] x = cloud(n, 2);
        int[][] results = new int[3][];
        int[] threads = {1, 2, 3};
        for (int t = 0; t < 3; t++) {
            ParticleGrid g = new ParticleGrid(n, 0.02f);
            try (WorkerPool pool = new WorkerPool(threads[t])) {
                g.build(x, pool);
                g.build(x, pool); // a rebuild starts from a clean table
                PoolChecks.assertEveryPassSplit(pool, threads[t] + " threads");
            }
            results[t] = g.sorted().clone();
        }
        assertThat(results[1]).isEqualTo(results[0]);
        assertThat(results[2]).isEqualTo(results[0]);
    }
}
