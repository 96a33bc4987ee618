package dev.weft.core.step;

/**
 * Seed 002's Verlet damping k (eq. 1, x' = x + k(x − x_prev) + h²F/m: the share of the last
 * displacement kept) as a property of the material rather than of the step: k is the share of velocity
 * kept per {@link #REFERENCE_STEP} (1/60 s, a frame), and a step of h keeps k^(h / 1/60).
 *
 * <p>Why: applied per step as the seed writes it, the same k damped 16 times harder at 16 substeps
 * than at one, so results depended on the substep count: the default k = 0.99 at 160 substeps per
 * frame is a damping rate of 96 s⁻¹, a free fall's terminal velocity of g/96 ≈ 0.1 m/s (cloth falling
 * as if through honey). Per time, k = 0.99 is a rate of −60·ln k ≈ 0.6 s⁻¹ at any step, and at a
 * step of 1/60 s it is the seed's k exactly.
 */
public final class VerletDamping {
    /** The step k is given for: one frame at 60 Hz. */
    public static final float REFERENCE_STEP = 1f / 60f;

    private VerletDamping() {
    }

    /** The factor one step of {@code h} seconds keeps, k^(h / REFERENCE_STEP). */
    public static float perStep(float k, float h) {
        return k == 1f ? 1f : (float) Math.pow(k, h / REFERENCE_STEP);
    }
}
