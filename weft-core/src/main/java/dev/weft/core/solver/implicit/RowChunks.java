package dev.weft.core.solver.implicit;

/**
 * Fixed row chunks that make parallel reductions independent of the thread split. A pass given the
 * range [begin, end) by the worker pool processes the whole chunks whose first row lies in it (rows
 * past {@code end} included), so each chunk belongs to exactly one thread; each chunk's partial sum is
 * accumulated in row order, and the partials are added in chunk order. Same sums, bit for bit, on 1
 * or N threads.
 */
final class RowChunks {
    static final int SIZE = 64;
    /**
     * Fewer rows than this run a linear-solver pass on the calling thread: below about a thousand rows a
     * pass is shorter than waking the workers and meeting at the barrier, three times per CG iteration
     * (`weft bench --table seed000`: 400 particles at 30 CG iterations, 793 steps/s on 1 thread, 330 on 2;
     * the two break even near 900).
     */
    static final int MIN_PARALLEL_ROWS = 1024;

    private RowChunks() {
    }

    static int count(int rows) {
        return (rows + SIZE - 1) / SIZE;
    }

    /** First row of the first chunk starting at or after {@code row}. */
    static int alignUp(int row) {
        return (row + SIZE - 1) / SIZE * SIZE;
    }

    /** Σ partial[0 .. chunks) in order. */
    static double sum(double[] partial, int chunks) {
        double s = 0.0;
        for (int c = 0; c < chunks; c++) {
            s += partial[c];
        }
        return s;
    }
}
