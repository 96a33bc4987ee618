package dev.weft.core.scene;

import dev.weft.core.InvalidInputException;
import dev.weft.core.util.Check;

/**
 * Where a scene is meant to be looked at from: the eye, the point it looks at (y up) and the vertical
 * field of view in degrees. A renderer without a camera of the scene's frames it automatically.
 */
public record SceneCamera(float[] eye, float[] target, float fovDegrees) {
    public SceneCamera {
        eye = Check.vector3("camera.eye", eye).clone();
        target = Check.vector3("camera.target", target).clone();
        if (!(fovDegrees > 1f && fovDegrees < 170f)) {
            throw new InvalidInputException("camera.fov", "must be between 1 and 170 degrees, got " + fovDegrees);
        }
        if (eye[0] == target[0] && eye[1] == target[1] && eye[2] == target[2]) {
            throw new InvalidInputException("camera", "the eye must not sit on its target");
        }
    }
}
