package dev.weft.core.collide;

import dev.weft.core.InvalidInputException;
import dev.weft.core.geom.TriangleClosestPoint;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Angle-weighted pseudonormals of a closed, consistently oriented mesh (face, edge and vertex), which
 * give the sign of a closest-point distance exactly; also where such a mesh is checked and refused.
 */
final class MeshPseudonormals {
    // Layout: 3 floats per triangle (face), then 9 per triangle (its edges ab, bc, ca), then 3 per vertex.
    private MeshPseudonormals() {
    }

    static float[] of(float[] v, int[] tris, String source) {
        int t = tris.length / 3;
        int vc = v.length / 3;
        if (t == 0) {
            throw new InvalidInputException(source, "has no triangles");
        }
        float[] out = new float[3 * t + 9 * t + 3 * vc];
        int edgeBase = 3 * t;
        int vertexBase = 12 * t;
        Map<Long, Integer> directed = new HashMap<>();
        double volume = 0;
        for (int f = 0; f < t; f++) {
            int a = tris[3 * f];
            int b = tris[3 * f + 1];
            int c = tris[3 * f + 2];
            float[] n = faceNormal(v, a, b, c);
            out[3 * f] = n[0];
            out[3 * f + 1] = n[1];
            out[3 * f + 2] = n[2];
            int[] corner = {a, b, c};
            for (int k = 0; k < 3; k++) {
                int p = corner[k];
                int q = corner[(k + 1) % 3];
                Integer previous = directed.put(key(p, q), f);
                if (previous != null) {
                    throw new InvalidInputException(source, String.format(Locale.ROOT,
                            "triangles %d and %d both run from vertex %d to vertex %d: the mesh is not "
                                    + "consistently oriented (or an edge has more than two triangles)",
                            previous + 1, f + 1, p + 1, q + 1));
                }
                // angle at corner p, for the vertex pseudonormal
                int r = corner[(k + 2) % 3];
                float angle = cornerAngle(v, p, q, r);
                out[vertexBase + 3 * p] += angle * n[0];
                out[vertexBase + 3 * p + 1] += angle * n[1];
                out[vertexBase + 3 * p + 2] += angle * n[2];
            }
            volume += signedVolume(v, a, b, c);
        }
        for (int f = 0; f < t; f++) {
            for (int k = 0; k < 3; k++) {
                int p = tris[3 * f + k];
                int q = tris[3 * f + (k + 1) % 3];
                Integer twin = directed.get(key(q, p));
                if (twin == null) {
                    throw new InvalidInputException(source, String.format(Locale.ROOT,
                            "is not closed: the edge between vertex %d (%s) and vertex %d (%s) belongs to triangle "
                                    + "%d only; a signed distance field needs a closed mesh (an open one can "
                                    + "be a mesh collider)", p + 1, point(v, p), q + 1, point(v, q), f + 1));
                }
                int o = edgeBase + 9 * f + 3 * k;
                out[o] = out[3 * f] + out[3 * twin];
                out[o + 1] = out[3 * f + 1] + out[3 * twin + 1];
                out[o + 2] = out[3 * f + 2] + out[3 * twin + 2];
            }
        }
        if (volume < 0) {
            // Closed and consistent but wound clockwise: the normals point in. Flip every pseudonormal.
            for (int i = 0; i < out.length; i++) {
                out[i] = -out[i];
            }
        }
        return out;
    }

    /** +1 when the offset p − closest point lies on the outside of the closest feature, else −1. */
    static float side(float[] normals, int[] tris, int triangle, int region, float dx, float dy, float dz) {
        int t = tris.length / 3;
        int o;
        if (region == TriangleClosestPoint.FACE) {
            o = 3 * triangle;
        } else if (region <= TriangleClosestPoint.EDGE_CA) {
            o = 3 * t + 9 * triangle + 3 * (region - TriangleClosestPoint.EDGE_AB);
        } else {
            o = 12 * t + 3 * tris[3 * triangle + region - TriangleClosestPoint.VERTEX_A];
        }
        return dx * normals[o] + dy * normals[o + 1] + dz * normals[o + 2] >= 0f ? 1f : -1f;
    }

    private static long key(int from, int to) {
        return (long) from << 32 | (to & 0xffffffffL);
    }

    private static float[] faceNormal(float[] v, int a, int b, int c) {
        float e1x = v[3 * b] - v[3 * a], e1y = v[3 * b + 1] - v[3 * a + 1], e1z = v[3 * b + 2] - v[3 * a + 2];
        float e2x = v[3 * c] - v[3 * a], e2y = v[3 * c + 1] - v[3 * a + 1], e2z = v[3 * c + 2] - v[3 * a + 2];
        float nx = e1y * e2z - e1z * e2y;
        float ny = e1z * e2x - e1x * e2z;
        float nz = e1x * e2y - e1y * e2x;
        float len = (float) Math.sqrt(nx * nx + ny * ny + nz * nz);
        return len > 0f ? new float[] {nx / len, ny / len, nz / len} : new float[3];
    }

    private static float cornerAngle(float[] v, int p, int q, int r) {
        double ux = v[3 * q] - v[3 * p], uy = v[3 * q + 1] - v[3 * p + 1], uz = v[3 * q + 2] - v[3 * p + 2];
        double wx = v[3 * r] - v[3 * p], wy = v[3 * r + 1] - v[3 * p + 1], wz = v[3 * r + 2] - v[3 * p + 2];
        double cx = uy * wz - uz * wy, cy = uz * wx - ux * wz, cz = ux * wy - uy * wx;
        return (float) Math.atan2(Math.sqrt(cx * cx + cy * cy + cz * cz), ux * wx + uy * wy + uz * wz);
    }

    private static double signedVolume(float[] v, int a, int b, int c) {
        double ax = v[3 * a], ay = v[3 * a + 1], az = v[3 * a + 2];
        double bx = v[3 * b], by = v[3 * b + 1], bz = v[3 * b + 2];
        double cx = v[3 * c], cy = v[3 * c + 1], cz = v[3 * c + 2];
        return (ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)) / 6.0;
    }

    private static String point(float[] v, int p) {
        return String.format(Locale.ROOT, "%.4g, %.4g, %.4g", v[3 * p], v[3 * p + 1], v[3 * p + 2]);
    }
}
