package dev.weft.core.geom;

/**
 * Bergou, Wardetzky, Harmon, Zorin and Grinspun 2006, "A Quadratic Bending Model for Inextensible
 * Surfaces": on a bending stencil (edge e0–e1, opposite vertices o0 in triangle (e0, e1, o0) and o1 in
 * (e0, e1, o1)) the discrete mean-curvature vector of the stencil is H = Σ_j K_j x_j with four constant
 * cotangent weights K from the rest triangles,
 * <pre>
 *   K = (c03 + c04, c01 + c02, −c01 − c03, −c02 − c04)
 * </pre>
 * where c01, c02 are the cotangents of the interior angles at e0 in the triangles of o0 and o1, and c03,
 * c04 those at e1. H is 0 for any flat placement of a flat stencil (the cotangent Laplacian is exact on
 * linear functions) and linear in the positions, so ½k‖H‖² is quadratic: its gradient is k K_j H and its
 * Hessian the constant k K Kᵀ ⊗ I₃.
 *
 * <p>The weights sum to 0, so H = Σ_{j≥1} K_j (x_j − x_e0): computed from differences, exact for nearby
 * particles wherever they are. K_e0 is stored as −(K_e1 + K_o0 + K_o1) in float, so the four weights sum
 * to 0 and the corrections Δx_j ∝ K_j conserve momentum as exactly as the arithmetic allows.
 */
public final class IsometricBending {
    private IsometricBending() {
    }

    /**
     * The weights K of stencil (e0, e1, o0, o1) at rest positions {@code x}, into {@code out[off..off+3]}
     * (order e0, e1, o0, o1). Returns false (weights 0) when a triangle is degenerate.
     */
    public static boolean weights(float[] x, int e0, int e1, int o0, int o1, float[] out, int off) {
        double c01 = cotangent(x, e0, e1, o0);
        double c02 = cotangent(x, e0, e1, o1);
        double c03 = cotangent(x, e1, e0, o0);
        double c04 = cotangent(x, e1, e0, o1);
        if (!(Double.isFinite(c01) && Double.isFinite(c02) && Double.isFinite(c03) && Double.isFinite(c04))) {
            out[off] = 0f;
            out[off + 1] = 0f;
            out[off + 2] = 0f;
            out[off + 3] = 0f;
            return false;
        }
        float k1 = (float) (c01 + c02);
        float k2 = (float) (-c01 - c03);
        float k3 = (float) (-c02 - c04);
        out[off] = -(k1 + k2 + k3);
        out[off + 1] = k1;
        out[off + 2] = k2;
        out[off + 3] = k3;
        return true;
    }

    /** Cotangent of the interior angle at {@code at} of triangle (at, b, c), in double; NaN if degenerate. */
    private static double cotangent(float[] x, int at, int b, int c) {
        double ux = (double) x[3 * b] - x[3 * at];
        double uy = (double) x[3 * b + 1] - x[3 * at + 1];
        double uz = (double) x[3 * b + 2] - x[3 * at + 2];
        double vx = (double) x[3 * c] - x[3 * at];
        double vy = (double) x[3 * c + 1] - x[3 * at + 1];
        double vz = (double) x[3 * c + 2] - x[3 * at + 2];
        double cx = uy * vz - uz * vy;
        double cy = uz * vx - ux * vz;
        double cz = ux * vy - uy * vx;
        double sin = Math.sqrt(cx * cx + cy * cy + cz * cz);
        return sin > 0 ? (ux * vx + uy * vy + uz * vz) / sin : Double.NaN;
    }

    /**
     * H = Σ_j K_j x_j of stencil (e0, e1, o0, o1) with weights {@code k[off..off+3]}, each position given
     * as y + d (see {@code StepPositions}; {@code d} may be null for plain positions), into {@code h[0..2]};
     * returns ‖H‖. The arithmetic is the XPBD projection's, in the same order, so a stencil's rest value
     * computed here is what the solver computes at rest, bit for bit.
     */
    public static float curvature(float[] y, float[] d, int e0, int e1, int o0, int o1, float[] k, int off,
                                  float[] h) {
        int a = 3 * e0;
        int b = 3 * e1;
        int c = 3 * o0;
        int e = 3 * o1;
        float k1 = k[off + 1];
        float k2 = k[off + 2];
        float k3 = k[off + 3];
        float hx;
        float hy;
        float hz;
        if (d == null) {
            hx = k1 * (y[b] - y[a]) + k2 * (y[c] - y[a]) + k3 * (y[e] - y[a]);
            hy = k1 * (y[b + 1] - y[a + 1]) + k2 * (y[c + 1] - y[a + 1]) + k3 * (y[e + 1] - y[a + 1]);
            hz = k1 * (y[b + 2] - y[a + 2]) + k2 * (y[c + 2] - y[a + 2]) + k3 * (y[e + 2] - y[a + 2]);
        } else {
            float dax = d[a];
            float day = d[a + 1];
            float daz = d[a + 2];
            hx = k1 * ((y[b] - y[a]) + (d[b] - dax)) + k2 * ((y[c] - y[a]) + (d[c] - dax))
                    + k3 * ((y[e] - y[a]) + (d[e] - dax));
            hy = k1 * ((y[b + 1] - y[a + 1]) + (d[b + 1] - day)) + k2 * ((y[c + 1] - y[a + 1]) + (d[c + 1] - day))
                    + k3 * ((y[e + 1] - y[a + 1]) + (d[e + 1] - day));
            hz = k1 * ((y[b + 2] - y[a + 2]) + (d[b + 2] - daz)) + k2 * ((y[c + 2] - y[a + 2]) + (d[c + 2] - daz))
                    + k3 * ((y[e + 2] - y[a + 2]) + (d[e + 2] - daz));
        }
        h[0] = hx;
        h[1] = hy;
        h[2] = hz;
        return (float) Math.sqrt(hx * hx + hy * hy + hz * hz);
    }
}
