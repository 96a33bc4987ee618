package dev.weft.core.solver.pd;

import dev.weft.core.geom.RotationSvd;
import dev.weft.core.model.ElasticTets;
import dev.weft.core.model.Incidence;
import dev.weft.core.model.Model;
import dev.weft.core.model.TetConstraints;

/**
 * Projective Dynamics' strain and volume constraints on elastic tetrahedra (Bouaziz et al. 2014 §5), with
 * the model's Lamé μ and λ ({@link TetConstraints}). Per tetrahedron, F = D_s D_m⁻¹ = Σ_j x_j g_jᵀ (g₁..g₃ the
 * rows of D_m⁻¹, g₀ = −Σ g_k) and two energies with their projections:
 * <ul>
 *   <li>strain: w_s/2 ‖F − R‖², R = U Vᵀ the nearest rotation, w_s = 2 μ V₀;</li>
 *   <li>volume: w_v/2 ‖F − P_v‖², P_v = U Σ' Vᵀ with Σ' the nearest singular values of product 1,
 *       w_v = 3 λ V₀.</li>
 * </ul>
 * For small strain ε, ‖F − R‖² = ‖ε‖² and ‖F − P_v‖² = (tr ε)²/3, so the sum is linear elasticity's
 * V₀ (μ ‖ε‖² + λ/2 (tr ε)²): the same rubber as XPBD's {@code TetProjection}. Both share one target,
 * P = (w_s R + w_v P_v)/W with W = w_s + w_v, so a tetrahedron adds W Σ_ij (g_i·g_j) x_i·x_j to PD's constant
 * system matrix: per particle a row of neighbour weights −W g_i·g_j, built once ({@link #rowStart()}).
 *
 * <p>The local step writes, per tetrahedron and corner, W ((P − F) + F_d) g_j, where F_d = Σ_k (d_k − d₀) g_kᵀ
 * is the part of F the global step's sweeps recompute from the corrections d; a gather sums a particle's
 * corners ({@link #rhs()}). F is formed as I + (D_s − D_m) D_m⁻¹ with D_m the rest edges as the step's own
 * float operations compute them, and P − F directly ({@link ElasticTarget}): a body in its rest shape has
 * exactly F = I, P − F = 0 and no force, wherever it is.
 *
 * <p>Tetrahedra of μ = 0 (a voxel body's volume-only cells, λ = ∞) are not PD terms: an infinite weight has no
 * place in its matrix; the voxel body's springs carry it.
 */
final class PdElasticTets {
    private final int[] tets;
    /** g₀..g₃ per tetrahedron, 12 floats. */
    private final float[] gradient;
    /** The rest edges x_k − x₀ (k = 1..3) as the local step computes edges, 9 floats per tetrahedron. */
    private final float[] restEdge;
    private final float[] weight;
    /** w_s / W: the strain target's share of P. */
    private final float[] strainShare;
    /** Per tetrahedron and corner, W ((P − F) + F_d) g_j, 3 floats per corner. */
    private final float[] corner;
    private final int[] cornerStart;
    private final int[] cornerSlots;
    private final int[] rowStart;
    private final int[] rowNeighbour;
    private final float[] rowWeight;
    /** Σ of each particle's row weights (its diagonal) and of their magnitudes (Gershgorin's bound). */
    private final float[] diagonal;
    private final float[] absoluteRow;
    private final float[] rhs;
    /** F, the decomposition's array and P − F, per thread. */
    private final ThreadLocal<double[][]> scratch = ThreadLocal.withInitial(
            () -> new double[][] {new double[9], new double[RotationSvd.SIZE], new double[9]});

    private PdElasticTets(int[] tets, float[] gradient, float[] restEdge, float[] weight, float[] strainShare, int n) {
        this.tets = tets;
        this.gradient = gradient;
        this.restEdge = restEdge;
        this.weight = weight;
        this.strainShare = strainShare;
        int count = weight.length;
        corner = new float[12 * count];
        rhs = new float[3 * n];
        Incidence incidence = Incidence.of(tets, 4, n);
        cornerStart = incidence.start();
        cornerSlots = incidence.slots();
        diagonal = new float[n];
        absoluteRow = new float[n];
        // rows: per particle its neighbours through tetrahedra, first-seen order, weights summed in double
        int[] at = new int[n];
        java.util.Arrays.fill(at, -1);
        rowStart = new int[n + 1];
        int[] neighbours = new int[n];
        for (int p = 0; p < n; p++) {
            int count0 = 0;
            for (int k = cornerStart[p]; k < cornerStart[p + 1]; k++) {
                int t = cornerSlots[k] / 4;
                for (int i = 0; i < 4; i++) {
                    int c = tets[4 * t + i];
                    if (c != p && at[c] != p) {
                        at[c] = p;
                        neighbours[count0++] = c;
                    }
                }
            }
            rowStart[p + 1] = rowStart[p] + count0;
        }
        rowNeighbour = new int[rowStart[n]];
        rowWeight = new float[rowStart[n]];
        double[] sum = new double[n];
        java.util.Arrays.fill(at, -1);
        for (int p = 0; p < n; p++) {
            int fill = rowStart[p];
            for (int k = cornerStart[p]; k < cornerStart[p + 1]; k++) {
                int s = cornerSlots[k];
                int t = s / 4;
                int j = s % 4;
                for (int i = 0; i < 4; i++) {
                    int c = tets[4 * t + i];
                    if (c == p) {
                        continue;
                    }
                    if (at[c] < rowStart[p]) {
                        at[c] = fill;
                        rowNeighbour[fill++] = c;
                        sum[at[c] - rowStart[p]] = 0;
                    }
                    sum[at[c] - rowStart[p]] -= weight[t] * dot(gradient, 12 * t + 3 * i, 12 * t + 3 * j);
                }
            }
            double diag = 0;
            double abs = 0;
            for (int r = rowStart[p]; r < rowStart[p + 1]; r++) {
                rowWeight[r] = (float) sum[r - rowStart[p]];
                diag += rowWeight[r];
                abs += Math.abs(rowWeight[r]);
            }
            diagonal[p] = (float) diag;
            absoluteRow[p] = (float) abs;
        }
    }

    /** The elastic tetrahedra of {@code m} as PD terms, or null when it has none. */
    static PdElasticTets of(Model m) {
        ElasticTets elastic = ElasticTets.of(m, "the pd solver cannot weigh (its volume weight 3λV₀ is infinite)");
        if (elastic == null) {
            return null;
        }
        TetConstraints t = m.tets();
        float[] mu = t.shearModulus();
        float[] lambda = t.lameLambda();
        float[] v0 = t.restVolume();
        int[] tets = elastic.tets();
        int count = elastic.count();
        float[] restEdge = new float[9 * count];
        float[] weight = new float[count];
        float[] strainShare = new float[count];
        float[] rest = m.restPositions();
        for (int e = 0; e < count; e++) {
            int c = elastic.source()[e];
            double ws = 2.0 * mu[c] * v0[c];
            double wv = 3.0 * lambda[c] * v0[c];
            weight[e] = (float) (ws + wv);
            strainShare[e] = (float) (ws / (ws + wv));
            int a = 3 * tets[4 * e];
            for (int k = 1; k <= 3; k++) {
                int b = 3 * tets[4 * e + k];
                for (int r = 0; r < 3; r++) {
                    // the local step's (y_b − y_a) + (d_b − d_a) with y = rest, d = 0
                    restEdge[9 * e + 3 * (k - 1) + r] = (rest[b + r] - rest[a + r]) + (0f - 0f);
                }
            }
        }
        return new PdElasticTets(tets, elastic.gradient(), restEdge, weight, strainShare, m.particleCount());
    }

    private static double dot(float[] g, int i, int j) {
        return (double) g[i] * g[j] + (double) g[i + 1] * g[j + 1] + (double) g[i + 2] * g[j + 2];
    }

    int count() {
        return weight.length;
    }

    /** The corners, 4 per tetrahedron (the model's, tetrahedra of μ = 0 left out). */
    int[] tets() {
        return tets;
    }

    /** g₀..g₃ per tetrahedron, 12 floats. */
    float[] gradient() {
        return gradient;
    }

    /** The rest edges as the local step computes them, 9 floats per tetrahedron. */
    float[] restEdge() {
        return restEdge;
    }

    /** W = w_s + w_v per tetrahedron. */
    float[] weight() {
        return weight;
    }

    /** w_s / W per tetrahedron. */
    float[] strainShare() {
        return strainShare;
    }

    /** The corner incidence ({@code Incidence.of(tets, 4, n)}) the gather sums in: starts per particle. */
    int[] cornerStart() {
        return cornerStart;
    }

    /** The corner incidence's slots (4 t + j: tetrahedron t's corner j), per particle in ascending order. */
    int[] cornerSlots() {
        return cornerSlots;
    }

    /** Per particle, its neighbour rows: [rowStart[p], rowStart[p+1]) of {@link #rowNeighbour()}, {@link #rowWeight()}. */
    int[] rowStart() {
        return rowStart;
    }

    int[] rowNeighbour() {
        return rowNeighbour;
    }

    float[] rowWeight() {
        return rowWeight;
    }

    /** Σ_c of particle p's row weights: what the tetrahedra add to its diagonal. */
    float[] diagonal() {
        return diagonal;
    }

    /** Σ_c |row weight|: Gershgorin's bound for Chebyshev's ρ. */
    float[] absoluteRow() {
        return absoluteRow;
    }

    /** Per particle, the sum of its corners' constant terms, after {@link #gather}. */
    float[] rhs() {
        return rhs;
    }

    /** The local step of tetrahedra [begin, end) at the iterate y + d. */
    void project(float[] y, float[] d, int begin, int end) {
        double[][] work = scratch.get();
        double[] f = work[0];
        double[] s = work[1];
        final float[] g = gradient;
        for (int t = begin; t < end; t++) {
            int a = 3 * tets[4 * t];
            int g12 = 12 * t;
            // H = (D_s − D_m) D_m⁻¹ and F_d = Σ_k (d_k − d₀) g_kᵀ, row r, column col
            float h00 = 0f, h01 = 0f, h02 = 0f, h10 = 0f, h11 = 0f, h12 = 0f, h20 = 0f, h21 = 0f, h22 = 0f;
            float f00 = 0f, f01 = 0f, f02 = 0f, f10 = 0f, f11 = 0f, f12 = 0f, f20 = 0f, f21 = 0f, f22 = 0f;
            for (int k = 1; k <= 3; k++) {
                int b = 3 * tets[4 * t + k];
                int re = 9 * t + 3 * (k - 1);
                float ddx = d[b] - d[a];
                float ddy = d[b + 1] - d[a + 1];
                float ddz = d[b + 2] - d[a + 2];
                float ex = ((y[b] - y[a]) + ddx) - restEdge[re];
                float ey = ((y[b + 1] - y[a + 1]) + ddy) - restEdge[re + 1];
                float ez = ((y[b + 2] - y[a + 2]) + ddz) - restEdge[re + 2];
                int gk = g12 + 3 * k;
                float gx = g[gk];
                float gy = g[gk + 1];
                float gz = g[gk + 2];
                h00 += ex * gx;
                h01 += ex * gy;
                h02 += ex * gz;
                h10 += ey * gx;
                h11 += ey * gy;
                h12 += ey * gz;
                h20 += ez * gx;
                h21 += ez * gy;
                h22 += ez * gz;
                f00 += ddx * gx;
                f01 += ddx * gy;
                f02 += ddx * gz;
                f10 += ddy * gx;
                f11 += ddy * gy;
                f12 += ddy * gz;
                f20 += ddz * gx;
                f21 += ddz * gy;
                f22 += ddz * gz;
            }
            f[0] = 1.0 + h00;
            f[1] = h01;
            f[2] = h02;
            f[3] = h10;
            f[4] = 1.0 + h11;
            f[5] = h12;
            f[6] = h20;
            f[7] = h21;
            f[8] = 1.0 + h22;
            double[] pf = work[2];
            ElasticTarget.targetMinusF(f, strainShare[t], s, pf);
            // M = (P − F) + F_d
            float w = weight[t];
            for (int r = 0; r < 3; r++) {
                float m0 = (float) pf[3 * r];
                float m1 = (float) pf[3 * r + 1];
                float m2 = (float) pf[3 * r + 2];
                if (r == 0) {
                    m0 += f00;
                    m1 += f01;
                    m2 += f02;
                } else if (r == 1) {
                    m0 += f10;
                    m1 += f11;
                    m2 += f12;
                } else {
                    m0 += f20;
                    m1 += f21;
                    m2 += f22;
                }
                float sum = 0f;
                for (int j = 1; j <= 3; j++) {
                    int gj = g12 + 3 * j;
                    float cj = w * (m0 * g[gj] + m1 * g[gj + 1] + m2 * g[gj + 2]);
                    corner[g12 + 3 * j + r] = cj;
                    sum += cj;
                }
                corner[g12 + r] = -sum;
            }
        }
    }

    /** rhs of particles [begin, end): the sum of their corners, in the incidence's fixed order. */
    void gather(int begin, int end) {
        for (int p = begin; p < end; p++) {
            float x = 0f;
            float y = 0f;
            float z = 0f;
            for (int k = cornerStart[p]; k < cornerStart[p + 1]; k++) {
                int c = 3 * cornerSlots[k];
                x += corner[c];
                y += corner[c + 1];
                z += corner[c + 2];
            }
            rhs[3 * p] = x;
            rhs[3 * p + 1] = y;
            rhs[3 * p + 2] = z;
        }
    }
}
