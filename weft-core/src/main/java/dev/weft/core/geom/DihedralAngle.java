package dev.weft.core.geom;

/**
 * The signed dihedral angle of a bending stencil (e0, e1, o0, o1) and its gradient (Bridson, Marino
 * and Fedkiw 2003). Triangle 1 is (e0, e1, o0), triangle 2 is (e1, e0, o1); the angle is 0 when they
 * are coplanar and unfolded, positive when the sheet folds towards triangle 1's normal side... and
 * its gradient stays finite at 0, unlike {@code acos(n1·n2)}.
 */
public final class DihedralAngle {
    private DihedralAngle() {
    }

    /**
     * Angle in (−π, π] and, if {@code grad} is not null, its gradient with respect to e0, e1, o0, o1
     * (12 floats, in that order). Returns NaN when a triangle is degenerate (no gradient exists).
     */
    public static float compute(float[] x, int e0, int e1, int o0, int o1, float[] grad) {
        int a = 3 * e0;
        int b = 3 * e1;
        int c = 3 * o0;
        int d = 3 * o1;
        // Shared edge E = e1 - e0.
        float ex = x[b] - x[a];
        float ey = x[b + 1] - x[a + 1];
        float ez = x[b + 2] - x[a + 2];
        // N1 = (o0 - e0) x (o0 - e1), N2 = (o1 - e1) x (o1 - e0)  (unnormalised normals).
        float p0x = x[c] - x[a], p0y = x[c + 1] - x[a + 1], p0z = x[c + 2] - x[a + 2];
        float p1x = x[c] - x[b], p1y = x[c + 1] - x[b + 1], p1z = x[c + 2] - x[b + 2];
        float n1x = p0y * p1z - p0z * p1y;
        float n1y = p0z * p1x - p0x * p1z;
        float n1z = p0x * p1y - p0y * p1x;
        float q0x = x[d] - x[b], q0y = x[d + 1] - x[b + 1], q0z = x[d + 2] - x[b + 2];
        float q1x = x[d] - x[a], q1y = x[d + 1] - x[a + 1], q1z = x[d + 2] - x[a + 2];
        float n2x = q0y * q1z - q0z * q1y;
        float n2y = q0z * q1x - q0x * q1z;
        float n2z = q0x * q1y - q0y * q1x;
        float e2 = ex * ex + ey * ey + ez * ez;
        float n1sq = n1x * n1x + n1y * n1y + n1z * n1z;
        float n2sq = n2x * n2x + n2y * n2y + n2z * n2z;
        if (e2 < 1e-20f || n1sq < 1e-30f || n2sq < 1e-30f) {
            return Float.NaN;
        }
        float elen = (float) Math.sqrt(e2);
        // cos = n1.n2 / (|n1||n2|), sin = (n1 x n2).E / (|n1||n2||E|); atan2 only needs their ratio,
        // so scale both by |n1||n2||E| and skip the two normalising square roots.
        float cosScaled = (n1x * n2x + n1y * n2y + n1z * n2z) * elen;
        float cx = n1y * n2z - n1z * n2y;
        float cy = n1z * n2x - n1x * n2z;
        float cz = n1x * n2y - n1y * n2x;
        float sinScaled = cx * ex + cy * ey + cz * ez;
        float angle = FastAtan.atan2(sinScaled, cosScaled);
        if (grad != null) {
            float invElen = 1f / elen;
            float s1 = 1f / n1sq;
            float s2 = 1f / n2sq;
            // o0, o1: |E| N / |N|^2 (signs fixed so that this is d(angle)/dx; see DihedralAngleTest).
            float g0 = -elen * s1;
            float g1 = -elen * s2;
            grad[6] = g0 * n1x;
            grad[7] = g0 * n1y;
            grad[8] = g0 * n1z;
            grad[9] = g1 * n2x;
            grad[10] = g1 * n2y;
            grad[11] = g1 * n2z;
            // e0 and e1 from the projections of the opposite vertices onto the edge.
            float t0 = (p1x * ex + p1y * ey + p1z * ez) * invElen; // (o0 - e1).E / |E|
            float t1 = (q0x * ex + q0y * ey + q0z * ez) * invElen; // (o1 - e1).E / |E|
            float u0 = (p0x * ex + p0y * ey + p0z * ez) * invElen; // (o0 - e0).E / |E|
            float u1 = (q1x * ex + q1y * ey + q1z * ez) * invElen; // (o1 - e0).E / |E|
            float ae1 = t0 * s1;
            float ae2 = t1 * s2;
            grad[0] = -(ae1 * n1x + ae2 * n2x);
            grad[1] = -(ae1 * n1y + ae2 * n2y);
            grad[2] = -(ae1 * n1z + ae2 * n2z);
            float be1 = u0 * s1;
            float be2 = u1 * s2;
            grad[3] = be1 * n1x + be2 * n2x;
            grad[4] = be1 * n1y + be2 * n2y;
            grad[5] = be1 * n1z + be2 * n2z;
        }
        return angle;
    }
}
