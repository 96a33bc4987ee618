package dev.weft.core.model;

/**
 * A body's drawn surface embedded in its tetrahedra (issue #18: "the render mesh is the original OBJ
 * surface, skinned to the particles"): each vertex rides on four particles of one tetrahedron by fixed
 * barycentric weights, x = x₀ + w₁ (x₁ − x₀) + w₂ (x₂ − x₀) + w₃ (x₃ − x₀), so it moves affinely with that
 * tetrahedron; a vertex just outside the particles' hull (a voxel body's surface lies half a voxel outside
 * its voxel centres) extrapolates from the nearest tetrahedron. Drawn and exported instead of the body's
 * own triangles ({@link DrawnSurface}); the physics never sees it.
 *
 * @param body      the body's index in the model's objects
 * @param corners   four global particle indices per vertex
 * @param weights   w₁, w₂, w₃ per vertex
 * @param triangles three vertex indices (from 0, this skin's) per triangle
 * @param uvs       two texture coordinates per vertex
 */
public record Skin(int body, int[] corners, float[] weights, int[] triangles, float[] uvs) {
    public int vertexCount() {
        return weights.length / 3;
    }

    /** The vertices' positions for particle positions x, into out from index 3·at. */
    public void positions(float[] x, float[] out, int at) {
        for (int v = 0; v < weights.length / 3; v++) {
            int a = 3 * corners[4 * v];
            int b = 3 * corners[4 * v + 1];
            int c = 3 * corners[4 * v + 2];
            int d = 3 * corners[4 * v + 3];
            float w1 = weights[3 * v];
            float w2 = weights[3 * v + 1];
            float w3 = weights[3 * v + 2];
            int o = 3 * (at + v);
            for (int k = 0; k < 3; k++) {
                // as a correction to corner 0: differences of nearby coordinates keep their precision far out
                out[o + k] = x[a + k] + (w1 * (x[b + k] - x[a + k]) + w2 * (x[c + k] - x[a + k])
                        + w3 * (x[d + k] - x[a + k]));
            }
        }
    }
}
