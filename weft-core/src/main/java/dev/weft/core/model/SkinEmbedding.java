package dev.weft.core.model;

import dev.weft.core.geom.TriangleClosestPoint;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.util.IntList;

/**
 * Embeds a surface's vertices in tetrahedra ({@link Skin}): each vertex in the tetrahedron that holds it,
 * or, outside them all, the nearest one (by the distance to its faces) among those within three grid
 * cells. Tetrahedra are found through a uniform grid over their bounding boxes.
 */
final class SkinEmbedding {
    private SkinEmbedding() {
    }

    /**
     * @param x       particle positions (global)
     * @param tets    four global particle indices per tetrahedron (positive volume)
     * @param surface the surface, in the same space as x
     * @param maxEdge  the surface's triangles are split (in four, at their edges' midpoints) until no edge is
     *                 longer than this: a vertex rides on one tetrahedron, so a large flat triangle (a cube's
     *                 face is two) would not bend where the body does
     */
    static Skin embed(int body, float[] x, int[] tets, TriangleMesh surface, float maxEdge) {
        surface = SurfaceSubdivision.untilEdgesAtMost(surface, maxEdge);
        int count = tets.length / 4;
        // each tetrahedron's bounding box, the whole's, and the largest extent (the grid's cell)
        double[] box = new double[6 * count];
        double[] lo = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
        double[] hi = {-Double.MAX_VALUE, -Double.MAX_VALUE, -Double.MAX_VALUE};
        double size = 0;
        for (int c = 0; c < count; c++) {
            for (int d = 0; d < 3; d++) {
                double min = Double.MAX_VALUE;
                double max = -Double.MAX_VALUE;
                for (int k = 0; k < 4; k++) {
                    double v = x[3 * tets[4 * c + k] + d];
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
                box[6 * c + d] = min;
                box[6 * c + 3 + d] = max;
                lo[d] = Math.min(lo[d], min);
                hi[d] = Math.max(hi[d], max);
                size = Math.max(size, max - min);
            }
        }
        double cell = size > 0 ? size : 1;
        int[] n = new int[3];
        for (int d = 0; d < 3; d++) {
            n[d] = Math.max(1, (int) Math.ceil((hi[d] - lo[d]) / cell) + 1);
        }
        // bucket every tetrahedron into the cells its bounding box meets
        IntList[] bucket = new IntList[n[0] * n[1] * n[2]];
        int[] from = new int[3];
        int[] to = new int[3];
        for (int c = 0; c < count; c++) {
            for (int d = 0; d < 3; d++) {
                from[d] = clamp((int) Math.floor((box[6 * c + d] - lo[d]) / cell), n[d]);
                to[d] = clamp((int) Math.floor((box[6 * c + 3 + d] - lo[d]) / cell), n[d]);
            }
            for (int k = from[2]; k <= to[2]; k++) {
                for (int j = from[1]; j <= to[1]; j++) {
                    for (int i = from[0]; i <= to[0]; i++) {
                        int at = i + n[0] * (j + n[1] * k);
                        if (bucket[at] == null) {
                            bucket[at] = new IntList();
                        }
                        bucket[at].add(c);
                    }
                }
            }
        }
        float[] p = surface.positions();
        int vertices = p.length / 3;
        int[] corners = new int[4 * vertices];
        float[] weights = new float[3 * vertices];
        double[] bary = new double[4];
        double[] best = new double[4];
        float[] closest = new float[3];
        for (int v = 0; v < vertices; v++) {
            int[] home = new int[3];
            for (int d = 0; d < 3; d++) {
                home[d] = clamp((int) Math.floor((p[3 * v + d] - lo[d]) / cell), n[d]);
            }
            int found = -1;
            double nearest = Double.MAX_VALUE;
            double score = -Double.MAX_VALUE;
            for (int r = 0; r <= 3 && score < 0; r++) {
                for (int k = home[2] - r; k <= home[2] + r; k++) {
                    for (int j = home[1] - r; j <= home[1] + r; j++) {
                        for (int i = home[0] - r; i <= home[0] + r; i++) {
                            boolean shell = Math.abs(i - home[0]) == r || Math.abs(j - home[1]) == r
                                    || Math.abs(k - home[2]) == r;
                            if (!shell || i < 0 || j < 0 || k < 0 || i >= n[0] || j >= n[1] || k >= n[2]) {
                                continue;
                            }
                            IntList list = bucket[i + n[0] * (j + n[1] * k)];
                            for (int e = 0; list != null && e < list.size(); e++) {
                                int c = list.get(e);
                                barycentric(x, tets, c, p[3 * v], p[3 * v + 1], p[3 * v + 2], bary);
                                double least = Math.min(Math.min(bary[0], bary[1]), Math.min(bary[2], bary[3]));
                                double far = least >= 0 ? 0 : distance(x, tets, c, p, v, closest);
                                if (far < nearest || (far == nearest && least > score)) {
                                    nearest = far;
                                    score = least;
                                    found = c;
                                    System.arraycopy(bary, 0, best, 0, 4);
                                }
                            }
                        }
                    }
                }
            }
            if (found < 0) {
                throw new IllegalStateException("no tetrahedron near surface vertex " + v);
            }
            System.arraycopy(tets, 4 * found, corners, 4 * v, 4);
            weights[3 * v] = (float) best[1];
            weights[3 * v + 1] = (float) best[2];
            weights[3 * v + 2] = (float) best[3];
        }
        float[] uvs = surface.uvs() != null ? surface.uvs().clone() : new float[2 * vertices];
        return new Skin(body, corners, weights, surface.triangles().clone(), uvs);
    }

    /** Distance from surface vertex v to tetrahedron c's nearest face (v outside it). */
    private static double distance(float[] x, int[] tets, int c, float[] p, int v, float[] closest) {
        double best = Double.MAX_VALUE;
        for (int[] f : FACES) {
            TriangleClosestPoint.closest(x, tets[4 * c + f[0]], tets[4 * c + f[1]], tets[4 * c + f[2]], p[3 * v],
                    p[3 * v + 1], p[3 * v + 2], closest);
            double dx = closest[0] - p[3 * v];
            double dy = closest[1] - p[3 * v + 1];
            double dz = closest[2] - p[3 * v + 2];
            best = Math.min(best, dx * dx + dy * dy + dz * dz);
        }
        return Math.sqrt(best);
    }

    private static final int[][] FACES = {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}};

    private static int clamp(int i, int n) {
        return Math.max(0, Math.min(n - 1, i));
    }

    /** Barycentric coordinates of (px, py, pz) in tetrahedron c (in double). */
    private static void barycentric(float[] x, int[] tets, int c, double px, double py, double pz, double[] out) {
        int a = 3 * tets[4 * c];
        double[] m = new double[9];
        for (int k = 0; k < 3; k++) {
            int b = 3 * tets[4 * c + 1 + k];
            for (int d = 0; d < 3; d++) {
                m[3 * d + k] = (double) x[b + d] - x[a + d];
            }
        }
        double qx = px - x[a];
        double qy = py - x[a + 1];
        double qz = pz - x[a + 2];
        double det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
                + m[2] * (m[3] * m[7] - m[4] * m[6]);
        // Cramer's rule for m (w1, w2, w3) = q
        double w1 = (qx * (m[4] * m[8] - m[5] * m[7]) - m[1] * (qy * m[8] - m[5] * qz) + m[2] * (qy * m[7] - m[4] * qz))
                / det;
        double w2 = (m[0] * (qy * m[8] - m[5] * qz) - qx * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * qz - qy * m[6]))
                / det;
        double w3 = (m[0] * (m[4] * qz - qy * m[7]) - m[1] * (m[3] * qz - qy * m[6]) + qx * (m[3] * m[7] - m[4] * m[6]))
                / det;
        out[0] = 1 - w1 - w2 - w3;
        out[1] = w1;
        out[2] = w2;
        out[3] = w3;
    }
}
