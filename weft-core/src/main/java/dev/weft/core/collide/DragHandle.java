package dev.weft.core.collide;

import dev.weft.core.InvalidInputException;
import dev.weft.core.model.Model;
import dev.weft.core.util.Check;

/**
 * A hand on the cloth (seed 001 §5.3.8's picking and dragging, seed 002's user-moved particles): a
 * picked point (a {@link TriangleHit}) is held to a target the caller moves. Each of the triangle's
 * three particles is pulled towards the target plus its offset from the picked point at the grab, by
 * a zero-length XPBD constraint of compliance α: it moves w/(w + α/h²) of the way each step (α = 0:
 * all the way, the picked point sits on the target). Pinned particles of the triangle are moved to
 * their place outright before the step (kinematic, {@link #driveParticles}), so a pinned corner can be
 * dragged too.
 *
 * <p>It acts as a collider: every solver runs its colliders after its own constraints and takes their
 * correction into the velocity, so the drag works in every solver and the cloth keeps the velocity the
 * hand gave it on release. A particle's pull reads and writes only that particle, so any thread split
 * gives the same bits. Put the handle in the {@link dev.weft.core.step.Environment}'s colliders
 * (idle until {@link #grab}); {@link #moveTo} and {@link #release} between steps.
 */
public final class DragHandle extends Collider {
    private final float compliance;
    private final int[] particles = {-1, -1, -1};
    private final boolean[] pinned = new boolean[3];
    private final float[] offset = new float[9];
    private final float[] target = new float[3];
    private boolean held;
    private float stepDt = Float.NaN;

    /** An idle handle of compliance {@code compliance} (m/N; 0 holds the point exactly on the target). */
    public DragHandle(String name, float compliance) {
        super(name, 0f, 0f);
        this.compliance = Check.nonNegative(name + ".compliance", compliance);
    }

    /**
     * Takes hold of the point {@code hit} of {@code model}'s triangles on positions {@code x} (the
     * state's): the target starts where the point is.
     */
    public void grab(Model model, float[] x, TriangleHit hit) {
        int[] triangles = model.triangles();
        if (hit.triangle() < 0 || 3 * hit.triangle() + 2 >= triangles.length) {
            throw new InvalidInputException(name() + ".triangle", "must be a triangle of the model (0.."
                    + (triangles.length / 3 - 1) + "), got " + hit.triangle());
        }
        float px = 0f;
        float py = 0f;
        float pz = 0f;
        for (int k = 0; k < 3; k++) {
            int p = triangles[3 * hit.triangle() + k];
            particles[k] = p;
            pinned[k] = model.isPinned(p);
            px += hit.weight(k) * x[3 * p];
            py += hit.weight(k) * x[3 * p + 1];
            pz += hit.weight(k) * x[3 * p + 2];
        }
        for (int k = 0; k < 3; k++) {
            int p3 = 3 * particles[k];
            offset[3 * k] = x[p3] - px;
            offset[3 * k + 1] = x[p3 + 1] - py;
            offset[3 * k + 2] = x[p3 + 2] - pz;
        }
        target[0] = px;
        target[1] = py;
        target[2] = pz;
        held = true;
    }

    /** Moves the target (world coordinates). */
    public void moveTo(float x, float y, float z) {
        Check.vector3(name() + ".target", new float[] {x, y, z});
        target[0] = x;
        target[1] = y;
        target[2] = z;
    }

    /** Lets go: the cloth keeps the velocity the hand gave it. */
    public void release() {
        held = false;
    }

    public boolean held() {
        return held;
    }

    /** The particles held (the picked triangle's corners), or −1 each while idle. */
    public int[] particles() {
        return particles.clone();
    }

    /** The target, a copy. */
    public float[] target() {
        return target.clone();
    }

    @Override
    public void advance(double time, float dt) {
        stepDt = dt;
    }

    @Override
    public boolean moving() {
        return true;
    }

    @Override
    public void driveParticles(float[] x) {
        // the kinematic part: pinned corners go to their place before the step (collide skips them)
        if (!held) {
            return;
        }
        for (int k = 0; k < 3; k++) {
            int p3 = 3 * particles[k];
            if (pinned[k]) {
                x[p3] = target[0] + offset[3 * k];
                x[p3 + 1] = target[1] + offset[3 * k + 1];
                x[p3 + 2] = target[2] + offset[3 * k + 2];
            }
        }
    }

    /**
     * The hand as a device record ({@code colliders.cl}'s hand): at {@code out[at]} 1 while held else 0, then
     * α/h² as {@link #collide} computes it for the step {@link #advance} set, the three particles' indices as
     * float bits, and each particle's point, the target plus its offset in float as {@link #collide} adds them.
     * Allocates nothing.
     */
    public void writeRecord(float[] out, int at) {
        out[at] = held ? 1f : 0f;
        out[at + 1] = compliance == 0f ? 0f : compliance / (stepDt * stepDt);
        for (int k = 0; k < 3; k++) {
            out[at + 2 + k] = Float.intBitsToFloat(particles[k]);
            out[at + 5 + 3 * k] = target[0] + offset[3 * k];
            out[at + 6 + 3 * k] = target[1] + offset[3 * k + 1];
            out[at + 7 + 3 * k] = target[2] + offset[3 * k + 2];
        }
    }

    /** Not a surface: infinitely far from everything. */
    @Override
    public float signedDistance(float x, float y, float z) {
        return Float.POSITIVE_INFINITY;
    }

    @Override
    public void collide(float[] x, float[] prev, float[] invMass, ParticleSurface surface, int begin, int end) {
        if (!held) {
            return;
        }
        float h = stepDt;
        float alphaTilde = compliance == 0f ? 0f : compliance / (h * h);
        for (int k = 0; k < 3; k++) {
            int p = particles[k];
            if (p < begin || p >= end) {
                continue;
            }
            float w = invMass[p];
            if (w == 0f) {
                continue;
            }
            float f = alphaTilde == 0f ? 1f : w / (w + alphaTilde);
            int p3 = 3 * p;
            x[p3] += f * (target[0] + offset[3 * k] - x[p3]);
            x[p3 + 1] += f * (target[1] + offset[3 * k + 1] - x[p3 + 1]);
            x[p3 + 2] += f * (target[2] + offset[3 * k + 2] - x[p3 + 2]);
        }
    }
}
