package dev.weft.render;

import dev.weft.core.scene.Scene;

/**
 * Cameras for scenes: the scene's own where one is set ({@link Scene#camera()}, a scene file's
 * {@code camera}; the Java built-in scenes by name), else an automatic
 * one that looks at the scene's bounds from the front, a little right and above, far enough that
 * the sphere around the bounds fits the picture.
 */
public final class CameraFraming {
    public static final float DEFAULT_FOV_DEGREES = 40f;
    /** Direction from the target to the eye of the automatic camera (front, right, above). */
    private static final float[] VIEW_DIRECTION = {0.55f, 0.45f, 1.0f};

    private CameraFraming() {
    }

    /** The camera a scene is rendered with by default at this aspect ratio (width / height). */
    public static Camera forScene(Scene scene, float aspect) {
        if (scene.camera() != null) {
            return new Camera(scene.camera().eye(), scene.camera().target(), scene.camera().fovDegrees());
        }
        switch (scene.name()) {
            case "drape":
                // from behind the sphere, above right: the cloth starts flat, swings down and wraps
                // round the sphere towards the camera; both faces and the shadow show
                return new Camera(new float[] {1.5f, 1.55f, -1.8f}, new float[] {0f, 0.4f, -0.15f}, 40f);
            case "funnel":
                // closer than the automatic framing (which takes in the floor's shadow): the cloths
                // stacked above the funnel's mouth, the funnel and the box below it
                return new Camera(new float[] {1.4f, 3.1f, 2.6f}, new float[] {0f, 1.35f, 0f}, 40f);
            case "flag":
                // in front of the flag, downwind side: the pole at the left, the flag blowing
                // towards the camera's right, its shadow on the floor below
                return new Camera(new float[] {1.6f, 1.9f, 3.0f}, new float[] {0.6f, 1.3f, 0.3f}, 40f);
            default:
                return automatic(SceneBounds.of(scene.model(), scene.environment().colliders()), aspect,
                        DEFAULT_FOV_DEGREES);
        }
    }

    /** A camera that fits {@code bounds} into a picture of this aspect ratio. */
    public static Camera automatic(SceneBounds bounds, float aspect, float fovYDegrees) {
        float[] c = bounds.center();
        float r = Math.max(bounds.radius(), 1e-3f);
        double halfY = Math.toRadians(fovYDegrees) / 2;
        double halfX = Math.atan(Math.tan(halfY) * aspect);
        double half = Math.min(halfX, halfY);
        // a sphere of radius r fills the narrower half-angle at distance r / sin(half); 5 % margin
        float d = (float) (1.05 * r / Math.sin(half));
        float[] v = VIEW_DIRECTION;
        float len = (float) Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        float[] eye = {c[0] + d * v[0] / len, c[1] + d * v[1] / len, c[2] + d * v[2] / len};
        return new Camera(eye, c, fovYDegrees);
    }
}
