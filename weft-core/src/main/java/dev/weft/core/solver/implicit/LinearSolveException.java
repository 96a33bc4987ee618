package dev.weft.core.solver.implicit;

/** A linear solve broke down (matrix not positive definite, iteration diverging); names the worst row. */
public final class LinearSolveException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int particle;

    public LinearSolveException(String what, int particle) {
        super(what);
        this.particle = particle;
    }

    /** The block row (particle) where the breakdown shows most. */
    public int particle() {
        return particle;
    }
}
