package dev.weft.render.view;

import dev.weft.render.Camera;

/**
 * The viewer's camera as a person moves it: a point looked at, the direction to the eye as yaw (about
 * Y) and pitch (above the horizontal), and the distance. Orbit turns the eye about the target, pan moves
 * both across the view, zoom changes the distance. It also turns a window pixel into the ray through
 * it (for picking, dragging, cutting and aiming).
 */
public final class OrbitCamera {
    private static final float[] UP = {0f, 1f, 0f};
    /** Keeps the eye off the poles, where the view's "up" would flip. */
    private static final double MAX_PITCH = Math.toRadians(89);

    private final float[] target = new float[3];
    private double yaw;
    private double pitch;
    private double distance;
    private float fovYDegrees;

    public OrbitCamera(Camera start) {
        set(start);
    }

    /** Looks as {@code c} does (the scene's camera, or a framing of the scene). */
    public void set(Camera c) {
        float[] e = c.eye();
        float[] t = c.target();
        System.arraycopy(t, 0, target, 0, 3);
        double dx = e[0] - t[0];
        double dy = e[1] - t[1];
        double dz = e[2] - t[2];
        distance = Math.sqrt(dx * dx + dy * dy + dz * dz);
        yaw = Math.atan2(dx, dz);
        pitch = Math.max(-MAX_PITCH, Math.min(MAX_PITCH, Math.asin(dy / distance)));
        fovYDegrees = c.fovYDegrees();
    }

    public Camera camera() {
        return new Camera(eye(), target.clone(), fovYDegrees);
    }

    public float[] eye() {
        double cp = Math.cos(pitch);
        return new float[] {(float) (target[0] + distance * cp * Math.sin(yaw)),
            (float) (target[1] + distance * Math.sin(pitch)), (float) (target[2] + distance * cp * Math.cos(yaw))};
    }

    public float[] target() {
        return target.clone();
    }

    /** Turns about the target: a drag across the window's height turns the view by 180 degrees. */
    public void orbit(double dxPixels, double dyPixels, int heightPixels) {
        double perPixel = Math.PI / Math.max(1, heightPixels);
        yaw -= dxPixels * perPixel;
        pitch = Math.max(-MAX_PITCH, Math.min(MAX_PITCH, pitch + dyPixels * perPixel));
    }

    /** Moves eye and target across the view so the point under the cursor (at the target's depth) follows it. */
    public void pan(double dxPixels, double dyPixels, int heightPixels) {
        double metresPerPixel = 2 * distance * Math.tan(Math.toRadians(fovYDegrees) / 2) / Math.max(1, heightPixels);
        float[] f = forward();
        float[] r = normalize(cross(f, UP));
        float[] u = cross(r, f);
        for (int i = 0; i < 3; i++) {
            target[i] += (float) (metresPerPixel * (-dxPixels * r[i] + dyPixels * u[i]));
        }
    }

    /** Each wheel notch forward brings the eye 10 % closer to the target. */
    public void zoom(double notches) {
        distance = Math.max(1e-3, distance * Math.pow(0.9, notches));
    }

    /** Unit vector from the eye towards the target. */
    public float[] forward() {
        float[] e = eye();
        return normalize(new float[] {target[0] - e[0], target[1] - e[1], target[2] - e[2]});
    }

    /**
     * The ray from the eye through window point (px, py) (pixels from the top-left corner) of a window
     * {@code width} × {@code height}: its direction, not normalised, into {@code direction}.
     */
    public void ray(double px, double py, int width, int height, float[] direction) {
        float[] f = forward();
        float[] r = normalize(cross(f, UP));
        float[] u = cross(r, f);
        double tanY = Math.tan(Math.toRadians(fovYDegrees) / 2);
        double sx = (2 * px / width - 1) * tanY * width / height;
        double sy = (1 - 2 * py / height) * tanY;
        for (int i = 0; i < 3; i++) {
            direction[i] = (float) (f[i] + sx * r[i] + sy * u[i]);
        }
    }

    static float[] cross(float[] a, float[] b) {
        return new float[] {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    }

    static float[] normalize(float[] v) {
        float l = (float) Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        return l > 0f ? new float[] {v[0] / l, v[1] / l, v[2] / l} : new float[] {1f, 0f, 0f};
    }
}
