package dev.weft.render;

import dev.weft.core.InvalidInputException;
import dev.weft.core.util.Check;

/**
 * A pinhole camera: where it is, what it looks at, and its vertical field of view in degrees.
 * Y is up (the engine's convention).
 */
public record Camera(float[] eye, float[] target, float fovYDegrees) {
    private static final float[] UP = {0f, 1f, 0f};

    public Camera {
        eye = Check.vector3("camera eye", eye).clone();
        target = Check.vector3("camera target", target).clone();
        if (!(fovYDegrees > 1f && fovYDegrees < 170f)) {
            throw new InvalidInputException("camera field of view",
                    "must be between 1 and 170 degrees, got " + fovYDegrees);
        }
        float dx = target[0] - eye[0];
        float dy = target[1] - eye[1];
        float dz = target[2] - eye[2];
        if (dx * dx + dy * dy + dz * dz < 1e-12f) {
            throw new InvalidInputException("camera", "eye and target must differ");
        }
    }

    public float[] view(float[] out) {
        return Mat4.lookAt(eye, target, UP, out);
    }

    public float[] projection(float aspect, float near, float far, float[] out) {
        return Mat4.perspective((float) Math.toRadians(fovYDegrees), aspect, near, far, out);
    }

    public float distanceToTarget() {
        float dx = target[0] - eye[0];
        float dy = target[1] - eye[1];
        float dz = target[2] - eye[2];
        return (float) Math.sqrt(dx * dx + dy * dy + dz * dz);
    }
}
