package dev.weft.core.collide;

import dev.weft.core.InvalidInputException;
import dev.weft.core.util.Check;

/**
 * Picking by ray (seed 001 §5.3.8): the nearest triangle of a model a ray meets, at the current
 * positions, by Möller and Trumbore's ray–triangle test, both faces (cloth has no inside). A linear
 * scan: a pick is one query per click, microseconds per thousand triangles.
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
        double dx = direction[0];
        double dy = direction[1];
        double dz = direction[2];
        if (dx * dx + dy * dy + dz * dz == 0.0) {
            throw new InvalidInputException("ray direction", "must not be the zero vector");
        }
        double ox = origin[0];
        double oy = origin[1];
        double oz = origin[2];
        int best = -1;
        double bestT = Double.POSITIVE_INFINITY;
        double bestU = 0.0;
        double bestV = 0.0;
        for (int k = 0; k < triangles.length / 3; k++) {
            int a = 3 * triangles[3 * k];
            int b = 3 * triangles[3 * k + 1];
            int c = 3 * triangles[3 * k + 2];
            double e1x = x[b] - x[a];
            double e1y = x[b + 1] - x[a + 1];
            double e1z = x[b + 2] - x[a + 2];
            double e2x = x[c] - x[a];
            double e2y = x[c + 1] - x[a + 1];
            double e2z = x[c + 2] - x[a + 2];
            double px = dy * e2z - dz * e2y;
            double py = dz * e2x - dx * e2z;
            double pz = dx * e2y - dy * e2x;
            double det = e1x * px + e1y * py + e1z * pz;
            if (Math.abs(det) < 1e-30) {
                continue; // ray parallel to the triangle's plane (or a degenerate triangle)
            }
            double inv = 1.0 / det;
            double sx = ox - x[a];
            double sy = oy - x[a + 1];
            double sz = oz - x[a + 2];
            double u = (sx * px + sy * py + sz * pz) * inv;
            if (u < 0.0 || u > 1.0) {
                continue;
            }
            double qx = sy * e1z - sz * e1y;
            double qy = sz * e1x - sx * e1z;
            double qz = sx * e1y - sy * e1x;
            double v = (dx * qx + dy * qy + dz * qz) * inv;
            if (v < 0.0 || u + v > 1.0) {
                continue;
            }
            double t = (e2x * qx + e2y * qy + e2z * qz) * inv;
            if (t >= 0.0 && t < bestT) {
                best = k;
                bestT = t;
                bestU = u;
                bestV = v;
            }
        }
        if (best < 0) {
            return null;
        }
        return new TriangleHit(best, (float) bestT, (float) (1.0 - bestU - bestV), (float) bestU, (float) bestV);
    }
}
