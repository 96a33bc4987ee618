package dev.weft.core.model;

import dev.weft.core.coloring.Coloring;

/**
 * Bending across interior mesh edges. Each constraint holds four particles (e0, e1, o0, o1): the shared
 * edge e0→e1 and the vertices opposite it in the two triangles. A stencil bends as the signed dihedral
 * angle ({@link BendingModel#DIHEDRAL}, any manifold triangle mesh) or as the norm of its discrete
 * mean-curvature vector ({@link BendingModel#ISOMETRIC}, Bergou et al. 2006, flat rest shapes); each
 * stencil's rest value is the constraint's value in the rest shape: the rest dihedral angle, or the rest
 * ‖Σ K_j x̄_j‖ (float rounding of a flat rest shape, so that a body at rest in its rest shape feels no
 * bending force wherever it is).
 */
public final class BendingConstraints extends ColoredConstraints {
    /** {@link #model(int)} of a dihedral stencil. */
    public static final byte DIHEDRAL = 0;
    /** {@link #model(int)} of an isometric stencil. */
    public static final byte ISOMETRIC = 1;

    private final float[] restAngle;
    private final byte[] model;
    private final boolean anyIsometric;
    private final boolean allIsometric;

    /** Dihedral stencils only. */
    public BendingConstraints(int[] stencils, float[] restAngle, Coloring coloring) {
        this(stencils, restAngle, new byte[restAngle.length], coloring);
    }

    /** @param model per stencil (build order) {@link #DIHEDRAL} or {@link #ISOMETRIC} */
    public BendingConstraints(int[] stencils, float[] restAngle, byte[] model, Coloring coloring) {
        super(4, stencils, coloring);
        this.restAngle = permute(restAngle);
        this.model = permute(model);
        this.anyIsometric = contains(this.model, ISOMETRIC);
        this.allIsometric = !contains(this.model, DIHEDRAL);
    }

    /** Already laid out in storage order (an edit's result). */
    BendingConstraints(int[] stored, float[] restAngle, byte[] model, int[] colorStart, NaturalOrder naturalOrder) {
        super(4, stored, colorStart, naturalOrder);
        this.restAngle = restAngle;
        this.model = model == null ? new byte[restAngle.length] : model;
        this.anyIsometric = contains(this.model, ISOMETRIC);
        this.allIsometric = !contains(this.model, DIHEDRAL);
    }

    private static boolean contains(byte[] values, byte v) {
        for (byte b : values) {
            if (b == v) {
                return true;
            }
        }
        return false;
    }

    /**
     * Rest value per constraint (storage order): the rest dihedral angle in radians of a dihedral stencil,
     * the rest ‖Σ K_j x̄_j‖ in m of an isometric one. Do not modify.
     */
    public float[] restAngle() {
        return restAngle;
    }

    /** Per stencil (storage order) {@link #DIHEDRAL} or {@link #ISOMETRIC}. Do not modify. */
    public byte[] models() {
        return model;
    }

    /** {@link #DIHEDRAL} or {@link #ISOMETRIC}: how stencil c (storage order) bends. */
    public byte model(int c) {
        return model[c];
    }

    /** True when some stencil bends isometrically. */
    public boolean anyIsometric() {
        return anyIsometric;
    }

    /** True when every stencil bends isometrically (also when there are none). */
    public boolean allIsometric() {
        return allIsometric;
    }
}
