package dev.weft.core.mesh;

/**
 * A tetrahedral mesh: x, y, z per node and four node indices (from 0) per tetrahedron, as
 * {@link TetGenReader} reads it from a {@code .node}/{@code .ele} pair.
 */
public record TetMesh(float[] nodes, int[] tets) {
    public int nodeCount() {
        return nodes.length / 3;
    }

    public int tetCount() {
        return tets.length / 4;
    }
}
