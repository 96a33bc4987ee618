package dev.weft.core.solver;

import dev.weft.core.geom.PolarRotation;
import dev.weft.core.geom.RotationSvd;
import dev.weft.core.model.Incidence;
import dev.weft.core.model.ElasticTets;
import dev.weft.core.model.Model;
import dev.weft.core.model.TetConstraints;

/**
 * The elastic forces of a model's tetrahedra for the force-based solvers (implicit and explicit mass-spring):
 * co-rotated linear FEM (Müller and Gross 2004, "warped stiffness"), with the model's Lamé μ and λ
 * ({@link TetConstraints}), the same rubber xpbd and pd project. Per tetrahedron, F = D_s D_m⁻¹ = I + Σ_k
 * (e_k − E_k) g_kᵀ (e_k, E_k the current and rest edges x_k − x₀, g₁..g₃ the rows of D_m⁻¹, g₀ = −Σ g_k), R the
 * rotation nearest F (the rotation-variant polar part U Vᵀ of {@link RotationSvd}: a rotation even where F is
 * inverted, so an inverted tetrahedron is pushed back), and in the unrotated frame linear elasticity:
 * <pre>  ε = sym(RᵀF) − I,  ε̇ = sym(Rᵀ Σ_k (v_k − v₀) g_kᵀ),  σ = 2μ (ε + β ε̇) + λ tr(ε + β ε̇) I,
 *   f_k = −V₀ R σ g_k (k = 1..3),  f₀ = −(f₁ + f₂ + f₃)</pre>
 * with β the material's Rayleigh damping ({@code strainDamping}, in s: the springs' k_d = β k_s). The stiffness
 * with R held fixed is −R K Rᵀ, K linear elasticity's constant 12 × 12: its 3 × 3 block (row a, column b) is,
 * with r = R g,
 * <pre>  V₀ [μ (g_a·g_b) I + μ r_b r_aᵀ + λ r_a r_bᵀ]</pre>
 * — symmetric as a whole and positive semidefinite, so a PCG system M + c R K Rᵀ stays symmetric positive
 * definite; its off-diagonal blocks are not symmetric themselves, so {@link #block} returns a symmetric part and
 * the axial vector ω of the skew part (block · x = sym · x + ω × x).
 *
 * <p>In the rest shape (edges computed as the step computes them) F = I exactly, R = I, ε = 0: no force, a
 * body at rest stays put bitwise. A tetrahedron's four forces sum to zero: momentum is kept. One pass over
 * tetrahedra writes only that tetrahedron's slots ({@link #evaluate}); particles gather their corners through
 * the model's incidence in a fixed order: 1 and N threads give the same bits. Tetrahedra of μ = 0 (a voxel
 * body's volume-only cells) are left out, as PD leaves them: the voxel body's springs carry it.
 */
public final class ElasticTetForces {
    /** Doubles per {@link #block}: the symmetric part (xx, xy, xz, yy, yz, zz), then ω. */
    public static final int BLOCK_SIZE = 9;

    private final int count;
    private final int[] tets;
    /** g₀..g₃ per tetrahedron, 12 floats. */
    private final float[] gradient;
    /** The rest edges x_k − x₀ (k = 1..3) as {@link #evaluate} computes edges, 9 floats per tetrahedron. */
    private final float[] restEdge;
    private final float[] volume;
    private final float[] mu;
    private final float[] lambda;
    private final float[] beta;
    private final int[] cornerStart;
    private final int[] cornerSlots;
    /** Per tetrahedron and corner, its force (3 doubles per corner), after {@link #evaluate}. */
    private final double[] cornerForce;
    /** Per tetrahedron and corner, r = R g (3 doubles per corner), after {@link #evaluate}. */
    private final double[] rotated;
    /** F, the decomposition's scratch and R, per thread. */
    private final ThreadLocal<double[][]> scratch = ThreadLocal.withInitial(
            () -> new double[][] {new double[9], new double[RotationSvd.SIZE], new double[9]});

    private ElasticTetForces(int[] tets, float[] gradient, float[] restEdge, float[] volume, float[] mu,
                             float[] lambda, float[] beta, int particleCount) {
        this.count = volume.length;
        this.tets = tets;
        this.gradient = gradient;
        this.restEdge = restEdge;
        this.volume = volume;
        this.mu = mu;
        this.lambda = lambda;
        this.beta = beta;
        Incidence incidence = Incidence.of(tets, 4, particleCount);
        this.cornerStart = incidence.start();
        this.cornerSlots = incidence.slots();
        this.cornerForce = new double[12 * count];
        this.rotated = new double[12 * count];
    }

    /**
     * The elastic tetrahedra (μ &gt; 0) of {@code m}, or null when it has none. An incompressible body (ν = 0.5,
     * λ = ∞) is refused by name: its stiffness is infinite, which no force-based step can integrate.
     */
    public static ElasticTetForces of(Model m, String solver) {
        ElasticTets elastic = ElasticTets.of(m, "the " + solver + " solver cannot integrate (its stiffness λ is "
                + "infinite)");
        if (elastic == null) {
            return null;
        }
        TetConstraints t = m.tets();
        float[] shear = t.shearModulus();
        float[] lame = t.lameLambda();
        float[] v0 = t.restVolume();
        int[] tets = elastic.tets();
        int count = elastic.count();
        float[] restEdge = new float[9 * count];
        float[] volume = new float[count];
        float[] mu = new float[count];
        float[] lambda = new float[count];
        float[] beta = new float[count];
        float[] rest = m.restPositions();
        for (int e = 0; e < count; e++) {
            int c = elastic.source()[e];
            volume[e] = v0[c];
            mu[e] = shear[c];
            lambda[e] = lame[c];
            beta[e] = m.material(m.objectOf(tets[4 * e])).strainDamping();
            int a = 3 * tets[4 * e];
            for (int k = 1; k <= 3; k++) {
                int b = 3 * tets[4 * e + k];
                for (int r = 0; r < 3; r++) {
                    restEdge[9 * e + 3 * (k - 1) + r] = rest[b + r] - rest[a + r];
                }
            }
        }
        return new ElasticTetForces(tets, elastic.gradient(), restEdge, volume, mu, lambda, beta, m.particleCount());
    }

    /** Elastic tetrahedra. */
    public int count() {
        return count;
    }

    /** Four particles per tetrahedron. Do not modify. */
    public int[] tets() {
        return tets;
    }

    /** Rayleigh β in s per tetrahedron (its material's strain damping). Do not modify. */
    public float[] damping() {
        return beta;
    }

    /** Per particle, its corner slots [start[p], start[p+1]) of {@link #cornerSlots()}. */
    public int[] cornerStart() {
        return cornerStart;
    }

    /** Slots 4t + a (tetrahedron t's corner a), per particle in ascending order. */
    public int[] cornerSlots() {
        return cornerSlots;
    }

    /** Per slot 4t + a, the corner's force (3 doubles at 3·slot), after {@link #evaluate}. */
    public double[] cornerForce() {
        return cornerForce;
    }

    /**
     * Forces, rotations and rotated gradients of tetrahedra [begin, end) at positions x, velocities v: the corner
     * forces are f(x, v) − s R K Rᵀ v, the elastic and damping forces with β + s in place of β. s = 0 is the force
     * (explicit steps); s = h is what backward Euler's right-hand side needs, f + h ∂f/∂x v, since ∂f/∂x = −R K Rᵀ
     * (R K Rᵀ v costs only the velocity's strain rate here, against 16 block products per tetrahedron in a gather).
     */
    public void evaluate(float[] x, float[] v, double s, int begin, int end) {
        final double[][] buffers = scratch.get();
        final double[] work = buffers[0];
        final double[] svd = buffers[1];
        final double[] rot = buffers[2];
        final float[] g = gradient;
        for (int t = begin; t < end; t++) {
            int a = 3 * tets[4 * t];
            int g12 = 12 * t;
            // H = (D_s − D_m) D_m⁻¹ and the velocity gradient L = Σ_k (v_k − v₀) g_kᵀ
            double h00 = 0, h01 = 0, h02 = 0, h10 = 0, h11 = 0, h12 = 0, h20 = 0, h21 = 0, h22 = 0;
            double l00 = 0, l01 = 0, l02 = 0, l10 = 0, l11 = 0, l12 = 0, l20 = 0, l21 = 0, l22 = 0;
            for (int k = 1; k <= 3; k++) {
                int b = 3 * tets[4 * t + k];
                int re = 9 * t + 3 * (k - 1);
                double ex = (x[b] - x[a]) - restEdge[re];
                double ey = (x[b + 1] - x[a + 1]) - restEdge[re + 1];
                double ez = (x[b + 2] - x[a + 2]) - restEdge[re + 2];
                double ux = v[b] - v[a];
                double uy = v[b + 1] - v[a + 1];
                double uz = v[b + 2] - v[a + 2];
                int gk = g12 + 3 * k;
                double gx = g[gk];
                double gy = g[gk + 1];
                double gz = g[gk + 2];
                h00 += ex * gx;
                h01 += ex * gy;
                h02 += ex * gz;
                h10 += ey * gx;
                h11 += ey * gy;
                h12 += ey * gz;
                h20 += ez * gx;
                h21 += ez * gy;
                h22 += ez * gz;
                l00 += ux * gx;
                l01 += ux * gy;
                l02 += ux * gz;
                l10 += uy * gx;
                l11 += uy * gy;
                l12 += uy * gz;
                l20 += uz * gx;
                l21 += uz * gy;
                l22 += uz * gz;
            }
            work[0] = 1.0 + h00;
            work[1] = h01;
            work[2] = h02;
            work[3] = h10;
            work[4] = 1.0 + h11;
            work[5] = h12;
            work[6] = h20;
            work[7] = h21;
            work[8] = 1.0 + h22;
            PolarRotation.nearest(work, svd, rot);
            double r00 = rot[0];
            double r01 = rot[1];
            double r02 = rot[2];
            double r10 = rot[3];
            double r11 = rot[4];
            double r12 = rot[5];
            double r20 = rot[6];
            double r21 = rot[7];
            double r22 = rot[8];
            // RᵀF − I = (Rᵀ − I) + Rᵀ H: exactly 0 at rest (R = I, H = 0)
            double s00 = (r00 - 1.0) + r00 * h00 + r10 * h10 + r20 * h20;
            double s11 = (r11 - 1.0) + r01 * h01 + r11 * h11 + r21 * h21;
            double s22 = (r22 - 1.0) + r02 * h02 + r12 * h12 + r22 * h22;
            double s01 = r10 + r00 * h01 + r10 * h11 + r20 * h21;
            double s10 = r01 + r01 * h00 + r11 * h10 + r21 * h20;
            double s02 = r20 + r00 * h02 + r10 * h12 + r20 * h22;
            double s20 = r02 + r02 * h00 + r12 * h10 + r22 * h20;
            double s12 = r21 + r01 * h02 + r11 * h12 + r21 * h22;
            double s21 = r12 + r02 * h01 + r12 * h11 + r22 * h21;
            // Rᵀ L, only its symmetric part is needed
            double d00 = r00 * l00 + r10 * l10 + r20 * l20;
            double d11 = r01 * l01 + r11 * l11 + r21 * l21;
            double d22 = r02 * l02 + r12 * l12 + r22 * l22;
            double d01 = r00 * l01 + r10 * l11 + r20 * l21;
            double d10 = r01 * l00 + r11 * l10 + r21 * l20;
            double d02 = r00 * l02 + r10 * l12 + r20 * l22;
            double d20 = r02 * l00 + r12 * l10 + r22 * l20;
            double d12 = r01 * l02 + r11 * l12 + r21 * l22;
            double d21 = r02 * l01 + r12 * l11 + r22 * l21;
            double bt = beta[t] + s;
            double e00 = s00 + bt * d00;
            double e11 = s11 + bt * d11;
            double e22 = s22 + bt * d22;
            double e01 = 0.5 * ((s01 + s10) + bt * (d01 + d10));
            double e02 = 0.5 * ((s02 + s20) + bt * (d02 + d20));
            double e12 = 0.5 * ((s12 + s21) + bt * (d12 + d21));
            double m2 = 2.0 * mu[t];
            double tr = lambda[t] * (e00 + e11 + e22);
            double q00 = m2 * e00 + tr;
            double q11 = m2 * e11 + tr;
            double q22 = m2 * e22 + tr;
            double q01 = m2 * e01;
            double q02 = m2 * e02;
            double q12 = m2 * e12;
            // P = −V₀ R σ
            double vol = -volume[t];
            double p00 = vol * (r00 * q00 + r01 * q01 + r02 * q02);
            double p01 = vol * (r00 * q01 + r01 * q11 + r02 * q12);
            double p02 = vol * (r00 * q02 + r01 * q12 + r02 * q22);
            double p10 = vol * (r10 * q00 + r11 * q01 + r12 * q02);
            double p11 = vol * (r10 * q01 + r11 * q11 + r12 * q12);
            double p12 = vol * (r10 * q02 + r11 * q12 + r12 * q22);
            double p20 = vol * (r20 * q00 + r21 * q01 + r22 * q02);
            double p21 = vol * (r20 * q01 + r21 * q11 + r22 * q12);
            double p22 = vol * (r20 * q02 + r21 * q12 + r22 * q22);
            double sx = 0;
            double sy = 0;
            double sz = 0;
            for (int k = 0; k < 4; k++) {
                int gk = g12 + 3 * k;
                double gx = g[gk];
                double gy = g[gk + 1];
                double gz = g[gk + 2];
                rotated[gk] = r00 * gx + r01 * gy + r02 * gz;
                rotated[gk + 1] = r10 * gx + r11 * gy + r12 * gz;
                rotated[gk + 2] = r20 * gx + r21 * gy + r22 * gz;
                if (k == 0) {
                    continue;
                }
                double fx = p00 * gx + p01 * gy + p02 * gz;
                double fy = p10 * gx + p11 * gy + p12 * gz;
                double fz = p20 * gx + p21 * gy + p22 * gz;
                cornerForce[gk] = fx;
                cornerForce[gk + 1] = fy;
                cornerForce[gk + 2] = fz;
                sx += fx;
                sy += fy;
                sz += fz;
            }
            cornerForce[g12] = -sx;
            cornerForce[g12 + 1] = -sy;
            cornerForce[g12 + 2] = -sz;
        }
    }

    /**
     * Block (row a, column b) of tetrahedron t's R K Rᵀ at the last {@link #evaluate}, into {@code out[o ..
     * o + 8]}: its symmetric part (xx, xy, xz, yy, yz, zz) then ω of its skew part. Block (b, a) is its
     * transpose, bit for bit: the same symmetric part and −ω.
     */
    public void block(int t, int a, int b, double[] out, int o) {
        int ga = 12 * t + 3 * a;
        int gb = 12 * t + 3 * b;
        final float[] g = gradient;
        final double[] r = rotated;
        double v0 = volume[t];
        double diag = v0 * mu[t] * ((double) g[ga] * g[gb] + (double) g[ga + 1] * g[gb + 1]
                + (double) g[ga + 2] * g[gb + 2]);
        double half = 0.5 * v0 * (mu[t] + lambda[t]);
        double ax = r[ga];
        double ay = r[ga + 1];
        double az = r[ga + 2];
        double bx = r[gb];
        double by = r[gb + 1];
        double bz = r[gb + 2];
        out[o] = diag + half * (ax * bx + bx * ax);
        out[o + 1] = half * (ax * by + bx * ay);
        out[o + 2] = half * (ax * bz + bx * az);
        out[o + 3] = diag + half * (ay * by + by * ay);
        out[o + 4] = half * (ay * bz + by * az);
        out[o + 5] = diag + half * (az * bz + bz * az);
        // skew part (λ − μ)/2 V₀ (r_a r_bᵀ − r_b r_aᵀ): x ↦ ((λ − μ)/2 V₀ r_b × r_a) × x
        double skew = 0.5 * v0 * (lambda[t] - mu[t]);
        out[o + 6] = skew * (by * az - bz * ay);
        out[o + 7] = skew * (bz * ax - bx * az);
        out[o + 8] = skew * (bx * ay - by * ax);
    }

    /** Adds particle p's elastic force (its corners' sum, in the incidence's fixed order) to {@code sum[0..2]}. */
    public void addForceOn(int p, double[] sum) {
        double fx = 0;
        double fy = 0;
        double fz = 0;
        for (int k = cornerStart[p]; k < cornerStart[p + 1]; k++) {
            int c = 3 * cornerSlots[k];
            fx += cornerForce[c];
            fy += cornerForce[c + 1];
            fz += cornerForce[c + 2];
        }
        sum[0] += fx;
        sum[1] += fy;
        sum[2] += fz;
    }

    /**
     * Adds Gershgorin's bounds of M^(−1/2) K M^(−1/2)'s rows (stiffness, into {@code stiffness}) and of β times
     * it (damping, into {@code damping}) per particle, w the inverse masses: each block's norm is at most
     * V₀ (μ |g_a·g_b| + (μ + λ) |g_a| |g_b|), whatever R is ({@code StableStep}).
     */
    public void addStiffnessBounds(float[] w, double[] stiffness, double[] damping) {
        final float[] g = gradient;
        for (int t = 0; t < count; t++) {
            for (int a = 0; a < 4; a++) {
                int pa = tets[4 * t + a];
                int ga = 12 * t + 3 * a;
                double na = Math.sqrt((double) g[ga] * g[ga] + (double) g[ga + 1] * g[ga + 1]
                        + (double) g[ga + 2] * g[ga + 2]);
                double row = 0;
                for (int b = 0; b < 4; b++) {
                    int pb = tets[4 * t + b];
                    int gb = 12 * t + 3 * b;
                    double nb = Math.sqrt((double) g[gb] * g[gb] + (double) g[gb + 1] * g[gb + 1]
                            + (double) g[gb + 2] * g[gb + 2]);
                    double dot = (double) g[ga] * g[gb] + (double) g[ga + 1] * g[gb + 1] + (double) g[ga + 2] * g[gb + 2];
                    double norm = volume[t] * (mu[t] * Math.abs(dot) + ((double) mu[t] + lambda[t]) * na * nb);
                    row += norm * Math.sqrt((double) w[pa] * w[pb]);
                }
                stiffness[pa] += row;
                damping[pa] += beta[t] * row;
            }
        }
    }
}
