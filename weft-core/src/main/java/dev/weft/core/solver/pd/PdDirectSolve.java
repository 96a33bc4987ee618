package dev.weft.core.solver.pd;

import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sparse.NestedDissection;
import dev.weft.core.sparse.SparseCholesky;

/**
 * PD's global step solved exactly (Bouaziz et al. 2014 §4: "the system matrix is constant, so we prefactor
 * it"), the alternative to seed 001's Gauss–Seidel and Jacobi sweeps where those need tens of sweeps (stiff
 * rubber, fine meshes). Over the free particles the matrix is A = M/h² + Σ_springs k·L_spring + Σ_tets W·G, the
 * same a sweep relaxes (a_p on the diagonal, −(k + W_pc) beside it); its right-hand side is each particle's
 * sum of projections plus the couplings to pinned neighbours, which are known values. A is symmetric positive
 * definite (M/h² > 0 for free particles, the rest positive semidefinite), so it has a Cholesky factor; it is
 * ordered by {@link NestedDissection} on the model's rest positions, analysed once per model and refactored
 * when h changes.
 *
 * <p>The unknown is the correction d of {@link dev.weft.core.step.StepPositions}: a cloth whose projections are
 * all zero (at rest) gets d = 0 exactly, wherever it is. The right-hand side is a gather per particle and the
 * substitutions gather by rows and columns in a fixed order, so any thread count gives the same bits.
 */
final class PdDirectSolve {
    /** Levels of the dissection tree the substitutions run in parallel: 8 subtrees, ample for the pool's threads. */
    private static final int PARALLEL_DEPTH = 3;

    private final int[] slotStart;
    private final int[] slotNeighbour;
    private final float[] slotProjection;
    private final int[] tetStart;
    private final int[] tetNeighbour;
    private final float[] tetWeight;
    /** Free particle i ↔ model particle: {@code particleOf[i]}, {@code rowOf[p]} (−1 for pinned ones). */
    private final int[] particleOf;
    private final int[] rowOf;
    private final double[] offDiagonal;
    private final double[] diagonal;
    private final SparseCholesky cholesky;
    private final double[] rhs;
    private final WorkerPool pool;

    // per solve, read by the range bodies
    private float[] d;
    private float[] tetRhs;
    private final RangeBody rhsBody = this::gatherRhs;
    private final RangeBody writeBody = this::writeCorrections;

    /**
     * Analyses the system of a bound model: spring slots ({@code slotProjection}'s 4th float is the spring's
     * k), the tetrahedra's neighbour rows, and the rest positions that steer the ordering.
     */
    PdDirectSolve(int n, float[] invMass, int[] slotStart, int[] slotNeighbour, float[] slotProjection,
                  int[] tetStart, int[] tetNeighbour, float[] tetWeight, float[] restPositions, WorkerPool pool) {
        this.slotStart = slotStart;
        this.slotNeighbour = slotNeighbour;
        this.slotProjection = slotProjection;
        this.tetStart = tetStart;
        this.tetNeighbour = tetNeighbour;
        this.tetWeight = tetWeight;
        this.pool = pool;
        rowOf = new int[n];
        int free = 0;
        for (int p = 0; p < n; p++) {
            rowOf[p] = invMass[p] == 0f ? -1 : free++;
        }
        particleOf = new int[free];
        float[] xyz = new float[3 * free];
        for (int p = 0; p < n; p++) {
            int i = rowOf[p];
            if (i >= 0) {
                particleOf[i] = p;
                System.arraycopy(restPositions, 3 * p, xyz, 3 * i, 3);
            }
        }
        // the free-free couplings, one entry per neighbour (a spring and a tetrahedron edge between the same
        // two particles, or two springs, are one entry): −(Σ k + Σ W_pc)
        int[] start = new int[free + 1];
        int[] entryOf = new int[n];
        java.util.Arrays.fill(entryOf, -1);
        int[] neighbours = new int[Math.max(slotNeighbour.length + tetNeighbour.length, 1)];
        double[] weights = new double[neighbours.length];
        int count = 0;
        for (int i = 0; i < free; i++) {
            int p = particleOf[i];
            int rowBegin = count;
            for (int s = slotStart[p]; s < slotStart[p + 1]; s++) {
                count = couple(slotNeighbour[s], p, -slotProjection[4 * s + 3], rowBegin, count, entryOf, neighbours,
                        weights);
            }
            for (int s = tetStart[p]; s < tetStart[p + 1]; s++) {
                count = couple(tetNeighbour[s], p, -tetWeight[s], rowBegin, count, entryOf, neighbours, weights);
            }
            start[i + 1] = count;
        }
        int[] adjacency = new int[count];
        offDiagonal = new double[count];
        for (int e = 0; e < count; e++) {
            adjacency[e] = rowOf[neighbours[e]];
            offDiagonal[e] = weights[e];
        }
        NestedDissection order = NestedDissection.of(free, start, adjacency, xyz, PARALLEL_DEPTH);
        cholesky = SparseCholesky.analyse(free, start, adjacency, order);
        diagonal = new double[free];
        rhs = new double[3 * free];
    }

    /** Adds weight to p's entry for neighbour c when c is free (and not p itself); returns the new entry count. */
    private int couple(int c, int p, double weight, int rowBegin, int count, int[] entryOf, int[] neighbours,
                       double[] weights) {
        if (c == p || rowOf[c] < 0) {
            return count;
        }
        int e = entryOf[c];
        if (e < rowBegin) {
            e = count++;
            entryOf[c] = e;
            neighbours[e] = c;
            weights[e] = 0;
        }
        weights[e] += weight;
        return count;
    }

    /** Entries of the factor (its memory and the work of one solve). */
    int factorEntries() {
        return cholesky.factorEntries();
    }

    /**
     * Factors A for the step size whose m_p/h² is {@code massOverH2}; {@code rowWeight} is each particle's Σ k
     * plus its tetrahedra's diagonal (the sweeps' a_p − m_p/h²).
     */
    void factor(float[] massOverH2, float[] rowWeight) {
        for (int i = 0; i < particleOf.length; i++) {
            int p = particleOf[i];
            diagonal[i] = (double) massOverH2[p] + rowWeight[p];
        }
        cholesky.factor(diagonal, offDiagonal);
    }

    /**
     * Solves the global step for the corrections {@code d} of the free particles, from the local step's
     * projections (in the slots) and the tetrahedra's right-hand side {@code tetRhs}.
     */
    void solve(float[] d, float[] tetRhs) {
        this.d = d;
        this.tetRhs = tetRhs;
        pool.parallelFor(0, particleOf.length, rhsBody);
        cholesky.solve3(rhs, rhs, pool);
        pool.parallelFor(0, particleOf.length, writeBody);
    }

    /**
     * Per free particle: Σ_slots k·((y_c − y_p) ± p) + the tetrahedra's constant part, plus, for pinned
     * neighbours, their (known) couplings times their corrections.
     */
    private void gatherRhs(int begin, int end) {
        final float[] pr = slotProjection;
        final float[] dd = d;
        final float[] tb = tetRhs;
        for (int i = begin; i < end; i++) {
            int p = particleOf[i];
            double sx = 0;
            double sy = 0;
            double sz = 0;
            for (int s = slotStart[p]; s < slotStart[p + 1]; s++) {
                int s4 = 4 * s;
                sx += pr[s4];
                sy += pr[s4 + 1];
                sz += pr[s4 + 2];
                int c = slotNeighbour[s];
                if (rowOf[c] < 0) {
                    double k = pr[s4 + 3];
                    sx += k * dd[3 * c];
                    sy += k * dd[3 * c + 1];
                    sz += k * dd[3 * c + 2];
                }
            }
            if (tetStart[p] < tetStart[p + 1]) {
                sx += tb[3 * p];
                sy += tb[3 * p + 1];
                sz += tb[3 * p + 2];
                for (int s = tetStart[p]; s < tetStart[p + 1]; s++) {
                    int c = tetNeighbour[s];
                    if (rowOf[c] < 0) {
                        double wpc = tetWeight[s];
                        sx += wpc * dd[3 * c];
                        sy += wpc * dd[3 * c + 1];
                        sz += wpc * dd[3 * c + 2];
                    }
                }
            }
            rhs[3 * i] = sx;
            rhs[3 * i + 1] = sy;
            rhs[3 * i + 2] = sz;
        }
    }

    private void writeCorrections(int begin, int end) {
        final float[] dd = d;
        for (int i = begin; i < end; i++) {
            int p3 = 3 * particleOf[i];
            dd[p3] = (float) rhs[3 * i];
            dd[p3 + 1] = (float) rhs[3 * i + 1];
            dd[p3 + 2] = (float) rhs[3 * i + 2];
        }
    }
}
