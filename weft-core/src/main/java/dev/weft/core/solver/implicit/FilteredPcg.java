package dev.weft.core.solver.implicit;

import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;

/**
 * Baraff and Witkin's modified preconditioned conjugate gradient (seed 000 listing 4.1) with a
 * block-Jacobi preconditioner P⁻¹ = diag(A_ii⁻¹):
 * <pre>
 *   Δv = (I − S) z;  r = S(b − A Δv);  c = S(P⁻¹ r);  δ = rᵀc
 *   repeat:  q = S(A c);  α = δ / cᵀq;  Δv += α c;  r −= α q;  s = P⁻¹ r;
 *            δ' = rᵀs;  c = S(s + (δ'/δ) c);  δ = δ'
 * </pre>
 * (the listing's {@code dv = dv − α c} is a sign slip: Δv moves along +c). It stops when
 * |r| ≤ tolerance · |S b| (the relative residual it reports; the listing's δ test measures the same
 * in the preconditioner's norm) or after the maximum iterations.
 *
 * <p>Each iteration is three row-parallel passes (matrix-vector product with its dot product; the
 * updates with theirs; the new direction), reductions in fixed row chunks ({@link RowChunks}), so
 * the result is the same bit for bit on any number of threads. Allocates nothing per solve once
 * sized.
 */
public final class FilteredPcg implements LinearSolver {
    private final WorkerPool pool;
    private int n = -1;
    private double[] r;
    private double[] c;
    private double[] q;
    private double[] s;
    private double[] partialA;
    private double[] partialB;
    private int chunks;

    private FilteredSystem sys;
    private double[] dv;
    private double alpha;
    private double beta;
    private int iterations;
    private double relativeResidual;
    private long productNanos;
    private long vectorNanos;

    private final RangeBody initBody = this::init;
    private final RangeBody residualBody = this::initialResidual;
    private final RangeBody productBody = this::product;
    private final RangeBody updateBody = this::update;
    private final RangeBody directionBody = this::direction;

    public FilteredPcg(WorkerPool pool) {
        this.pool = pool;
    }

    @Override
    public void solve(FilteredSystem system, double[] deltaV, int maxIterations, double tolerance) {
        size(system.rows());
        sys = system;
        dv = deltaV;
        pool.parallelFor(0, n, RowChunks.MIN_PARALLEL_ROWS, initBody);
        double bNorm2 = RowChunks.sum(partialA, chunks);
        pool.parallelFor(0, n, RowChunks.MIN_PARALLEL_ROWS, residualBody);
        double delta = RowChunks.sum(partialA, chunks);
        double rNorm2 = RowChunks.sum(partialB, chunks);
        iterations = 0;
        if (bNorm2 == 0.0) {
            relativeResidual = 0.0;
            sys = null;
            return;
        }
        double target2 = tolerance * tolerance * bNorm2;
        long product = 0L;
        long vector = 0L;
        while (iterations < maxIterations && rNorm2 > target2 && delta > 0.0) {
            long t0 = System.nanoTime();
            pool.parallelFor(0, n, RowChunks.MIN_PARALLEL_ROWS, productBody);
            double cq = RowChunks.sum(partialA, chunks);
            long t1 = System.nanoTime();
            product += t1 - t0;
            if (!(cq > 0.0)) {
                throw new LinearSolveException("conjugate gradient broke down at iteration " + iterations
                        + ": cᵀAc = " + cq + ", the system matrix is not positive definite", worstRow(c));
            }
            alpha = delta / cq;
            pool.parallelFor(0, n, RowChunks.MIN_PARALLEL_ROWS, updateBody);
            double deltaNew = RowChunks.sum(partialA, chunks);
            rNorm2 = RowChunks.sum(partialB, chunks);
            if (!Double.isFinite(deltaNew) || !Double.isFinite(rNorm2)) {
                throw new LinearSolveException("conjugate gradient produced a non-finite residual at iteration "
                        + iterations, worstRow(r));
            }
            beta = deltaNew / delta;
            delta = deltaNew;
            iterations++;
            if (rNorm2 > target2 && iterations < maxIterations) {
                pool.parallelFor(0, n, RowChunks.MIN_PARALLEL_ROWS, directionBody);
            }
            vector += System.nanoTime() - t1;
        }
        productNanos = product;
        vectorNanos = vector;
        relativeResidual = Math.sqrt(rNorm2 / bNorm2);
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

    /** Time the last solve spent in matrix-vector products (each with its dot product). */
    public long productNanos() {
        return productNanos;
    }

    /** Time the last solve spent in the vector updates, preconditioning and their reductions. */
    public long vectorNanos() {
        return vectorNanos;
    }

    private void size(int rows) {
        if (rows != n) {
            n = rows;
            r = new double[3 * n];
            c = new double[3 * n];
            q = new double[3 * n];
            s = new double[3 * n];
            chunks = RowChunks.count(n);
            partialA = new double[chunks];
            partialB = new double[chunks];
        }
    }

    /** partialA: |S b|²; Δv = (I − S) z. */
    private void init(int begin, int end) {
        ParticleFilter f = sys.filter();
        double[] b = sys.rhs();
        double[] z = sys.prescribed();
        for (int c0 = RowChunks.alignUp(begin), hi = Math.min(RowChunks.alignUp(end), n); c0 < hi; c0 += RowChunks.SIZE) {
            double sum = 0.0;
            for (int i = c0, e = Math.min(c0 + RowChunks.SIZE, n); i < e; i++) {
                int i3 = 3 * i;
                s[i3] = b[i3];
                s[i3 + 1] = b[i3 + 1];
                s[i3 + 2] = b[i3 + 2];
                f.apply(s, i);
                sum += s[i3] * s[i3] + s[i3 + 1] * s[i3 + 1] + s[i3 + 2] * s[i3 + 2];
                f.applyComplement(z, dv, i);
            }
            partialA[c0 / RowChunks.SIZE] = sum;
        }
    }

    /** r = S(b − A Δv), c = S(P⁻¹ r); partialA: rᵀc, partialB: rᵀr. */
    private void initialResidual(int begin, int end) {
        ParticleFilter f = sys.filter();
        BlockSparseMatrix a = sys.matrix();
        double[] b = sys.rhs();
        for (int c0 = RowChunks.alignUp(begin), hi = Math.min(RowChunks.alignUp(end), n); c0 < hi; c0 += RowChunks.SIZE) {
            double rc = 0.0;
            double rr = 0.0;
            for (int i = c0, e = Math.min(c0 + RowChunks.SIZE, n); i < e; i++) {
                int i3 = 3 * i;
                a.multiplyRow(dv, r, i);
                r[i3] = b[i3] - r[i3];
                r[i3 + 1] = b[i3 + 1] - r[i3 + 1];
                r[i3 + 2] = b[i3 + 2] - r[i3 + 2];
                f.apply(r, i);
                sys.precondition(r, c, i);
                f.apply(c, i);
                rc += r[i3] * c[i3] + r[i3 + 1] * c[i3 + 1] + r[i3 + 2] * c[i3 + 2];
                rr += r[i3] * r[i3] + r[i3 + 1] * r[i3 + 1] + r[i3 + 2] * r[i3 + 2];
            }
            partialA[c0 / RowChunks.SIZE] = rc;
            partialB[c0 / RowChunks.SIZE] = rr;
        }
    }

    /** q = S(A c); partialA: cᵀq. */
    private void product(int begin, int end) {
        ParticleFilter f = sys.filter();
        BlockSparseMatrix a = sys.matrix();
        for (int c0 = RowChunks.alignUp(begin), hi = Math.min(RowChunks.alignUp(end), n); c0 < hi; c0 += RowChunks.SIZE) {
            double cq = 0.0;
            for (int i = c0, e = Math.min(c0 + RowChunks.SIZE, n); i < e; i++) {
                int i3 = 3 * i;
                a.multiplyRow(c, q, i);
                f.apply(q, i);
                cq += c[i3] * q[i3] + c[i3 + 1] * q[i3 + 1] + c[i3 + 2] * q[i3 + 2];
            }
            partialA[c0 / RowChunks.SIZE] = cq;
        }
    }

    /** Δv += α c; r −= α q; s = P⁻¹ r; partialA: rᵀs, partialB: rᵀr. */
    private void update(int begin, int end) {
        double al = alpha;
        for (int c0 = RowChunks.alignUp(begin), hi = Math.min(RowChunks.alignUp(end), n); c0 < hi; c0 += RowChunks.SIZE) {
            double rs = 0.0;
            double rr = 0.0;
            for (int i = c0, e = Math.min(c0 + RowChunks.SIZE, n); i < e; i++) {
                int i3 = 3 * i;
                for (int k = i3; k < i3 + 3; k++) {
                    dv[k] += al * c[k];
                    r[k] -= al * q[k];
                }
                sys.precondition(r, s, i);
                rs += r[i3] * s[i3] + r[i3 + 1] * s[i3 + 1] + r[i3 + 2] * s[i3 + 2];
                rr += r[i3] * r[i3] + r[i3 + 1] * r[i3 + 1] + r[i3 + 2] * r[i3 + 2];
            }
            partialA[c0 / RowChunks.SIZE] = rs;
            partialB[c0 / RowChunks.SIZE] = rr;
        }
    }

    /** c = S(s + β c). */
    private void direction(int begin, int end) {
        ParticleFilter f = sys.filter();
        double be = beta;
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            c[i3] = s[i3] + be * c[i3];
            c[i3 + 1] = s[i3 + 1] + be * c[i3 + 1];
            c[i3 + 2] = s[i3 + 2] + be * c[i3 + 2];
            f.apply(c, i);
        }
    }

    private int worstRow(double[] v) {
        int worst = 0;
        double max = -1.0;
        for (int i = 0; i < n; i++) {
            double m = Math.abs(v[3 * i]) + Math.abs(v[3 * i + 1]) + Math.abs(v[3 * i + 2]);
            if (!(m <= max)) { // NaN counts as worst
                max = Double.isNaN(m) ? Double.POSITIVE_INFINITY : m;
                worst = i;
                if (Double.isNaN(m)) {
                    break;
                }
            }
        }
        return worst;
    }
}
