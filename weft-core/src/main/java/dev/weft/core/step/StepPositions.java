package dev.weft.core.step;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.ParticleSurface;

/**
 * The positions of a position-based step kept as two float32 arrays: y, the predicted world
 * positions, and d, the sum of the corrections made to them since (constraints, colliders); the
 * position is y + d. Constraints read differences, (y_b − y_a) + (d_b − d_a), and write d.
 *
 * <p>Why not correct the positions in place: a correction added to a float32 coordinate is rounded to
 * ulp(x) (6e-8 m at 1 m, 6e-5 m at 1000 m), and the corrections of a step are of that size (a cloth
 * spinning at 1 rad/s is pulled inwards by ω²r·h² ≈ 5e-7 m per substep). The roundings are neither
 * equal and opposite nor mass-weighted, so they moved the centre of mass: a spinning 1 m cloth lost
 * 1.2 % of its momentum in 0.5 s at the origin (its particles' ulps differ between 0 and 1 m) and 4–13 %
 * at 1000 m, and gained internal energy. d is small, so its rounding is relative to the corrections
 * themselves, and v = v_pred + d/h keeps each pair of corrections' momentum to float32 precision;
 * y_b − y_a of nearby particles is exact (Sterbenz). The positions are rounded once per step, when
 * y + d is written back, and that rounding does not reach the velocity.
 *
 * <p>Colliders and particle contacts work on world positions: {@link #collideRange} runs colliders on
 * y + d and adds their exact change to d; after {@link #settle} they run on the world array itself.
 * Pinned particles keep their world position bit for bit (their d stays 0 and they are never written).
 */
public final class StepPositions {
    private final float[] y;
    private final float[] d;

    public StepPositions(int particleCount) {
        y = new float[3 * particleCount];
        d = new float[3 * particleCount];
    }

    /** Predicted positions (and after {@link #settle}, the settled world positions). */
    public float[] predicted() {
        return y;
    }

    /** Corrections since the prediction. */
    public float[] corrections() {
        return d;
    }

    /** Particle i: y = x + h·v (h·v = 0 for a pinned particle), no correction yet. */
    public void predict(int i, float[] world, float hvx, float hvy, float hvz) {
        int i3 = 3 * i;
        y[i3] = world[i3] + hvx;
        y[i3 + 1] = world[i3 + 1] + hvy;
        y[i3 + 2] = world[i3 + 2] + hvz;
        d[i3] = 0f;
        d[i3 + 1] = 0f;
        d[i3 + 2] = 0f;
    }

    /** Starts from the given positions as they are (relaxation without integration). */
    public void begin(float[] world) {
        System.arraycopy(world, 0, y, 0, y.length);
        java.util.Arrays.fill(d, 0f);
    }

    /** The current positions y + d into {@code out} (free and pinned particles alike). */
    public void current(float[] out) {
        for (int k = 0; k < y.length; k++) {
            out[k] = y[k] + d[k];
        }
    }

    /**
     * Colliders inside the iterations: each collider moves the world positions y + d of the free
     * particles [begin, end), and d gets the exact change (a particle no collider touches keeps its
     * d). {@code world} is scratch here; {@code start} holds the world positions at the step's start
     * (friction, swept tests); {@code surface} each particle's grip and offset from its body's material.
     */
    public void collideRange(Collider[] colliders, float[] world, float[] start, float[] invMass,
                             ParticleSurface surface, int begin, int end) {
        write(world, invMass, begin, end);
        for (Collider c : colliders) {
            c.collide(world, start, invMass, surface, begin, end);
        }
        for (int i = begin; i < end; i++) {
            if (invMass[i] == 0f) {
                continue;
            }
            for (int k = 3 * i; k < 3 * i + 3; k++) {
                d[k] += world[k] - (y[k] + d[k]);
            }
        }
    }

    /** World positions y + d of the free particles [begin, end); pinned ones are not written. */
    public void write(float[] world, float[] invMass, int begin, int end) {
        for (int i = begin; i < end; i++) {
            if (invMass[i] == 0f) {
                continue;
            }
            int i3 = 3 * i;
            world[i3] = y[i3] + d[i3];
            world[i3 + 1] = y[i3 + 1] + d[i3 + 1];
            world[i3 + 2] = y[i3 + 2] + d[i3 + 2];
        }
    }

    /**
     * The end of the constraint phase for particles [begin, end): free particles get v ← v + d/h (v
     * holds v_pred on entry) and world = y + d; pinned ones get v = 0. Afterwards {@link #predicted()}
     * holds the world positions written here, so that contacts and colliders may move {@code world}
     * and {@link #finish} turn their displacement into velocity.
     */
    public void settle(float[] world, float[] v, float[] invMass, float invH, int begin, int end) {
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            if (invMass[i] == 0f) {
                holdPinned(world, v, i3);
                continue;
            }
            for (int k = i3; k < i3 + 3; k++) {
                v[k] += d[k] * invH;
                float x = y[k] + d[k];
                world[k] = x;
                y[k] = x;
            }
        }
    }

    /** A pinned particle at the end of the constraint phase: velocity 0, y its (unchanged) world position. */
    private void holdPinned(float[] world, float[] v, int i3) {
        v[i3] = 0f;
        v[i3 + 1] = 0f;
        v[i3 + 2] = 0f;
        y[i3] = world[i3];
        y[i3 + 1] = world[i3 + 1];
        y[i3 + 2] = world[i3 + 2];
    }

    /**
     * {@link #settle} then {@link #finish} where nothing moves {@code world} between them (no contacts, no
     * colliders), in one pass with the same bits: finish adds (x − y)·invH = +0 to the settled velocity
     * (which turns a −0 into +0, so the sum is kept), then scales it.
     */
    public void settleAndFinish(float[] world, float[] v, float[] invMass, float invH, float[] scaleOf,
                                int begin, int end) {
        final float[] y = this.y;
        final float[] d = this.d;
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            if (invMass[i] == 0f) {
                holdPinned(world, v, i3);
                continue;
            }
            float scale = scaleOf == null ? 1f : scaleOf[i];
            float dx = d[i3];
            float dy = d[i3 + 1];
            float dz = d[i3 + 2];
            float x0 = y[i3] + dx;
            float x1 = y[i3 + 1] + dy;
            float x2 = y[i3 + 2] + dz;
            world[i3] = x0;
            world[i3 + 1] = x1;
            world[i3 + 2] = x2;
            y[i3] = x0;
            y[i3 + 1] = x1;
            y[i3 + 2] = x2;
            v[i3] = ((v[i3] + dx * invH) + 0f) * scale;
            v[i3 + 1] = ((v[i3 + 1] + dy * invH) + 0f) * scale;
            v[i3 + 2] = ((v[i3 + 2] + dz * invH) + 0f) * scale;
        }
    }

    /**
     * After {@link #settle} and whatever contacts and colliders did to {@code world}: v ← (v + their
     * displacement / h)·scale[i] ({@link CorrectedVelocity}; {@code scale} null: 1).
     */
    public void finish(float[] world, float[] v, float[] invMass, float invH, float[] scale, int begin, int end) {
        CorrectedVelocity.apply(world, y, v, invMass, invH, scale, begin, end);
    }
}
