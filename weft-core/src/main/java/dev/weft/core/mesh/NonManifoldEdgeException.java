package dev.weft.core.mesh;

/**
 * An edge is used by more than two triangles. Cloth is a 2-manifold surface: such an edge has no
 * well-defined bending stencil. This is a property of the arrays, not of a file, so it is not an
 * {@link dev.weft.core.InvalidInputException}; readers translate it into one with a file and line.
 */
public final class NonManifoldEdgeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int edgeA;
    private final int edgeB;
    private final int triangleIndex;

    public NonManifoldEdgeException(int edgeA, int edgeB, int triangleIndex) {
        super("edge (" + edgeA + ", " + edgeB + ") is used by more than two triangles; triangle "
                + triangleIndex + " is the third to use it");
        this.edgeA = edgeA;
        this.edgeB = edgeB;
        this.triangleIndex = triangleIndex;
    }

    /** The smaller vertex index of the edge. */
    public int edgeA() {
        return edgeA;
    }

    /** The larger vertex index of the edge. */
    public int edgeB() {
        return edgeB;
    }

    /** The index of the third triangle (in triangle order) that uses the edge. */
    public int triangleIndex() {
        return triangleIndex;
    }
}
