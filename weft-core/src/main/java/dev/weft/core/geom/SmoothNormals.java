package dev.weft.core.geom;

/**
 * Per-vertex normals of a triangle mesh as the average of the unit normals of the faces around
 * each vertex (seed 004's definition; seed 001 §5.4.1 does the same for rendering; the renderer and the
 * OBJ and glTF exports share it). Computed into
 * an array allocated once for the mesh, so a frame allocates nothing.
 */
public final class SmoothNormals {
    private final float[] normals;

    public SmoothNormals(int vertexCount) {
        normals = new float[3 * vertexCount];
    }

    /** The normals of the last {@link #compute}, xyz per vertex, unit length (zero for a vertex on no face). */
    public float[] normals() {
        return normals;
    }

    /**
     * Computes the normals of the triangles {@code triangles} (three vertex indices each) over
     * {@code positions}; vertices on no triangle get a zero normal. A face's normal follows its
     * winding: (b − a) × (c − a).
     */
    public float[] compute(float[] positions, int[] triangles) {
        float[] n = normals;
        java.util.Arrays.fill(n, 0f);
        for (int t = 0; t < triangles.length; t += 3) {
            int a = 3 * triangles[t];
            int b = 3 * triangles[t + 1];
            int c = 3 * triangles[t + 2];
            float e1x = positions[b] - positions[a];
            float e1y = positions[b + 1] - positions[a + 1];
            float e1z = positions[b + 2] - positions[a + 2];
            float e2x = positions[c] - positions[a];
            float e2y = positions[c + 1] - positions[a + 1];
            float e2z = positions[c + 2] - positions[a + 2];
            float nx = e1y * e2z - e1z * e2y;
            float ny = e1z * e2x - e1x * e2z;
            float nz = e1x * e2y - e1y * e2x;
            float len2 = nx * nx + ny * ny + nz * nz;
            if (len2 < 1e-30f) {
                continue; // a collapsed triangle has no direction to contribute
            }
            float inv = (float) (1.0 / Math.sqrt(len2));
            nx *= inv;
            ny *= inv;
            nz *= inv;
            n[a] += nx;
            n[a + 1] += ny;
            n[a + 2] += nz;
            n[b] += nx;
            n[b + 1] += ny;
            n[b + 2] += nz;
            n[c] += nx;
            n[c + 1] += ny;
            n[c + 2] += nz;
        }
        for (int i = 0; i < n.length; i += 3) {
            float len2 = n[i] * n[i] + n[i + 1] * n[i + 1] + n[i + 2] * n[i + 2];
            if (len2 > 1e-30f) {
                float inv = (float) (1.0 / Math.sqrt(len2));
                n[i] *= inv;
                n[i + 1] *= inv;
                n[i + 2] *= inv;
            }
        }
        return n;
    }
}
