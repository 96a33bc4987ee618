package dev.weft.bench;

/**
 * The cantilever strip of the droop comparison (issue #17, "equal bending stiffness"): {@code width}
 * vertices across (x) and {@link #PINNED_ROWS} + {@code overhangRows} rows along z, at the spacing of the
 * peers bench's 64 × 64 cloth (1/63 m), in the XZ plane at y = 0. The first two rows are pinned, which
 * clamps the strip flat (horizontal) at its root; the rest overhangs and droops under gravity. Every free
 * vertex weighs cotton's 0.2 kg/m² times one grid cell (ρ·d²), in both engines.
 *
 * <p>Vertex (row r, column c) has index r·width + c at (c·d, 0, r·d). The strip runs {@link #FRAMES}
 * frames at 60 Hz with velocity damping {@link #DAMPING} /s, so that it comes to rest (the damping
 * changes how fast, not where: the drop at rest is a balance of gravity and bending alone).
 *
 * @param width        vertices across
 * @param overhangRows rows beyond the pinned two: the overhang is overhangRows·d long
 */
public record DroopStrip(int width, int overhangRows) {
    public static final int PINNED_ROWS = 2;
    /** The peers bench cloth's spacing at N = 64, m. */
    public static final float SPACING = ClothScene.SIDE / 63f;
    /** 5 s at 60 Hz. */
    public static final int FRAMES = 300;
    /**
     * Velocity damping, 1/s: a swing's amplitude decays as e^(−damping·t/2), e^(−10) ≈ 5·10⁻⁵ in 5 s, so
     * a strip dropped from flat at up to ~1 m/s has settled well below {@link #SETTLED_TIP_SPEED}.
     */
    public static final float DAMPING = 4f;
    /** The tip counts as settled when no tip vertex moved faster than this over the last frame, m/s. */
    public static final double SETTLED_TIP_SPEED = 1e-3;
    public static final int DEFAULT_WIDTH = 5;
    public static final int DEFAULT_OVERHANG_ROWS = 5;

    public DroopStrip {
        if (width < 2 || overhangRows < 1) {
            throw new IllegalArgumentException("a strip needs at least 2 vertices across and 1 overhanging row, got "
                    + width + " and " + overhangRows);
        }
    }

    public static DroopStrip defaults() {
        return new DroopStrip(DEFAULT_WIDTH, DEFAULT_OVERHANG_ROWS);
    }

    public int rows() {
        return PINNED_ROWS + overhangRows;
    }

    public int vertexCount() {
        return width * rows();
    }

    /** The overhang's length from the last pinned row to the tip, m: the drop of a strip hanging straight down. */
    public float overhang() {
        return overhangRows * SPACING;
    }

    /** Every free vertex's mass, kg: cotton's areal density times one grid cell. */
    public float vertexMass() {
        return ClothScene.DENSITY * SPACING * SPACING;
    }

    public boolean pinned(int vertex) {
        return vertex < PINNED_ROWS * width;
    }

    /** The first vertex of the tip row (the last row). */
    public int firstTipVertex() {
        return (rows() - 1) * width;
    }

    /** xyz per vertex at rest, vertex r·width + c at (c·d, 0, r·d). */
    public float[] restPositions() {
        float[] x = new float[3 * vertexCount()];
        for (int r = 0; r < rows(); r++) {
            for (int c = 0; c < width; c++) {
                int i = 3 * (r * width + c);
                x[i] = c * SPACING;
                x[i + 2] = r * SPACING;
            }
        }
        return x;
    }

    public float frameDt() {
        return 1f / ClothScene.FPS;
    }
}
