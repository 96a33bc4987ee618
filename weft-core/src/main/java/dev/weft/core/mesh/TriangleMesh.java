package dev.weft.core.mesh;

/**
 * A triangle mesh as flat primitive arrays: the form the solvers consume directly.
 *
 * <p>Immutable by convention: the accessors return the arrays themselves (no copies, because meshes
 * can hold millions of triangles); callers must not modify them.
 */
public final class TriangleMesh {
    private final float[] positions;
    private final float[] uvs;
    private final int[] triangles;

    /**
     * @param positions xyz per vertex, interleaved (length 3n)
     * @param uvs       uv per vertex, interleaved (length 2n), or null when the mesh has no texture coordinates
     * @param triangles three vertex indices per triangle, counter-clockwise seen from the front (length 3t)
     * @throws IllegalArgumentException if a length does not fit or an index is outside {@code 0..n-1}
     */
    public TriangleMesh(float[] positions, float[] uvs, int[] triangles) {
        validate(positions, uvs, triangles);
        this.positions = positions;
        this.uvs = uvs;
        this.triangles = triangles;
    }

    /** The checks of the constructor, shared with {@link ObjWriter} so both accept the same arrays. */
    static void validate(float[] positions, float[] uvs, int[] triangles) {
        if (positions == null || triangles == null) {
            throw new IllegalArgumentException("positions and triangles must not be null");
        }
        if (positions.length % 3 != 0) {
            throw new IllegalArgumentException("positions length " + positions.length + " is not a multiple of 3");
        }
        int n = positions.length / 3;
        if (uvs != null && uvs.length != 2 * n) {
            throw new IllegalArgumentException("uvs length " + uvs.length + " should be 2 * " + n + " vertices");
        }
        if (triangles.length % 3 != 0) {
            throw new IllegalArgumentException("triangles length " + triangles.length + " is not a multiple of 3");
        }
        for (int i = 0; i < triangles.length; i++) {
            int v = triangles[i];
            if (v < 0 || v >= n) {
                throw new IllegalArgumentException("triangle " + i / 3 + " refers to vertex " + v
                        + ", outside 0.." + (n - 1));
            }
        }
    }

    /** xyz per vertex, interleaved (length 3 × {@link #vertexCount()}). Do not modify. */
    public float[] positions() {
        return positions;
    }

    /** uv per vertex, interleaved (length 2 × {@link #vertexCount()}), or null. Do not modify. */
    public float[] uvs() {
        return uvs;
    }

    /** Three vertex indices per triangle, counter-clockwise (length 3 × {@link #triangleCount()}). Do not modify. */
    public int[] triangles() {
        return triangles;
    }

    public int vertexCount() {
        return positions.length / 3;
    }

    public int triangleCount() {
        return triangles.length / 3;
    }

    @Override
    public String toString() {
        return "TriangleMesh[" + vertexCount() + " vertices, " + triangleCount() + " triangles"
                + (uvs != null ? ", uvs" : "") + "]";
    }
}
