package dev.weft.core.sparse;

import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;

/**
 * A sparse Cholesky factorization P A Pᵀ = L Lᵀ of a symmetric positive definite matrix, for systems whose
 * matrix stays the same over many right-hand sides (Projective Dynamics' global step, Bouaziz et al. 2014).
 * The pattern is analysed once ({@link #analyse}: elimination tree, each row's pattern by its etree reach,
 * Davis 2006 §4); {@link #factor} fills the values (up-looking, in double) whenever the matrix's values
 * change; {@link #solve3} solves for three right-hand sides at once (x, y, z interleaved).
 *
 * <p>The order P is a {@link NestedDissection}, whose halves share no entry of L: both substitutions run
 * its {@link NestedDissection#phases()} one after another, the ranges of a phase in parallel. Every row is a
 * gather in a fixed order (forward by the rows of L, backward by its columns), so the result is bitwise the
 * same on any number of threads.
 */
public final class SparseCholesky {
    private final int n;
    private final int[] order;
    private final int[][] phases;
    /** Upper triangle of P A Pᵀ by columns: rows {@code upperRow}, the caller's value index {@code upperEntry}. */
    private final int[] upperStart;
    private final int[] upperRow;
    private final int[] upperEntry;
    /** L by columns: the diagonal first, then the rows below it in ascending order. */
    private final int[] columnStart;
    private final int[] columnRow;
    private final double[] value;
    /**
     * L by rows (strictly lower part), columns ascending: the column, the entry's index in {@link #value}, and a
     * copy of the value, so that the forward substitution streams through memory.
     */
    private final int[] rowStart;
    private final int[] rowColumn;
    private final int[] rowEntry;
    private final double[] rowValue;
    private final double[] scatter;
    /** The permuted iterate of {@link #solve3}. */
    private final double[] work;
    private boolean factored;

    // the solve's phase, read by the range bodies
    private double[] solveIn;
    private int[] phaseRanges;
    private final RangeBody forwardBody = this::forwardRanges;
    private final RangeBody backwardBody = this::backwardRanges;

    private SparseCholesky(int n, int[] order, int[][] phases, int[] upperStart, int[] upperRow, int[] upperEntry,
                           int[] parent) {
        this.n = n;
        this.order = order;
        this.phases = phases;
        this.upperStart = upperStart;
        this.upperRow = upperRow;
        this.upperEntry = upperEntry;
        // row k of L has the etree reach of column k's upper entries: count, then fill
        int[] mark = new int[n];
        int[] stack = new int[n];
        java.util.Arrays.fill(mark, -1);
        int[] columnCount = new int[n];
        rowStart = new int[n + 1];
        for (int k = 0; k < n; k++) {
            int top = reach(k, parent, mark, stack);
            rowStart[k + 1] = rowStart[k] + (n - top);
            for (int s = top; s < n; s++) {
                columnCount[stack[s]]++;
            }
        }
        columnStart = new int[n + 1];
        for (int i = 0; i < n; i++) {
            columnStart[i + 1] = columnStart[i] + 1 + columnCount[i];
        }
        int entries = columnStart[n];
        columnRow = new int[entries];
        value = new double[entries];
        rowColumn = new int[rowStart[n]];
        rowEntry = new int[rowStart[n]];
        rowValue = new double[rowStart[n]];
        int[] next = new int[n];
        for (int i = 0; i < n; i++) {
            columnRow[columnStart[i]] = i;
            next[i] = columnStart[i] + 1;
        }
        java.util.Arrays.fill(mark, -1);
        for (int k = 0; k < n; k++) {
            int top = reach(k, parent, mark, stack);
            for (int s = top; s < n; s++) {
                columnRow[next[stack[s]]++] = k; // rows k ascending: each column's rows come out sorted
            }
        }
        // the rows by transposing the columns: each row's columns ascending, which is a topological order too
        // (an etree parent follows its children) and the one the forward substitution reads y in
        int[] fill = java.util.Arrays.copyOf(rowStart, n);
        for (int i = 0; i < n; i++) {
            for (int at = columnStart[i] + 1; at < columnStart[i + 1]; at++) {
                int t = fill[columnRow[at]]++;
                rowColumn[t] = i;
                rowEntry[t] = at;
            }
        }
        scatter = new double[n];
        work = new double[3 * n];
    }

    /**
     * Analyses the symmetric pattern of {@code n} rows whose off-diagonal entries of row v are at
     * {@code adjacency[adjacencyStart[v] .. adjacencyStart[v+1])} (no duplicates, no diagonal; the pattern is
     * symmetric), eliminated in the order {@code dissection}.
     */
    public static SparseCholesky analyse(int n, int[] adjacencyStart, int[] adjacency, NestedDissection dissection) {
        int[] order = dissection.order();
        int[] position = new int[n];
        for (int k = 0; k < n; k++) {
            position[order[k]] = k;
        }
        int[] upperStart = new int[n + 1];
        for (int k = 0; k < n; k++) {
            int v = order[k];
            int count = 0;
            for (int e = adjacencyStart[v]; e < adjacencyStart[v + 1]; e++) {
                if (position[adjacency[e]] < k) {
                    count++;
                }
            }
            upperStart[k + 1] = upperStart[k] + count;
        }
        int[] upperRow = new int[upperStart[n]];
        int[] upperEntry = new int[upperStart[n]];
        for (int k = 0; k < n; k++) {
            int v = order[k];
            int at = upperStart[k];
            for (int e = adjacencyStart[v]; e < adjacencyStart[v + 1]; e++) {
                int i = position[adjacency[e]];
                if (i < k) {
                    upperRow[at] = i;
                    upperEntry[at++] = e;
                }
            }
        }
        // elimination tree (Liu 1986, with path compression through ancestor links)
        int[] parent = new int[n];
        int[] ancestor = new int[n];
        for (int k = 0; k < n; k++) {
            parent[k] = -1;
            ancestor[k] = -1;
            for (int p = upperStart[k]; p < upperStart[k + 1]; p++) {
                int i = upperRow[p];
                while (i != -1 && i < k) {
                    int up = ancestor[i];
                    ancestor[i] = k;
                    if (up == -1) {
                        parent[i] = k;
                    }
                    i = up;
                }
            }
        }
        return new SparseCholesky(n, order, dissection.phases(), upperStart, upperRow, upperEntry, parent);
    }

    /**
     * The pattern of row k of L: the etree paths from column k's upper entries up to k, into
     * {@code stack[top..n)} with every node before its ancestors; returns top.
     */
    private int reach(int k, int[] parent, int[] mark, int[] stack) {
        int top = n;
        mark[k] = k;
        for (int p = upperStart[k]; p < upperStart[k + 1]; p++) {
            int i = upperRow[p];
            int length = 0;
            for (; mark[i] != k; i = parent[i]) {
                stack[length++] = i;
                mark[i] = k;
            }
            while (length > 0) {
                stack[--top] = stack[--length];
            }
        }
        return top;
    }

    /** Rows. */
    public int size() {
        return n;
    }

    /** Entries of L, its diagonal included: the memory and the work of one substitution. */
    public int factorEntries() {
        return columnStart[n];
    }

    /**
     * Computes L for the matrix with {@code diagonal[v]} and off-diagonal {@code offDiagonal[e]} at the
     * analysed pattern's entry e (row v's neighbour {@code adjacency[e]}); values of the two triangles must
     * agree (only the upper one is read).
     *
     * @throws ArithmeticException naming the row when the matrix is not positive definite
     */
    public void factor(double[] diagonal, double[] offDiagonal) {
        factored = false;
        final double[] x = scatter;
        final double[] lx = value;
        final int[] li = columnRow;
        final int[] lp = columnStart;
        for (int k = 0; k < n; k++) {
            for (int p = upperStart[k]; p < upperStart[k + 1]; p++) {
                x[upperRow[p]] = offDiagonal[upperEntry[p]];
            }
            double d = diagonal[order[k]];
            for (int t = rowStart[k]; t < rowStart[k + 1]; t++) {
                int i = rowColumn[t];
                double lki = x[i] / lx[lp[i]];
                x[i] = 0;
                int end = rowEntry[t];
                for (int p = lp[i] + 1; p < end; p++) {
                    x[li[p]] -= lx[p] * lki;
                }
                d -= lki * lki;
                lx[end] = lki;
            }
            if (!(d > 0)) {
                throw new ArithmeticException("the matrix is not positive definite (row " + order[k]
                        + ", pivot " + d + ")");
            }
            lx[lp[k]] = Math.sqrt(d);
        }
        for (int t = 0; t < rowValue.length; t++) {
            rowValue[t] = lx[rowEntry[t]];
        }
        factored = true;
    }

    /**
     * Solves A x = b for three right-hand sides, interleaved per row ({@code b[3v..3v+2]}), into {@code x}
     * (may be {@code b}); the substitutions' phases run on {@code pool}.
     */
    public void solve3(double[] b, double[] x, WorkerPool pool) {
        if (!factored) {
            throw new IllegalStateException("factor() first");
        }
        solveIn = b;
        for (int[] ranges : phases) {
            phaseRanges = ranges;
            pool.parallelFor(0, ranges.length / 2, 2, forwardBody);
        }
        for (int p = phases.length - 1; p >= 0; p--) {
            phaseRanges = phases[p];
            pool.parallelFor(0, phaseRanges.length / 2, 2, backwardBody);
        }
        final double[] y = work;
        for (int k = 0; k < n; k++) {
            int v3 = 3 * order[k];
            x[v3] = y[3 * k];
            x[v3 + 1] = y[3 * k + 1];
            x[v3 + 2] = y[3 * k + 2];
        }
    }

    private void forwardRanges(int first, int last) {
        for (int r = first; r < last; r++) {
            forward(phaseRanges[2 * r], phaseRanges[2 * r + 1]);
        }
    }

    private void backwardRanges(int first, int last) {
        for (int r = first; r < last; r++) {
            backward(phaseRanges[2 * r], phaseRanges[2 * r + 1]);
        }
    }

    /** L y = P b for rows [begin, end): each a gather over its row of L. */
    private void forward(int begin, int end) {
        final double[] y = work;
        final double[] b = solveIn;
        final double[] lx = value;
        final double[] lr = rowValue;
        final int[] columns = rowColumn;
        for (int k = begin; k < end; k++) {
            int v3 = 3 * order[k];
            double sx = b[v3];
            double sy = b[v3 + 1];
            double sz = b[v3 + 2];
            for (int t = rowStart[k]; t < rowStart[k + 1]; t++) {
                int i3 = 3 * columns[t];
                double l = lr[t];
                sx -= l * y[i3];
                sy -= l * y[i3 + 1];
                sz -= l * y[i3 + 2];
            }
            double diagonal = lx[columnStart[k]];
            y[3 * k] = sx / diagonal;
            y[3 * k + 1] = sy / diagonal;
            y[3 * k + 2] = sz / diagonal;
        }
    }

    /** Lᵀ x = y for rows [begin, end), last first: each a gather over its column of L. */
    private void backward(int begin, int end) {
        final double[] y = work;
        final double[] lx = value;
        final int[] li = columnRow;
        for (int k = end - 1; k >= begin; k--) {
            double sx = y[3 * k];
            double sy = y[3 * k + 1];
            double sz = y[3 * k + 2];
            for (int p = columnStart[k] + 1; p < columnStart[k + 1]; p++) {
                int j3 = 3 * li[p];
                double l = lx[p];
                sx -= l * y[j3];
                sy -= l * y[j3 + 1];
                sz -= l * y[j3 + 2];
            }
            double diagonal = lx[columnStart[k]];
            y[3 * k] = sx / diagonal;
            y[3 * k + 1] = sy / diagonal;
            y[3 * k + 2] = sz / diagonal;
        }
    }
}
