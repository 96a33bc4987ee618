package dev.weft.core.solver.xpbd;

import dev.weft.core.util.Check;

/**
 * Settings of {@link XpbdSolver}: method parameters only. The stiffness (compliance α = 1/k per
 * constraint, Macklin et al. 2016, so stiffness does not depend on the time step or the iteration count)
 * and the damping come from the bodies' {@link dev.weft.core.model.Material} ({@link
 * dev.weft.core.model.MaterialParameters}).
 *
 * @param iterations        constraint iterations per step (per substep)
 * @param tethers           project the model's long-range attachments
 * @param stretchPasses     sweeps over the stretch (structural) distance constraints per iteration: the
 *                          first with every constraint, the others over the stretch constraints alone,
 *                          so that the constraints a person sees as "the cloth stretches" converge
 *                          further for a fraction of an iteration's cost (1: plain XPBD)
 * @param rigid             project every stretch and shear constraint to its rest length whatever the
 *                          material (position-based dynamics, which has no compliance: {@code pbd})
 * @param stretchLimits     in each iteration, after its first distance pass and before the extra stretch passes,
 *                          hold every grid cloth's chords between particles 2, 4, 8, … apart on a row or column
 *                          no longer than their paths' rest length, coarse first
 *                          ({@link StretchLimits}): one-sided, so no stiffness is added where the cloth bends;
 *                          a large cloth's stretch converges in fewer substeps for a fraction more per substep
 * @param stretchSmoothing  after the stretch passes, one more over every stretch color but the last at half strength
 *                          (colored mode only): a colored sweep leaves a stretched line's residual on the colors it
 *                          projected first (a column's even edges at twice the mean stretch, its odd ones exact), and
 *                          half a projection of those spreads it evenly: the same length, half the largest strain
 */
public record XpbdSettings(IterationMode mode, int iterations, boolean tethers, int stretchPasses, boolean rigid,
                           boolean stretchLimits, boolean stretchSmoothing) {
    public XpbdSettings {
        if (mode == null) {
            throw new dev.weft.core.InvalidInputException("mode", "must be one of jacobi, gauss-seidel, colored");
        }
        Check.atLeast("iterations", iterations, 1);
        Check.atLeast("stretchPasses", stretchPasses, 1);
        if (stretchSmoothing && mode != IterationMode.COLORED) {
            throw new dev.weft.core.InvalidInputException("stretch smoothing", "needs the colored mode (it evens out"
                    + " what a colored sweep leaves on its first colors); the mode is " + mode.label());
        }
    }

    /**
     * Graph-colored sweeps, one iteration per step: scenes take many substeps instead ("small steps",
     * Macklin et al. 2019). Measured on a 64 x 64 cloth hanging from an edge, 1 iteration x 16 substeps
     * leaves 0.5 % strain where 2 iterations x 8 substeps, the same work, leave 1.9 %. Two stretch passes
     * per iteration: the default scene's cloth then keeps its peak strain under 10 % with 24 substeps
     * where one pass needed 46, at 0.7× the cost per frame (README, "Every solver on the default scene").
     */
    public static XpbdSettings defaults() {
        return new XpbdSettings(IterationMode.COLORED, 1, true, 2, false, false, false);
    }

    public XpbdSettings withMode(IterationMode m) {
        return new XpbdSettings(m, iterations, tethers, stretchPasses, rigid, stretchLimits, stretchSmoothing);
    }

    public XpbdSettings withIterations(int n) {
        return new XpbdSettings(mode, n, tethers, stretchPasses, rigid, stretchLimits, stretchSmoothing);
    }

    public XpbdSettings withStretchPasses(int passes) {
        return new XpbdSettings(mode, iterations, tethers, passes, rigid, stretchLimits, stretchSmoothing);
    }

    public XpbdSettings withRigid(boolean on) {
        return new XpbdSettings(mode, iterations, tethers, stretchPasses, on, stretchLimits, stretchSmoothing);
    }

    public XpbdSettings withTethers(boolean on) {
        return new XpbdSettings(mode, iterations, on, stretchPasses, rigid, stretchLimits, stretchSmoothing);
    }

    public XpbdSettings withStretchLimits(boolean on) {
        return new XpbdSettings(mode, iterations, tethers, stretchPasses, rigid, on, stretchSmoothing);
    }

    public XpbdSettings withStretchSmoothing(boolean on) {
        return new XpbdSettings(mode, iterations, tethers, stretchPasses, rigid, stretchLimits, on);
    }
}
