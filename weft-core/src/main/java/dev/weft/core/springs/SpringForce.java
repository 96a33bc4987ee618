package dev.weft.core.springs;

/**
 * One damped spring between particles a and b: its force (seed 000 eq. 2.13) and its Jacobians
 * (eqs. 4.7, 4.8). With L = x_a − x_b, l = |L|, n = L / l and Ċ = n · (v_a − v_b):
 * <pre>
 *   F_a       = −(k_s (l − rest) + k_d Ċ) n                         F_b = −F_a
 *   ∂F_a/∂x_a = −k_s n nᵀ − (k_s (l − rest) + k_d Ċ) / l · (I − n nᵀ)  = K
 *   ∂F_a/∂v_a = −k_d n nᵀ                                           = D
 * </pre>
 * and ∂F_a/∂x_b = ∂F_b/∂x_a = −K, ∂F_b/∂x_b = K (likewise for D). Eq. 4.7 keeps the k_d Ċ ∂²C/∂x²
 * term but drops the non-symmetric −k_d n (∂Ċ/∂x)ᵀ term, as Baraff and Witkin do, so K and D are
 * symmetric and the system matrix stays symmetric.
 *
 * <p>With {@code definite}, the transverse coefficient (k_s (l − rest) + k_d Ċ) / l is clamped at 0:
 * a compressed spring would otherwise make K indefinite (buckling), and the conjugate-gradient
 * system would lose positive definiteness (Choi and Ko 2002 make the same change).
 */
public final class SpringForce {
    /** Doubles written per spring by {@link #evaluate}: force (3), K (6), D (6). */
    public static final int STRIDE = 15;
    /** Offsets into the 15 values. K and D are symmetric: xx, xy, xz, yy, yz, zz. */
    public static final int FORCE = 0;
    public static final int DFDX = 3;
    public static final int DFDV = 9;
    /** Shorter than this (in metres) a spring has no direction. */
    private static final double MIN_LENGTH = 1e-12;

    private SpringForce() {
    }

    /**
     * Writes F_a, K and D for one spring into {@code out[o .. o + 15)}. Coincident particles have no
     * direction: the force is zero and K = −k_s I, D = −k_d I (isotropic, still symmetric definite).
     */
    public static void evaluate(double ax, double ay, double az, double bx, double by, double bz,
                                double avx, double avy, double avz, double bvx, double bvy, double bvz,
                                double rest, double ks, double kd, boolean definite, double[] out, int o) {
        double lx = ax - bx;
        double ly = ay - by;
        double lz = az - bz;
        double l = Math.sqrt(lx * lx + ly * ly + lz * lz);
        if (l < MIN_LENGTH) {
            writeCoincident(out, o, ks, kd);
            return;
        }
        double inv = 1.0 / l;
        double nx = lx * inv;
        double ny = ly * inv;
        double nz = lz * inv;
        double cDot = nx * (avx - bvx) + ny * (avy - bvy) + nz * (avz - bvz);
        double scalar = ks * (l - rest) + kd * cDot;
        out[o] = -scalar * nx;
        out[o + 1] = -scalar * ny;
        out[o + 2] = -scalar * nz;
        double t = scalar * inv;
        if (definite && t < 0.0) {
            t = 0.0;
        }
        writeJacobians(out, o, nx, ny, nz, t, ks, kd);
    }

    /**
     * K = −k_s n nᵀ − t (I − n nᵀ) = (t − k_s) n nᵀ − t I and D = −k_d n nᵀ. A method of its own so
     * that both halves stay small enough for the JIT to inline into the solvers' spring passes.
     */
    private static void writeJacobians(double[] out, int o, double nx, double ny, double nz, double t, double ks,
                                       double kd) {
        double c = t - ks;
        int k = o + DFDX;
        out[k] = c * nx * nx - t;
        out[k + 1] = c * nx * ny;
        out[k + 2] = c * nx * nz;
        out[k + 3] = c * ny * ny - t;
        out[k + 4] = c * ny * nz;
        out[k + 5] = c * nz * nz - t;
        int d = o + DFDV;
        out[d] = -kd * nx * nx;
        out[d + 1] = -kd * nx * ny;
        out[d + 2] = -kd * nx * nz;
        out[d + 3] = -kd * ny * ny;
        out[d + 4] = -kd * ny * nz;
        out[d + 5] = -kd * nz * nz;
    }

    /** Potential energy ½ k_s (l − rest)² of a spring (for energy checks). */
    public static double energy(double ax, double ay, double az, double bx, double by, double bz,
                                double rest, double ks) {
        double dx = ax - bx;
        double dy = ay - by;
        double dz = az - bz;
        double e = Math.sqrt(dx * dx + dy * dy + dz * dz) - rest;
        return 0.5 * ks * e * e;
    }

    private static void writeCoincident(double[] out, int o, double ks, double kd) {
        out[o] = 0.0;
        out[o + 1] = 0.0;
        out[o + 2] = 0.0;
        setIsotropic(out, o + DFDX, -ks);
        setIsotropic(out, o + DFDV, -kd);
    }

    private static void setIsotropic(double[] out, int k, double value) {
        out[k] = value;
        out[k + 1] = 0.0;
        out[k + 2] = 0.0;
        out[k + 3] = value;
        out[k + 4] = 0.0;
        out[k + 5] = value;
    }
}
