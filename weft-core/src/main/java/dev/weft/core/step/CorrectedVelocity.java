package dev.weft.core.step;

/**
 * The velocity update of the position-based solvers: v ← (v_pred + (x − y)/h)·s, with v_pred the
 * velocity the prediction moved by (y = x_start + h·v_pred), x the positions after constraints,
 * contacts and colliders, and s a damping factor.
 *
 * <p>Why not v = (x − x_start)/h: on float32 positions that difference moves in steps of ulp(x)/h, so
 * velocities are quantized the farther the cloth is from the origin and the smaller the step (at
 * 100 m with 64 substeps per 1/60 s a particle at rest never started to fall: h²g is below half an
 * ulp). The correction x − y is small and exact (Sterbenz), and v_pred is carried in full precision, so
 * free motion keeps exactly the integrator's velocity wherever it happens; positions still round, by
 * at most half an ulp per step, without feeding back into the velocity.
 */
public final class CorrectedVelocity {
    private CorrectedVelocity() {
    }

    /**
     * For particles [begin, end): free ones get v ← (v + (x − y)·invH)·scale[i] (1 where {@code scale} is
     * null), where v holds v_pred on entry; pinned ones (inverse mass 0) get 0.
     */
    public static void apply(float[] x, float[] predicted, float[] v, float[] invMass, float invH, float[] scaleOf,
                             int begin, int end) {
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            if (invMass[i] == 0f) {
                v[i3] = 0f;
                v[i3 + 1] = 0f;
                v[i3 + 2] = 0f;
                continue;
            }
            float scale = scaleOf == null ? 1f : scaleOf[i];
            v[i3] = (v[i3] + (x[i3] - predicted[i3]) * invH) * scale;
            v[i3 + 1] = (v[i3 + 1] + (x[i3 + 1] - predicted[i3 + 1]) * invH) * scale;
            v[i3 + 2] = (v[i3 + 2] + (x[i3 + 2] - predicted[i3 + 2]) * invH) * scale;
        }
    }
}
