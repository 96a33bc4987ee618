package dev.weft.bench;

import dev.weft.core.model.Material;

/**
 * The scene both engines run (issue #17): n × n vertices in the XZ plane at y = 0, a 1 m square from
 * x = −0.5 to 0.5 and z = 0 to 1, the edge z = 0 pinned, gravity −9.81 m/s² along y, {@link #FRAMES}
 * frames at {@link #FPS} Hz, stretch and shear inextensible, velocity damping 0.1 /s, every free vertex
 * of the same mass (cotton's 0.2 kg/m² shared equally), bending rigidity that of cotton.
 *
 * <p>Vertex (row r, column c) has index r·n + c and sits at x = −0.5 + c·spacing, z = r·spacing: row 0
 * is the pinned edge. Both engines number their vertices so.
 *
 * @param n vertices per side
 */
public record ClothScene(int n) {
    public static final int FRAMES = 600;
    public static final float FPS = 60f;
    public static final float SIDE = 1f;
    public static final float GRAVITY = -9.81f;
    public static final float DAMPING = 0.1f;
    /** kg/m² (cotton): only the bending stiffness relative to the weight depends on it. */
    public static final float DENSITY = Material.COTTON_DENSITY;
    /** Bending rigidity B in N·m (cotton, {@link Material#cloth()}). */
    public static final float BEND_RIGIDITY = Material.cloth().bendStiffness();

    public ClothScene {
        if (n < 3) {
            throw new IllegalArgumentException("a cloth needs at least 3 x 3 vertices, got " + n);
        }
    }

    public int vertexCount() {
        return n * n;
    }

    /** Distance between neighbouring vertices at rest, m. */
    public float spacing() {
        return SIDE / (n - 1);
    }

    /** The mass of every vertex, kg: the cloth's mass shared equally (pinned ones are kinematic). */
    public float vertexMass() {
        return DENSITY * SIDE * SIDE / vertexCount();
    }

    public boolean pinned(int vertex) {
        return vertex < n;
    }

    /** xyz per vertex at rest, vertex r·n + c at (−0.5 + c·spacing, 0, r·spacing). */
    public float[] restPositions() {
        float[] x = new float[3 * vertexCount()];
        float d = spacing();
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                int i = 3 * (r * n + c);
                x[i] = -0.5f * SIDE + c * d;
                x[i + 2] = r * d;
            }
        }
        return x;
    }

    public float frameDt() {
        return 1f / FPS;
    }

    /** The frames of the last second, over which the peak strain is taken. */
    public int lastSecondFrames() {
        return Math.round(FPS);
    }
}
