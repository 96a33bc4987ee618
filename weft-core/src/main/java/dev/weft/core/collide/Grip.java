package dev.weft.core.collide;

import dev.weft.core.InvalidInputException;
import dev.weft.core.model.Model;

/**
 * A kinematic attachment: a set of particles held rigidly to a frame that follows a {@link Motion} (two
 * grips pulling a cloth apart, a hand carrying a corner). Each particle's place in the frame is fixed
 * from its rest position and the motion's pose at time 0; afterwards a pinned particle is put on its place before every step
 * ({@link #driveParticles}) and a free one is moved there after the solver's constraints, as a collider
 * with zero compliance, so the solver takes the motion into its velocity. A particle's update reads and
 * writes only that particle: any thread split gives the same bits. Particles a split adds later are
 * not held (the grip holds the side that kept the index).
 */
public final class Grip extends Collider {
    private final int[] particles;
    /** Each particle's place in the grip's frame. */
    private final float[] local;
    private final MotionFrame frame;
    /** Where each particle goes this step (world). */
    private final float[] target;
    /** Per held particle: pinned (kinematic) in the model. */
    private final boolean[] pinned;

    /**
     * @param particles particles of {@code model}, held where they are at rest
     * @param motion    the grip's pose over time (its pose at time 0 holds the rest shape)
     */
    public Grip(String name, Model model, int[] particles, Motion motion) {
        super(name, 0f, 0f);
        if (particles.length == 0) {
            throw new InvalidInputException(name + ".particles", "must name at least one particle");
        }
        this.particles = particles.clone();
        this.frame = new MotionFrame(motion);
        this.local = new float[3 * particles.length];
        this.target = new float[3 * particles.length];
        this.pinned = new boolean[particles.length];
        float[] positions = model.restPositions();
        for (int k = 0; k < particles.length; k++) {
            int p = particles[k];
            if (p < 0 || 3 * p + 2 >= positions.length) {
                throw new InvalidInputException(name + ".particles", "must be particles of the model (0.."
                        + (positions.length / 3 - 1) + "), got " + p);
            }
            pinned[k] = model.isPinned(p);
            frame.toLocal(positions, 3 * p, local, 3 * k);
        }
        place(0.0);
    }

    /** The particles held. */
    public int[] particles() {
        return particles.clone();
    }

    /**
     * Whether every particle it holds is pinned in the model it was made for: then it only drives them, on the
     * host before each step ({@link #driveParticles}), and its {@link #collide} moves nothing, so a device
     * solver can leave it out of its collider pass.
     */
    public boolean holdsOnlyPinned() {
        for (boolean p : pinned) {
            if (!p) {
                return false;
            }
        }
        return true;
    }

    /** Floats {@link #writeDeviceTargets} writes: four per held particle. */
    public int deviceTargetsSize() {
        return 4 * particles.length;
    }

    /**
     * Writes, per held particle in order, its index (int bits) and its target this step (x, y, z) to {@code
     * out[at..]}: what a device's collider pass needs to do {@link #collide}'s work (colliders.cl's collide_grip).
     * Allocates nothing.
     */
    public void writeDeviceTargets(float[] out, int at) {
        for (int k = 0; k < particles.length; k++) {
            int o = at + 4 * k;
            out[o] = Float.intBitsToFloat(particles[k]);
            out[o + 1] = target[3 * k];
            out[o + 2] = target[3 * k + 1];
            out[o + 3] = target[3 * k + 2];
        }
    }

    private void place(double time) {
        frame.at(time);
        for (int k = 0; k < particles.length; k++) {
            frame.toWorld(local, 3 * k, target, 3 * k);
        }
    }

    @Override
    public void advance(double time, float dt) {
        place(time + dt);
    }

    @Override
    public boolean moving() {
        return true;
    }

    @Override
    public void driveParticles(float[] x) {
        // pinned particles are kinematic: they are where the grip is before the step (collide skips them)
        for (int k = 0; k < particles.length; k++) {
            int p3 = 3 * particles[k];
            if (pinned[k]) {
                x[p3] = target[3 * k];
                x[p3 + 1] = target[3 * k + 1];
                x[p3 + 2] = target[3 * k + 2];
            }
        }
    }

    @Override
    public void collide(float[] x, float[] prev, float[] invMass, ParticleSurface surface, int begin, int end) {
        for (int k = 0; k < particles.length; k++) {
            int p = particles[k];
            if (p < begin || p >= end || invMass[p] == 0f) {
                continue;
            }
            int p3 = 3 * p;
            x[p3] = target[3 * k];
            x[p3 + 1] = target[3 * k + 1];
            x[p3 + 2] = target[3 * k + 2];
        }
    }

    @Override
    public float signedDistance(float x, float y, float z) {
        return Float.POSITIVE_INFINITY; // holds particles; nothing collides with it
    }
}
