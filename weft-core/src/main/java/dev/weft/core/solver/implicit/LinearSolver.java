package dev.weft.core.solver.implicit;

/** Solves a {@link FilteredSystem}; reports the work done and how close it got. */
public interface LinearSolver {
    /**
     * Writes Δv. Stops when the relative residual reaches {@code tolerance} or after
     * {@code maxIterations} iterations (tolerance 0 runs them all).
     *
     * @throws LinearSolveException when the iteration breaks down instead of producing NaN
     */
    void solve(FilteredSystem system, double[] dv, int maxIterations, double tolerance);

    /** Iterations the last solve used. */
    int iterations();

    /** |S (b − A Δv)| / |S b| after the last solve (0 when S b = 0). */
    double relativeResidual();
}
