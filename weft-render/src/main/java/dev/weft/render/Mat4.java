package dev.weft.render;

/**
 * 4 × 4 matrices as {@code float[16]} in OpenGL's column-major order (element (row r, column c) at
 * {@code [4c + r]}), the layout {@code glUniformMatrix4fv} takes without transposing.
 */
public final class Mat4 {
    private Mat4() {
    }

    /** Perspective projection (OpenGL clip space, depth −1..1) with vertical field of view in radians. */
    public static float[] perspective(float fovY, float aspect, float near, float far, float[] out) {
        float f = (float) (1.0 / Math.tan(fovY / 2.0));
        java.util.Arrays.fill(out, 0f);
        out[0] = f / aspect;
        out[5] = f;
        out[10] = (far + near) / (near - far);
        out[11] = -1f;
        out[14] = 2f * far * near / (near - far);
        return out;
    }

    /** Orthographic projection of the box [l, r] × [b, t] × [−near, −far] in eye space. */
    public static float[] ortho(float l, float r, float b, float t, float near, float far, float[] out) {
        java.util.Arrays.fill(out, 0f);
        out[0] = 2f / (r - l);
        out[5] = 2f / (t - b);
        out[10] = -2f / (far - near);
        out[12] = -(r + l) / (r - l);
        out[13] = -(t + b) / (t - b);
        out[14] = -(far + near) / (far - near);
        out[15] = 1f;
        return out;
    }

    /** View matrix of an eye at {@code eye} looking at {@code target} with {@code up} roughly up. */
    public static float[] lookAt(float[] eye, float[] target, float[] up, float[] out) {
        float fx = target[0] - eye[0];
        float fy = target[1] - eye[1];
        float fz = target[2] - eye[2];
        float fl = (float) Math.sqrt(fx * fx + fy * fy + fz * fz);
        fx /= fl;
        fy /= fl;
        fz /= fl;
        // side = forward × up
        float sx = fy * up[2] - fz * up[1];
        float sy = fz * up[0] - fx * up[2];
        float sz = fx * up[1] - fy * up[0];
        float sl = (float) Math.sqrt(sx * sx + sy * sy + sz * sz);
        if (sl < 1e-6f) {
            // looking straight along up: any perpendicular side vector will do
            sx = 1f;
            sy = 0f;
            sz = 0f;
            sl = 1f;
        }
        sx /= sl;
        sy /= sl;
        sz /= sl;
        // true up = side × forward
        float ux = sy * fz - sz * fy;
        float uy = sz * fx - sx * fz;
        float uz = sx * fy - sy * fx;
        out[0] = sx;
        out[1] = ux;
        out[2] = -fx;
        out[3] = 0f;
        out[4] = sy;
        out[5] = uy;
        out[6] = -fy;
        out[7] = 0f;
        out[8] = sz;
        out[9] = uz;
        out[10] = -fz;
        out[11] = 0f;
        out[12] = -(sx * eye[0] + sy * eye[1] + sz * eye[2]);
        out[13] = -(ux * eye[0] + uy * eye[1] + uz * eye[2]);
        out[14] = fx * eye[0] + fy * eye[1] + fz * eye[2];
        out[15] = 1f;
        return out;
    }

    /** out = a × b (out may not alias a or b). */
    public static float[] multiply(float[] a, float[] b, float[] out) {
        for (int c = 0; c < 4; c++) {
            for (int r = 0; r < 4; r++) {
                float s = 0f;
                for (int k = 0; k < 4; k++) {
                    s += a[4 * k + r] * b[4 * c + k];
                }
                out[4 * c + r] = s;
            }
        }
        return out;
    }

    /** Transforms the point (x, y, z, 1) and writes the homogeneous result (x, y, z, w) into out. */
    public static float[] transform(float[] m, float x, float y, float z, float[] out) {
        for (int r = 0; r < 4; r++) {
            out[r] = m[r] * x + m[4 + r] * y + m[8 + r] * z + m[12 + r];
        }
        return out;
    }
}
