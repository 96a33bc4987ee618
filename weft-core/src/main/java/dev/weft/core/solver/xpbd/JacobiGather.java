package dev.weft.core.solver.xpbd;

/**
 * The gather half of a parallel Jacobi sweep: each constraint has written its corrections into its own
 * slots (3 floats per particle it touches); each particle then sums its slots, in a fixed order, and
 * moves by their average (seed 001 §3.2.1). No two threads write the same particle.
 */
final class JacobiGather {
    private final int[] start;
    private final int[] slots;

    /** @param particles {@code arity} particle indices per constraint */
    JacobiGather(int[] particles, int arity, int particleCount) {
        start = new int[particleCount + 1];
        for (int p : particles) {
            start[p + 1]++;
        }
        for (int i = 0; i < particleCount; i++) {
            start[i + 1] += start[i];
        }
        slots = new int[particles.length];
        int[] fill = java.util.Arrays.copyOf(start, particleCount);
        for (int s = 0; s < particles.length; s++) {
            slots[fill[particles[s]]++] = s;
        }
    }

    void apply(float[] correction, float[] x, float[] invMass, int begin, int end) {
        for (int p = begin; p < end; p++) {
            int from = start[p];
            int to = start[p + 1];
            if (to == from || invMass[p] == 0f) {
                continue;
            }
            float sx = 0f;
            float sy = 0f;
            float sz = 0f;
            for (int k = from; k < to; k++) {
                int o = 3 * slots[k];
                sx += correction[o];
                sy += correction[o + 1];
                sz += correction[o + 2];
            }
            float inv = 1f / (to - from);
            int p3 = 3 * p;
            x[p3] += sx * inv;
            x[p3 + 1] += sy * inv;
            x[p3 + 2] += sz * inv;
        }
    }
}
