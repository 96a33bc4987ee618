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
    private final Motion motion;
    private final float[] pose = new float[7];
    private final float[] rotation = new float[9];
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
        this.motion = motion;
        this.local = new float[3 * particles.length];
        this.target = new float[3 * particles.length];
        this.pinned = new boolean[particles.length];
        float[] positions = model.restPositions();
        motion.poseAt(0.0, pose);
        Quaternions.toMatrix(pose, 3, rotation);
        float[] r = rotation;
        for (int k = 0; k < particles.length; k++) {
            int p = particles[k];
            if (p < 0 || 3 * p + 2 >= positions.length) {
                throw new InvalidInputException(name + ".particles", "must be particles of the model (0.."
                        + (positions.length / 3 - 1) + "), got " + p);
            }
            pinned[k] = model.isPinned(p);
            float dx = positions[3 * p] - pose[0];
            float dy = positions[3 * p + 1] - pose[1];
            float dz = positions[3 * p + 2] - pose[2];
            // local = Rᵀ (x − t)
            local[3 * k] = r[0] * dx + r[3] * dy + r[6] * dz;
            local[3 * k + 1] = r[1] * dx + r[4] * dy + r[7] * dz;
            local[3 * k + 2] = r[2] * dx + r[5] * dy + r[8] * dz;
        }
        place(0.0);
    }

    /** The particles held. */
    public int[] particles() {
        return particles.clone();
    }

    private void place(double time) {
        motion.poseAt(time, pose);
        Quaternions.toMatrix(pose, 3, rotation);
        float[] r = rotation;
        for (int k = 0; k < particles.length; k++) {
            float lx = local[3 * k];
            float ly = local[3 * k + 1];
            float lz = local[3 * k + 2];
            target[3 * k] = r[0] * lx + r[1] * ly + r[2] * lz + pose[0];
            target[3 * k + 1] = r[3] * lx + r[4] * ly + r[5] * lz + pose[1];
            target[3 * k + 2] = r[6] * lx + r[7] * ly + r[8] * lz + pose[2];
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
    public void collide(float[] x, float[] prev, float[] invMass, int begin, int end) {
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
