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
        // Shared edge E = e1 - e0; N1 = (o0 - e0) x (o0 - e1), N2 = (o1 - e1) x (o1 - e0) (unnormalised).
        return fromDifferences(x[b] - x[a], x[b + 1] - x[a + 1], x[b + 2] - x[a + 2],
                x[c] - x[a], x[c + 1] - x[a + 1], x[c + 2] - x[a + 2],
                x[c] - x[b], x[c + 1] - x[b + 1], x[c + 2] - x[b + 2],
                x[d] - x[b], x[d + 1] - x[b + 1], x[d + 2] - x[b + 2],
                x[d] - x[a], x[d + 1] - x[a + 1], x[d + 2] - x[a + 2], grad);
    }

    /**
     * As {@link #compute(float[], int, int, int, int, float[])} with each position given as y + d (a
     * prediction and its correction, see {@code StepPositions}): differences are taken as
     * (y_j − y_i) + (d_j − d_i), exact for nearby particles wherever they are.
     */
    public static float compute(float[] y, float[] dd, int e0, int e1, int o0, int o1, float[] grad) {
        int a = 3 * e0;
        int b = 3 * e1;
        int c = 3 * o0;
        int d = 3 * o1;
        return fromDifferences(
                (y[b] - y[a]) + (dd[b] - dd[a]), (y[b + 1] - y[a + 1]) + (dd[b + 1] - dd[a + 1]),
                (y[b + 2] - y[a + 2]) + (dd[b + 2] - dd[a + 2]),
                (y[c] - y[a]) + (dd[c] - dd[a]), (y[c + 1] - y[a + 1]) + (dd[c + 1] - dd[a + 1]),
                (y[c + 2] - y[a + 2]) + (dd[c + 2] - dd[a + 2]),
                (y[c] - y[b]) + (dd[c] - dd[b]), (y[c + 1] - y[b + 1]) + (dd[c + 1] - dd[b + 1]),
                (y[c + 2] - y[b + 2]) + (dd[c + 2] - dd[b + 2]),
                (y[d] - y[b]) + (dd[d] - dd[b]), (y[d + 1] - y[b + 1]) + (dd[d + 1] - dd[b + 1]),
                (y[d + 2] - y[b + 2]) + (dd[d + 2] - dd[b + 2]),
                (y[d] - y[a]) + (dd[d] - dd[a]), (y[d + 1] - y[a + 1]) + (dd[d + 1] - dd[a + 1]),
                (y[d + 2] - y[a + 2]) + (dd[d + 2] - dd[a + 2]), grad);
    }

    /** E = e1 − e0, P0 = o0 − e0, P1 = o0 − e1, Q0 = o1 − e1, Q1 = o1 − e0. */
    private static float fromDifferences(float ex, float ey, float ez, float p0x, float p0y, float p0z,
                                         float p1x, float p1y, float p1z, float q0x, float q0y, float q0z,
                                         float q1x, float q1y, float q1z, float[] grad) {
        float n1x = p0y * p1z - p0z * p1y;
        float n1y = p0z * p1x - p0x * p1z;
        float n1z = p0x * p1y - p0y * p1x;
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
