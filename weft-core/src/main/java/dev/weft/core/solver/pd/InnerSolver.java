package dev.weft.core.solver.pd;

import dev.weft.core.InvalidInputException;

/** How Projective Dynamics solves its global (linear) step: seed 001 algorithms 5, 6 and 7. */
public enum InnerSolver {
    /** Sequential Gauss–Seidel over particles in index (lexicographic) order; one thread (algorithm 5). */
    GAUSS_SEIDEL("gs"),
    /** Every particle from the previous iterate, in parallel, gather-based: the textbook method (eq. 3.3). */
    JACOBI("jacobi"),
    /**
     * Seed 001 algorithm 6 as printed: Jacobi whose update is divided by n_p, the particle's spring count
     * (weighted Jacobi with ω/n_p per particle); slower per iteration, stable with one sweep per step.
     */
    SEED_JACOBI("jacobi-seed"),
    /**
     * Gauss–Seidel color by color, each color in parallel (algorithm 7): red-black on 4-neighbour
     * lattices, the model's greedy particle coloring on any other mesh.
     */
    RED_BLACK_GAUSS_SEIDEL("rbgs"),
    /**
     * The global step solved exactly by a prefactored sparse Cholesky factor (Bouaziz et al. 2014's own
     * solver, {@link PdDirectSolve}): one solve per local step, whatever the inner iterations say; for stiff
     * materials and fine meshes, where the sweeps need tens of iterations.
     */
    CHOLESKY("cholesky");

    private final String label;

    InnerSolver(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Whether this solves the global step exactly (no sweeps, no relaxation factor). */
    public boolean isDirect() {
        return this == CHOLESKY;
    }

    /** Whether this is one of the Jacobi methods (parallel from the previous iterate). */
    public boolean isJacobi() {
        return this == JACOBI || this == SEED_JACOBI;
    }

    public static InnerSolver parse(String source, String text) {
        for (InnerSolver s : values()) {
            if (s.label.equals(text)) {
                return s;
            }
        }
        throw new InvalidInputException(source, "unknown inner solver '" + text
                + "'; allowed: gs, jacobi, rbgs, jacobi-seed, cholesky");
    }
}
