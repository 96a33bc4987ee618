package dev.weft.core.solver.pd;

import dev.weft.core.InvalidInputException;
import dev.weft.core.util.Check;

/**
 * Settings of {@link PdSolver}: method parameters only; the springs' weights k and the damping come from
 * the bodies' {@link dev.weft.core.model.Material} ({@link dev.weft.core.model.MaterialParameters}).
 *
 * @param outerIterations local/global alternations per step (seed 001 algorithm 4)
 * @param innerIterations sweeps of the inner linear solver per alternation
 * @param inner           the inner solver of the global step
 * @param omega           relaxation of every update, q ← q + ω(target − q) (seed 001 eq. 5.2): successive
 *                        over-relaxation for the Gauss–Seidel solvers (seed: 1.7), weighted Jacobi (and
 *                        Wang's under-relaxation γ) for Jacobi; 1 is the plain method; (0, 2)
 * @param chebyshev       Chebyshev semi-iterative acceleration of Jacobi (Wang 2015); meant for one inner
 *                        sweep per local step, where it spans the whole step as in Wang's paper
 * @param chebyshevRho    the spectral radius estimate ρ in (0, 1) that Chebyshev acceleration uses, or 0 for
 *                        the Gershgorin bound max_p n_p·k / (n_p·k + m_p/h²) of the Jacobi iteration
 * @param chebyshevDelay  plain Jacobi sweeps per step before the acceleration starts (Wang's S; the first
 *                        local steps move the projections most)
 * @param tethers         project the model's long-range attachments after the iterations of a step
 *                        ({@link dev.weft.core.solver.TetherProjection}; not during the enlarged-cloth
 *                        experiment's relaxation, which has no pins)
 */
public record PdSettings(int outerIterations, int innerIterations, InnerSolver inner, float omega,
                         boolean chebyshev, float chebyshevRho, int chebyshevDelay, boolean tethers) {
    /** Plain Jacobi sweeps per step before Chebyshev acceleration starts: Wang 2015 uses S = 10. */
    public static final int WANG_CHEBYSHEV_DELAY = 10;

    public PdSettings {
        Check.atLeast("outerIterations", outerIterations, 1);
        Check.atLeast("innerIterations", innerIterations, 1);
        if (inner == null) {
            throw new InvalidInputException("inner", "must be one of gs, jacobi, rbgs, jacobi-seed, cholesky");
        }
        if (!(omega > 0f && omega < 2f)) {
            throw new InvalidInputException("omega", "must be a number in (0, 2) (1 = no relaxation), got " + omega);
        }
        if (!(chebyshevRho >= 0f && chebyshevRho < 1f)) {
            throw new InvalidInputException("chebyshevRho", "must be a number in (0, 1), or 0 for automatic, got "
                    + chebyshevRho);
        }
        if (inner.isDirect() && omega != 1f) {
            throw new InvalidInputException("omega", "relaxes the iterative inner solvers; cholesky solves the global "
                    + "step exactly, so omega must be 1 with it, got " + omega);
        }
        if (chebyshev && !inner.isJacobi()) {
            throw new InvalidInputException("chebyshev", "accelerates the jacobi inner solver only, not "
                    + inner.label());
        }
        Check.atLeast("chebyshevDelay", chebyshevDelay, 1);
    }

    /** With the model's tethers. */
    public PdSettings(int outerIterations, int innerIterations, InnerSolver inner, float omega,
                      boolean chebyshev, float chebyshevRho, int chebyshevDelay) {
        this(outerIterations, innerIterations, inner, omega, chebyshev, chebyshevRho, chebyshevDelay, true);
    }

    /**
     * Red-black Gauss–Seidel, 4 local/global alternations of 4 sweeps each per step,
     * no over-relaxation, automatic Chebyshev ρ: an
     * upper bound of the Jacobi iteration's spectral radius, which keeps the linear iteration convergent
     * (the Chebyshev polynomial is small on [−ρ, ρ]; an eigenvalue outside it would grow).
     */
    public static PdSettings defaults() {
        return new PdSettings(4, 4, InnerSolver.RED_BLACK_GAUSS_SEIDEL, 1f, false, 0f, WANG_CHEBYSHEV_DELAY);
    }

    public PdSettings withIterations(int outer, int innerSweeps) {
        return new PdSettings(outer, innerSweeps, inner, omega,
                chebyshev, chebyshevRho, chebyshevDelay, tethers);
    }

    public PdSettings withInner(InnerSolver s) {
        return new PdSettings(outerIterations, innerIterations, s, s.isDirect() ? 1f : omega, chebyshev && s.isJacobi(),
                chebyshevRho, chebyshevDelay, tethers);
    }

    public PdSettings withOmega(float w) {
        return new PdSettings(outerIterations, innerIterations, inner, w,
                chebyshev, chebyshevRho, chebyshevDelay, tethers);
    }

    public PdSettings withChebyshev(boolean on, float rho) {
        return new PdSettings(outerIterations, innerIterations, inner, omega, on, rho, chebyshevDelay,
                tethers);
    }

    public PdSettings withChebyshevDelay(int sweeps) {
        return new PdSettings(outerIterations, innerIterations, inner, omega, chebyshev, chebyshevRho,
                sweeps, tethers);
    }

    public PdSettings withTethers(boolean on) {
        return new PdSettings(outerIterations, innerIterations, inner, omega,
                chebyshev, chebyshevRho, chebyshevDelay, on);
    }

    /** A short name for tables: gs, jacobi, rbgs, with "+sor(ω)" and "+chebyshev" where they apply. */
    public String label() {
        String s = inner.label();
        if (omega != 1f) {
            s += "+sor(" + omega + ")";
        }
        if (chebyshev) {
            s += "+chebyshev";
        }
        return s;
    }
}
