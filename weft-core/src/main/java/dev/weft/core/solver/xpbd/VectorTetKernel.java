package dev.weft.core.solver.xpbd;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link TetLaneKernel} with the JDK's Vector API: eight tetrahedra of a color per step (256-bit lanes). A block of
 * up to {@link #BLOCK} tetrahedra is staged first: per tetrahedron its three edges (computed as the scalar step
 * does, differences of predictions plus differences of corrections), its corners' inverse masses and its two
 * multipliers, one array run per quantity. Then each eight are projected in lanes, every lane computing what
 * {@link TetProjection}'s scalar step computes, in the same order, and writing its multipliers' and corners'
 * increments to the staging block. Then the increments are added to the multipliers and corrections one by one.
 * A lane the scalar step would leave (no constraint, or Δλ = 0) gets −0 as its increments: x + (−0) is x for
 * every float x, so it changes no bit. Staging by scalar loads, rather than the Vector API's gathers and scatters,
 * keeps this independent of whether those are intrinsics on the machine (AVX2 has no scatter); the staging of a
 * whole block before its first lane step lets the stores retire before the vector loads read them. Loaded by name
 * only where {@code jdk.incubator.vector} is present.
 */
final class VectorTetKernel implements TetLaneKernel {
    private static final VectorSpecies<Float> LANES = FloatVector.SPECIES_256;
    /** Tetrahedra staged at a time (a multiple of the width; its {@link #RUNS} runs, 9.5 kB, fit the L1 cache). */
    static final int BLOCK = 32;
    // the staging block's runs: inputs, then outputs
    private static final int E1X = 0;
    private static final int W0 = 9;
    private static final int LAMBDA_V = 13;
    private static final int LAMBDA_S = 14;
    private static final int DLAMBDA_V = 15;
    private static final int DLAMBDA_S = 16;
    private static final int D0X = 17;
    // and the parts' intermediate values (see lanes)
    private static final int V1X = 29;
    private static final int CV = 38;
    private static final int F00 = 39;
    private static final int EXX = 48;
    private static final int NORM2 = 54;
    private static final int CS = 55;
    private static final int U1X = 56;
    private static final int V0X = 65;
    private static final int U0X = 68;
    private static final int AVV = 71;
    private static final int AUU = 72;
    private static final int AVU = 73;
    private static final int RUNS = 74;

    private int[] tets;
    private float[] data;
    private int count;
    private float[] lambda;
    private float[] w;
    private float[] y;
    private float[] d;
    private final ThreadLocal<float[]> staging = ThreadLocal.withInitial(() -> new float[RUNS * BLOCK]);

    VectorTetKernel() {
        if (LANES.length() != WIDTH) {
            throw new IllegalStateException("256-bit float lanes are " + LANES.length() + " wide, not " + WIDTH);
        }
    }

    @Override
    public void bind(int[] tets, float[] data, int count, float[] lambda, float[] invMass, float[] y, float[] d) {
        this.tets = tets;
        this.data = data;
        this.count = count;
        this.lambda = lambda;
        this.w = invMass;
        this.y = y;
        this.d = d;
    }

    @Override
    public int project(int begin, int end) {
        int stop = begin + (end - begin) / WIDTH * WIDTH;
        if (stop == begin) {
            return begin;
        }
        float[] s = staging.get();
        for (int c = begin; c < stop; c += BLOCK) {
            int n = Math.min(BLOCK, stop - c);
            stage(s, c, n);
            for (int g = 0; g < n; g += WIDTH) {
                lanes(s, g, c + g);
            }
            apply(s, c, n);
        }
        return stop;
    }

    /** Tetrahedra [c, c + n): edges, inverse masses and multipliers into the staging runs. */
    private void stage(float[] s, int c, int n) {
        final int[] t = tets;
        final float[] y = this.y;
        final float[] d = this.d;
        final float[] w = this.w;
        final float[] l = lambda;
        for (int j = 0; j < n; j++) {
            int k = 4 * (c + j);
            int i0 = t[k];
            int i1 = t[k + 1];
            int i2 = t[k + 2];
            int i3 = t[k + 3];
            int a = 3 * i0;
            int b1 = 3 * i1;
            int b2 = 3 * i2;
            int b3 = 3 * i3;
            s[j] = (y[b1] - y[a]) + (d[b1] - d[a]);
            s[BLOCK + j] = (y[b1 + 1] - y[a + 1]) + (d[b1 + 1] - d[a + 1]);
            s[2 * BLOCK + j] = (y[b1 + 2] - y[a + 2]) + (d[b1 + 2] - d[a + 2]);
            s[3 * BLOCK + j] = (y[b2] - y[a]) + (d[b2] - d[a]);
            s[4 * BLOCK + j] = (y[b2 + 1] - y[a + 1]) + (d[b2 + 1] - d[a + 1]);
            s[5 * BLOCK + j] = (y[b2 + 2] - y[a + 2]) + (d[b2 + 2] - d[a + 2]);
            s[6 * BLOCK + j] = (y[b3] - y[a]) + (d[b3] - d[a]);
            s[7 * BLOCK + j] = (y[b3 + 1] - y[a + 1]) + (d[b3 + 1] - d[a + 1]);
            s[8 * BLOCK + j] = (y[b3 + 2] - y[a + 2]) + (d[b3 + 2] - d[a + 2]);
            s[W0 * BLOCK + j] = w[i0];
            s[(W0 + 1) * BLOCK + j] = w[i1];
            s[(W0 + 2) * BLOCK + j] = w[i2];
            s[(W0 + 3) * BLOCK + j] = w[i3];
            s[LAMBDA_V * BLOCK + j] = l[2 * (c + j)];
            s[LAMBDA_S * BLOCK + j] = l[2 * (c + j) + 1];
        }
    }

    /** Tetrahedra [c, c + n): the lanes' increments added to their multipliers and corners' corrections. */
    private void apply(float[] s, int c, int n) {
        final int[] t = tets;
        final float[] d = this.d;
        final float[] l = lambda;
        for (int j = 0; j < n; j++) {
            int k = 4 * (c + j);
            l[2 * (c + j)] += s[DLAMBDA_V * BLOCK + j];
            l[2 * (c + j) + 1] += s[DLAMBDA_S * BLOCK + j];
            for (int corner = 0; corner < 4; corner++) {
                int a = 3 * t[k + corner];
                int o = (D0X + 3 * corner) * BLOCK + j;
                d[a] += s[o];
                d[a + 1] += s[o + BLOCK];
                d[a + 2] += s[o + 2 * BLOCK];
            }
        }
    }

    /**
     * Tetrahedra c .. c + 7 (staged at g): TetProjection.projectInPlace's operations lane by lane, a branch of it
     * as a mask; increments into the staging block's output runs. In five parts that pass their values through
     * the staging block, and without helper methods: past C2's node count cutoff it inlines only methods marked
     * force-inline (the Vector API's own), so a helper call there, or the whole step in one method, leaves
     * vectors as objects on the heap (measured: 2× slower than the scalar loop, hundreds of MB a second of
     * garbage).
     */
    private void lanes(float[] s, int g, int c) {
        volume(s, g, c);
        strain(s, g, c);
        shapeGradients(s, g, c);
        systemEntries(s, g);
        solve(s, g, c);
    }

    /** The volume's gradients e₂ × e₃, e₃ × e₁, e₁ × e₂ at corners 1–3 and its constraint, 0 where absent. */
    private void volume(float[] s, int g, int c) {
        final float[] q = data;
        final int n = count;
        FloatVector zero = FloatVector.zero(LANES);
        FloatVector e1x = FloatVector.fromArray(LANES, s, E1X * BLOCK + g);
        FloatVector e1y = FloatVector.fromArray(LANES, s, (E1X + 1) * BLOCK + g);
        FloatVector e1z = FloatVector.fromArray(LANES, s, (E1X + 2) * BLOCK + g);
        FloatVector e2x = FloatVector.fromArray(LANES, s, (E1X + 3) * BLOCK + g);
        FloatVector e2y = FloatVector.fromArray(LANES, s, (E1X + 4) * BLOCK + g);
        FloatVector e2z = FloatVector.fromArray(LANES, s, (E1X + 5) * BLOCK + g);
        FloatVector e3x = FloatVector.fromArray(LANES, s, (E1X + 6) * BLOCK + g);
        FloatVector e3y = FloatVector.fromArray(LANES, s, (E1X + 7) * BLOCK + g);
        FloatVector e3z = FloatVector.fromArray(LANES, s, (E1X + 8) * BLOCK + g);
        VectorMask<Float> volume = FloatVector.fromArray(LANES, q, 16 * n + c)
                .compare(VectorOperators.LT, Float.MAX_VALUE);
        FloatVector v1x = zero.blend(e2y.mul(e3z).sub(e2z.mul(e3y)), volume);
        FloatVector v1y = zero.blend(e2z.mul(e3x).sub(e2x.mul(e3z)), volume);
        FloatVector v1z = zero.blend(e2x.mul(e3y).sub(e2y.mul(e3x)), volume);
        v1x.intoArray(s, V1X * BLOCK + g);
        v1y.intoArray(s, (V1X + 1) * BLOCK + g);
        v1z.intoArray(s, (V1X + 2) * BLOCK + g);
        zero.blend(e3y.mul(e1z).sub(e3z.mul(e1y)), volume).intoArray(s, (V1X + 3) * BLOCK + g);
        zero.blend(e3z.mul(e1x).sub(e3x.mul(e1z)), volume).intoArray(s, (V1X + 4) * BLOCK + g);
        zero.blend(e3x.mul(e1y).sub(e3y.mul(e1x)), volume).intoArray(s, (V1X + 5) * BLOCK + g);
        zero.blend(e1y.mul(e2z).sub(e1z.mul(e2y)), volume).intoArray(s, (V1X + 6) * BLOCK + g);
        zero.blend(e1z.mul(e2x).sub(e1x.mul(e2z)), volume).intoArray(s, (V1X + 7) * BLOCK + g);
        zero.blend(e1x.mul(e2y).sub(e1y.mul(e2x)), volume).intoArray(s, (V1X + 8) * BLOCK + g);
        FloatVector sixRest = FloatVector.fromArray(LANES, q, 15 * n + c);
        zero.blend(e1x.mul(v1x).add(e1y.mul(v1y)).add(e1z.mul(v1z)).sub(sixRest), volume)
                .intoArray(s, CV * BLOCK + g);
    }

    /** F = D_s D_m⁻¹ row by row, Green's strain less its rest value, and ‖E‖². */
    private void strain(float[] s, int g, int c) {
        final float[] q = data;
        final int n = count;
        FloatVector e1x = FloatVector.fromArray(LANES, s, E1X * BLOCK + g);
        FloatVector e1y = FloatVector.fromArray(LANES, s, (E1X + 1) * BLOCK + g);
        FloatVector e1z = FloatVector.fromArray(LANES, s, (E1X + 2) * BLOCK + g);
        FloatVector e2x = FloatVector.fromArray(LANES, s, (E1X + 3) * BLOCK + g);
        FloatVector e2y = FloatVector.fromArray(LANES, s, (E1X + 4) * BLOCK + g);
        FloatVector e2z = FloatVector.fromArray(LANES, s, (E1X + 5) * BLOCK + g);
        FloatVector e3x = FloatVector.fromArray(LANES, s, (E1X + 6) * BLOCK + g);
        FloatVector e3y = FloatVector.fromArray(LANES, s, (E1X + 7) * BLOCK + g);
        FloatVector e3z = FloatVector.fromArray(LANES, s, (E1X + 8) * BLOCK + g);
        FloatVector r00 = FloatVector.fromArray(LANES, q, 0 * n + c);
        FloatVector r01 = FloatVector.fromArray(LANES, q, 1 * n + c);
        FloatVector r02 = FloatVector.fromArray(LANES, q, 2 * n + c);
        FloatVector r10 = FloatVector.fromArray(LANES, q, 3 * n + c);
        FloatVector r11 = FloatVector.fromArray(LANES, q, 4 * n + c);
        FloatVector r12 = FloatVector.fromArray(LANES, q, 5 * n + c);
        FloatVector r20 = FloatVector.fromArray(LANES, q, 6 * n + c);
        FloatVector r21 = FloatVector.fromArray(LANES, q, 7 * n + c);
        FloatVector r22 = FloatVector.fromArray(LANES, q, 8 * n + c);
        FloatVector f00 = e1x.mul(r00).add(e2x.mul(r10)).add(e3x.mul(r20));
        FloatVector f01 = e1x.mul(r01).add(e2x.mul(r11)).add(e3x.mul(r21));
        FloatVector f02 = e1x.mul(r02).add(e2x.mul(r12)).add(e3x.mul(r22));
        FloatVector f10 = e1y.mul(r00).add(e2y.mul(r10)).add(e3y.mul(r20));
        FloatVector f11 = e1y.mul(r01).add(e2y.mul(r11)).add(e3y.mul(r21));
        FloatVector f12 = e1y.mul(r02).add(e2y.mul(r12)).add(e3y.mul(r22));
        FloatVector f20 = e1z.mul(r00).add(e2z.mul(r10)).add(e3z.mul(r20));
        FloatVector f21 = e1z.mul(r01).add(e2z.mul(r11)).add(e3z.mul(r21));
        FloatVector f22 = e1z.mul(r02).add(e2z.mul(r12)).add(e3z.mul(r22));
        f00.intoArray(s, F00 * BLOCK + g);
        f01.intoArray(s, (F00 + 1) * BLOCK + g);
        f02.intoArray(s, (F00 + 2) * BLOCK + g);
        f10.intoArray(s, (F00 + 3) * BLOCK + g);
        f11.intoArray(s, (F00 + 4) * BLOCK + g);
        f12.intoArray(s, (F00 + 5) * BLOCK + g);
        f20.intoArray(s, (F00 + 6) * BLOCK + g);
        f21.intoArray(s, (F00 + 7) * BLOCK + g);
        f22.intoArray(s, (F00 + 8) * BLOCK + g);
        // ½ (Σ − 1) as the scalar step's 0.5f * (Σ − 1f): a float product is the same either way round
        FloatVector exx = f00.mul(f00).add(f10.mul(f10)).add(f20.mul(f20)).sub(1f).mul(0.5f)
                .sub(FloatVector.fromArray(LANES, q, 9 * n + c));
        FloatVector eyy = f01.mul(f01).add(f11.mul(f11)).add(f21.mul(f21)).sub(1f).mul(0.5f)
                .sub(FloatVector.fromArray(LANES, q, 10 * n + c));
        FloatVector ezz = f02.mul(f02).add(f12.mul(f12)).add(f22.mul(f22)).sub(1f).mul(0.5f)
                .sub(FloatVector.fromArray(LANES, q, 11 * n + c));
        FloatVector exy = f00.mul(f01).add(f10.mul(f11)).add(f20.mul(f21)).mul(0.5f)
                .sub(FloatVector.fromArray(LANES, q, 12 * n + c));
        FloatVector eyz = f01.mul(f02).add(f11.mul(f12)).add(f21.mul(f22)).mul(0.5f)
                .sub(FloatVector.fromArray(LANES, q, 13 * n + c));
        FloatVector ezx = f02.mul(f00).add(f12.mul(f10)).add(f22.mul(f20)).mul(0.5f)
                .sub(FloatVector.fromArray(LANES, q, 14 * n + c));
        exx.intoArray(s, EXX * BLOCK + g);
        eyy.intoArray(s, (EXX + 1) * BLOCK + g);
        ezz.intoArray(s, (EXX + 2) * BLOCK + g);
        exy.intoArray(s, (EXX + 3) * BLOCK + g);
        eyz.intoArray(s, (EXX + 4) * BLOCK + g);
        ezx.intoArray(s, (EXX + 5) * BLOCK + g);
        exx.mul(exx).add(eyy.mul(eyy)).add(ezz.mul(ezz))
                .add(exy.mul(exy).add(eyz.mul(eyz)).add(ezx.mul(ezx)).mul(2f)).intoArray(s, NORM2 * BLOCK + g);
    }

    /** ‖E‖, and P = F E times the rows of D_m⁻¹: the shape's unnormalized gradients u, 0 where it is left out. */
    private void shapeGradients(float[] s, int g, int c) {
        final float[] q = data;
        final int n = count;
        FloatVector zero = FloatVector.zero(LANES);
        // present (α̃ < max) and resolved (‖E‖ > 1e-10, the scalar step's bound)
        VectorMask<Float> shape = FloatVector.fromArray(LANES, q, 17 * n + c)
                .compare(VectorOperators.LT, Float.MAX_VALUE)
                .and(FloatVector.fromArray(LANES, s, NORM2 * BLOCK + g).compare(VectorOperators.GT, 1e-20f));
        zero.blend(FloatVector.fromArray(LANES, s, NORM2 * BLOCK + g).sqrt(), shape).intoArray(s, CS * BLOCK + g);
        FloatVector f00 = FloatVector.fromArray(LANES, s, F00 * BLOCK + g);
        FloatVector f01 = FloatVector.fromArray(LANES, s, (F00 + 1) * BLOCK + g);
        FloatVector f02 = FloatVector.fromArray(LANES, s, (F00 + 2) * BLOCK + g);
        FloatVector f10 = FloatVector.fromArray(LANES, s, (F00 + 3) * BLOCK + g);
        FloatVector f11 = FloatVector.fromArray(LANES, s, (F00 + 4) * BLOCK + g);
        FloatVector f12 = FloatVector.fromArray(LANES, s, (F00 + 5) * BLOCK + g);
        FloatVector f20 = FloatVector.fromArray(LANES, s, (F00 + 6) * BLOCK + g);
        FloatVector f21 = FloatVector.fromArray(LANES, s, (F00 + 7) * BLOCK + g);
        FloatVector f22 = FloatVector.fromArray(LANES, s, (F00 + 8) * BLOCK + g);
        FloatVector exx = FloatVector.fromArray(LANES, s, EXX * BLOCK + g);
        FloatVector eyy = FloatVector.fromArray(LANES, s, (EXX + 1) * BLOCK + g);
        FloatVector ezz = FloatVector.fromArray(LANES, s, (EXX + 2) * BLOCK + g);
        FloatVector exy = FloatVector.fromArray(LANES, s, (EXX + 3) * BLOCK + g);
        FloatVector eyz = FloatVector.fromArray(LANES, s, (EXX + 4) * BLOCK + g);
        FloatVector ezx = FloatVector.fromArray(LANES, s, (EXX + 5) * BLOCK + g);
        FloatVector p00 = f00.mul(exx).add(f01.mul(exy)).add(f02.mul(ezx));
        FloatVector p01 = f00.mul(exy).add(f01.mul(eyy)).add(f02.mul(eyz));
        FloatVector p02 = f00.mul(ezx).add(f01.mul(eyz)).add(f02.mul(ezz));
        FloatVector p10 = f10.mul(exx).add(f11.mul(exy)).add(f12.mul(ezx));
        FloatVector p11 = f10.mul(exy).add(f11.mul(eyy)).add(f12.mul(eyz));
        FloatVector p12 = f10.mul(ezx).add(f11.mul(eyz)).add(f12.mul(ezz));
        FloatVector p20 = f20.mul(exx).add(f21.mul(exy)).add(f22.mul(ezx));
        FloatVector p21 = f20.mul(exy).add(f21.mul(eyy)).add(f22.mul(eyz));
        FloatVector p22 = f20.mul(ezx).add(f21.mul(eyz)).add(f22.mul(ezz));
        for (int i = 0; i < 3; i++) {
            FloatVector ri0 = FloatVector.fromArray(LANES, q, (3 * i) * n + c);
            FloatVector ri1 = FloatVector.fromArray(LANES, q, (3 * i + 1) * n + c);
            FloatVector ri2 = FloatVector.fromArray(LANES, q, (3 * i + 2) * n + c);
            zero.blend(p00.mul(ri0).add(p01.mul(ri1)).add(p02.mul(ri2)), shape)
                    .intoArray(s, (U1X + 3 * i) * BLOCK + g);
            zero.blend(p10.mul(ri0).add(p11.mul(ri1)).add(p12.mul(ri2)), shape)
                    .intoArray(s, (U1X + 3 * i + 1) * BLOCK + g);
            zero.blend(p20.mul(ri0).add(p21.mul(ri1)).add(p22.mul(ri2)), shape)
                    .intoArray(s, (U1X + 3 * i + 2) * BLOCK + g);
        }
    }

    /** Corner 0's gradients (the negated sums) and the system's entries Σ w ∇·∇, in the scalar step's order. */
    private void systemEntries(float[] s, int g) {
        FloatVector v1x = FloatVector.fromArray(LANES, s, V1X * BLOCK + g);
        FloatVector v1y = FloatVector.fromArray(LANES, s, (V1X + 1) * BLOCK + g);
        FloatVector v1z = FloatVector.fromArray(LANES, s, (V1X + 2) * BLOCK + g);
        FloatVector v2x = FloatVector.fromArray(LANES, s, (V1X + 3) * BLOCK + g);
        FloatVector v2y = FloatVector.fromArray(LANES, s, (V1X + 4) * BLOCK + g);
        FloatVector v2z = FloatVector.fromArray(LANES, s, (V1X + 5) * BLOCK + g);
        FloatVector v3x = FloatVector.fromArray(LANES, s, (V1X + 6) * BLOCK + g);
        FloatVector v3y = FloatVector.fromArray(LANES, s, (V1X + 7) * BLOCK + g);
        FloatVector v3z = FloatVector.fromArray(LANES, s, (V1X + 8) * BLOCK + g);
        FloatVector u1x = FloatVector.fromArray(LANES, s, U1X * BLOCK + g);
        FloatVector u1y = FloatVector.fromArray(LANES, s, (U1X + 1) * BLOCK + g);
        FloatVector u1z = FloatVector.fromArray(LANES, s, (U1X + 2) * BLOCK + g);
        FloatVector u2x = FloatVector.fromArray(LANES, s, (U1X + 3) * BLOCK + g);
        FloatVector u2y = FloatVector.fromArray(LANES, s, (U1X + 4) * BLOCK + g);
        FloatVector u2z = FloatVector.fromArray(LANES, s, (U1X + 5) * BLOCK + g);
        FloatVector u3x = FloatVector.fromArray(LANES, s, (U1X + 6) * BLOCK + g);
        FloatVector u3y = FloatVector.fromArray(LANES, s, (U1X + 7) * BLOCK + g);
        FloatVector u3z = FloatVector.fromArray(LANES, s, (U1X + 8) * BLOCK + g);
        FloatVector w0 = FloatVector.fromArray(LANES, s, W0 * BLOCK + g);
        FloatVector w1 = FloatVector.fromArray(LANES, s, (W0 + 1) * BLOCK + g);
        FloatVector w2 = FloatVector.fromArray(LANES, s, (W0 + 2) * BLOCK + g);
        FloatVector w3 = FloatVector.fromArray(LANES, s, (W0 + 3) * BLOCK + g);
        FloatVector v0x = v1x.add(v2x).add(v3x).neg();
        FloatVector v0y = v1y.add(v2y).add(v3y).neg();
        FloatVector v0z = v1z.add(v2z).add(v3z).neg();
        FloatVector u0x = u1x.add(u2x).add(u3x).neg();
        FloatVector u0y = u1y.add(u2y).add(u3y).neg();
        FloatVector u0z = u1z.add(u2z).add(u3z).neg();
        v0x.intoArray(s, V0X * BLOCK + g);
        v0y.intoArray(s, (V0X + 1) * BLOCK + g);
        v0z.intoArray(s, (V0X + 2) * BLOCK + g);
        u0x.intoArray(s, U0X * BLOCK + g);
        u0y.intoArray(s, (U0X + 1) * BLOCK + g);
        u0z.intoArray(s, (U0X + 2) * BLOCK + g);
        FloatVector avv = w0.mul(v0x.mul(v0x).add(v0y.mul(v0y)).add(v0z.mul(v0z)))
                .add(w1.mul(v1x.mul(v1x).add(v1y.mul(v1y)).add(v1z.mul(v1z))))
                .add(w2.mul(v2x.mul(v2x).add(v2y.mul(v2y)).add(v2z.mul(v2z))))
                .add(w3.mul(v3x.mul(v3x).add(v3y.mul(v3y)).add(v3z.mul(v3z))));
        avv.intoArray(s, AVV * BLOCK + g);
        FloatVector auu = w0.mul(u0x.mul(u0x).add(u0y.mul(u0y)).add(u0z.mul(u0z)))
                .add(w1.mul(u1x.mul(u1x).add(u1y.mul(u1y)).add(u1z.mul(u1z))))
                .add(w2.mul(u2x.mul(u2x).add(u2y.mul(u2y)).add(u2z.mul(u2z))))
                .add(w3.mul(u3x.mul(u3x).add(u3y.mul(u3y)).add(u3z.mul(u3z))));
        auu.intoArray(s, AUU * BLOCK + g);
        FloatVector avu = w0.mul(v0x.mul(u0x).add(v0y.mul(u0y)).add(v0z.mul(u0z)))
                .add(w1.mul(v1x.mul(u1x).add(v1y.mul(u1y)).add(v1z.mul(u1z))))
                .add(w2.mul(v2x.mul(u2x).add(v2y.mul(u2y)).add(v2z.mul(u2z))))
                .add(w3.mul(v3x.mul(u3x).add(v3y.mul(u3y)).add(v3z.mul(u3z))));
        avu.intoArray(s, AVU * BLOCK + g);
    }

    /**
     * The 2 × 2 system where both constraints are present, else the present one's 1 × 1 step; then the
     * multipliers' and corners' increments, −0 where the scalar step returns (Δλ_v = Δλ_s = 0).
     */
    private void solve(float[] s, int g, int c) {
        final float[] q = data;
        final int n = count;
        FloatVector zero = FloatVector.zero(LANES);
        FloatVector alphaV = FloatVector.fromArray(LANES, q, 16 * n + c);
        FloatVector alphaS = FloatVector.fromArray(LANES, q, 17 * n + c);
        VectorMask<Float> volume = alphaV.compare(VectorOperators.LT, Float.MAX_VALUE);
        // the shape present (α̃ < max) and resolved (‖E‖ > 1e-10, the scalar step's bound)
        FloatVector norm2 = FloatVector.fromArray(LANES, s, NORM2 * BLOCK + g);
        VectorMask<Float> shape = alphaS.compare(VectorOperators.LT, Float.MAX_VALUE)
                .and(norm2.compare(VectorOperators.GT, 1e-20f));
        FloatVector cv = FloatVector.fromArray(LANES, s, CV * BLOCK + g);
        FloatVector cs = FloatVector.fromArray(LANES, s, CS * BLOCK + g);
        FloatVector avu = FloatVector.fromArray(LANES, s, AVU * BLOCK + g);
        FloatVector kvv = FloatVector.fromArray(LANES, s, AVV * BLOCK + g).add(alphaV);
        FloatVector kuu = FloatVector.fromArray(LANES, s, AUU * BLOCK + g).add(alphaS.mul(norm2));
        FloatVector lambdaV = FloatVector.fromArray(LANES, s, LAMBDA_V * BLOCK + g);
        FloatVector lambdaS = FloatVector.fromArray(LANES, s, LAMBDA_S * BLOCK + g);
        FloatVector rv = cv.neg().sub(alphaV.mul(lambdaV));
        FloatVector ru = cs.neg().sub(alphaS.mul(lambdaS)).mul(cs);
        FloatVector det = kvv.mul(kuu).sub(avu.mul(avu));
        VectorMask<Float> solved = volume.and(shape).and(det.compare(VectorOperators.GT, kvv.mul(1e-6f).mul(kuu)));
        FloatVector inv = FloatVector.broadcast(LANES, 1f).div(det);
        FloatVector dvBoth = kuu.mul(rv).sub(avu.mul(ru)).mul(inv);
        FloatVector duBoth = kvv.mul(ru).sub(avu.mul(rv)).mul(inv);
        // the volume's step where the system was not solved (no shape, or nearly parallel gradients)
        VectorMask<Float> volumeAlone = volume.andNot(solved).and(kvv.compare(VectorOperators.GT, 1e-30f));
        VectorMask<Float> shapeAlone = shape.andNot(volume).and(kuu.compare(VectorOperators.GT, 1e-30f));
        FloatVector dv = zero.blend(rv.div(kvv), volumeAlone).blend(dvBoth, solved);
        FloatVector du = zero.blend(ru.div(kuu), shapeAlone).blend(duBoth, solved);
        VectorMask<Float> moved = dv.compare(VectorOperators.EQ, 0f).and(du.compare(VectorOperators.EQ, 0f)).not();
        FloatVector none = FloatVector.broadcast(LANES, -0f);
        none.blend(dv, moved).intoArray(s, DLAMBDA_V * BLOCK + g);
        none.blend(du.mul(cs), moved).intoArray(s, DLAMBDA_S * BLOCK + g);
        for (int corner = 0; corner < 4; corner++) {
            int v = corner == 0 ? V0X : V1X + 3 * (corner - 1);
            int u = corner == 0 ? U0X : U1X + 3 * (corner - 1);
            FloatVector f = FloatVector.fromArray(LANES, s, (W0 + corner) * BLOCK + g);
            for (int axis = 0; axis < 3; axis++) {
                FloatVector gv = FloatVector.fromArray(LANES, s, (v + axis) * BLOCK + g);
                FloatVector gu = FloatVector.fromArray(LANES, s, (u + axis) * BLOCK + g);
                none.blend(f.mul(dv.mul(gv).add(du.mul(gu))), moved)
                        .intoArray(s, (D0X + 3 * corner + axis) * BLOCK + g);
            }
        }
    }
}
