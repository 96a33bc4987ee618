package dev.weft.core.solver.implicit;

import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;

/**
 * The block Jacobi iteration of seed 000 listing 4.2, filtered:
 * {@code Δv_i ← S_i A_ii⁻¹ (b_i − Σ_{j≠i} A_ij Δv_j) + (I − S_i) z_i}, one row-parallel pass per
 * iteration that also measures the residual of the iterate it starts from. On a row constrained to a
 * plane or a line, "S_i A_ii⁻¹" is taken within the allowed directions: Δv_i = (S A_ii S + I − S)⁻¹
 * S (b_i − Σ_{j≠i} A_ij Δv_j − A_ii (I − S) z_i) + (I − S) z_i, which makes the fixed point the
 * solution of the filtered system (filtering A_ii⁻¹'s output, as the listing does, does not). It converges only where
 * A is (block) diagonally dominant enough (seed 000 §4.4.2): a residual growing past
 * {@link #DIVERGENCE_FACTOR} × |S b| is reported as a {@link LinearSolveException} naming the worst
 * row, never passed on as NaN. Bitwise identical on any number of threads.
 */
public final class JacobiMethod implements LinearSolver {
    /** A residual this many times the right-hand side means the iteration is running away. */
    public static final double DIVERGENCE_FACTOR = 1e6;

    private final WorkerPool pool;
    private int n = -1;
    private double[] buffer;
    /** Per plane- or line-constrained row: (S A_ii S + I − S)⁻¹, the block inverse within the allowed directions. */
    private double[] reducedInverse;
    private double[] partial;
    private int chunks;

    private FilteredSystem sys;
    private double[] cur;
    private double[] next;
    private boolean writeNext;
    private int iterations;
    private double relativeResidual;

    private final ThreadLocal<double[]> scratch = ThreadLocal.withInitial(() -> new double[36]);
    private final RangeBody initBody = this::init;
    private final RangeBody sweepBody = this::sweep;

    public JacobiMethod(WorkerPool pool) {
        this.pool = pool;
    }

    @Override
    public void solve(FilteredSystem system, double[] dv, int maxIterations, double tolerance) {
        size(system.rows());
        sys = system;
        cur = dv;
        next = buffer;
        pool.parallelFor(0, n, RowChunks.MIN_PARALLEL_ROWS, initBody);
        double bNorm2 = RowChunks.sum(partial, chunks);
        iterations = 0;
        relativeResidual = 0.0;
        if (bNorm2 == 0.0) {
            sys = null;
            return;
        }
        double target2 = tolerance * tolerance * bNorm2;
        double limit2 = DIVERGENCE_FACTOR * DIVERGENCE_FACTOR * bNorm2;
        while (true) {
            writeNext = iterations < maxIterations;
            pool.parallelFor(0, n, RowChunks.MIN_PARALLEL_ROWS, sweepBody);
            double rNorm2 = RowChunks.sum(partial, chunks);
            if (!(rNorm2 <= limit2)) {
                throw new LinearSolveException("Jacobi iteration diverged after " + iterations
                        + " iterations (residual " + Math.sqrt(rNorm2 / bNorm2) + " × |b|): the system matrix is "
                        + "not diagonally dominant enough; use cg, a smaller time step or softer springs",
                        worstResidualRow());
            }
            relativeResidual = Math.sqrt(rNorm2 / bNorm2);
            if (!writeNext || rNorm2 <= target2) {
                break;
            }
            double[] t = cur;
            cur = next;
            next = t;
            iterations++;
        }
        if (cur != dv) {
            System.arraycopy(cur, 0, dv, 0, 3 * n);
        }
        sys = null;
    }

    @Override
    public int iterations() {
        return iterations;
    }

    @Override
    public double relativeResidual() {
        return relativeResidual;
    }

    private void size(int rows) {
        if (rows != n) {
            n = rows;
            buffer = new double[3 * n];
            reducedInverse = new double[9 * n];
            chunks = RowChunks.count(n);
            partial = new double[chunks];
        }
    }

    private void init(int begin, int end) {
        ParticleFilter f = sys.filter();
        double[] b = sys.rhs();
        double[] z = sys.prescribed();
        for (int c0 = RowChunks.alignUp(begin), hi = Math.min(RowChunks.alignUp(end), n); c0 < hi; c0 += RowChunks.SIZE) {
            double sum = 0.0;
            for (int i = c0, e = Math.min(c0 + RowChunks.SIZE, n); i < e; i++) {
                int i3 = 3 * i;
                next[i3] = b[i3];
                next[i3 + 1] = b[i3 + 1];
                next[i3 + 2] = b[i3 + 2];
                f.apply(next, i);
                sum += next[i3] * next[i3] + next[i3 + 1] * next[i3 + 1] + next[i3 + 2] * next[i3 + 2];
                f.applyComplement(z, cur, i);
                byte k = f.constrainedDirections(i);
                if (k == ParticleFilter.PLANE || k == ParticleFilter.LINE) {
                    reduceDiagonal(i);
                }
            }
            partial[c0 / RowChunks.SIZE] = sum;
        }
    }

    /** Residual of {@code cur} into partial; when writeNext, the next iterate into {@code next}. */
    private void sweep(int begin, int end) {
        ParticleFilter f = sys.filter();
        BlockSparseMatrix a = sys.matrix();
        float[] v = a.values();
        double[] b = sys.rhs();
        double[] pinv = sys.blockInverse();
        for (int c0 = RowChunks.alignUp(begin), hi = Math.min(RowChunks.alignUp(end), n); c0 < hi; c0 += RowChunks.SIZE) {
            double rr = 0.0;
            for (int i = c0, e = Math.min(c0 + RowChunks.SIZE, n); i < e; i++) {
                int i3 = 3 * i;
                a.multiplyRow(cur, next, i); // (A cur)_i, diagonal included
                // the diagonal block's share, to take off: A_ii cur_i
                int d = BlockSparseMatrix.BLOCK * a.diagonalEntry(i);
                double xi = cur[i3];
                double yi = cur[i3 + 1];
                double zi = cur[i3 + 2];
                double dx = v[d] * xi + v[d + 1] * yi + v[d + 2] * zi;
                double dy = v[d + 1] * xi + v[d + 3] * yi + v[d + 4] * zi;
                double dz = v[d + 2] * xi + v[d + 4] * yi + v[d + 5] * zi;
                double ux = b[i3] - next[i3] + dx; // b − Σ_{j≠i} A_ij cur_j
                double uy = b[i3 + 1] - next[i3 + 1] + dy;
                double uz = b[i3 + 2] - next[i3 + 2] + dz;
                // residual of the current iterate, filtered: S(b − A cur)
                next[i3] = ux - dx;
                next[i3 + 1] = uy - dy;
                next[i3 + 2] = uz - dz;
                f.apply(next, i);
                rr += next[i3] * next[i3] + next[i3 + 1] * next[i3 + 1] + next[i3 + 2] * next[i3 + 2];
                if (!writeNext) {
                    continue;
                }
                if (f.constrainedDirections(i) == ParticleFilter.FREE) {
                    int p = 9 * i;
                    next[i3] = pinv[p] * ux + pinv[p + 1] * uy + pinv[p + 2] * uz;
                    next[i3 + 1] = pinv[p + 3] * ux + pinv[p + 4] * uy + pinv[p + 5] * uz;
                    next[i3 + 2] = pinv[p + 6] * ux + pinv[p + 7] * uy + pinv[p + 8] * uz;
                } else {
                    constrainedUpdate(i, ux, uy, uz);
                }
            }
            partial[c0 / RowChunks.SIZE] = rr;
        }
    }

    /** next_i for a fixed, plane or line row, from u = b_i − Σ_{j≠i} A_ij cur_j. */
    private void constrainedUpdate(int i, double ux, double uy, double uz) {
        ParticleFilter f = sys.filter();
        double[] z = sys.prescribed();
        int i3 = 3 * i;
        if (f.constrainedDirections(i) == ParticleFilter.FIXED) {
            next[i3] = z[i3];
            next[i3 + 1] = z[i3 + 1];
            next[i3 + 2] = z[i3 + 2];
            return;
        }
        // (S A_ii S + I − S)⁻¹ S (u − A_ii (I − S) z) + (I − S) z
        float[] v = sys.matrix().values();
        f.applyComplement(z, next, i);
        double cx = next[i3];
        double cy = next[i3 + 1];
        double cz = next[i3 + 2];
        int d = BlockSparseMatrix.BLOCK * sys.matrix().diagonalEntry(i);
        next[i3] = ux - (v[d] * cx + v[d + 1] * cy + v[d + 2] * cz);
        next[i3 + 1] = uy - (v[d + 1] * cx + v[d + 3] * cy + v[d + 4] * cz);
        next[i3 + 2] = uz - (v[d + 2] * cx + v[d + 4] * cy + v[d + 5] * cz);
        f.apply(next, i);
        double sx = next[i3];
        double sy = next[i3 + 1];
        double sz = next[i3 + 2];
        int p = 9 * i;
        double[] m = reducedInverse;
        next[i3] = m[p] * sx + m[p + 1] * sy + m[p + 2] * sz + cx;
        next[i3 + 1] = m[p + 3] * sx + m[p + 4] * sy + m[p + 5] * sz + cy;
        next[i3 + 2] = m[p + 6] * sx + m[p + 7] * sy + m[p + 8] * sz + cz;
    }

    /** reducedInverse_i = (S A_ii S + I − S)⁻¹, SPD when A_ii is. */
    private void reduceDiagonal(int i) {
        ParticleFilter f = sys.filter();
        float[] a = sys.matrix().values();
        int d = BlockSparseMatrix.BLOCK * sys.matrix().diagonalEntry(i);
        double[] t = scratch.get();
        f.matrix(i, t, 0); // S in t[0..8]
        t[27] = a[d];
        t[28] = a[d + 1];
        t[29] = a[d + 2];
        t[30] = a[d + 1];
        t[31] = a[d + 3];
        t[32] = a[d + 4];
        t[33] = a[d + 2];
        t[34] = a[d + 4];
        t[35] = a[d + 5]; // A_ii in full in t[27..35]
        for (int r = 0; r < 3; r++) { // A S in t[9..17]
            for (int c = 0; c < 3; c++) {
                t[9 + 3 * r + c] = t[27 + 3 * r] * t[c] + t[28 + 3 * r] * t[3 + c] + t[29 + 3 * r] * t[6 + c];
            }
        }
        for (int r = 0; r < 3; r++) { // S A S + I − S in t[18..26]
            for (int c = 0; c < 3; c++) {
                t[18 + 3 * r + c] = t[3 * r] * t[9 + c] + t[3 * r + 1] * t[12 + c] + t[3 * r + 2] * t[15 + c]
                        + (r == c ? 1.0 : 0.0) - t[3 * r + c];
            }
        }
        double c00 = t[22] * t[26] - t[23] * t[25];
        double c01 = t[23] * t[24] - t[21] * t[26];
        double c02 = t[21] * t[25] - t[22] * t[24];
        double det = t[18] * c00 + t[19] * c01 + t[20] * c02;
        double inv = 1.0 / det;
        int p = 9 * i;
        reducedInverse[p] = c00 * inv;
        reducedInverse[p + 1] = (t[20] * t[25] - t[19] * t[26]) * inv;
        reducedInverse[p + 2] = (t[19] * t[23] - t[20] * t[22]) * inv;
        reducedInverse[p + 3] = c01 * inv;
        reducedInverse[p + 4] = (t[18] * t[26] - t[20] * t[24]) * inv;
        reducedInverse[p + 5] = (t[20] * t[21] - t[18] * t[23]) * inv;
        reducedInverse[p + 6] = c02 * inv;
        reducedInverse[p + 7] = (t[19] * t[24] - t[18] * t[25]) * inv;
        reducedInverse[p + 8] = (t[18] * t[22] - t[19] * t[21]) * inv;
    }

    private int worstResidualRow() {
        // Recompute |S(b − A cur)| per row sequentially: only on the failure path.
        BlockSparseMatrix a = sys.matrix();
        double[] tmp = new double[3];
        double[] y = new double[3 * n];
        int worst = 0;
        double max = -1.0;
        for (int i = 0; i < n; i++) {
            a.multiplyRow(cur, y, i);
            double m = 0.0;
            for (int k = 0; k < 3; k++) {
                tmp[k] = sys.rhs()[3 * i + k] - y[3 * i + k];
                m += Math.abs(tmp[k]);
            }
            if (!(m <= max)) {
                max = Double.isNaN(m) ? Double.POSITIVE_INFINITY : m;
                worst = i;
            }
        }
        return worst;
    }
}
