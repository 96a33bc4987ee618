package dev.weft.core.solver.xpbd;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link SoaDistanceKernel} with the JDK's Vector API: eight constraints of a run per step (256-bit lanes), the
 * rest one at a time. Each lane computes what {@link XpbdSolver}'s scalar loop computes, in the same order; a
 * lane the scalar loop would skip (both particles pinned, or coincident) keeps its corrections and multiplier by a
 * blend, bit for bit. Loaded by name only where {@code jdk.incubator.vector} is present.
 */
final class VectorDistanceKernel implements SoaDistanceKernel {
    private static final VectorSpecies<Float> LANES = FloatVector.SPECIES_256;
    private static final int WIDTH = LANES.length();
    /**
     * 0, 1, …, WIDTH − 1: an overlapping last vector's lanes done before are those below the overlap (a compare, which
     * compiles to one instruction where {@code indexInRange} with a negative offset took a slow path: JFR).
     */
    private static final FloatVector LANE_INDEX = FloatVector.fromArray(LANES, laneIndices(), 0);

    private static float[] laneIndices() {
        float[] j = new float[WIDTH];
        for (int i = 0; i < WIDTH; i++) {
            j[i] = i;
        }
        return j;
    }

    private int[] pairs;
    private float[] rest;
    private float[] w;
    private float[] alpha;
    private float[] lambda;
    private int[] runEnd;
    private float[] yx;
    private float[] yy;
    private float[] yz;
    private float[] dx;
    private float[] dy;
    private float[] dz;

    @Override
    public void bind(int[] pairs, float[] rest, float[] invMass, float[] alpha, float[] lambda, int[] runEnd) {
        this.pairs = pairs;
        this.rest = rest;
        this.w = invMass;
        this.alpha = alpha;
        this.lambda = lambda;
        this.runEnd = runEnd;
    }

    @Override
    public void positions(float[] yx, float[] yy, float[] yz, float[] dx, float[] dy, float[] dz) {
        this.yx = yx;
        this.yy = yy;
        this.yz = yz;
        this.dx = dx;
        this.dy = dy;
        this.dz = dz;
    }

    private int[] anchorSlot;
    private float[] tetherMax;

    @Override
    public void bindTethers(int[] anchorSlot, float[] maxLength) {
        this.anchorSlot = anchorSlot;
        this.tetherMax = maxLength;
    }

    @Override
    public void tethers(int begin, int end) {
        int s = tetherLanes(begin, end);
        for (; s < end; s++) {
            if (tetherMax[s] == Float.MAX_VALUE) {
                continue;
            }
            int a = anchorSlot[s];
            float px = dx[s];
            float py = dy[s];
            float pz = dz[s];
            float ex = (yx[s] - yx[a]) + (px - dx[a]);
            float ey = (yy[s] - yy[a]) + (py - dy[a]);
            float ez = (yz[s] - yz[a]) + (pz - dz[a]);
            float f = dev.weft.core.solver.TetherProjection.taut(ex * ex + ey * ey + ez * ez, tetherMax[s]);
            dx[s] = px + ex * f;
            dy[s] = py + ey * f;
            dz[s] = pz + ez * f;
        }
    }

    /**
     * The tethers of slots [begin, end) eight at a time where there are at least eight (else none), their anchors
     * gathered; a slot without one keeps its correction. Returns where the lanes stopped: {@code end}, or
     * {@code begin}. Where the count is not a multiple of eight, one more vector ends at {@code end}, its lanes done
     * by the vector before skipped (as in {@link #lanes}).
     */
    private int tetherLanes(int begin, int end) {
        int vectors = (end - begin) / WIDTH;
        if (vectors == 0) {
            return begin;
        }
        tetherLanes(begin, vectors, 0);
        int rest = (end - begin) % WIDTH;
        if (rest > 0) {
            tetherLanes(end - WIDTH, 1, WIDTH - rest);
        }
        return end;
    }

    /** Slots s0 .. s0 + 8·vectors − 1's tethers, lanes below {@code doneBelow} in every vector skipped. */
    private void tetherLanes(int s0, int vectors, int doneBelow) {
        VectorMask<Float> done = LANE_INDEX.compare(VectorOperators.LT, (float) doneBelow);
        int end = s0 + vectors * WIDTH;
        for (int s = s0; s < end; s += WIDTH) {
            FloatVector max = FloatVector.fromArray(LANES, tetherMax, s);
            VectorMask<Float> none = max.compare(VectorOperators.EQ, Float.MAX_VALUE).or(done);
            FloatVector px = FloatVector.fromArray(LANES, dx, s);
            FloatVector py = FloatVector.fromArray(LANES, dy, s);
            FloatVector pz = FloatVector.fromArray(LANES, dz, s);
            // the anchors' corrections are not gathered: a pinned particle's is +0 throughout (it starts at +0 and every
            // projection moves it by 0 · a finite step), and p − (+0) is p, bit for bit
            FloatVector ex = FloatVector.fromArray(LANES, yx, s).sub(FloatVector.fromArray(LANES, yx, 0, anchorSlot, s)).add(px);
            FloatVector ey = FloatVector.fromArray(LANES, yy, s).sub(FloatVector.fromArray(LANES, yy, 0, anchorSlot, s)).add(py);
            FloatVector ez = FloatVector.fromArray(LANES, yz, s).sub(FloatVector.fromArray(LANES, yz, 0, anchorSlot, s)).add(pz);
            FloatVector d2 = ex.mul(ex).add(ey.mul(ey)).add(ez.mul(ez));
            // TetherProjection.taut, lane by lane
            FloatVector f = max.div(d2.max(Float.MIN_NORMAL).sqrt()).sub(1f).min(0f);
            px.add(ex.mul(f)).blend(px, none).intoArray(dx, s);
            py.add(ey.mul(f)).blend(py, none).intoArray(dy, s);
            pz.add(ez.mul(f)).blend(pz, none).intoArray(dz, s);
        }
    }

    private static final int RIGID = 0;
    private static final int COMPLIANT = 1;
    private static final int LIMIT = 2;
    private static final int COMPLIANT_HALF = 3;

    @Override
    public void rigid(int begin, int end) {
        run(begin, end, RIGID);
    }

    @Override
    public void compliant(int begin, int end) {
        run(begin, end, COMPLIANT);
    }

    @Override
    public void compliantHalf(int begin, int end) {
        run(begin, end, COMPLIANT_HALF);
    }

    @Override
    public void limit(int begin, int end) {
        run(begin, end, LIMIT);
    }

    private void run(int begin, int end, int kind) {
        int c = begin;
        while (c < end) {
            int stop = runEnd[c];
            if (stop > c) {
                int to = Math.min(end, stop);
                int a = pairs[2 * c];
                int offset = pairs[2 * c + 1] - a;
                int vectors = (to - c) / WIDTH;
                if (vectors == 0) {
                    scalar(c, to, kind); // a run cut short by the range's end
                } else {
                    lanes(c, vectors, a, offset, kind, 0);
                    int rest = (to - c) % WIDTH;
                    if (rest > 0) {
                        lanes(to - WIDTH, 1, a + (to - WIDTH - c), offset, kind, WIDTH - rest);
                    }
                }
                c = to;
            } else {
                // the constraints up to the next run (or the range's end) one at a time
                int k = c + 1;
                while (k < end && runEnd[k] < 0) {
                    k++;
                }
                scalar(c, k, kind);
                c = k;
            }
        }
    }

    /**
     * Constraints k0 .. k0 + 8·vectors − 1 of a run, eight at a time: constraint k0 + j's particles are first + j and
     * first + j + offset. Lanes below {@code doneBelow} in every vector are skipped (their values stored back
     * unchanged). {@link #run} calls it for a run's whole vectors (none skipped) and, where the run's length is not a
     * multiple of eight, once more for one vector that ends at the run's end and overlaps the one before: its lanes
     * already projected skipped (this thread's own values), so no constraint is projected twice, no particle outside
     * the run is stored to, and none is left to the scalar loop (on issue #17's cloth at N = 64 those tails were 9 %
     * of the constraints and 14 % of a frame's time). The loop is here, not around a call per vector: the body is too
     * large for the compiler to inline, and a call per eight constraints cost (N = 64: the lane sweep took 13 % less
     * time a frame this way); the skip mask is the loop's constant (a mask computed per vector, to move only the last
     * one back, made N = 256 14-19 % slower).
     */
    private void lanes(int k0, int vectors, int first, int offset, int kind, int doneBelow) {
        VectorMask<Float> done = LANE_INDEX.compare(VectorOperators.LT, (float) doneBelow);
        int end = k0 + vectors * WIDTH;
        for (int k = k0, a = first; k < end; k += WIDTH, a += WIDTH) {
            int b = a + offset;
            FloatVector dax = FloatVector.fromArray(LANES, dx, a);
            FloatVector day = FloatVector.fromArray(LANES, dy, a);
            FloatVector daz = FloatVector.fromArray(LANES, dz, a);
            FloatVector dbx = FloatVector.fromArray(LANES, dx, b);
            FloatVector dby = FloatVector.fromArray(LANES, dy, b);
            FloatVector dbz = FloatVector.fromArray(LANES, dz, b);
            FloatVector ex = FloatVector.fromArray(LANES, yx, b).sub(FloatVector.fromArray(LANES, yx, a)).add(dbx.sub(dax));
            FloatVector ey = FloatVector.fromArray(LANES, yy, b).sub(FloatVector.fromArray(LANES, yy, a)).add(dby.sub(day));
            FloatVector ez = FloatVector.fromArray(LANES, yz, b).sub(FloatVector.fromArray(LANES, yz, a)).add(dbz.sub(daz));
            FloatVector wa = FloatVector.fromArray(LANES, w, a);
            FloatVector wb = FloatVector.fromArray(LANES, w, b);
            FloatVector wsum = wa.add(wb);
            FloatVector d2 = ex.mul(ex).add(ey.mul(ey)).add(ez.mul(ez));
            // the scalar loop's "if (wsum == 0f || d2 < 1e-24f) continue": those lanes keep everything
            VectorMask<Float> skip = wsum.compare(VectorOperators.EQ, 0f).or(d2.compare(VectorOperators.LT, 1e-24f))
                    .or(done);
            FloatVector len = d2.sqrt();
            FloatVector r = FloatVector.fromArray(LANES, rest, k);
            if (kind == LIMIT) {
                // StretchLimits' "if (wsum == 0f || d2 <= max * max) continue" (a d2 under 1e-24 is within any limit)
                skip = skip.or(d2.compare(VectorOperators.LE, r.mul(r)));
            }
            FloatVector scale;
            if (kind == COMPLIANT || kind == COMPLIANT_HALF) {
                FloatVector al = FloatVector.fromArray(LANES, alpha, k);
                FloatVector lam = FloatVector.fromArray(LANES, lambda, k);
                FloatVector dl = r.sub(len).sub(al.mul(lam)).div(wsum.add(al));
                if (kind == COMPLIANT_HALF) {
                    dl = dl.mul(0.5f);
                }
                lam.add(dl).blend(lam, skip).intoArray(lambda, k);
                scale = dl.div(len);
            } else {
                scale = r.sub(len).div(wsum.mul(len));
            }
            FloatVector sa = wa.mul(scale);
            FloatVector sb = wb.mul(scale);
            dax.sub(sa.mul(ex)).blend(dax, skip).intoArray(dx, a);
            day.sub(sa.mul(ey)).blend(day, skip).intoArray(dy, a);
            daz.sub(sa.mul(ez)).blend(daz, skip).intoArray(dz, a);
            dbx.add(sb.mul(ex)).blend(dbx, skip).intoArray(dx, b);
            dby.add(sb.mul(ey)).blend(dby, skip).intoArray(dy, b);
            dbz.add(sb.mul(ez)).blend(dbz, skip).intoArray(dz, b);
        }
    }

    // two loops, not one with the flag inside: measured, the merged loop took 1.9-2.1 ms a frame against
    // 1.2-1.3 (issue #17's cloth, N = 64): the compiler did not split it
    private void scalar(int from, int to, int kind) {
        if (kind == COMPLIANT) {
            compliantRange(from, to, 1f);
        } else if (kind == COMPLIANT_HALF) {
            compliantRange(from, to, 0.5f);
        } else if (kind == RIGID) {
            rigidRange(from, to);
        } else {
            limitRange(from, to);
        }
    }

    /** Limits [from, to) one at a time: StretchLimits.projectRange's arithmetic on the axis arrays. */
    private void limitRange(int from, int to) {
        final int[] p = pairs;
        final float[] x0 = yx;
        final float[] x1 = yy;
        final float[] x2 = yz;
        final float[] c0 = dx;
        final float[] c1 = dy;
        final float[] c2 = dz;
        final float[] inv = w;
        final float[] r = rest;
        for (int c = from; c < to; c++) {
            int ia = p[2 * c];
            int ib = p[2 * c + 1];
            float dax = c0[ia];
            float day = c1[ia];
            float daz = c2[ia];
            float dbx = c0[ib];
            float dby = c1[ib];
            float dbz = c2[ib];
            float ex = (x0[ib] - x0[ia]) + (dbx - dax);
            float ey = (x1[ib] - x1[ia]) + (dby - day);
            float ez = (x2[ib] - x2[ia]) + (dbz - daz);
            float wa = inv[ia];
            float wb = inv[ib];
            float wsum = wa + wb;
            float d2 = ex * ex + ey * ey + ez * ez;
            float max = r[c];
            if (wsum == 0f || d2 <= max * max) {
                continue;
            }
            float len = (float) Math.sqrt(d2);
            float scale = (max - len) / (wsum * len);
            float sa = wa * scale;
            float sb = wb * scale;
            c0[ia] = dax - sa * ex;
            c1[ia] = day - sa * ey;
            c2[ia] = daz - sa * ez;
            c0[ib] = dbx + sb * ex;
            c1[ib] = dby + sb * ey;
            c2[ib] = dbz + sb * ez;
        }
    }

    /** Constraints [from, to) one at a time: XpbdSolver.projectRigidDistances' arithmetic on the axis arrays. */
    private void rigidRange(int from, int to) {
        final int[] p = pairs;
        final float[] x0 = yx;
        final float[] x1 = yy;
        final float[] x2 = yz;
        final float[] c0 = dx;
        final float[] c1 = dy;
        final float[] c2 = dz;
        final float[] inv = w;
        final float[] r = rest;
        for (int c = from; c < to; c++) {
            int ia = p[2 * c];
            int ib = p[2 * c + 1];
            float dax = c0[ia];
            float day = c1[ia];
            float daz = c2[ia];
            float dbx = c0[ib];
            float dby = c1[ib];
            float dbz = c2[ib];
            float ex = (x0[ib] - x0[ia]) + (dbx - dax);
            float ey = (x1[ib] - x1[ia]) + (dby - day);
            float ez = (x2[ib] - x2[ia]) + (dbz - daz);
            float wa = inv[ia];
            float wb = inv[ib];
            float wsum = wa + wb;
            float d2 = ex * ex + ey * ey + ez * ez;
            if (wsum == 0f || d2 < 1e-24f) {
                continue;
            }
            float len = (float) Math.sqrt(d2);
            float scale = (r[c] - len) / (wsum * len);
            float sa = wa * scale;
            float sb = wb * scale;
            c0[ia] = dax - sa * ex;
            c1[ia] = day - sa * ey;
            c2[ia] = daz - sa * ez;
            c0[ib] = dbx + sb * ex;
            c1[ib] = dby + sb * ey;
            c2[ib] = dbz + sb * ez;
        }
    }

    /**
     * Constraints [from, to) one at a time: XpbdSolver.projectDistances' arithmetic on the axis arrays, each
     * multiplier step times {@code share}.
     */
    private void compliantRange(int from, int to, float share) {
        final int[] p = pairs;
        final float[] x0 = yx;
        final float[] x1 = yy;
        final float[] x2 = yz;
        final float[] c0 = dx;
        final float[] c1 = dy;
        final float[] c2 = dz;
        final float[] inv = w;
        final float[] r = rest;
        final float[] alphas = alpha;
        final float[] lambdas = lambda;
        for (int c = from; c < to; c++) {
            int ia = p[2 * c];
            int ib = p[2 * c + 1];
            float dax = c0[ia];
            float day = c1[ia];
            float daz = c2[ia];
            float dbx = c0[ib];
            float dby = c1[ib];
            float dbz = c2[ib];
            float ex = (x0[ib] - x0[ia]) + (dbx - dax);
            float ey = (x1[ib] - x1[ia]) + (dby - day);
            float ez = (x2[ib] - x2[ia]) + (dbz - daz);
            float wa = inv[ia];
            float wb = inv[ib];
            float wsum = wa + wb;
            float d2 = ex * ex + ey * ey + ez * ez;
            if (wsum == 0f || d2 < 1e-24f) {
                continue;
            }
            float len = (float) Math.sqrt(d2);
            float al = alphas[c];
            float dl = (r[c] - len - al * lambdas[c]) / (wsum + al);
            dl *= share;
            lambdas[c] += dl;
            float scale = dl / len;
            float sa = wa * scale;
            float sb = wb * scale;
            c0[ia] = dax - sa * ex;
            c1[ia] = day - sa * ey;
            c2[ia] = daz - sa * ez;
            c0[ib] = dbx + sb * ex;
            c1[ib] = dby + sb * ey;
            c2[ib] = dbz + sb * ez;
        }
    }
}
