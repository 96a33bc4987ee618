package dev.weft.core.collide;

import dev.weft.core.InvalidInputException;
import dev.weft.core.geom.TriangleBvh;
import dev.weft.core.util.Check;

/**
 * Picking by ray (seed 001 §5.3.8): the nearest triangle of a model a ray meets, at the current
 * positions, both faces (cloth has no inside). The ray is cut to a segment that reaches past every
 * particle and handed to {@link TriangleBvh#firstHit} (its Möller–Trumbore test); one query per click,
 * so the hierarchy is built for it.
 */
public final class RayCast {
    private RayCast() {
    }

    /**
     * The nearest triangle of {@code triangles} (three particle indices each) on positions {@code x}
     * that the ray origin + t·direction, t ≥ 0, meets; null when it meets none.
     */
    public static TriangleHit nearestTriangle(int[] triangles, float[] x, float[] origin, float[] direction) {
        Check.vector3("ray origin", origin);
        Check.vector3("ray direction", direction);
        double dirLength = Math.sqrt((double) direction[0] * direction[0] + (double) direction[1] * direction[1]
                + (double) direction[2] * direction[2]);
        if (dirLength == 0.0) {
            throw new InvalidInputException("ray direction", "must not be the zero vector");
        }
        if (triangles.length == 0) {
            return null;
        }
        // a segment from the origin one metre past the farthest particle, in units of |direction|
        double reach = 0.0;
        for (int i = 0; i < x.length; i += 3) {
            double dx = x[i] - origin[0];
            double dy = x[i + 1] - origin[1];
            double dz = x[i + 2] - origin[2];
            reach = Math.max(reach, dx * dx + dy * dy + dz * dz);
        }
        double scale = (Math.sqrt(reach) + 1.0) / dirLength;
        TriangleBvh bvh = new TriangleBvh(x, triangles);
        TriangleBvh.Query q = new TriangleBvh.Query();
        if (!bvh.firstHit(origin[0], origin[1], origin[2], (float) (origin[0] + scale * direction[0]),
                (float) (origin[1] + scale * direction[1]), (float) (origin[2] + scale * direction[2]), q)) {
            return null;
        }
        float[] b = barycentric(triangles, x, q.triangle, q.x, q.y, q.z);
        return new TriangleHit(q.triangle, (float) (q.value * scale), b[0], b[1], b[2]);
    }

    /** Barycentric weights of point p (on the triangle's plane) for triangle t's corners. */
    private static float[] barycentric(int[] triangles, float[] x, int t, double px, double py, double pz) {
        int a = 3 * triangles[3 * t];
        int b = 3 * triangles[3 * t + 1];
        int c = 3 * triangles[3 * t + 2];
        double e1x = x[b] - x[a];
        double e1y = x[b + 1] - x[a + 1];
        double e1z = x[b + 2] - x[a + 2];
        double e2x = x[c] - x[a];
        double e2y = x[c + 1] - x[a + 1];
        double e2z = x[c + 2] - x[a + 2];
        double rx = px - x[a];
        double ry = py - x[a + 1];
        double rz = pz - x[a + 2];
        double d11 = e1x * e1x + e1y * e1y + e1z * e1z;
        double d12 = e1x * e2x + e1y * e2y + e1z * e2z;
        double d22 = e2x * e2x + e2y * e2y + e2z * e2z;
        double r1 = rx * e1x + ry * e1y + rz * e1z;
        double r2 = rx * e2x + ry * e2y + rz * e2z;
        double det = d11 * d22 - d12 * d12; // > 0: firstHit skips degenerate triangles
        double u = (d22 * r1 - d12 * r2) / det;
        double v = (d11 * r2 - d12 * r1) / det;
        return new float[] {(float) (1.0 - u - v), (float) u, (float) v};
    }
}
