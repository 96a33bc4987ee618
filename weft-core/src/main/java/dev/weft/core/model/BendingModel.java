package dev.weft.core.model;

/** How a cloth resists bending (chosen per {@link ModelBuilder}; ropes always use distance bending). */
public enum BendingModel {
    /**
     * The dihedral angle across every interior edge (Bridson et al. 2003), compliance
     * {@code XpbdSettings.bendCompliance} in rad²/(N·m): linear in the angle, any triangle mesh.
     */
    DIHEDRAL,
    /**
     * Distance constraints across two edges ({@link DistanceKind#BEND}, compliance
     * {@code XpbdSettings.distanceBendCompliance} in m/N): on a grid cloth the skip springs
     * (r, c)–(r, c+2) and (r, c)–(r+2, c); on a mesh cloth the two opposite vertices of each
     * bending stencil. About a third of the dihedral constraint's cost per substep.
     */
    DISTANCE,
    /**
     * Isometric bending (Bergou, Wardetzky, Harmon, Zorin and Grinspun 2006): on the dihedral model's
     * stencils the constraint C = ‖Σ_j K_j x_j‖, the stencil's discrete mean-curvature vector with constant
     * cotangent weights K from the rest triangles, energy ½k·C² quadratic in the positions, compliance
     * 1/k with k = B/(A₀ + A₁) ({@link MaterialParameters}). About a distance constraint's cost: no normals,
     * no angle. For flat rest shapes (a cloth cut flat): the builder refuses a body folded at rest.
     */
    ISOMETRIC
}
