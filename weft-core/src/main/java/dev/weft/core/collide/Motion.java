package dev.weft.core.collide;

/**
 * How a rigid collider moves: its pose as a function of time. A pose is 7 numbers, the translation
 * (x, y, z) of the body's origin followed by the unit rotation quaternion (w, x, y, z); a body-local
 * point p sits at {@code R(q) p + t} in the world.
 */
public interface Motion {
    /** Writes the pose at {@code time} seconds into {@code pose[0..6]}. Must not allocate. */
    void poseAt(double time, float[] pose);
}
