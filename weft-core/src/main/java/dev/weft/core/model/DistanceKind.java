package dev.weft.core.model;

/** What a distance constraint models; solvers give each kind its own stiffness or compliance. */
public enum DistanceKind {
    /** Structural: along the warp and weft, or a mesh edge. */
    STRETCH,
    /** Diagonal of a grid cell, resisting shear. */
    SHEAR,
    /** Across two edges (rope i..i+2, grid skip springs): a distance-based bending model. */
    BEND;

    private static final DistanceKind[] VALUES = values();

    public static DistanceKind of(byte code) {
        return VALUES[code];
    }

    public byte code() {
        return (byte) ordinal();
    }
}
