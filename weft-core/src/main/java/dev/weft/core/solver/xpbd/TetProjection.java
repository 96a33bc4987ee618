package dev.weft.core.solver.xpbd;

import dev.weft.core.model.Incidence;
import dev.weft.core.model.Model;
import dev.weft.core.model.TetConstraints;
import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;

/**
 * XPBD's pass over the tetrahedra of soft bodies ({@link TetConstraints}): per tetrahedron two
 * constraints, projected one after the other (Gauss–Seidel within the tetrahedron),
 * <ul>
 *   <li>volume: C = 6 (V − V₀), compliance 36 V₀ / λ (0 where incompressible), the energy λ V₀/2 (J − 1)²;</li>
 *   <li>shape (where μ > 0): C = ‖E‖ with E = ½ (FᵀF − I) Green's strain, compliance 1 / (2 μ V₀), the energy
 *       μ V₀ ‖E‖² (Müller et al. 2014's strain-based dynamics as one constraint).</li>
 * </ul>
 * Together, for small strain, linear elasticity's energy V₀ (μ ‖ε‖² + λ/2 (tr ε)²); both are blind to
 * rotations. Green's strain needs no polar decomposition (the co-rotated ‖F − R‖ costs a 3 × 3 polar
 * decomposition per projection, about three times this one's work); under a hard squeeze its shape energy
 * softens, and the volume term is what holds the body open (λ > 0 wherever ν > 0).
 *
 * <p>6 V₀ and E's rest value are computed once by the same float operations the projection uses, so a
 * body in its rest shape sees C = 0 exactly and stays put. Edges are differences of predictions plus
 * differences of corrections, so a body far from the origin keeps its precision.
 */
final class TetProjection {
    private final int[] tets;
    private final float[] restInverse;
    private final float[] sixRest;
    /** Green's strain of the rest shape as the projection computes it: xx, yy, zz, xy, yz, zx per tetrahedron. */
    private final float[] strainRest;
    private final float[] volumeCompliance;
    private final float[] shapeCompliance;
    private final float[] volumeAlpha;
    private final float[] shapeAlpha;
    private final float[] volumeLambda;
    private final float[] shapeLambda;
    private final int[] colorStart;
    private final int[] natural;
    private final float[] y;
    private final float[] d;
    private final float[] w;
    private final IterationMode mode;
    private final WorkerPool pool;
    private final JacobiGather gather;
    private final float[] correction;
    private final float[] jacobiWeight;
    private float h = Float.NaN;
    private final RangeBody colorBody = this::projectRange;
    private final RangeBody jacobiBody = this::jacobiCorrections;
    private final RangeBody gatherBody;

    TetProjection(Model m, float[] predicted, float[] corrections, float[] invMass, IterationMode mode,
                  WorkerPool pool) {
        TetConstraints t = m.tets();
        this.tets = t.particles();
        this.restInverse = t.restInverse();
        this.y = predicted;
        this.d = corrections;
        this.w = invMass;
        this.mode = mode;
        this.pool = pool;
        this.colorStart = t.colorStart();
        this.natural = t.naturalOrder();
        int count = t.count();
        float[] v0 = t.restVolume();
        float[] mu = t.shearModulus();
        float[] lambda = t.lameLambda();
        volumeCompliance = new float[count];
        shapeCompliance = new float[count];
        for (int c = 0; c < count; c++) {
            // λ = +∞: incompressible (α = 0); λ = 0 (ν = 0): no volume term (α = +∞, skipped like a shape of μ = 0)
            volumeCompliance[c] = lambda[c] == Float.POSITIVE_INFINITY ? 0f
                    : lambda[c] > 0f ? (float) (36.0 * v0[c] / lambda[c]) : Float.POSITIVE_INFINITY;
            shapeCompliance[c] = mu[c] > 0f ? (float) (1.0 / (2.0 * mu[c] * v0[c])) : Float.POSITIVE_INFINITY;
        }
        volumeAlpha = new float[count];
        shapeAlpha = new float[count];
        volumeLambda = new float[count];
        shapeLambda = new float[count];
        sixRest = new float[count];
        strainRest = new float[6 * count];
        // the rest values by project's own operations on the rest positions (no corrections: d = 0)
        float[] rest = m.restPositions();
        float[] zero = new float[rest.length];
        for (int c = 0; c < count; c++) {
            restValues(rest, zero, c);
        }
        if (mode == IterationMode.JACOBI) {
            gather = new JacobiGather(tets, Incidence.of(tets, 4, m.particleCount()));
            correction = new float[3 * tets.length];
            jacobiWeight = gather.sharedWeights();
            gatherBody = (b, end) -> gather.apply(correction, d, w, b, end);
        } else {
            gather = null;
            correction = null;
            jacobiWeight = null;
            gatherBody = null;
        }
    }

    boolean isEmpty() {
        return sixRest.length == 0;
    }

    /** A new step (or relaxation) of length dt: multipliers to 0, compliances over dt². */
    void begin(float dt) {
        java.util.Arrays.fill(volumeLambda, 0f);
        java.util.Arrays.fill(shapeLambda, 0f);
        if (dt != h) {
            h = dt;
            float invH2 = 1f / (dt * dt);
            for (int c = 0; c < sixRest.length; c++) {
                volumeAlpha[c] = Math.min(volumeCompliance[c] * invH2, Float.MAX_VALUE);
                shapeAlpha[c] = Math.min(shapeCompliance[c] * invH2, Float.MAX_VALUE);
            }
        }
    }

    /** One sweep over every tetrahedron in the iteration mode. */
    void sweep() {
        switch (mode) {
            case COLORED:
                for (int c = 0; c + 1 < colorStart.length; c++) {
                    pool.parallelFor(colorStart[c], colorStart[c + 1], colorBody);
                }
                break;
            case GAUSS_SEIDEL:
                // forward, then backward (one direction alone gains energy, IterationMode.GAUSS_SEIDEL)
                for (int k = 0; k < natural.length; k++) {
                    project(natural[k], false);
                }
                for (int k = natural.length - 1; k >= 0; k--) {
                    project(natural[k], false);
                }
                break;
            case JACOBI:
                pool.parallelFor(0, sixRest.length, jacobiBody);
                pool.parallelFor(0, w.length, gatherBody);
                break;
            default:
                throw new AssertionError(mode);
        }
    }

    private void projectRange(int begin, int end) {
        for (int c = begin; c < end; c++) {
            project(c, false);
        }
    }

    private void jacobiCorrections(int begin, int end) {
        for (int c = begin; c < end; c++) {
            java.util.Arrays.fill(correction, 12 * c, 12 * c + 12, 0f);
            project(c, true);
        }
    }

    /**
     * Volume, then shape, of tetrahedron c. Gauss–Seidel ({@code jacobi} false): each moves the corrections d
     * at once, so the shape sees the volume's move. Jacobi: both from the same positions, scaled by the
     * tetrahedron's shared weight, summed into its 12 correction slots for the gather.
     */
    private void project(int c, boolean jacobi) {
        int a = 3 * tets[4 * c];
        int b = 3 * tets[4 * c + 1];
        int e = 3 * tets[4 * c + 2];
        int f = 3 * tets[4 * c + 3];
        float wa = w[a / 3];
        float wb = w[b / 3];
        float we = w[e / 3];
        float wf = w[f / 3];
        float weight = jacobi ? jacobiWeight[c] : 1f;
        if (volumeAlpha[c] < Float.MAX_VALUE) {
            float e1x = (y[b] - y[a]) + (d[b] - d[a]);
            float e1y = (y[b + 1] - y[a + 1]) + (d[b + 1] - d[a + 1]);
            float e1z = (y[b + 2] - y[a + 2]) + (d[b + 2] - d[a + 2]);
            float e2x = (y[e] - y[a]) + (d[e] - d[a]);
            float e2y = (y[e + 1] - y[a + 1]) + (d[e + 1] - d[a + 1]);
            float e2z = (y[e + 2] - y[a + 2]) + (d[e + 2] - d[a + 2]);
            float e3x = (y[f] - y[a]) + (d[f] - d[a]);
            float e3y = (y[f + 1] - y[a + 1]) + (d[f + 1] - d[a + 1]);
            float e3z = (y[f + 2] - y[a + 2]) + (d[f + 2] - d[a + 2]);
            // gradients of 6V = e1 . (e2 x e3) at corners 1, 2, 3; corner 0 balances them
            float g1x = e2y * e3z - e2z * e3y;
            float g1y = e2z * e3x - e2x * e3z;
            float g1z = e2x * e3y - e2y * e3x;
            float g2x = e3y * e1z - e3z * e1y;
            float g2y = e3z * e1x - e3x * e1z;
            float g2z = e3x * e1y - e3y * e1x;
            float g3x = e1y * e2z - e1z * e2y;
            float g3y = e1z * e2x - e1x * e2z;
            float g3z = e1x * e2y - e1y * e2x;
            float constraint = e1x * g1x + e1y * g1y + e1z * g1z - sixRest[c];
            float dl = multiplier(constraint, volumeAlpha[c], volumeLambda, c, weight, wa, wb, we, wf,
                    g1x, g1y, g1z, g2x, g2y, g2z, g3x, g3y, g3z);
            if (dl != 0f) {
                move(c, jacobi, dl, a, b, e, f, wa, wb, we, wf, g1x, g1y, g1z, g2x, g2y, g2z, g3x, g3y, g3z);
            }
        }
        if (shapeAlpha[c] < Float.MAX_VALUE) {
            float e1x = (y[b] - y[a]) + (d[b] - d[a]);
            float e1y = (y[b + 1] - y[a + 1]) + (d[b + 1] - d[a + 1]);
            float e1z = (y[b + 2] - y[a + 2]) + (d[b + 2] - d[a + 2]);
            float e2x = (y[e] - y[a]) + (d[e] - d[a]);
            float e2y = (y[e + 1] - y[a + 1]) + (d[e + 1] - d[a + 1]);
            float e2z = (y[e + 2] - y[a + 2]) + (d[e + 2] - d[a + 2]);
            float e3x = (y[f] - y[a]) + (d[f] - d[a]);
            float e3y = (y[f + 1] - y[a + 1]) + (d[f + 1] - d[a + 1]);
            float e3z = (y[f + 2] - y[a + 2]) + (d[f + 2] - d[a + 2]);
            int r = 9 * c;
            float m00 = restInverse[r];
            float m01 = restInverse[r + 1];
            float m02 = restInverse[r + 2];
            float m10 = restInverse[r + 3];
            float m11 = restInverse[r + 4];
            float m12 = restInverse[r + 5];
            float m20 = restInverse[r + 6];
            float m21 = restInverse[r + 7];
            float m22 = restInverse[r + 8];
            // F = D_s D_m^-1 (D_s's columns the edges)
            float f00 = e1x * m00 + e2x * m10 + e3x * m20;
            float f01 = e1x * m01 + e2x * m11 + e3x * m21;
            float f02 = e1x * m02 + e2x * m12 + e3x * m22;
            float f10 = e1y * m00 + e2y * m10 + e3y * m20;
            float f11 = e1y * m01 + e2y * m11 + e3y * m21;
            float f12 = e1y * m02 + e2y * m12 + e3y * m22;
            float f20 = e1z * m00 + e2z * m10 + e3z * m20;
            float f21 = e1z * m01 + e2z * m11 + e3z * m21;
            float f22 = e1z * m02 + e2z * m12 + e3z * m22;
            // Green's strain less its rest value (so the rest shape is exactly C = 0)
            int o = 6 * c;
            float exx = 0.5f * (f00 * f00 + f10 * f10 + f20 * f20 - 1f) - strainRest[o];
            float eyy = 0.5f * (f01 * f01 + f11 * f11 + f21 * f21 - 1f) - strainRest[o + 1];
            float ezz = 0.5f * (f02 * f02 + f12 * f12 + f22 * f22 - 1f) - strainRest[o + 2];
            float exy = 0.5f * (f00 * f01 + f10 * f11 + f20 * f21) - strainRest[o + 3];
            float eyz = 0.5f * (f01 * f02 + f11 * f12 + f21 * f22) - strainRest[o + 4];
            float ezx = 0.5f * (f02 * f00 + f12 * f10 + f22 * f20) - strainRest[o + 5];
            float norm2 = exx * exx + eyy * eyy + ezz * ezz + 2f * (exy * exy + eyz * eyz + ezx * ezx);
            if (!(norm2 > 0f)) {
                return;
            }
            float constraint = (float) Math.sqrt(norm2);
            float inv = 1f / constraint;
            // dC/dF = F E / |E|; corner i's gradient is (dC/dF) times row i of D_m^-1
            float p00 = (f00 * exx + f01 * exy + f02 * ezx) * inv;
            float p01 = (f00 * exy + f01 * eyy + f02 * eyz) * inv;
            float p02 = (f00 * ezx + f01 * eyz + f02 * ezz) * inv;
            float p10 = (f10 * exx + f11 * exy + f12 * ezx) * inv;
            float p11 = (f10 * exy + f11 * eyy + f12 * eyz) * inv;
            float p12 = (f10 * ezx + f11 * eyz + f12 * ezz) * inv;
            float p20 = (f20 * exx + f21 * exy + f22 * ezx) * inv;
            float p21 = (f20 * exy + f21 * eyy + f22 * eyz) * inv;
            float p22 = (f20 * ezx + f21 * eyz + f22 * ezz) * inv;
            float g1x = p00 * m00 + p01 * m01 + p02 * m02;
            float g1y = p10 * m00 + p11 * m01 + p12 * m02;
            float g1z = p20 * m00 + p21 * m01 + p22 * m02;
            float g2x = p00 * m10 + p01 * m11 + p02 * m12;
            float g2y = p10 * m10 + p11 * m11 + p12 * m12;
            float g2z = p20 * m10 + p21 * m11 + p22 * m12;
            float g3x = p00 * m20 + p01 * m21 + p02 * m22;
            float g3y = p10 * m20 + p11 * m21 + p12 * m22;
            float g3z = p20 * m20 + p21 * m21 + p22 * m22;
            float dl = multiplier(constraint, shapeAlpha[c], shapeLambda, c, weight, wa, wb, we, wf,
                    g1x, g1y, g1z, g2x, g2y, g2z, g3x, g3y, g3z);
            if (dl != 0f) {
                move(c, jacobi, dl, a, b, e, f, wa, wb, we, wf, g1x, g1y, g1z, g2x, g2y, g2z, g3x, g3y, g3z);
            }
        }
    }

    /**
     * XPBD's Δλ = (−C − α̃ λ) / (Σ w |∇C|² + α̃) times the weight, added to the multiplier; corner 0's
     * gradient is the negated sum of the others'.
     */
    private static float multiplier(float constraint, float alpha, float[] lambda, int c, float weight, float wa,
                                    float wb, float we, float wf, float g1x, float g1y, float g1z, float g2x,
                                    float g2y, float g2z, float g3x, float g3y, float g3z) {
        float g0x = -(g1x + g2x + g3x);
        float g0y = -(g1y + g2y + g3y);
        float g0z = -(g1z + g2z + g3z);
        float denom = alpha + wa * (g0x * g0x + g0y * g0y + g0z * g0z) + wb * (g1x * g1x + g1y * g1y + g1z * g1z)
                + we * (g2x * g2x + g2y * g2y + g2z * g2z) + wf * (g3x * g3x + g3y * g3y + g3z * g3z);
        if (!(denom > 1e-30f)) {
            return 0f;
        }
        float dl = (-constraint - alpha * lambda[c]) / denom * weight;
        lambda[c] += dl;
        return dl;
    }

    /** Moves the four corners by w·Δλ·∇C: into d (Gauss–Seidel) or into the tetrahedron's slots (Jacobi). */
    private void move(int c, boolean jacobi, float dl, int a, int b, int e, int f, float wa, float wb, float we,
                      float wf, float g1x, float g1y, float g1z, float g2x, float g2y, float g2z, float g3x,
                      float g3y, float g3z) {
        float g0x = -(g1x + g2x + g3x);
        float g0y = -(g1y + g2y + g3y);
        float g0z = -(g1z + g2z + g3z);
        float[] out = jacobi ? correction : d;
        int o = 12 * c;
        add(out, jacobi ? o : a, wa * dl, g0x, g0y, g0z);
        add(out, jacobi ? o + 3 : b, wb * dl, g1x, g1y, g1z);
        add(out, jacobi ? o + 6 : e, we * dl, g2x, g2y, g2z);
        add(out, jacobi ? o + 9 : f, wf * dl, g3x, g3y, g3z);
    }

    private static void add(float[] out, int at, float k, float gx, float gy, float gz) {
        out[at] += k * gx;
        out[at + 1] += k * gy;
        out[at + 2] += k * gz;
    }

    /**
     * 6 V₀ and Green's strain of tetrahedron c at positions x + corr (the rest positions and zero), by
     * {@link #project}'s own operations.
     */
    private void restValues(float[] x, float[] corr, int c) {
        int a = 3 * tets[4 * c];
        int b = 3 * tets[4 * c + 1];
        int e = 3 * tets[4 * c + 2];
        int f = 3 * tets[4 * c + 3];
        float e1x = (x[b] - x[a]) + (corr[b] - corr[a]);
        float e1y = (x[b + 1] - x[a + 1]) + (corr[b + 1] - corr[a + 1]);
        float e1z = (x[b + 2] - x[a + 2]) + (corr[b + 2] - corr[a + 2]);
        float e2x = (x[e] - x[a]) + (corr[e] - corr[a]);
        float e2y = (x[e + 1] - x[a + 1]) + (corr[e + 1] - corr[a + 1]);
        float e2z = (x[e + 2] - x[a + 2]) + (corr[e + 2] - corr[a + 2]);
        float e3x = (x[f] - x[a]) + (corr[f] - corr[a]);
        float e3y = (x[f + 1] - x[a + 1]) + (corr[f + 1] - corr[a + 1]);
        float e3z = (x[f + 2] - x[a + 2]) + (corr[f + 2] - corr[a + 2]);
        float g1x = e2y * e3z - e2z * e3y;
        float g1y = e2z * e3x - e2x * e3z;
        float g1z = e2x * e3y - e2y * e3x;
        sixRest[c] = e1x * g1x + e1y * g1y + e1z * g1z;
        int r = 9 * c;
        float m00 = restInverse[r];
        float m01 = restInverse[r + 1];
        float m02 = restInverse[r + 2];
        float m10 = restInverse[r + 3];
        float m11 = restInverse[r + 4];
        float m12 = restInverse[r + 5];
        float m20 = restInverse[r + 6];
        float m21 = restInverse[r + 7];
        float m22 = restInverse[r + 8];
        float f00 = e1x * m00 + e2x * m10 + e3x * m20;
        float f01 = e1x * m01 + e2x * m11 + e3x * m21;
        float f02 = e1x * m02 + e2x * m12 + e3x * m22;
        float f10 = e1y * m00 + e2y * m10 + e3y * m20;
        float f11 = e1y * m01 + e2y * m11 + e3y * m21;
        float f12 = e1y * m02 + e2y * m12 + e3y * m22;
        float f20 = e1z * m00 + e2z * m10 + e3z * m20;
        float f21 = e1z * m01 + e2z * m11 + e3z * m21;
        float f22 = e1z * m02 + e2z * m12 + e3z * m22;
        int o = 6 * c;
        strainRest[o] = 0.5f * (f00 * f00 + f10 * f10 + f20 * f20 - 1f);
        strainRest[o + 1] = 0.5f * (f01 * f01 + f11 * f11 + f21 * f21 - 1f);
        strainRest[o + 2] = 0.5f * (f02 * f02 + f12 * f12 + f22 * f22 - 1f);
        strainRest[o + 3] = 0.5f * (f00 * f01 + f10 * f11 + f20 * f21);
        strainRest[o + 4] = 0.5f * (f01 * f02 + f11 * f12 + f21 * f22);
        strainRest[o + 5] = 0.5f * (f02 * f00 + f12 * f10 + f22 * f20);
    }
}
