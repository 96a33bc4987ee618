package dev.weft.core.sparse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.parallel.WorkerPool;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The direct solver's laws: it solves A x = b (the residual is at double rounding), its order is a real
 * dissection (the halves it calls independent share no entry) that saves fill over a banded order, and its
 * parallel substitutions give the same bits on any number of threads.
 */
class SparseCholeskyTest {

    /** A lattice graph nx × ny × nz with its 6-neighbour edges and unit spacing. */
    private static final class Lattice {
        final int n;
        final int[] start;
        final int[] adjacency;
        final float[] xyz;

        Lattice(int nx, int ny, int nz, float offset) {
            n = nx * ny * nz;
            start = new int[n + 1];
            int[] tmp = new int[6 * n];
            xyz = new float[3 * n];
            int count = 0;
            for (int z = 0; z < nz; z++) {
                for (int y = 0; y < ny; y++) {
                    for (int x = 0; x < nx; x++) {
                        int v = x + nx * (y + ny * z);
                        xyz[3 * v] = x + offset;
                        xyz[3 * v + 1] = y;
                        xyz[3 * v + 2] = z;
                        int[][] d = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
                        for (int[] e : d) {
                            int a = x + e[0];
                            int b = y + e[1];
                            int c = z + e[2];
                            if (a >= 0 && a < nx && b >= 0 && b < ny && c >= 0 && c < nz) {
                                tmp[count++] = a + nx * (b + ny * c);
                            }
                        }
                        start[v + 1] = count;
                    }
                }
            }
            adjacency = Arrays.copyOf(tmp, count);
        }
    }

    /**
     * A symmetric, strictly diagonally dominant (so positive definite) matrix on the pattern: off-diagonal
     * values of both signs and magnitudes up to 100, as PD's springs (negative) and tetrahedra (either sign).
     */
    private static double[][] matrix(Lattice g, long seed) {
        Random r = new Random(seed);
        double[] off = new double[g.adjacency.length];
        for (int v = 0; v < g.n; v++) {
            for (int e = g.start[v]; e < g.start[v + 1]; e++) {
                int c = g.adjacency[e];
                if (c > v) {
                    double value = (r.nextDouble() < 0.8 ? -1 : 1) * 100 * r.nextDouble();
                    off[e] = value;
                    for (int f = g.start[c]; f < g.start[c + 1]; f++) {
                        if (g.adjacency[f] == v) {
                            off[f] = value;
                        }
                    }
                }
            }
        }
        double[] diag = new double[g.n];
        for (int v = 0; v < g.n; v++) {
            double sum = 0.1 + r.nextDouble();
            for (int e = g.start[v]; e < g.start[v + 1]; e++) {
                sum += Math.abs(off[e]);
            }
            diag[v] = sum;
        }
        return new double[][] {diag, off};
    }

    private static double[] multiply(Lattice g, double[] diag, double[] off, double[] x) {
        double[] y = new double[3 * g.n];
        for (int v = 0; v < g.n; v++) {
            for (int a = 0; a < 3; a++) {
                double s = diag[v] * x[3 * v + a];
                for (int e = g.start[v]; e < g.start[v + 1]; e++) {
                    s += off[e] * x[3 * g.adjacency[e] + a];
                }
                y[3 * v + a] = s;
            }
        }
        return y;
    }

    private static double[] randomVector(int length, long seed) {
        Random r = new Random(seed);
        double[] b = new double[length];
        for (int i = 0; i < length; i++) {
            b[i] = r.nextGaussian();
        }
        return b;
    }

    private static double norm(double[] a) {
        double s = 0;
        for (double v : a) {
            s += v * v;
        }
        return Math.sqrt(s);
    }

    private static double relativeResidual(Lattice g, double[][] a, double[] x, double[] b) {
        double[] ax = multiply(g, a[0], a[1], x);
        for (int i = 0; i < ax.length; i++) {
            ax[i] -= b[i];
        }
        return norm(ax) / norm(b);
    }

    /**
     * Cholesky is backward stable: ‖Ax − b‖ ≈ ε·‖A‖·‖x‖ with ε = 1.1e−16; here ‖A‖ ≤ 2·diag ≤ 1300 and ‖x‖ ≤
     * ‖b‖/λ_min with λ_min ≥ 0.1 (the dominance margin), so the relative residual is below 1e−16 · 1300 · 10 ·
     * (a growth factor of n^½ ≈ 60 for summed rounding) ≈ 1e−10; it must be far below any iterative solver's.
     */
    @Test
    void solvesTheSystemToRoundingOnALatticeBlock() {
        Lattice g = new Lattice(12, 11, 10, 0f);
        double[][] a = matrix(g, 1);
        SparseCholesky chol = SparseCholesky.analyse(g.n, g.start, g.adjacency,
                NestedDissection.of(g.n, g.start, g.adjacency, g.xyz, 3));
        chol.factor(a[0], a[1]);
        double[] b = randomVector(3 * g.n, 2);
        double[] x = new double[3 * g.n];
        try (WorkerPool pool = new WorkerPool(1)) {
            chol.solve3(b, x, pool);
        }
        assertThat(relativeResidual(g, a, x, b)).isLessThan(1e-10);
        // and refactoring with other values (PD: a new step size) solves the new system
        double[][] other = matrix(g, 3);
        chol.factor(other[0], other[1]);
        try (WorkerPool pool = new WorkerPool(1)) {
            chol.solve3(b, b, pool); // in place
        }
        double[] original = randomVector(3 * g.n, 2);
        assertThat(relativeResidual(g, other, b, original)).isLessThan(1e-10);
    }

    @Test
    void positionsOnlySteerTheOrderDegenerateOnesStillSolveExactly() {
        Lattice g = new Lattice(9, 8, 7, 0f);
        Arrays.fill(g.xyz, 5f); // every point at the same place: no geometric split
        double[][] a = matrix(g, 4);
        SparseCholesky chol = SparseCholesky.analyse(g.n, g.start, g.adjacency,
                NestedDissection.of(g.n, g.start, g.adjacency, g.xyz, 2));
        chol.factor(a[0], a[1]);
        double[] b = randomVector(3 * g.n, 5);
        double[] x = new double[3 * g.n];
        try (WorkerPool pool = new WorkerPool(2)) {
            chol.solve3(b, x, pool);
        }
        assertThat(relativeResidual(g, a, x, b)).isLessThan(1e-10);
    }

    /**
     * A banded (lexicographic) order fills every row of L back to its lattice neighbour one layer below: n·(nx·ny)
     * entries; nested dissection's factor of a 3-D lattice grows like n^(4/3) (each of its log n levels adds
     * about the top separator's square). On 20³ the band is 3.1 M entries and the dissection's factor 1.08 M (the
     * test asks for less than 40 %); on a 64² cloth, n·64 = 0.27 M against about 0.1 M (asked: half).
     */
    @Test
    void dissectionSavesFillOverABandedOrder() {
        Lattice block = new Lattice(20, 20, 20, 0f);
        SparseCholesky chol = SparseCholesky.analyse(block.n, block.start, block.adjacency,
                NestedDissection.of(block.n, block.start, block.adjacency, block.xyz, 3));
        long banded = 0;
        for (int k = 0; k < block.n; k++) {
            banded += 1 + Math.min(k, 400);
        }
        assertThat((long) chol.factorEntries()).isLessThan(banded * 2 / 5);
        Lattice cloth = new Lattice(64, 64, 1, 0f);
        SparseCholesky flat = SparseCholesky.analyse(cloth.n, cloth.start, cloth.adjacency,
                NestedDissection.of(cloth.n, cloth.start, cloth.adjacency, cloth.xyz, 3));
        long clothBand = 0;
        for (int k = 0; k < cloth.n; k++) {
            clothBand += 1 + Math.min(k, 64);
        }
        assertThat((long) flat.factorEntries()).isLessThan(clothBand / 2);
    }

    /** Ranges of one phase are solved at once, so no edge may join two of them; every row is in one range. */
    @Test
    void theRangesOfAPhaseShareNoEdgeAndCoverEveryRowOnce() {
        Lattice g = new Lattice(30, 25, 6, 0f);
        NestedDissection nd = NestedDissection.of(g.n, g.start, g.adjacency, g.xyz, 3);
        int[] position = new int[g.n];
        int[] order = nd.order();
        boolean[] seen = new boolean[g.n];
        for (int k = 0; k < g.n; k++) {
            assertThat(seen[order[k]]).isFalse();
            seen[order[k]] = true;
            position[order[k]] = k;
        }
        int[] phaseOf = new int[g.n];
        int[] rangeOf = new int[g.n];
        Arrays.fill(rangeOf, -1);
        int ranges = 0;
        int[][] phases = nd.phases();
        for (int p = 0; p < phases.length; p++) {
            for (int r = 0; r < phases[p].length; r += 2) {
                for (int k = phases[p][r]; k < phases[p][r + 1]; k++) {
                    assertThat(rangeOf[k]).as("position %d in two ranges", k).isEqualTo(-1);
                    rangeOf[k] = ranges;
                    phaseOf[k] = p;
                }
                ranges++;
            }
        }
        assertThat(phases[0].length / 2).as("independent subtrees").isGreaterThanOrEqualTo(8);
        for (int k = 0; k < g.n; k++) {
            assertThat(rangeOf[k]).as("position %d in no range", k).isNotEqualTo(-1);
        }
        for (int v = 0; v < g.n; v++) {
            for (int e = g.start[v]; e < g.start[v + 1]; e++) {
                int a = position[v];
                int b = position[g.adjacency[e]];
                if (phaseOf[a] == phaseOf[b]) {
                    assertThat(rangeOf[a]).as("edge between two ranges of phase %d", phaseOf[a])
                            .isEqualTo(rangeOf[b]);
                }
            }
        }
    }

    @Test
    void oneAndTwoThreadsGiveTheSameBitsWithTheSubstitutionsSplit() {
        Lattice g = new Lattice(24, 24, 12, 1000f); // 1 km from the origin: positions do not enter the values
        double[][] a = matrix(g, 6);
        SparseCholesky chol = SparseCholesky.analyse(g.n, g.start, g.adjacency,
                NestedDissection.of(g.n, g.start, g.adjacency, g.xyz, 3));
        chol.factor(a[0], a[1]);
        double[] b = randomVector(3 * g.n, 7);
        double[] one = new double[3 * g.n];
        double[] two = new double[3 * g.n];
        try (WorkerPool pool = new WorkerPool(1)) {
            chol.solve3(b, one, pool);
        }
        try (WorkerPool pool = new WorkerPool(2)) {
            pool.resetCounters();
            chol.solve3(b, two, pool);
            assertThat(pool.passesSplit()).as("phases split over the threads").isGreaterThan(0);
            assertThat(pool.rangesRunOnWorkers()).isGreaterThan(0);
        }
        assertThat(two).isEqualTo(one);
    }

    @Test
    void aMatrixThatIsNotPositiveDefiniteIsRefusedByRow() {
        Lattice g = new Lattice(4, 4, 1, 0f);
        double[][] a = matrix(g, 8);
        a[0][5] = -1;
        SparseCholesky chol = SparseCholesky.analyse(g.n, g.start, g.adjacency,
                NestedDissection.of(g.n, g.start, g.adjacency, g.xyz, 1));
        assertThatThrownBy(() -> chol.factor(a[0], a[1])).isInstanceOf(ArithmeticException.class)
                .hasMessageContaining("not positive definite");
        try (WorkerPool pool = new WorkerPool(1)) {
            assertThatThrownBy(() -> chol.solve3(new double[48], new double[48], pool))
                    .isInstanceOf(IllegalStateException.class);
        }
    }
}
