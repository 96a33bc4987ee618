package dev.weft.core.solver.implicit;

import dev.weft.core.InvalidInputException;
import dev.weft.core.util.Check;

/**
 * Settings of {@link ImplicitSolver}: method parameters only; k_s and k_d come from the bodies'
 * {@link dev.weft.core.model.Material} ({@link dev.weft.core.model.MaterialParameters}).
 *
 * @param method           CG (listing 4.1) or Jacobi (listing 4.2)
 * @param maxIterations    linear-solver iterations per step at most (seed 000 tables: 10 … 70)
 * @param tolerance        stop when |S(b − AΔv)| ≤ tolerance · |S b|; 0 always runs maxIterations
 * @param definiteJacobian clamp the compressed-spring term of ∂F/∂x so A stays positive definite
 * @param tethers          project the model's long-range attachments after each step, the velocity gaining the
 *                         correction over h ({@link dev.weft.core.solver.TetherProjection})
 */
public record ImplicitSettings(LinearMethod method, int maxIterations, float tolerance,
                               boolean definiteJacobian, boolean tethers) {
    public ImplicitSettings {
        if (method == null) {
            throw new InvalidInputException("method", "must be cg or jacobi");
        }
        Check.atLeast("iterations", maxIterations, 1);
        Check.nonNegative("tolerance", tolerance);
    }

    /**
     * Seed 000's setup: CG, at most 30 iterations ("a very nice simulation"), relative residual 1e-4 (its
     * 24-neighbour springs are the model's: {@code ModelBuilder.springLayout}).
     */
    public static ImplicitSettings defaults() {
        return new ImplicitSettings(LinearMethod.CG, 30, 1e-4f, true, true);
    }

    public ImplicitSettings withMethod(LinearMethod m) {
        return new ImplicitSettings(m, maxIterations, tolerance, definiteJacobian, tethers);
    }

    public ImplicitSettings withIterations(int max, float tol) {
        return new ImplicitSettings(method, max, tol, definiteJacobian, tethers);
    }



    public ImplicitSettings withDefiniteJacobian(boolean on) {
        return new ImplicitSettings(method, maxIterations, tolerance, on, tethers);
    }

    public ImplicitSettings withTethers(boolean on) {
        return new ImplicitSettings(method, maxIterations, tolerance, definiteJacobian, on);
    }
}
