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
    /** Tetrahedra staged at a time (a multiple of the width; 29 runs of it fit the L1 cache). */
    static final int BLOCK = 64;
    // the staging block's runs: inputs, then outputs
    private static final int E1X = 0;
    private static final int W0 = 9;
    private static final int LAMBDA_V = 13;
    private static final int LAMBDA_S = 14;
    private static final int DLAMBDA_V = 15;
    private static final int DLAMBDA_S = 16;
    private static final int D0X = 17;
    private static final int RUNS = 29;

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

    private static FloatVector at(float[] s, int run, int g) {
        return FloatVector.fromArray(LANES, s, run * BLOCK + g);
    }

    /**
     * Tetrahedra c .. c + 7 (staged at g): TetProjection.projectInPlace's operations lane by lane, a branch of it
     * as a mask; increments into the staging block's output runs.
     */
    private void lanes(float[] s, int g, int c) {
        final float[] q = data;
        final int n = count;
        FloatVector zero = FloatVector.zero(LANES);
        FloatVector e1x = at(s, E1X, g);
        FloatVector e1y = at(s, E1X + 1, g);
        FloatVector e1z = at(s, E1X + 2, g);
        FloatVector e2x = at(s, E1X + 3, g);
        FloatVector e2y = at(s, E1X + 4, g);
        FloatVector e2z = at(s, E1X + 5, g);
        FloatVector e3x = at(s, E1X + 6, g);
        FloatVector e3y = at(s, E1X + 7, g);
        FloatVector e3z = at(s, E1X + 8, g);
        FloatVector alphaV = FloatVector.fromArray(LANES, q, 16 * n + c);
        FloatVector alphaS = FloatVector.fromArray(LANES, q, 17 * n + c);
        VectorMask<Float> volume = alphaV.compare(VectorOperators.LT, Float.MAX_VALUE);
        // the volume's gradients at corners 1–3 and its constraint, 0 where it is absent
        FloatVector v1x = zero.blend(e2y.mul(e3z).sub(e2z.mul(e3y)), volume);
        FloatVector v1y = zero.blend(e2z.mul(e3x).sub(e2x.mul(e3z)), volume);
        FloatVector v1z = zero.blend(e2x.mul(e3y).sub(e2y.mul(e3x)), volume);
        FloatVector v2x = zero.blend(e3y.mul(e1z).sub(e3z.mul(e1y)), volume);
        FloatVector v2y = zero.blend(e3z.mul(e1x).sub(e3x.mul(e1z)), volume);
        FloatVector v2z = zero.blend(e3x.mul(e1y).sub(e3y.mul(e1x)), volume);
        FloatVector v3x = zero.blend(e1y.mul(e2z).sub(e1z.mul(e2y)), volume);
        FloatVector v3y = zero.blend(e1z.mul(e2x).sub(e1x.mul(e2z)), volume);
        FloatVector v3z = zero.blend(e1x.mul(e2y).sub(e1y.mul(e2x)), volume);
        FloatVector cv = zero.blend(e1x.mul(v1x).add(e1y.mul(v1y)).add(e1z.mul(v1z))
                .sub(FloatVector.fromArray(LANES, q, 15 * n + c)), volume);
        // the shape: F = D_s D_m⁻¹, Green's strain less its rest value, ‖E‖²
        FloatVector r00 = FloatVector.fromArray(LANES, q, c);
        FloatVector r01 = FloatVector.fromArray(LANES, q, n + c);
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
        FloatVector norm2 = exx.mul(exx).add(eyy.mul(eyy)).add(ezz.mul(ezz))
                .add(exy.mul(exy).add(eyz.mul(eyz)).add(ezx.mul(ezx)).mul(2f));
        // present (α̃ < max) and resolved (‖E‖ > 1e-10), as the scalar step's bound
        VectorMask<Float> shape = alphaS.compare(VectorOperators.LT, Float.MAX_VALUE)
                .and(norm2.compare(VectorOperators.GT, 1e-20f));
        FloatVector cs = zero.blend(norm2.sqrt(), shape);
        // P = F E; corner i's unnormalized gradient u is P times row i of D_m⁻¹, 0 where the shape is left out
        FloatVector p00 = f00.mul(exx).add(f01.mul(exy)).add(f02.mul(ezx));
        FloatVector p01 = f00.mul(exy).add(f01.mul(eyy)).add(f02.mul(eyz));
        FloatVector p02 = f00.mul(ezx).add(f01.mul(eyz)).add(f02.mul(ezz));
        FloatVector p10 = f10.mul(exx).add(f11.mul(exy)).add(f12.mul(ezx));
        FloatVector p11 = f10.mul(exy).add(f11.mul(eyy)).add(f12.mul(eyz));
        FloatVector p12 = f10.mul(ezx).add(f11.mul(eyz)).add(f12.mul(ezz));
        FloatVector p20 = f20.mul(exx).add(f21.mul(exy)).add(f22.mul(ezx));
        FloatVector p21 = f20.mul(exy).add(f21.mul(eyy)).add(f22.mul(eyz));
        FloatVector p22 = f20.mul(ezx).add(f21.mul(eyz)).add(f22.mul(ezz));
        FloatVector u1x = zero.blend(p00.mul(r00).add(p01.mul(r01)).add(p02.mul(r02)), shape);
        FloatVector u1y = zero.blend(p10.mul(r00).add(p11.mul(r01)).add(p12.mul(r02)), shape);
        FloatVector u1z = zero.blend(p20.mul(r00).add(p21.mul(r01)).add(p22.mul(r02)), shape);
        FloatVector u2x = zero.blend(p00.mul(r10).add(p01.mul(r11)).add(p02.mul(r12)), shape);
        FloatVector u2y = zero.blend(p10.mul(r10).add(p11.mul(r11)).add(p12.mul(r12)), shape);
        FloatVector u2z = zero.blend(p20.mul(r10).add(p21.mul(r11)).add(p22.mul(r12)), shape);
        FloatVector u3x = zero.blend(p00.mul(r20).add(p01.mul(r21)).add(p02.mul(r22)), shape);
        FloatVector u3y = zero.blend(p10.mul(r20).add(p11.mul(r21)).add(p12.mul(r22)), shape);
        FloatVector u3z = zero.blend(p20.mul(r20).add(p21.mul(r21)).add(p22.mul(r22)), shape);
        FloatVector w0 = at(s, W0, g);
        FloatVector w1 = at(s, W0 + 1, g);
        FloatVector w2 = at(s, W0 + 2, g);
        FloatVector w3 = at(s, W0 + 3, g);
        // corner 0's gradients: the negated sums
        FloatVector v0x = v1x.add(v2x).add(v3x).neg();
        FloatVector v0y = v1y.add(v2y).add(v3y).neg();
        FloatVector v0z = v1z.add(v2z).add(v3z).neg();
        FloatVector u0x = u1x.add(u2x).add(u3x).neg();
        FloatVector u0y = u1y.add(u2y).add(u3y).neg();
        FloatVector u0z = u1z.add(u2z).add(u3z).neg();
        FloatVector avv = w0.mul(dot(v0x, v0y, v0z, v0x, v0y, v0z)).add(w1.mul(dot(v1x, v1y, v1z, v1x, v1y, v1z)))
                .add(w2.mul(dot(v2x, v2y, v2z, v2x, v2y, v2z))).add(w3.mul(dot(v3x, v3y, v3z, v3x, v3y, v3z)));
        FloatVector auu = w0.mul(dot(u0x, u0y, u0z, u0x, u0y, u0z)).add(w1.mul(dot(u1x, u1y, u1z, u1x, u1y, u1z)))
                .add(w2.mul(dot(u2x, u2y, u2z, u2x, u2y, u2z))).add(w3.mul(dot(u3x, u3y, u3z, u3x, u3y, u3z)));
        FloatVector avu = w0.mul(dot(v0x, v0y, v0z, u0x, u0y, u0z)).add(w1.mul(dot(v1x, v1y, v1z, u1x, u1y, u1z)))
                .add(w2.mul(dot(v2x, v2y, v2z, u2x, u2y, u2z))).add(w3.mul(dot(v3x, v3y, v3z, u3x, u3y, u3z)));
        // the 2 × 2 system (both present), else the present one's 1 × 1 step
        FloatVector kvv = avv.add(alphaV);
        FloatVector kuu = auu.add(alphaS.mul(norm2));
        FloatVector rv = cv.neg().sub(alphaV.mul(at(s, LAMBDA_V, g)));
        FloatVector ru = cs.neg().sub(alphaS.mul(at(s, LAMBDA_S, g))).mul(cs);
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
        // the scalar step returns where Δλ_v = Δλ_s = 0: those lanes add −0 (no bit changes)
        VectorMask<Float> moved = dv.compare(VectorOperators.EQ, 0f).and(du.compare(VectorOperators.EQ, 0f)).not();
        FloatVector none = FloatVector.broadcast(LANES, -0f);
        none.blend(dv, moved).intoArray(s, DLAMBDA_V * BLOCK + g);
        none.blend(du.mul(cs), moved).intoArray(s, DLAMBDA_S * BLOCK + g);
        move(s, g, D0X, w0, dv, du, v0x, v0y, v0z, u0x, u0y, u0z, moved, none);
        move(s, g, D0X + 3, w1, dv, du, v1x, v1y, v1z, u1x, u1y, u1z, moved, none);
        move(s, g, D0X + 6, w2, dv, du, v2x, v2y, v2z, u2x, u2y, u2z, moved, none);
        move(s, g, D0X + 9, w3, dv, du, v3x, v3y, v3z, u3x, u3y, u3z, moved, none);
    }

    /** (ax bx + ay by) + az bz, the scalar step's order. */
    private static FloatVector dot(FloatVector ax, FloatVector ay, FloatVector az, FloatVector bx, FloatVector by,
                                   FloatVector bz) {
        return ax.mul(bx).add(ay.mul(by)).add(az.mul(bz));
    }

    /** A corner's increments f (Δλ_v ∇C_v + Δλ_s/‖E‖ u) into runs at {@code run}, −0 where nothing moves. */
    private static void move(float[] s, int g, int run, FloatVector f, FloatVector dv, FloatVector du,
                             FloatVector vx, FloatVector vy, FloatVector vz, FloatVector ux, FloatVector uy,
                             FloatVector uz, VectorMask<Float> moved, FloatVector none) {
        none.blend(f.mul(dv.mul(vx).add(du.mul(ux))), moved).intoArray(s, run * BLOCK + g);
        none.blend(f.mul(dv.mul(vy).add(du.mul(uy))), moved).intoArray(s, (run + 1) * BLOCK + g);
        none.blend(f.mul(dv.mul(vz).add(du.mul(uz))), moved).intoArray(s, (run + 2) * BLOCK + g);
    }
}
