package dev.weft.core.geom;

/**
 * The rotation R nearest to a 3 × 3 matrix F (the rotation of its polar decomposition F = R S), for elasticity's
 * co-rotated and projective terms. Where F keeps its orientation with some volume (det F &gt; {@link
 * #NEWTON_MIN_DET}) Newton's polar iteration X ← ½ (X + X⁻ᵀ), X⁻ᵀ = cof X / det X: quadratic near a rotation,
 * about four steps of one division each, against the Jacobi SVD's chain of square roots and divisions (measured
 * 415–500 ns a matrix). A squashed or inverted F takes the rotation-variant SVD ({@link RotationSvd}): its U Vᵀ is
 * a rotation even where F is a reflection, so an inverted element is pulled back, not kept inverted. F = I gives
 * R = I exactly either way. No allocation: results go into the caller's arrays.
 */
public final class PolarRotation {
    /** Below this det F the SVD decides (Newton's iteration converges slowly near a singular F). */
    public static final double NEWTON_MIN_DET = 0.05;
    private static final int STEPS = 30;

    private PolarRotation() {
    }

    /** R nearest to {@code f} (row by row, 9 values) into {@code out} (9); {@code svd}: {@link RotationSvd#SIZE} doubles of scratch. */
    public static void nearest(double[] f, double[] svd, double[] out) {
        double det = f[0] * (f[4] * f[8] - f[5] * f[7]) - f[1] * (f[3] * f[8] - f[5] * f[6])
                + f[2] * (f[3] * f[7] - f[4] * f[6]);
        if (det > NEWTON_MIN_DET) {
            byNewton(f, out);
            return;
        }
        RotationSvd.decompose(f, 0, svd);
        int u = RotationSvd.U;
        int v = RotationSvd.V;
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                out[3 * r + c] = svd[u + 3 * r] * svd[v + 3 * c] + svd[u + 3 * r + 1] * svd[v + 3 * c + 1]
                        + svd[u + 3 * r + 2] * svd[v + 3 * c + 2];
            }
        }
    }

    /**
     * R by Newton's polar iteration from {@code f} (row by row) into {@code out} (may not be {@code f}); for F with
     * det F &gt; {@link #NEWTON_MIN_DET} (the caller decides).
     */
    public static void byNewton(double[] f, double[] out) {
        double f00 = f[0];
        double f01 = f[1];
        double f02 = f[2];
        double f10 = f[3];
        double f11 = f[4];
        double f12 = f[5];
        double f20 = f[6];
        double f21 = f[7];
        double f22 = f[8];
        double x00 = f00;
        double x01 = f01;
        double x02 = f02;
        double x10 = f10;
        double x11 = f11;
        double x12 = f12;
        double x20 = f20;
        double x21 = f21;
        double x22 = f22;
        for (int it = 0; it < STEPS; it++) {
            double c00 = x11 * x22 - x12 * x21;
            double c01 = x12 * x20 - x10 * x22;
            double c02 = x10 * x21 - x11 * x20;
            double c10 = x02 * x21 - x01 * x22;
            double c11 = x00 * x22 - x02 * x20;
            double c12 = x01 * x20 - x00 * x21;
            double c20 = x01 * x12 - x02 * x11;
            double c21 = x02 * x10 - x00 * x12;
            double c22 = x00 * x11 - x01 * x10;
            double inv = 1 / (x00 * c00 + x01 * c01 + x02 * c02);
            double y00 = 0.5 * (x00 + c00 * inv);
            double y01 = 0.5 * (x01 + c01 * inv);
            double y02 = 0.5 * (x02 + c02 * inv);
            double y10 = 0.5 * (x10 + c10 * inv);
            double y11 = 0.5 * (x11 + c11 * inv);
            double y12 = 0.5 * (x12 + c12 * inv);
            double y20 = 0.5 * (x20 + c20 * inv);
            double y21 = 0.5 * (x21 + c21 * inv);
            double y22 = 0.5 * (x22 + c22 * inv);
            double change = sq(y00 - x00) + sq(y01 - x01) + sq(y02 - x02) + sq(y10 - x10) + sq(y11 - x11)
                    + sq(y12 - x12) + sq(y20 - x20) + sq(y21 - x21) + sq(y22 - x22);
            x00 = y00;
            x01 = y01;
            x02 = y02;
            x10 = y10;
            x11 = y11;
            x12 = y12;
            x20 = y20;
            x21 = y21;
            x22 = y22;
            // quadratic convergence: a step of 1e-9 leaves an error of about 1e-18, far below float's
            if (!(change > 1e-18)) {
                break;
            }
        }
        out[0] = x00;
        out[1] = x01;
        out[2] = x02;
        out[3] = x10;
        out[4] = x11;
        out[5] = x12;
        out[6] = x20;
        out[7] = x21;
        out[8] = x22;
    }

    private static double sq(double x) {
        return x * x;
    }
}
