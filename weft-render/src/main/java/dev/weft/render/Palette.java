package dev.weft.render;

/** Colours (linear RGB) of what the renderer draws; each simulated body gets its own. */
public final class Palette {
    /** Front faces of body i use BODIES[i % n]; the back faces a darker, less saturated shade of it. */
    private static final float[][] BODIES = {
        {0.72f, 0.10f, 0.08f}, // red
        {0.08f, 0.22f, 0.70f}, // blue
        {0.75f, 0.52f, 0.06f}, // ochre
        {0.10f, 0.48f, 0.18f}, // green
        {0.45f, 0.12f, 0.55f}, // purple
        {0.05f, 0.50f, 0.52f}, // teal
    };
    static final float[] FLOOR = {0.62f, 0.62f, 0.60f};
    static final float[] COLLIDER = {0.36f, 0.42f, 0.50f};
    static final float[] BACKGROUND = {0.58f, 0.66f, 0.76f};
    static final float[] WIREFRAME = {0.05f, 0.05f, 0.06f};
    static final float[] PARTICLE = {0.98f, 0.92f, 0.30f};

    private Palette() {
    }

    public static float[] front(int body) {
        return BODIES[Math.floorMod(body, BODIES.length)].clone();
    }

    public static float[] back(int body) {
        float[] f = BODIES[Math.floorMod(body, BODIES.length)];
        float grey = (f[0] + f[1] + f[2]) / 3f;
        float[] b = new float[3];
        for (int i = 0; i < 3; i++) {
            b[i] = 0.75f * (0.7f * f[i] + 0.3f * grey);
        }
        return b;
    }
}
