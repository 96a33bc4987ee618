package dev.weft.core.solver.xpbd;

import dev.weft.core.model.Incidence;
import dev.weft.core.model.Model;
import dev.weft.core.model.TetConstraints;
import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;

/**
 * XPBD's pass over the tetrahedra of soft bodies ({@link TetConstraints}): per tetrahedron two
 * constraints, solved together in the Gauss–Seidel modes (a 2 × 2 step, {@link #projectInPlace}) and side
 * by side from the same positions in Jacobi mode,
 * <ul>
 *   <li>volume: C = 6 (V − V₀), compliance 36 V₀ / λ (0 where incompressible), the energy λ V₀/2 (J − 1)²;</li>
 *   <li>shape (where μ > 0): C = ‖E‖ with E = ½ (FᵀF − I) Green's strain, compliance 1 / (2 μ V₀), the energy
 *       μ V₀ ‖E‖² (Müller et al. 2014's strain-based dynamics as one constraint).</li>
 * </ul>
 * Together, for small strain, linear elasticity's energy V₀ (μ ‖ε‖² + λ/2 (tr ε)²); both are blind to
 * rotations. Green's strain needs no polar decomposition (the co-rotated ‖F − R‖ needs a 3 × 3 one per
 * projection); under a hard squeeze its shape energy softens, and the volume term is what holds the body
 * open (λ > 0 wherever ν > 0).
 *
 * <p>6 V₀ and E's rest value are computed once by the same float operations the projection uses, so a
 * body in its rest shape sees C = 0 exactly and stays put. Edges are differences of predictions plus
 * differences of corrections, so a body far from the origin keeps its precision.
 *
 * <p>Public for the relaxation solver, which relaxes a soft body's tetrahedra with this same compliant
 * projection (seed 002 has no elastic constraint of its own).
 */
public final class TetProjection {
    private final int[] tets;
    private final float[] restInverse;
    private final float[] sixRest;
    /** Green's strain of the rest shape as the projection computes it: xx, yy, zz, xy, yz, zx per tetrahedron. */
    private final float[] strainRest;
    private final float[] volumeCompliance;
    private final float[] shapeCompliance;
    private final float[] volumeAlpha;
    private final float[] shapeAlpha;
    /** The multipliers, volume's and shape's side by side per tetrahedron (2c, 2c + 1). */
    private final float[] lambda;
    /**
     * What the Gauss–Seidel projection reads per tetrahedron, in one run of {@link #PACKED} floats: D_m⁻¹ (9),
     * the rest strain (6), 6 V₀, α̃ of volume and shape (one stream instead of five arrays).
     */
    private final float[] packed;
    static final int PACKED = 18;
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
    /** Edges (9), gradients at corners 1–3 (9), F (9) and Green's strain (6) per thread. */
    private static final int SCRATCH = 33;
    private final ThreadLocal<float[]> scratch = ThreadLocal.withInitial(() -> new float[SCRATCH]);
    private final RangeBody colorBody = this::projectRange;
    private final RangeBody jacobiBody = this::jacobiCorrections;
    private final RangeBody gatherBody;
    /**
     * The colored sweep's eight-at-a-time kernel ({@link TetLaneKernel}) where it exists and the mode is colored,
     * else null; with it, {@link #lanePacked}: {@link #packed}'s values field by field (field k of tetrahedron c
     * at k · count + c), so that eight consecutive tetrahedra's values of a field are one vector load.
     */
    private final TetLaneKernel lanes;
    private final float[] lanePacked;
    /** Tetrahedra the lanes project per sweep where each color runs in one range (0 without lanes). */
    private final int inLanes;

    /**
     * The tetrahedra of {@code m} projected on the step's positions y + d ({@code predicted}, {@code
     * corrections}) in iteration {@code mode}, scalar (no vector lanes).
     */
    public TetProjection(Model m, float[] predicted, float[] corrections, float[] invMass, IterationMode mode,
                         WorkerPool pool) {
        this(m, predicted, corrections, invMass, mode, pool, null);
    }

    /** As above, with {@code kernel} for the colored sweep's full groups of eight (null: the scalar loop only). */
    TetProjection(Model m, float[] predicted, float[] corrections, float[] invMass, IterationMode mode,
                  WorkerPool pool, TetLaneKernel kernel) {
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
        float[] lame = t.lameLambda();
        volumeCompliance = new float[count];
        shapeCompliance = new float[count];
        for (int c = 0; c < count; c++) {
            // λ = +∞: incompressible (α = 0); λ = 0 (ν = 0): no volume term (α = +∞, skipped like a shape of μ = 0)
            volumeCompliance[c] = lame[c] == Float.POSITIVE_INFINITY ? 0f
                    : lame[c] > 0f ? (float) (36.0 * v0[c] / lame[c]) : Float.POSITIVE_INFINITY;
            shapeCompliance[c] = mu[c] > 0f ? (float) (1.0 / (2.0 * mu[c] * v0[c])) : Float.POSITIVE_INFINITY;
        }
        volumeAlpha = new float[count];
        shapeAlpha = new float[count];
        lambda = new float[2 * count];
        packed = new float[PACKED * count];
        sixRest = new float[count];
        strainRest = new float[6 * count];
        // the rest values by project's own operations on the rest positions (no corrections: d = 0)
        float[] rest = m.restPositions();
        float[] zero = new float[rest.length];
        float[] s = new float[SCRATCH];
        for (int c = 0; c < count; c++) {
            edges(rest, zero, c, s);
            sixRest[c] = sixVolume(s);
            strain(c, s);
            System.arraycopy(s, 27, strainRest, 6 * c, 6);
            System.arraycopy(restInverse, 9 * c, packed, PACKED * c, 9);
            System.arraycopy(s, 27, packed, PACKED * c + 9, 6);
            packed[PACKED * c + 15] = sixRest[c];
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
        if (kernel != null && mode == IterationMode.COLORED && count > 0) {
            lanes = kernel;
            lanePacked = new float[PACKED * count];
            for (int c = 0; c < count; c++) {
                for (int k = 0; k < PACKED; k++) {
                    lanePacked[k * count + c] = packed[PACKED * c + k];
                }
            }
            int full = 0;
            for (int color = 0; color + 1 < colorStart.length; color++) {
                int size = colorStart[color + 1] - colorStart[color];
                full += size / TetLaneKernel.WIDTH * TetLaneKernel.WIDTH;
            }
            inLanes = full;
            kernel.bind(tets, lanePacked, count, lambda, invMass, predicted, corrections);
            warmUp(m, count, invMass);
        } else {
            lanes = null;
            lanePacked = null;
            inLanes = 0;
        }
    }

    /**
     * Starts the lanes' one warm-up per process ({@link LaneWarmUp}) on a kernel of its own, bound to arrays of
     * its own (the read-only ones shared) and run on the largest color's first eight tetrahedra.
     */
    private void warmUp(Model m, int count, float[] invMass) {
        if (LaneWarmUp.warm()) {
            return;
        }
        int begin = -1;
        int largest = 0;
        for (int color = 0; color + 1 < colorStart.length; color++) {
            int size = colorStart[color + 1] - colorStart[color];
            if (size >= TetLaneKernel.WIDTH && size > largest) {
                largest = size;
                begin = colorStart[color];
            }
        }
        TetLaneKernel own = begin < 0 ? null : TetLaneKernel.create();
        if (own != null) {
            // the rest shape stretched by 1 %: every part of the step does real work (strain, both multipliers)
            float[] stretched = m.restPositions().clone();
            for (int k = 0; k < stretched.length; k++) {
                stretched[k] *= 1.01f;
            }
            own.bind(tets, lanePacked, count, new float[lambda.length], invMass, stretched,
                    new float[stretched.length]);
            LaneWarmUp.start(own, begin);
        }
    }

    /** Whether the colored sweep projects groups of eight in vector lanes ({@link TetLaneKernel}). */
    boolean inLanes() {
        return lanes != null;
    }

    /**
     * Of the bound model's tetrahedra, those the lanes project in a sweep where each color is one range (one
     * thread): each color's full groups of eight; a thread split leaves up to seven more a range to the scalar
     * loop. 0 without lanes.
     */
    int tetrahedraInLanes() {
        return inLanes;
    }

    public boolean isEmpty() {
        return sixRest.length == 0;
    }

    /**
     * What {@link #projectInPlace} reads per tetrahedron, {@link #PACKED} floats each (D_m⁻¹, the rest strain,
     * 6 V₀, then α̃ of volume and shape, which {@link #begin} writes): a device backend uploads this array as
     * it is ({@link XpbdDeviceLayout#tetPacked()}), so its kernel reads the CPU's rest values and compliances.
     */
    float[] packed() {
        return packed;
    }

    /** A new step (or relaxation) of length dt: multipliers to 0, compliances over dt². */
    public void begin(float dt) {
        java.util.Arrays.fill(lambda, 0f);
        if (dt != h) {
            h = dt;
            float invH2 = 1f / (dt * dt);
            for (int c = 0; c < sixRest.length; c++) {
                volumeAlpha[c] = Math.min(volumeCompliance[c] * invH2, Float.MAX_VALUE);
                shapeAlpha[c] = Math.min(shapeCompliance[c] * invH2, Float.MAX_VALUE);
                packed[PACKED * c + 16] = volumeAlpha[c];
                packed[PACKED * c + 17] = shapeAlpha[c];
            }
            if (lanePacked != null) {
                int count = sixRest.length;
                System.arraycopy(volumeAlpha, 0, lanePacked, 16 * count, count);
                System.arraycopy(shapeAlpha, 0, lanePacked, 17 * count, count);
            }
        }
    }

    /** One sweep over every tetrahedron in the iteration mode. */
    public void sweep() {
        switch (mode) {
            case COLORED:
                for (int c = 0; c + 1 < colorStart.length; c++) {
                    pool.parallelFor(colorStart[c], colorStart[c + 1], colorBody);
                }
                break;
            case GAUSS_SEIDEL: {
                // forward, then backward (one direction alone gains energy, IterationMode.GAUSS_SEIDEL)
                for (int k = 0; k < natural.length; k++) {
                    projectInPlace(natural[k]);
                }
                for (int k = natural.length - 1; k >= 0; k--) {
                    projectInPlace(natural[k]);
                }
                break;
            }
            case JACOBI:
                pool.parallelFor(0, sixRest.length, jacobiBody);
                pool.parallelFor(0, w.length, gatherBody);
                break;
            default:
                throw new AssertionError(mode);
        }
    }

    private void projectRange(int begin, int end) {
        // a color's groups of eight in lanes where the kernel exists; the rest (fewer than eight) one at a time
        // (the scalar loop until the lanes are compiled: LaneWarmUp; the same bits either way)
        int from = lanes == null || !LaneWarmUp.warm() ? begin : lanes.project(begin, end);
        for (int c = from; c < end; c++) {
            projectInPlace(c);
        }
    }

    private void jacobiCorrections(int begin, int end) {
        float[] s = scratch.get();
        for (int c = begin; c < end; c++) {
            java.util.Arrays.fill(correction, 12 * c, 12 * c + 12, 0f);
            projectJacobi(c, s);
        }
    }

    /**
     * Volume, then shape, of tetrahedron c for Jacobi: both from the same positions, scaled by the tetrahedron's
     * shared weight, summed into its 12 correction slots for the gather.
     */
    private void projectJacobi(int c, float[] s) {
        float weight = jacobiWeight[c];
        if (volumeAlpha[c] < Float.MAX_VALUE) {
            edges(y, d, c, s);
            float constraint = sixVolume(s) - sixRest[c];
            float dl = multiplier(c, s, constraint, volumeAlpha[c], 2 * c, weight);
            if (dl != 0f) {
                moveJacobi(c, dl, s);
            }
        }
        if (shapeAlpha[c] < Float.MAX_VALUE) {
            edges(y, d, c, s);
            strain(c, s);
            // Green's strain less its rest value (so the rest shape is exactly C = 0)
            int o = 6 * c;
            float exx = s[27] - strainRest[o];
            float eyy = s[28] - strainRest[o + 1];
            float ezz = s[29] - strainRest[o + 2];
            float exy = s[30] - strainRest[o + 3];
            float eyz = s[31] - strainRest[o + 4];
            float ezx = s[32] - strainRest[o + 5];
            float norm2 = exx * exx + eyy * eyy + ezz * ezz + 2f * (exy * exy + eyz * eyz + ezx * ezx);
            if (!(norm2 > 0f)) {
                return;
            }
            float constraint = (float) Math.sqrt(norm2);
            float inv = 1f / constraint;
            // dC/dF = F E / |E|; corner i's gradient is (dC/dF) times row i of D_m^-1
            int r = 9 * c;
            for (int row = 0; row < 3; row++) {
                float f0 = s[18 + 3 * row];
                float f1 = s[19 + 3 * row];
                float f2 = s[20 + 3 * row];
                float p0 = (f0 * exx + f1 * exy + f2 * ezx) * inv;
                float p1 = (f0 * exy + f1 * eyy + f2 * eyz) * inv;
                float p2 = (f0 * ezx + f1 * eyz + f2 * ezz) * inv;
                for (int i = 0; i < 3; i++) {
                    s[9 + 3 * i + row] = p0 * restInverse[r + 3 * i] + p1 * restInverse[r + 3 * i + 1]
                            + p2 * restInverse[r + 3 * i + 2];
                }
            }
            float dl = multiplier(c, s, constraint, shapeAlpha[c], 2 * c + 1, weight);
            if (dl != 0f) {
                moveJacobi(c, dl, s);
            }
        }
    }

    /**
     * Volume and shape of tetrahedron c together for Gauss–Seidel (colored or sequential), Macklin &amp; Müller
     * 2021's coupled solve: both constraints and gradients from the same edges, then the 2 × 2 system
     * <pre>
     *   [ Σ w ∇C_v·∇C_v + α̃_v   Σ w ∇C_v·∇C_s       ] [Δλ_v]   [−C_v − α̃_v λ_v]
     *   [ Σ w ∇C_s·∇C_v         Σ w ∇C_s·∇C_s + α̃_s ] [Δλ_s] = [−C_s − α̃_s λ_s]
     * </pre>
     * and one move w (Δλ_v ∇C_v + Δλ_s ∇C_s). Projected one after the other, the shape's move undid part of
     * the volume's (a squeezed tetrahedron's Green strain has a large volumetric part); the coupled step is the
     * Newton step on both at once and costs less (one F, one move). Its fixed point, and so the material, is the
     * sequential one's. Where one constraint is absent (α̃ = +∞) or the shape's gradient is undefined (‖E‖ = 0)
     * it is the other's 1 × 1 step.
     *
     * <p>The shape's gradient is kept unnormalized, u = ∇‖E‖ ‖E‖ (F E times the rows of D_m⁻¹), and the system
     * solved for Δλ_v and Δλ_s / ‖E‖: the second row times ‖E‖ reads Σ w ∇C_v·u Δλ_v + (Σ w u·u + α̃_s ‖E‖²)
     * Δλ_s / ‖E‖ = (−C_s − α̃_s λ_s) ‖E‖, which spares the division by ‖E‖ and the nine scalings. The float
     * operations of {@link #sixVolume} and {@link #strain} (which computed the rest values) come in the same
     * order, so the rest shape sees C = 0 exactly and nothing moves.
     */
    private void projectInPlace(int c) {
        final float[] y = this.y;
        final float[] d = this.d;
        final float[] q = this.packed;
        int t = 4 * c;
        int i0 = tets[t];
        int i1 = tets[t + 1];
        int i2 = tets[t + 2];
        int i3 = tets[t + 3];
        int a = 3 * i0;
        int b1 = 3 * i1;
        int b2 = 3 * i2;
        int b3 = 3 * i3;
        float e1x = (y[b1] - y[a]) + (d[b1] - d[a]);
        float e1y = (y[b1 + 1] - y[a + 1]) + (d[b1 + 1] - d[a + 1]);
        float e1z = (y[b1 + 2] - y[a + 2]) + (d[b1 + 2] - d[a + 2]);
        float e2x = (y[b2] - y[a]) + (d[b2] - d[a]);
        float e2y = (y[b2 + 1] - y[a + 1]) + (d[b2 + 1] - d[a + 1]);
        float e2z = (y[b2 + 2] - y[a + 2]) + (d[b2 + 2] - d[a + 2]);
        float e3x = (y[b3] - y[a]) + (d[b3] - d[a]);
        float e3y = (y[b3 + 1] - y[a + 1]) + (d[b3 + 1] - d[a + 1]);
        float e3z = (y[b3 + 2] - y[a + 2]) + (d[b3 + 2] - d[a + 2]);
        int p = PACKED * c;
        float alphaV = q[p + 16];
        float alphaS = q[p + 17];
        boolean volume = alphaV < Float.MAX_VALUE;
        // the volume's constraint and gradients e₂ × e₃, e₃ × e₁, e₁ × e₂ at corners 1–3 (sixVolume's order)
        float v1x = 0f, v1y = 0f, v1z = 0f, v2x = 0f, v2y = 0f, v2z = 0f, v3x = 0f, v3y = 0f, v3z = 0f;
        float cv = 0f;
        if (volume) {
            v1x = e2y * e3z - e2z * e3y;
            v1y = e2z * e3x - e2x * e3z;
            v1z = e2x * e3y - e2y * e3x;
            v2x = e3y * e1z - e3z * e1y;
            v2y = e3z * e1x - e3x * e1z;
            v2z = e3x * e1y - e3y * e1x;
            v3x = e1y * e2z - e1z * e2y;
            v3y = e1z * e2x - e1x * e2z;
            v3z = e1x * e2y - e1y * e2x;
            cv = (e1x * v1x + e1y * v1y + e1z * v1z) - q[p + 15];
        }
        boolean shape = alphaS < Float.MAX_VALUE;
        // the shape's unnormalized gradients u at corners 1–3, its ‖E‖² and ‖E‖
        float u1x = 0f, u1y = 0f, u1z = 0f, u2x = 0f, u2y = 0f, u2z = 0f, u3x = 0f, u3y = 0f, u3z = 0f;
        float norm2 = 0f;
        float cs = 0f;
        if (shape) {
            float r00 = q[p];
            float r01 = q[p + 1];
            float r02 = q[p + 2];
            float r10 = q[p + 3];
            float r11 = q[p + 4];
            float r12 = q[p + 5];
            float r20 = q[p + 6];
            float r21 = q[p + 7];
            float r22 = q[p + 8];
            // F = D_s D_m⁻¹, row by row (strain()'s order)
            float f00 = e1x * r00 + e2x * r10 + e3x * r20;
            float f01 = e1x * r01 + e2x * r11 + e3x * r21;
            float f02 = e1x * r02 + e2x * r12 + e3x * r22;
            float f10 = e1y * r00 + e2y * r10 + e3y * r20;
            float f11 = e1y * r01 + e2y * r11 + e3y * r21;
            float f12 = e1y * r02 + e2y * r12 + e3y * r22;
            float f20 = e1z * r00 + e2z * r10 + e3z * r20;
            float f21 = e1z * r01 + e2z * r11 + e3z * r21;
            float f22 = e1z * r02 + e2z * r12 + e3z * r22;
            // Green's strain less its rest value
            float exx = 0.5f * (f00 * f00 + f10 * f10 + f20 * f20 - 1f) - q[p + 9];
            float eyy = 0.5f * (f01 * f01 + f11 * f11 + f21 * f21 - 1f) - q[p + 10];
            float ezz = 0.5f * (f02 * f02 + f12 * f12 + f22 * f22 - 1f) - q[p + 11];
            float exy = 0.5f * (f00 * f01 + f10 * f11 + f20 * f21) - q[p + 12];
            float eyz = 0.5f * (f01 * f02 + f11 * f12 + f21 * f22) - q[p + 13];
            float ezx = 0.5f * (f02 * f00 + f12 * f10 + f22 * f20) - q[p + 14];
            norm2 = exx * exx + eyy * eyy + ezz * ezz + 2f * (exy * exy + eyz * eyz + ezx * ezx);
            // ‖E‖ ≤ 1e-10 is below what float F resolves (~1e-7): left out, as the system's ‖E‖² and ‖E‖⁴
            // terms would underflow there and make its determinant meaningless
            shape = norm2 > 1e-20f;
            if (shape) {
                cs = (float) Math.sqrt(norm2);
                // P = F E row by row; corner i's u is P times row i of D_m⁻¹
                float p00 = f00 * exx + f01 * exy + f02 * ezx;
                float p01 = f00 * exy + f01 * eyy + f02 * eyz;
                float p02 = f00 * ezx + f01 * eyz + f02 * ezz;
                float p10 = f10 * exx + f11 * exy + f12 * ezx;
                float p11 = f10 * exy + f11 * eyy + f12 * eyz;
                float p12 = f10 * ezx + f11 * eyz + f12 * ezz;
                float p20 = f20 * exx + f21 * exy + f22 * ezx;
                float p21 = f20 * exy + f21 * eyy + f22 * eyz;
                float p22 = f20 * ezx + f21 * eyz + f22 * ezz;
                u1x = p00 * r00 + p01 * r01 + p02 * r02;
                u1y = p10 * r00 + p11 * r01 + p12 * r02;
                u1z = p20 * r00 + p21 * r01 + p22 * r02;
                u2x = p00 * r10 + p01 * r11 + p02 * r12;
                u2y = p10 * r10 + p11 * r11 + p12 * r12;
                u2z = p20 * r10 + p21 * r11 + p22 * r12;
                u3x = p00 * r20 + p01 * r21 + p02 * r22;
                u3y = p10 * r20 + p11 * r21 + p12 * r22;
                u3z = p20 * r20 + p21 * r21 + p22 * r22;
            }
        }
        if (!volume && !shape) {
            return;
        }
        float w0 = w[i0];
        float w1 = w[i1];
        float w2 = w[i2];
        float w3 = w[i3];
        // corner 0's gradients: the negated sums
        float v0x = -(v1x + v2x + v3x);
        float v0y = -(v1y + v2y + v3y);
        float v0z = -(v1z + v2z + v3z);
        float u0x = -(u1x + u2x + u3x);
        float u0y = -(u1y + u2y + u3y);
        float u0z = -(u1z + u2z + u3z);
        // the system's entries Σ w ∇·∇ (0 for an absent constraint, whose gradients are 0)
        float avv = w0 * (v0x * v0x + v0y * v0y + v0z * v0z) + w1 * (v1x * v1x + v1y * v1y + v1z * v1z)
                + w2 * (v2x * v2x + v2y * v2y + v2z * v2z) + w3 * (v3x * v3x + v3y * v3y + v3z * v3z);
        float auu = w0 * (u0x * u0x + u0y * u0y + u0z * u0z) + w1 * (u1x * u1x + u1y * u1y + u1z * u1z)
                + w2 * (u2x * u2x + u2y * u2y + u2z * u2z) + w3 * (u3x * u3x + u3y * u3y + u3z * u3z);
        float avu = w0 * (v0x * u0x + v0y * u0y + v0z * u0z) + w1 * (v1x * u1x + v1y * u1y + v1z * u1z)
                + w2 * (v2x * u2x + v2y * u2y + v2z * u2z) + w3 * (v3x * u3x + v3y * u3y + v3z * u3z);
        int l = 2 * c;
        // dv = Δλ_v; du = Δλ_s / ‖E‖ (the move along u)
        float dv = 0f;
        float du = 0f;
        if (volume && shape) {
            float kvv = avv + alphaV;
            float kuu = auu + alphaS * norm2;
            float rv = -cv - alphaV * lambda[l];
            float ru = (-cs - alphaS * lambda[l + 1]) * cs;
            float det = kvv * kuu - avu * avu;
            // Cauchy–Schwarz: det ≥ the α̃ terms ≥ 0; near 0 only for parallel gradients and hard constraints
            if (det > 1e-6f * kvv * kuu) {
                float inv = 1f / det;
                dv = (kuu * rv - avu * ru) * inv;
                du = (kvv * ru - avu * rv) * inv;
            } else if (kvv > 1e-30f) {
                dv = rv / kvv;
            }
        } else if (volume) {
            float kvv = avv + alphaV;
            if (kvv > 1e-30f) {
                dv = (-cv - alphaV * lambda[l]) / kvv;
            }
        } else {
            float kuu = auu + alphaS * norm2;
            if (kuu > 1e-30f) {
                du = (-cs - alphaS * lambda[l + 1]) * cs / kuu;
            }
        }
        if (dv == 0f && du == 0f) {
            return;
        }
        lambda[l] += dv;
        lambda[l + 1] += du * cs;
        float f = w0;
        d[a] += f * (dv * v0x + du * u0x);
        d[a + 1] += f * (dv * v0y + du * u0y);
        d[a + 2] += f * (dv * v0z + du * u0z);
        f = w1;
        d[b1] += f * (dv * v1x + du * u1x);
        d[b1 + 1] += f * (dv * v1y + du * u1y);
        d[b1 + 2] += f * (dv * v1z + du * u1z);
        f = w2;
        d[b2] += f * (dv * v2x + du * u2x);
        d[b2 + 1] += f * (dv * v2y + du * u2y);
        d[b2 + 2] += f * (dv * v2z + du * u2z);
        f = w3;
        d[b3] += f * (dv * v3x + du * u3x);
        d[b3 + 1] += f * (dv * v3y + du * u3y);
        d[b3 + 2] += f * (dv * v3z + du * u3z);
    }

    /** Edges x₁ − x₀, x₂ − x₀, x₃ − x₀ of tetrahedron c into s[0..8], as differences of x plus differences of corr. */
    private void edges(float[] x, float[] corr, int c, float[] s) {
        int a = 3 * tets[4 * c];
        for (int k = 1; k < 4; k++) {
            int b = 3 * tets[4 * c + k];
            int o = 3 * (k - 1);
            s[o] = (x[b] - x[a]) + (corr[b] - corr[a]);
            s[o + 1] = (x[b + 1] - x[a + 1]) + (corr[b + 1] - corr[a + 1]);
            s[o + 2] = (x[b + 2] - x[a + 2]) + (corr[b + 2] - corr[a + 2]);
        }
    }

    /** 6V = e₁ · (e₂ × e₃) from edges s[0..8]; its gradients at corners 1, 2, 3 into s[9..17]. */
    private static float sixVolume(float[] s) {
        s[9] = s[4] * s[8] - s[5] * s[7];
        s[10] = s[5] * s[6] - s[3] * s[8];
        s[11] = s[3] * s[7] - s[4] * s[6];
        s[12] = s[7] * s[2] - s[8] * s[1];
        s[13] = s[8] * s[0] - s[6] * s[2];
        s[14] = s[6] * s[1] - s[7] * s[0];
        s[15] = s[1] * s[5] - s[2] * s[4];
        s[16] = s[2] * s[3] - s[0] * s[5];
        s[17] = s[0] * s[4] - s[1] * s[3];
        return s[0] * s[9] + s[1] * s[10] + s[2] * s[11];
    }

    /** From edges s[0..8]: F = D_s D_m⁻¹ into s[18..26] (row by row), Green's strain ½ (FᵀF − I) into s[27..32]. */
    private void strain(int c, float[] s) {
        int r = 9 * c;
        for (int row = 0; row < 3; row++) {
            for (int col = 0; col < 3; col++) {
                s[18 + 3 * row + col] = s[row] * restInverse[r + col] + s[3 + row] * restInverse[r + 3 + col]
                        + s[6 + row] * restInverse[r + 6 + col];
            }
        }
        for (int k = 0; k < 3; k++) {
            // diagonal k (xx, yy, zz), then the off-diagonal (k, k + 1 mod 3) (xy, yz, zx)
            int l = (k + 1) % 3;
            s[27 + k] = 0.5f * (s[18 + k] * s[18 + k] + s[21 + k] * s[21 + k] + s[24 + k] * s[24 + k] - 1f);
            s[30 + k] = 0.5f * (s[18 + k] * s[18 + l] + s[21 + k] * s[21 + l] + s[24 + k] * s[24 + l]);
        }
    }

    /**
     * XPBD's Δλ = (−C − α̃ λ) / (Σ w |∇C|² + α̃) times the weight, added to the multiplier, for gradients
     * s[9..17] at corners 1, 2, 3 (corner 0's the negated sum); the multiplier is lambda[at].
     */
    private float multiplier(int c, float[] s, float constraint, float alpha, int at, float weight) {
        float g0x = -(s[9] + s[12] + s[15]);
        float g0y = -(s[10] + s[13] + s[16]);
        float g0z = -(s[11] + s[14] + s[17]);
        float denom = alpha + w[tets[4 * c]] * (g0x * g0x + g0y * g0y + g0z * g0z);
        for (int k = 1; k < 4; k++) {
            float gx = s[6 + 3 * k];
            float gy = s[7 + 3 * k];
            float gz = s[8 + 3 * k];
            denom += w[tets[4 * c + k]] * (gx * gx + gy * gy + gz * gz);
        }
        if (!(denom > 1e-30f)) {
            return 0f;
        }
        float dl = (-constraint - alpha * lambda[at]) / denom * weight;
        lambda[at] += dl;
        return dl;
    }

    /** The four corners' moves w·Δλ·∇C into the tetrahedron's Jacobi slots. */
    private void moveJacobi(int c, float dl, float[] s) {
        float[] out = correction;
        for (int k = 0; k < 4; k++) {
            float gx = k == 0 ? -(s[9] + s[12] + s[15]) : s[6 + 3 * k];
            float gy = k == 0 ? -(s[10] + s[13] + s[16]) : s[7 + 3 * k];
            float gz = k == 0 ? -(s[11] + s[14] + s[17]) : s[8 + 3 * k];
            int p = tets[4 * c + k];
            int at = 12 * c + 3 * k;
            float f = w[p] * dl;
            out[at] += f * gx;
            out[at + 1] += f * gy;
            out[at + 2] += f * gz;
        }
    }
}
