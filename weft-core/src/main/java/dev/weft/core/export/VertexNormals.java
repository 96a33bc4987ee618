package dev.weft.core.export;

/**
 * Smooth per-vertex normals: the sum of the normals of the triangles around a vertex, each weighted by
 * its area (the raw cross product is twice the area times the unit normal, so summing cross products
 * weights by area), then normalised. The winding (a, b, c) gives the side: (b − a) × (c − a).
 * Buffers are kept between frames (reallocated only when the vertex count changes).
 */
final class VertexNormals {
    private float[] normals = new float[0];
    private boolean[] touched = new boolean[0];

    /**
     * Computes the normals of {@code vertexCount} vertices at {@code x} (xyz each) for {@code triangles}.
     * A vertex without triangles gets (0, 0, 0), see {@link #has}; one whose triangles' normals cancel
     * (degenerate) gets {@code fallback}.
     *
     * @return the normals, xyz per vertex; valid until the next call
     */
    float[] compute(float[] x, int[] triangles, int vertexCount, float fx, float fy, float fz) {
        if (normals.length != 3 * vertexCount) {
            normals = new float[3 * vertexCount];
            touched = new boolean[vertexCount];
        } else {
            java.util.Arrays.fill(normals, 0f);
            java.util.Arrays.fill(touched, false);
        }
        float[] n = normals;
        for (int t = 0; t < triangles.length; t += 3) {
            int a = triangles[t];
            int b = triangles[t + 1];
            int c = triangles[t + 2];
            float ux = x[3 * b] - x[3 * a];
            float uy = x[3 * b + 1] - x[3 * a + 1];
            float uz = x[3 * b + 2] - x[3 * a + 2];
            float vx = x[3 * c] - x[3 * a];
            float vy = x[3 * c + 1] - x[3 * a + 1];
            float vz = x[3 * c + 2] - x[3 * a + 2];
            float cx = uy * vz - uz * vy;
            float cy = uz * vx - ux * vz;
            float cz = ux * vy - uy * vx;
            n[3 * a] += cx;
            n[3 * a + 1] += cy;
            n[3 * a + 2] += cz;
            n[3 * b] += cx;
            n[3 * b + 1] += cy;
            n[3 * b + 2] += cz;
            n[3 * c] += cx;
            n[3 * c + 1] += cy;
            n[3 * c + 2] += cz;
            touched[a] = true;
            touched[b] = true;
            touched[c] = true;
        }
        for (int v = 0; v < vertexCount; v++) {
            if (!touched[v]) {
                continue;
            }
            double len = Math.sqrt((double) n[3 * v] * n[3 * v] + (double) n[3 * v + 1] * n[3 * v + 1]
                    + (double) n[3 * v + 2] * n[3 * v + 2]);
            if (len > 0 && Double.isFinite(len)) {
                n[3 * v] = (float) (n[3 * v] / len);
                n[3 * v + 1] = (float) (n[3 * v + 1] / len);
                n[3 * v + 2] = (float) (n[3 * v + 2] / len);
            } else {
                n[3 * v] = fx;
                n[3 * v + 1] = fy;
                n[3 * v + 2] = fz;
            }
        }
        return n;
    }

    /** True when vertex v had triangles in the last {@link #compute}, so has a normal. */
    boolean has(int v) {
        return touched[v];
    }
}
