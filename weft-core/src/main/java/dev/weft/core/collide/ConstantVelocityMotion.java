package dev.weft.core.collide;

import dev.weft.core.util.Check;

/**
 * A body moving with constant linear velocity v and turning with constant world-frame angular
 * velocity ω about its origin: t(τ) = t0 + v τ, q(τ) = exp(ω τ / 2) ⊗ q0, from time 0.
 */
public final class ConstantVelocityMotion implements Motion {
    private final float[] t0;
    private final float[] q0;
    private final float[] v;
    private final float[] omega;

    /**
     * @param position        the origin's position at time 0
     * @param orientation     the rotation quaternion (w, x, y, z) at time 0 (normalised here)
     * @param velocity        linear velocity in m/s
     * @param angularVelocity angular velocity in rad/s (world frame, about the origin)
     */
    public ConstantVelocityMotion(float[] position, float[] orientation, float[] velocity, float[] angularVelocity) {
        t0 = Check.vector3("motion.position", position).clone();
        q0 = Quaternions.normalized("motion.orientation", orientation);
        v = Check.vector3("motion.velocity", velocity).clone();
        omega = Check.vector3("motion.angularVelocity", angularVelocity).clone();
    }

    /** Pure translation at {@code velocity} from {@code position}, unrotated. */
    public static ConstantVelocityMotion translating(float[] position, float[] velocity) {
        return new ConstantVelocityMotion(position, new float[] {1f, 0f, 0f, 0f}, velocity, new float[3]);
    }

    @Override
    public void poseAt(double time, float[] pose) {
        pose[0] = (float) (t0[0] + v[0] * time);
        pose[1] = (float) (t0[1] + v[1] * time);
        pose[2] = (float) (t0[2] + v[2] * time);
        Quaternions.rotate(q0, omega[0], omega[1], omega[2], time, pose, 3);
    }
}
