package dev.weft.core.collide;

/**
 * A frame that follows a {@link Motion}: its pose at a time, and points carried with it from the frame
 * to the world and back (a grip's held particles, a blade's ends). Allocates nothing after construction.
 */
public final class MotionFrame {
    private final Motion motion;
    private final float[] pose = new float[7];
    private final float[] rotation = new float[9];

    /** The frame at the motion's pose at time 0. */
    public MotionFrame(Motion motion) {
        this.motion = motion;
        at(0.0);
    }

    /** Moves the frame to the motion's pose at {@code time}. */
    public void at(double time) {
        motion.poseAt(time, pose);
        Quaternions.toMatrix(pose, 3, rotation);
    }

    /** The world position R·p + t of the frame point {@code local[i..i+2]}, into {@code out[o..o+2]}. */
    public void toWorld(float[] local, int i, float[] out, int o) {
        float[] r = rotation;
        float lx = local[i];
        float ly = local[i + 1];
        float lz = local[i + 2];
        out[o] = r[0] * lx + r[1] * ly + r[2] * lz + pose[0];
        out[o + 1] = r[3] * lx + r[4] * ly + r[5] * lz + pose[1];
        out[o + 2] = r[6] * lx + r[7] * ly + r[8] * lz + pose[2];
    }

    /** The frame coordinates Rᵀ(x − t) of the world point {@code x[i..i+2]}, into {@code out[o..o+2]}. */
    public void toLocal(float[] x, int i, float[] out, int o) {
        float[] r = rotation;
        float dx = x[i] - pose[0];
        float dy = x[i + 1] - pose[1];
        float dz = x[i + 2] - pose[2];
        out[o] = r[0] * dx + r[3] * dy + r[6] * dz;
        out[o + 1] = r[1] * dx + r[4] * dy + r[7] * dz;
        out[o + 2] = r[2] * dx + r[5] * dy + r[8] * dz;
    }
}
