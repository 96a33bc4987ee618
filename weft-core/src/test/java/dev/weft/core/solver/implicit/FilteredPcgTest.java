package dev.weft.core.solver.implicit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.parallel.PoolChecks;
import dev.weft.core.parallel.WorkerPool;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FilteredPcgTest {
    /** A random SPD block system on a ring with chords: A = M + Σ_edges (a_e a_eᵀ-like SPD couplings). */
    private static FilteredSystem randomSpdSystem(int n, long seed, double diagonalShift) {
        Random rnd = new Random(seed);
        int[][] neighbours = new int[n][];
        for (int i = 0; i < n; i++) {
            neighbours[i] = new int[] {(i + 1) % n, (i + n - 1) % n, (i + 7) % n, (i + n - 7) % n};
        }
        int[] rowStart = new int[n + 1];
        int[][] cols = new int[n][];
        for (int i = 0; i < n; i++) {
            java.util.TreeSet<Integer> set = new java.util.TreeSet<>();
            set.add(i);
            for (int j : neighbours[i]) {
                set.add(j);
            }
            cols[i] = set.stream().mapToInt(Integer::intValue).toArray();
            rowStart[i + 1] = rowStart[i] + cols[i].length;
        }
        int[] col = new int[rowStart[n]];
        for (int i = 0; i < n; i++) {
            System.arraycopy(cols[i], 0, col, rowStart[i], cols[i].length);
        }
        BlockSparseMatrix a = new BlockSparseMatrix(rowStart, col);
        float[] v = a.values();
        // Each undirected edge (i, j) adds the SPD 6×6 [[G, −G], [−G, G]] with G = R Rᵀ (Laplacian-like);
        // the diagonal gets a positive shift: the sum is SPD.
        for (int i = 0; i < n; i++) {
            for (int j : neighbours[i]) {
                if (j <= i) {
                    continue;
                }
                double[] r = new double[9];
                for (int k = 0; k < 9; k++) {
                    r[k] = rnd.nextGaussian();
                }
                double[] g = new double[9];
                for (int p = 0; p < 3; p++) {
                    for (int q = 0; q < 3; q++) {
                        for (int k = 0; k < 3; k++) {
                            g[3 * p + q] += r[3 * p + k] * r[3 * q + k];
                        }
                    }
                }
                add(v, a.diagonalEntry(i), g, 1);
                add(v, a.diagonalEntry(j), g, 1);
                add(v, a.entryIndex(i, j), g, -1);
                add(v, a.entryIndex(j, i), g, -1);
            }
            int d = 6 * a.diagonalEntry(i);
            v[d] += diagonalShift;
            v[d + 3] += diagonalShift;
            v[d + 5] += diagonalShift;
        }
        FilteredSystem sys = new FilteredSystem(a);
        for (int k = 0; k < 3 * n; k++) {
            sys.rhs()[k] = rnd.nextGaussian();
        }
        assertThat(sys.invertDiagonalBlocks()).isEqualTo(-1);
        return sys;
    }

    /** 3 particles, A_ii = I, A_ij = c I: SPD for −0.5 &lt; c &lt; 1. */
    private static FilteredSystem fullyCoupled(double c) {
        BlockSparseMatrix a = new BlockSparseMatrix(new int[] {0, 3, 6, 9}, new int[] {0, 1, 2, 0, 1, 2, 0, 1, 2});
        for (int k = 0; k < 9; k++) {
            double s = a.columns()[k] == k / 3 ? 1.0 : c;
            a.values()[6 * k] = (float) s;
            a.values()[6 * k + 3] = (float) s;
            a.values()[6 * k + 5] = (float) s;
        }
        FilteredSystem sys = new FilteredSystem(a);
        for (int k = 0; k < 9; k++) {
            sys.rhs()[k] = k - 4;
        }
        assertThat(sys.invertDiagonalBlocks()).isEqualTo(-1);
        return sys;
    }

    /** Adds sign · g (a symmetric 3 × 3, row-major) to entry {@code entry}'s 6 values. */
    private static void add(float[] v, int entry, double[] g, double sign) {
        int[] upper = {0, 1, 2, 4, 5, 8};
        for (int k = 0; k < 6; k++) {
            v[6 * entry + k] += (float) (sign * g[upper[k]]);
        }
    }

    private static double trueRelativeResidual(FilteredSystem sys, double[] dv) {
        int n = sys.rows();
        double[] y = new double[3 * n];
        sys.matrix().multiply(dv, y, 0, n);
        double rr = 0;
        double bb = 0;
        double[] r = new double[3 * n];
        double[] b = sys.rhs().clone();
        for (int k = 0; k < 3 * n; k++) {
            r[k] = b[k] - y[k];
        }
        for (int i = 0; i < n; i++) {
            sys.filter().apply(r, i);
            sys.filter().apply(b, i);
        }
        for (int k = 0; k < 3 * n; k++) {
            rr += r[k] * r[k];
            bb += b[k] * b[k];
        }
        return Math.sqrt(rr / bb);
    }

    @Test
    void pcgSolvesARandomSpdBlockSystemToTolerance() {
        // A weak diagonal shift makes it ill-conditioned enough to need many iterations.
        FilteredSystem sys = randomSpdSystem(300, 1, 0.05);
        double[] dv = new double[900];
        try (WorkerPool pool = new WorkerPool(2)) {
            FilteredPcg pcg = new FilteredPcg(pool);
            pcg.solve(sys, dv, 2000, 1e-8);
            assertThat(pcg.iterations()).isBetween(2, 1999);
            assertThat(pcg.relativeResidual()).isLessThanOrEqualTo(1e-8);
            // the recursively updated residual agrees with the true one to rounding (1e-8 ± drift)
            assertThat(trueRelativeResidual(sys, dv)).isLessThan(2e-8);
        }
    }

    @Test
    void residualFallsAsIterationsRise() {
        FilteredSystem sys = randomSpdSystem(300, 2, 0.05);
        double previous = Double.POSITIVE_INFINITY;
        try (WorkerPool pool = new WorkerPool(1)) {
            FilteredPcg pcg = new FilteredPcg(pool);
            for (int it : new int[] {5, 20, 80}) {
                double[] dv = new double[900];
                pcg.solve(sys, dv, it, 0.0);
                assertThat(pcg.iterations()).isEqualTo(it);
                assertThat(pcg.relativeResidual()).isLessThan(previous);
                previous = pcg.relativeResidual();
            }
        }
    }

    @Test
    void filteredDirectionsTakeExactlyThePrescribedValue() {
        // diagonally dominant, so that Jacobi converges too
        FilteredSystem sys = randomSpdSystem(200, 3, 40);
        ParticleFilter f = sys.filter();
        f.fix(10);
        f.constrainToPlane(20, 0, 1, 0);
        f.constrainToLine(30, 1, 1, 0);
        double[] z = sys.prescribed();
        z[30] = 0.25;
        z[31] = -0.5;
        z[32] = 0.75; // fixed particle 10: Δv must be exactly this
        z[61] = 2.0; // particle 20's y
        try (WorkerPool pool = new WorkerPool(2)) {
            for (LinearSolver solver : new LinearSolver[] {new FilteredPcg(pool), new JacobiMethod(pool)}) {
                double[] dv = new double[600];
                solver.solve(sys, dv, 500, 1e-10);
                assertThat(dv[30]).isEqualTo(0.25);
                assertThat(dv[31]).isEqualTo(-0.5);
                assertThat(dv[32]).isEqualTo(0.75);
                assertThat(dv[61]).isEqualTo(2.0);
                // particle 30 moves only along (1, 1, 0)/√2: no z, equal x and y (up to one rounding)
                assertThat(dv[92]).isCloseTo(0.0, org.assertj.core.data.Offset.offset(1e-15));
                assertThat(dv[90]).isCloseTo(dv[91], org.assertj.core.data.Offset.offset(1e-12 * Math.abs(dv[90]) + 1e-15));
                // the free rows satisfy the equations
                assertThat(trueRelativeResidual(sys, dv)).as(solver.getClass().getSimpleName() + " " + solver.iterations()).isLessThan(1e-9);
            }
        }
    }

    @Test
    void jacobiConvergesOnADominantSystemAndReportsDivergenceOtherwise() {
        try (WorkerPool pool = new WorkerPool(1)) {
            JacobiMethod jacobi = new JacobiMethod(pool);
            // diagonal shift 40 against couplings of ~3 per edge × 4 edges: strongly dominant
            FilteredSystem dominant = randomSpdSystem(200, 4, 40);
            double[] dv = new double[600];
            jacobi.solve(dominant, dv, 500, 1e-9);
            assertThat(jacobi.relativeResidual()).isLessThanOrEqualTo(1e-9);
            assertThat(trueRelativeResidual(dominant, dv)).isLessThanOrEqualTo(1e-9);
            // SPD (eigenvalues 2.8, 0.1, 0.1 per axis) but not diagonally dominant: Jacobi's iteration
            // matrix has eigenvalue −1.8, so it runs away; it must say so, not return NaN
            FilteredSystem weak = fullyCoupled(0.9);
            assertThatThrownBy(() -> jacobi.solve(weak, new double[9], 5000, 1e-12))
                    .isInstanceOf(LinearSolveException.class)
                    .hasMessageContaining("diverged")
                    .hasMessageContaining("diagonally dominant");
        }
    }

    @Test
    void oneTwoAndThreeThreadsGiveIdenticalBits() {
        double[][] results = new double[3][];
        for (int t = 1; t <= 3; t++) {
            // more rows than RowChunks.MIN_PARALLEL_ROWS, so 2 and 3 threads do split the passes
            FilteredSystem sys = randomSpdSystem(1500, 6, 0.05);
            double[] dv = new double[4500];
            try (WorkerPool pool = new WorkerPool(t)) {
                new FilteredPcg(pool).solve(sys, dv, 60, 0.0);
                PoolChecks.assertEveryPassSplit(pool, t + " threads");
            }
            results[t - 1] = dv;
        }
        assertThat(results[1]).isEqualTo(results[0]);
        assertThat(results[2]).isEqualTo(results[0]);
    }
}
