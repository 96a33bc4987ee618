package dev.weft.core.sim;

import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The blow-up checks' scans ({@link Simulation}: a particle far from the origin or not finite, a distance constraint
 * stretched many times its rest length) on the solver's threads: each range keeps the lowest index it finds, so the
 * first offender is the one a single thread would have stopped at, whatever the threads. On the calling thread alone
 * the scans (with XPBD's multiplier clearing) held 8 % of a 65,536-particle run's JFR samples while the other thread
 * waited (issue #17's cloth, two threads); split, the frame measured 1–3 % shorter, within this machine's noise.
 */
final class RunawayScan {
    /** The lowest offending index found in this scan, {@link Integer#MAX_VALUE} for none. */
    private final AtomicInteger first = new AtomicInteger();
    private float[] x;
    private float limit2;
    private int[] pairs;
    private float[] rest;
    private float factor;
    private final RangeBody farBody = this::far;
    private final RangeBody stretchedBody = this::stretched;

    /** The lowest particle whose squared distance from the origin is not within {@code limit2} (NaN is not), or -1. */
    int firstFar(float[] positions, float limit2, WorkerPool pool) {
        this.x = positions;
        this.limit2 = limit2;
        return run(positions.length / 3, pool, farBody);
    }

    /**
     * The lowest constraint of {@code pairs} whose particles are more than {@code factor} times its rest length apart
     * (a rest length of zero, a seam, is never stretched), or -1.
     */
    int firstStretched(float[] positions, int[] pairs, float[] restLength, float factor, WorkerPool pool) {
        this.x = positions;
        this.pairs = pairs;
        this.rest = restLength;
        this.factor = factor;
        return run(restLength.length, pool, stretchedBody);
    }

    private int run(int count, WorkerPool pool, RangeBody body) {
        first.set(Integer.MAX_VALUE);
        if (pool == null) {
            body.run(0, count);
        } else {
            pool.parallelFor(0, count, body);
        }
        int found = first.get();
        x = null;
        pairs = null;
        rest = null;
        return found == Integer.MAX_VALUE ? -1 : found;
    }

    private void far(int begin, int end) {
        for (int i = begin; i < end; i++) {
            int k = 3 * i;
            float d2 = x[k] * x[k] + x[k + 1] * x[k + 1] + x[k + 2] * x[k + 2];
            if (!(d2 <= limit2)) {
                first.accumulateAndGet(i, Math::min);
                return; // the range's lowest
            }
        }
    }

    private void stretched(int begin, int end) {
        for (int c = begin; c < end; c++) {
            if (rest[c] == 0f) {
                continue;
            }
            int a = 3 * pairs[2 * c];
            int b = 3 * pairs[2 * c + 1];
            float dx = x[a] - x[b];
            float dy = x[a + 1] - x[b + 1];
            float dz = x[a + 2] - x[b + 2];
            float limit = factor * rest[c];
            if (dx * dx + dy * dy + dz * dz > limit * limit) {
                first.accumulateAndGet(c, Math::min);
                return;
            }
        }
    }
}
