package dev.weft.core.collide;

import dev.weft.core.InvalidInputException;

/** Unit-quaternion helpers on (w, x, y, z) stored at an offset of a float array. */
final class Quaternions {
    private Quaternions() {
    }

    /** Row-major rotation matrix of the unit quaternion q[o..o+3]. */
    static void toMatrix(float[] q, int o, float[] m) {
        float w = q[o];
        float x = q[o + 1];
        float y = q[o + 2];
        float z = q[o + 3];
        m[0] = 1f - 2f * (y * y + z * z);
        m[1] = 2f * (x * y - w * z);
        m[2] = 2f * (x * z + w * y);
        m[3] = 2f * (x * y + w * z);
        m[4] = 1f - 2f * (x * x + z * z);
        m[5] = 2f * (y * z - w * x);
        m[6] = 2f * (x * z - w * y);
        m[7] = 2f * (y * z + w * x);
        m[8] = 1f - 2f * (x * x + y * y);
    }

    /** The quaternion of a rotation by {@code angle} radians about {@code axis} (any length > 0). */
    static float[] axisAngle(String name, float[] axis, float angle) {
        double len = Math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
        if (!(len > 1e-12)) {
            throw new InvalidInputException(name, "rotation axis must not be the zero vector");
        }
        double s = Math.sin(0.5 * angle) / len;
        return new float[] {(float) Math.cos(0.5 * angle), (float) (axis[0] * s), (float) (axis[1] * s),
                (float) (axis[2] * s)};
    }

    /** Normalises q (4 numbers) in place; rejects a zero or non-finite quaternion naming {@code name}. */
    static float[] normalized(String name, float[] q) {
        if (q == null || q.length != 4) {
            throw new InvalidInputException(name, "must be a quaternion of 4 numbers (w, x, y, z)");
        }
        double len = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (!(len > 1e-12) || !Double.isFinite(len)) {
            throw new InvalidInputException(name, "must be a finite, non-zero quaternion");
        }
        return new float[] {(float) (q[0] / len), (float) (q[1] / len), (float) (q[2] / len), (float) (q[3] / len)};
    }

    /**
     * out = exp(ω t / 2) ⊗ q0: q0 turned by the world-frame angular velocity ω (rad/s) for t seconds.
     */
    static void rotate(float[] q0, float wx, float wy, float wz, double t, float[] out, int o) {
        double speed = Math.sqrt(wx * wx + wy * wy + wz * wz);
        double angle = speed * t;
        double c = Math.cos(0.5 * angle);
        double s = speed > 0 ? Math.sin(0.5 * angle) / speed : 0;
        double aw = c;
        double ax = wx * s;
        double ay = wy * s;
        double az = wz * s;
        double bw = q0[0];
        double bx = q0[1];
        double by = q0[2];
        double bz = q0[3];
        out[o] = (float) (aw * bw - ax * bx - ay * by - az * bz);
        out[o + 1] = (float) (aw * bx + ax * bw + ay * bz - az * by);
        out[o + 2] = (float) (aw * by - ax * bz + ay * bw + az * bx);
        out[o + 3] = (float) (aw * bz + ax * by - ay * bx + az * bw);
    }

    /** Spherical interpolation from a to b (unit quaternions at offsets) by s in [0, 1], shortest way. */
    static void slerp(float[] a, int ao, float[] b, int bo, float s, float[] out, int o) {
        double dot = a[ao] * b[bo] + a[ao + 1] * b[bo + 1] + a[ao + 2] * b[bo + 2] + a[ao + 3] * b[bo + 3];
        double sign = 1;
        if (dot < 0) {
            dot = -dot;
            sign = -1;
        }
        double wa;
        double wb;
        if (dot > 0.9995) {
            wa = 1 - s; // nearly parallel: linear interpolation, normalised below
            wb = s;
        } else {
            double theta = Math.acos(dot);
            double sin = Math.sin(theta);
            wa = Math.sin((1 - s) * theta) / sin;
            wb = Math.sin(s * theta) / sin;
        }
        wb *= sign;
        double w = wa * a[ao] + wb * b[bo];
        double x = wa * a[ao + 1] + wb * b[bo + 1];
        double y = wa * a[ao + 2] + wb * b[bo + 2];
        double z = wa * a[ao + 3] + wb * b[bo + 3];
        double len = Math.sqrt(w * w + x * x + y * y + z * z);
        out[o] = (float) (w / len);
        out[o + 1] = (float) (x / len);
        out[o + 2] = (float) (y / len);
        out[o + 3] = (float) (z / len);
    }
}
