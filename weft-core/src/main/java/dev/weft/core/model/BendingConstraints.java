package dev.weft.core.model;

import dev.weft.core.coloring.Coloring;

/**
 * Dihedral-angle bending across interior mesh edges. Each constraint holds four particles
 * (e0, e1, o0, o1): the shared edge e0→e1 and the vertices opposite it in the two triangles, and the
 * signed dihedral angle at rest (0 for a flat sheet). Works on any manifold triangle mesh.
 */
public final class BendingConstraints extends ColoredConstraints {
    private final float[] restAngle;

    public BendingConstraints(int[] stencils, float[] restAngle, Coloring coloring) {
        super(4, stencils, coloring);
        this.restAngle = permute(restAngle);
    }

    /** Already laid out in storage order (an edit's result). */
    BendingConstraints(int[] stored, float[] restAngle, int[] colorStart, int[] naturalOrder) {
        super(4, stored, colorStart, naturalOrder);
        this.restAngle = restAngle;
    }

    /** Rest dihedral angle in radians per constraint (storage order). Do not modify. */
    public float[] restAngle() {
        return restAngle;
    }
}
