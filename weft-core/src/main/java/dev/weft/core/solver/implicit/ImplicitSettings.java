package dev.weft.core.solver.implicit;

import dev.weft.core.InvalidInputException;
import dev.weft.core.springs.SpringLayout;
import dev.weft.core.util.Check;

/**
 * Settings of {@link ImplicitSolver}: method parameters only; k_s and k_d come from the bodies'
 * {@link dev.weft.core.model.Material} ({@link dev.weft.core.model.MaterialParameters}).
 *
 * @param method           CG (listing 4.1) or Jacobi (listing 4.2)
 * @param maxIterations    linear-solver iterations per step at most (seed 000 tables: 10 … 70)
 * @param tolerance        stop when |S(b − AΔv)| ≤ tolerance · |S b|; 0 always runs maxIterations
 * @param layout           which springs the model gets
 * @param definiteJacobian clamp the compressed-spring term of ∂F/∂x so A stays positive definite
 * @param tethers          project the model's long-range attachments after each step, the velocity gaining the
 *                         correction over h ({@link dev.weft.core.solver.TetherProjection})
 */
public record ImplicitSettings(LinearMethod method, int maxIterations, float tolerance, SpringLayout layout,
                               boolean definiteJacobian, boolean tethers) {
    public ImplicitSettings {
        if (method == null) {
            throw new InvalidInputException("method", "must be cg or jacobi");
        }
        if (layout == null) {
            throw new InvalidInputException("springs", "must be stencil24, pattern12 or mesh");
        }
        Check.atLeast("iterations", maxIterations, 1);
        Check.nonNegative("tolerance", tolerance);
    }

    /** Seed 000's setup: 24-neighbour springs, CG, at most 30 iterations ("a very nice simulation"), 1e-4. */
    public static ImplicitSettings defaults() {
        return new ImplicitSettings(LinearMethod.CG, 30, 1e-4f, SpringLayout.STENCIL_24, true, true);
    }

    public ImplicitSettings withMethod(LinearMethod m) {
        return new ImplicitSettings(m, maxIterations, tolerance, layout, definiteJacobian, tethers);
    }

    public ImplicitSettings withIterations(int max, float tol) {
        return new ImplicitSettings(method, max, tol, layout, definiteJacobian, tethers);
    }

    public ImplicitSettings withLayout(SpringLayout l) {
        return new ImplicitSettings(method, maxIterations, tolerance, l, definiteJacobian, tethers);
    }


    public ImplicitSettings withDefiniteJacobian(boolean on) {
        return new ImplicitSettings(method, maxIterations, tolerance, layout, on, tethers);
    }

    public ImplicitSettings withTethers(boolean on) {
        return new ImplicitSettings(method, maxIterations, tolerance, layout, definiteJacobian, on);
    }
}
