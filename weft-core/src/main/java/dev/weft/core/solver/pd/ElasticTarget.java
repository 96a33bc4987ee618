package dev.weft.core.solver.pd;

import dev.weft.core.geom.PolarRotation;
import dev.weft.core.geom.RotationSvd;

/**
 * PD's projection of one tetrahedron's deformation gradient F: the target P = a_s R + (1 − a_s) P_v, R the
 * rotation nearest to F (strain), P_v the nearest F of determinant 1 (volume), returned as P − F so that F = I
 * gives exactly 0.
 *
 * <p>Where F keeps its orientation with some volume (det F &gt; {@link #NEWTON_MIN_DET}), R comes from Newton's
 * polar iteration X ← ½ (X + X⁻ᵀ) ({@link PolarRotation}, quadratic near a rotation, about four steps) and P_v from Gauss–Newton steps
 * F ← F − (det F − 1) cof F / ‖cof F‖² onto det = 1 (to first order the nearest point, as with singular
 * values): each step one division, against the Jacobi SVD's chain of square roots and divisions (measured
 * 415–500 ns a tetrahedron). A squashed or inverted F takes the rotation-variant SVD ({@link RotationSvd}): its R
 * is a rotation even where F is a reflection, so an inverted tetrahedron is pulled back, not kept inverted.
 */
final class ElasticTarget {
    /** Below this det F the SVD path decides (Newton's iteration converges slowly near a singular F). */
    static final double NEWTON_MIN_DET = PolarRotation.NEWTON_MIN_DET;
    private static final int VOLUME_STEPS = 10;

    private ElasticTarget() {
    }

    /**
     * P − F into {@code out} (9 doubles, row by row) for F = {@code f}; {@code svd} is scratch of
     * {@link RotationSvd#SIZE} doubles.
     */
    static void targetMinusF(double[] f, float strainShare, double[] svd, double[] out) {
        double f00 = f[0];
        double f01 = f[1];
        double f02 = f[2];
        double f10 = f[3];
        double f11 = f[4];
        double f12 = f[5];
        double f20 = f[6];
        double f21 = f[7];
        double f22 = f[8];
        double det = f00 * (f11 * f22 - f12 * f21) - f01 * (f10 * f22 - f12 * f20) + f02 * (f10 * f21 - f11 * f20);
        if (!(det > NEWTON_MIN_DET)) {
            bySvd(f, strainShare, svd, out);
            return;
        }
        // R by Newton's polar iteration, into out (read back before each of its entries is overwritten below)
        PolarRotation.byNewton(f, out);
        // P_v: Gauss–Newton onto det = 1 along the cofactor (det's gradient)
        double p00 = f00;
        double p01 = f01;
        double p02 = f02;
        double p10 = f10;
        double p11 = f11;
        double p12 = f12;
        double p20 = f20;
        double p21 = f21;
        double p22 = f22;
        for (int it = 0; it < VOLUME_STEPS; it++) {
            double c00 = p11 * p22 - p12 * p21;
            double c01 = p12 * p20 - p10 * p22;
            double c02 = p10 * p21 - p11 * p20;
            double c10 = p02 * p21 - p01 * p22;
            double c11 = p00 * p22 - p02 * p20;
            double c12 = p01 * p20 - p00 * p21;
            double c20 = p01 * p12 - p02 * p11;
            double c21 = p02 * p10 - p00 * p12;
            double c22 = p00 * p11 - p01 * p10;
            double c = p00 * c00 + p01 * c01 + p02 * c02 - 1;
            if (!(Math.abs(c) > 1e-12)) {
                break;
            }
            double step = c / (c00 * c00 + c01 * c01 + c02 * c02 + c10 * c10 + c11 * c11 + c12 * c12 + c20 * c20
                    + c21 * c21 + c22 * c22);
            p00 -= step * c00;
            p01 -= step * c01;
            p02 -= step * c02;
            p10 -= step * c10;
            p11 -= step * c11;
            p12 -= step * c12;
            p20 -= step * c20;
            p21 -= step * c21;
            p22 -= step * c22;
        }
        double a = strainShare;
        double b = 1 - a;
        out[0] = a * (out[0] - f00) + b * (p00 - f00);
        out[1] = a * (out[1] - f01) + b * (p01 - f01);
        out[2] = a * (out[2] - f02) + b * (p02 - f02);
        out[3] = a * (out[3] - f10) + b * (p10 - f10);
        out[4] = a * (out[4] - f11) + b * (p11 - f11);
        out[5] = a * (out[5] - f12) + b * (p12 - f12);
        out[6] = a * (out[6] - f20) + b * (p20 - f20);
        out[7] = a * (out[7] - f21) + b * (p21 - f21);
        out[8] = a * (out[8] - f22) + b * (p22 - f22);
    }

    private static double sq(double x) {
        return x * x;
    }

    /** The same target from F = U Σ Vᵀ (rotation-variant): P − F = U (Σ_target − Σ) Vᵀ. */
    static void bySvd(double[] f, float strainShare, double[] s, double[] out) {
        RotationSvd.decompose(f, 0, s);
        targetSingularValues(s, RotationSvd.SIGMA, strainShare);
        int u = RotationSvd.U;
        int v = RotationSvd.V;
        double d0 = s[RotationSvd.SIGMA];
        double d1 = s[RotationSvd.SIGMA + 1];
        double d2 = s[RotationSvd.SIGMA + 2];
        for (int r = 0; r < 3; r++) {
            double u0 = s[u + 3 * r] * d0;
            double u1 = s[u + 3 * r + 1] * d1;
            double u2 = s[u + 3 * r + 2] * d2;
            out[3 * r] = u0 * s[v] + u1 * s[v + 1] + u2 * s[v + 2];
            out[3 * r + 1] = u0 * s[v + 3] + u1 * s[v + 4] + u2 * s[v + 5];
            out[3 * r + 2] = u0 * s[v + 6] + u1 * s[v + 7] + u2 * s[v + 8];
        }
    }

    /**
     * Replaces σ (3 doubles at {@code o}) by Σ_target − σ: the strain target 1 and the volume target σ' (the
     * nearest singular values with σ'₁σ'₂σ'₃ = 1, by Gauss–Newton steps onto that surface), mixed by their
     * weights.
     */
    static void targetSingularValues(double[] s, int o, float strainShare) {
        double s0 = s[o];
        double s1 = s[o + 1];
        double s2 = s[o + 2];
        double v0 = s0;
        double v1 = s1;
        double v2 = s2;
        for (int it = 0; it < 20; it++) {
            double c = v0 * v1 * v2 - 1.0;
            if (Math.abs(c) < 1e-12) {
                break;
            }
            double g0 = v1 * v2;
            double g1 = v0 * v2;
            double g2 = v0 * v1;
            double gg = g0 * g0 + g1 * g1 + g2 * g2;
            if (!(gg > 1e-30)) {
                break;
            }
            double step = c / gg;
            v0 -= step * g0;
            v1 -= step * g1;
            v2 -= step * g2;
        }
        double ws = strainShare;
        double wv = 1.0 - ws;
        s[o] = ws * (1.0 - s0) + wv * (v0 - s0);
        s[o + 1] = ws * (1.0 - s1) + wv * (v1 - s1);
        s[o + 2] = ws * (1.0 - s2) + wv * (v2 - s2);
    }

}
