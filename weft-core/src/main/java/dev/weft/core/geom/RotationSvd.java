package dev.weft.core.geom;

/**
 * The singular value decomposition of a 3 × 3 matrix F = U Σ Vᵀ with U and V rotations (det = +1) and the
 * smallest singular value signed: negative where F turns a tetrahedron inside out (det F &lt; 0). This
 * "rotation-variant" form (Irving et al. 2004) is what elasticity wants: U Vᵀ is then the rotation nearest to F
 * even for an inverted element, never a reflection.
 *
 * <p>Computed in double: Jacobi's eigenvalue method on FᵀF gives V and σ², then U's columns from F V. The
 * identity comes out exact (U = V = I, Σ = I): FᵀF has no off-diagonal to rotate away, so a solid at rest
 * sees exactly zero strain. No allocation: every result goes into the caller's array.
 */
public final class RotationSvd {
    /** Layout of the result array: U row by row (9), σ (3), V row by row (9). */
    public static final int U = 0;
    public static final int SIGMA = 9;
    public static final int V = 12;
    /** Doubles the caller's array must hold. */
    public static final int SIZE = 21;

    private static final int SWEEPS = 12;

    private RotationSvd() {
    }

    /**
     * Decomposes {@code f} (row by row, 9 values from {@code offset}) into {@code out} ({@link #SIZE} doubles:
     * U at {@link #U}, σ₁ ≥ σ₂ ≥ |σ₃| at {@link #SIGMA}, V at {@link #V}). All in local variables (an array
     * version of the same rotations measured 500 ns, this one 415–445 ns: the time is the rotations' chain of
     * square roots and divisions, about 2.8 sweeps of three on a near-rotation, which is why PD's target uses
     * it only where F is squashed or inverted).
     */
    public static void decompose(double[] f, int offset, double[] out) {
        double f00 = f[offset];
        double f01 = f[offset + 1];
        double f02 = f[offset + 2];
        double f10 = f[offset + 3];
        double f11 = f[offset + 4];
        double f12 = f[offset + 5];
        double f20 = f[offset + 6];
        double f21 = f[offset + 7];
        double f22 = f[offset + 8];
        // A = FᵀF, symmetric
        double a00 = f00 * f00 + f10 * f10 + f20 * f20;
        double a01 = f00 * f01 + f10 * f11 + f20 * f21;
        double a02 = f00 * f02 + f10 * f12 + f20 * f22;
        double a11 = f01 * f01 + f11 * f11 + f21 * f21;
        double a12 = f01 * f02 + f11 * f12 + f21 * f22;
        double a22 = f02 * f02 + f12 * f12 + f22 * f22;
        double v00 = 1;
        double v01 = 0;
        double v02 = 0;
        double v10 = 0;
        double v11 = 1;
        double v12 = 0;
        double v20 = 0;
        double v21 = 0;
        double v22 = 1;
        // cyclic Jacobi: each rotation zeroes one off-diagonal entry (A ← Jᵀ A J, V ← V J)
        for (int sweep = 0; sweep < SWEEPS; sweep++) {
            double off = a01 * a01 + a02 * a02 + a12 * a12;
            if (!(off > 1e-16 * (a00 * a00 + a11 * a11 + a22 * a22))) {
                break;
            }
            if (a01 != 0) {
                double t = tangent(a00, a11, a01);
                double c = 1 / Math.sqrt(t * t + 1);
                double s = t * c;
                a00 -= t * a01;
                a11 += t * a01;
                a01 = 0;
                double x = a02;
                a02 = c * x - s * a12;
                a12 = s * x + c * a12;
                x = v00;
                v00 = c * x - s * v01;
                v01 = s * x + c * v01;
                x = v10;
                v10 = c * x - s * v11;
                v11 = s * x + c * v11;
                x = v20;
                v20 = c * x - s * v21;
                v21 = s * x + c * v21;
            }
            if (a02 != 0) {
                double t = tangent(a00, a22, a02);
                double c = 1 / Math.sqrt(t * t + 1);
                double s = t * c;
                a00 -= t * a02;
                a22 += t * a02;
                a02 = 0;
                double x = a01;
                a01 = c * x - s * a12;
                a12 = s * x + c * a12;
                x = v00;
                v00 = c * x - s * v02;
                v02 = s * x + c * v02;
                x = v10;
                v10 = c * x - s * v12;
                v12 = s * x + c * v12;
                x = v20;
                v20 = c * x - s * v22;
                v22 = s * x + c * v22;
            }
            if (a12 != 0) {
                double t = tangent(a11, a22, a12);
                double c = 1 / Math.sqrt(t * t + 1);
                double s = t * c;
                a11 -= t * a12;
                a22 += t * a12;
                a12 = 0;
                double x = a01;
                a01 = c * x - s * a02;
                a02 = s * x + c * a02;
                x = v01;
                v01 = c * x - s * v02;
                v02 = s * x + c * v02;
                x = v11;
                v11 = c * x - s * v12;
                v12 = s * x + c * v12;
                x = v21;
                v21 = c * x - s * v22;
                v22 = s * x + c * v22;
            }
        }
        // V's columns in descending order of the eigenvalues (bubble sort of three, swapping columns)
        if (a00 < a11) {
            double x = a00;
            a00 = a11;
            a11 = x;
            x = v00;
            v00 = v01;
            v01 = x;
            x = v10;
            v10 = v11;
            v11 = x;
            x = v20;
            v20 = v21;
            v21 = x;
        }
        if (a11 < a22) {
            double x = a11;
            a11 = a22;
            a22 = x;
            x = v01;
            v01 = v02;
            v02 = x;
            x = v11;
            v11 = v12;
            v12 = x;
            x = v21;
            v21 = v22;
            v22 = x;
        }
        if (a00 < a11) {
            double x = v00;
            v00 = v01;
            v01 = x;
            x = v10;
            v10 = v11;
            v11 = x;
            x = v20;
            v20 = v21;
            v21 = x;
        }
        // V a rotation: det < 0 flips its last column (σ₃ then comes out negative for an inverted F)
        double detV = v00 * (v11 * v22 - v12 * v21) - v01 * (v10 * v22 - v12 * v20) + v02 * (v10 * v21 - v11 * v20);
        if (detV < 0) {
            v02 = -v02;
            v12 = -v12;
            v22 = -v22;
        }
        // F V's columns; u1 along the first, u2 along the second's part normal to u1, u3 = u1 × u2
        double b00 = f00 * v00 + f01 * v10 + f02 * v20;
        double b10 = f10 * v00 + f11 * v10 + f12 * v20;
        double b20 = f20 * v00 + f21 * v10 + f22 * v20;
        double b01 = f00 * v01 + f01 * v11 + f02 * v21;
        double b11 = f10 * v01 + f11 * v11 + f12 * v21;
        double b21 = f20 * v01 + f21 * v11 + f22 * v21;
        double b02 = f00 * v02 + f01 * v12 + f02 * v22;
        double b12 = f10 * v02 + f11 * v12 + f12 * v22;
        double b22 = f20 * v02 + f21 * v12 + f22 * v22;
        double n1 = Math.sqrt(b00 * b00 + b10 * b10 + b20 * b20);
        double u00;
        double u10;
        double u20;
        if (n1 > 1e-30) {
            u00 = b00 / n1;
            u10 = b10 / n1;
            u20 = b20 / n1;
        } else {
            u00 = 1;
            u10 = 0;
            u20 = 0;
        }
        double along = u00 * b01 + u10 * b11 + u20 * b21;
        double u01 = b01 - along * u00;
        double u11 = b11 - along * u10;
        double u21 = b21 - along * u20;
        double n2 = Math.sqrt(u01 * u01 + u11 * u11 + u21 * u21);
        if (n2 > 1e-12 * Math.max(n1, 1e-30)) {
            u01 /= n2;
            u11 /= n2;
            u21 /= n2;
        } else {
            // F of rank one or zero: any unit vector normal to u1
            double ax = Math.abs(u00) < 0.6 ? 1 : 0;
            double ay = 1 - ax;
            double a = u00 * ax + u10 * ay;
            u01 = ax - a * u00;
            u11 = ay - a * u10;
            u21 = -a * u20;
            double n = Math.sqrt(u01 * u01 + u11 * u11 + u21 * u21);
            u01 /= n;
            u11 /= n;
            u21 /= n;
        }
        double u02 = u10 * u21 - u20 * u11;
        double u12 = u20 * u01 - u00 * u21;
        double u22 = u00 * u11 - u10 * u01;
        out[U] = u00;
        out[U + 1] = u01;
        out[U + 2] = u02;
        out[U + 3] = u10;
        out[U + 4] = u11;
        out[U + 5] = u12;
        out[U + 6] = u20;
        out[U + 7] = u21;
        out[U + 8] = u22;
        out[SIGMA] = u00 * b00 + u10 * b10 + u20 * b20;
        out[SIGMA + 1] = u01 * b01 + u11 * b11 + u21 * b21;
        out[SIGMA + 2] = u02 * b02 + u12 * b12 + u22 * b22;
        out[V] = v00;
        out[V + 1] = v01;
        out[V + 2] = v02;
        out[V + 3] = v10;
        out[V + 4] = v11;
        out[V + 5] = v12;
        out[V + 6] = v20;
        out[V + 7] = v21;
        out[V + 8] = v22;
    }

    /** tan of the Jacobi angle that zeroes apq between app and aqq (the smaller root, for stability). */
    private static double tangent(double app, double aqq, double apq) {
        double theta = (aqq - app) / (2 * apq);
        if (theta == 0) {
            return 1;
        }
        return Math.signum(theta) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
    }
}
