package dev.weft.core.solver.xpbd;

import dev.weft.core.model.Incidence;

/**
 * The gather half of a parallel Jacobi sweep: each constraint has written its corrections into its own
 * slots (3 floats per particle it touches); each particle then sums its slots, in a fixed order, and
 * moves by the sum. No two threads write the same particle.
 *
 * <p>Seed 001 §3.2.1 averages each particle's sum over its own constraint count n_p. That breaks
 * Newton's third law where counts differ (a border particle of a grid has fewer constraints than its
 * interior neighbour, so the two ends of one constraint moved by unequal momenta: 0.3 % of a free
 * cloth's momentum in 1 s). Here each constraint's correction is scaled by one weight that all its
 * particles share, {@link #sharedWeights}: 1 / (the largest count among its particles). Every particle
 * then moves by at most the average of its corrections (no overshoot where the seed's average did not
 * overshoot), and each constraint's own momentum balance holds.
 */
final class JacobiGather {
    private final int[] start;
    private final int[] slots;
    private final float[] weight;

    /**
     * @param particles {@code arity} particle indices per constraint
     * @param incidence the model's particle → constraint incidence of {@code particles}
     */
    JacobiGather(int[] particles, Incidence incidence) {
        int arity = incidence.arity();
        start = incidence.start();
        slots = incidence.slots();
        weight = new float[particles.length / arity];
        for (int c = 0; c < weight.length; c++) {
            int most = 1;
            for (int k = 0; k < arity; k++) {
                int p = particles[arity * c + k];
                most = Math.max(most, start[p + 1] - start[p]);
            }
            weight[c] = 1f / most;
        }
    }

    /** Per constraint, the factor its corrections are scaled by: 1 / max over its particles of n_p. */
    float[] sharedWeights() {
        return weight;
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
            int p3 = 3 * p;
            x[p3] += sx;
            x[p3 + 1] += sy;
            x[p3 + 2] += sz;
        }
    }
}
