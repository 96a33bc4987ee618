package dev.weft.core.scene;

import dev.weft.core.util.Check;

/**
 * How a scene runs one particular solver: its steps per frame and iterations per step.
 *
 * @param substeps   solver steps per frame
 * @param iterations iterations per step as the solver counts them (xpbd, pbd: constraint sweeps; pd:
 *                   local/global alternations; implicit: most linear-solver iterations; relaxation:
 *                   relaxation passes), or 0 for the solver's default
 */
public record SolverSteps(int substeps, int iterations) {
    public SolverSteps {
        Check.atLeast("substeps", substeps, 1);
        Check.atLeast("iterations", iterations, 0);
    }

    /** {@code substeps} steps of the solver's default iterations. */
    public static SolverSteps of(int substeps) {
        return new SolverSteps(substeps, 0);
    }
}
