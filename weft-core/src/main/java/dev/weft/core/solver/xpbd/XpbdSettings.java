package dev.weft.core.solver.xpbd;

import dev.weft.core.util.Check;

/**
 * Settings of {@link XpbdSolver}. Compliances are inverse stiffnesses (XPBD, Macklin et al. 2016), so
 * stiffness does not depend on the time step or the iteration count: distance compliances in m/N,
 * bending compliance in rad²/(N·m). Zero is infinitely stiff.
 *
 * @param iterations        constraint iterations per step (per substep)
 * @param damping           linear velocity damping in 1/s (velocity decays as e^(−damping·t))
 * @param tethers           project the model's long-range attachments
 * @param stretchPasses     sweeps over the stretch (structural) distance constraints per iteration: the
 *                          first with every constraint, the others over the stretch constraints alone,
 *                          so that the constraints a person sees as "the cloth stretches" converge
 *                          further for a fraction of an iteration's cost (1: plain XPBD)
 */
public record XpbdSettings(IterationMode mode, int iterations, float stretchCompliance, float shearCompliance,
                           float bendCompliance, float distanceBendCompliance, float damping, boolean tethers,
                           int stretchPasses) {
    public XpbdSettings {
        if (mode == null) {
            throw new dev.weft.core.InvalidInputException("mode", "must be one of jacobi, gauss-seidel, colored");
        }
        Check.atLeast("iterations", iterations, 1);
        Check.nonNegative("stretchCompliance", stretchCompliance);
        Check.nonNegative("shearCompliance", shearCompliance);
        Check.nonNegative("bendCompliance", bendCompliance);
        Check.nonNegative("distanceBendCompliance", distanceBendCompliance);
        Check.nonNegative("damping", damping);
        Check.atLeast("stretchPasses", stretchPasses, 1);
    }

    /**
     * Cotton-like cloth: practically inextensible, a little shear, soft bending. One iteration per
     * step: scenes take many substeps instead ("small steps", Macklin et al. 2019). Measured on a
     * 64 x 64 cloth hanging from an edge, 1 iteration x 16 substeps leaves 0.5 % strain where
     * 2 iterations x 8 substeps, the same work, leave 1.9 %. Shear compliance 10⁻⁶ m/N is far below
     * what one iteration resolves, but not 0: with stretch and shear both rigid, a grid's in-plane
     * constraints over-determine it, and the float32 rounding of positions far from the origin (an ulp
     * of 7.6e-6 m at 126 m) leaves them inconsistent, so the sweeps fight and pump energy (a free
     * 10 x 6 cloth at 126 m gained 33 % internal kinetic energy in 1 s: SolverLawProperties'
     * example); the compliance makes the shear constraints give. Damping 1/s stands in for air
     * resistance where a scene has no air ({@code Environment.withAir}): a swinging cloth settles
     * within seconds and a free fall tops out near g / 1 s⁻¹ ≈ 10 m/s. Two stretch passes per
     * iteration: the default scene's cloth then keeps its peak strain under 10 % with 24 substeps
     * where one pass needed 46, at 0.7× the cost per frame (README, "Every solver on the default scene").
     */
    public static XpbdSettings defaults() {
        return new XpbdSettings(IterationMode.COLORED, 1, 0f, 1e-6f, 2f, 1e-3f, 1f, true, 2);
    }

    public XpbdSettings withMode(IterationMode m) {
        return new XpbdSettings(m, iterations, stretchCompliance, shearCompliance, bendCompliance,
                distanceBendCompliance, damping, tethers, stretchPasses);
    }

    public XpbdSettings withIterations(int n) {
        return new XpbdSettings(mode, n, stretchCompliance, shearCompliance, bendCompliance,
                distanceBendCompliance, damping, tethers, stretchPasses);
    }

    public XpbdSettings withCompliance(float stretch, float shear, float bend) {
        return new XpbdSettings(mode, iterations, stretch, shear, bend, distanceBendCompliance, damping, tethers,
                stretchPasses);
    }

    public XpbdSettings withDamping(float d) {
        return new XpbdSettings(mode, iterations, stretchCompliance, shearCompliance, bendCompliance,
                distanceBendCompliance, d, tethers, stretchPasses);
    }

    public XpbdSettings withStretchPasses(int passes) {
        return new XpbdSettings(mode, iterations, stretchCompliance, shearCompliance, bendCompliance,
                distanceBendCompliance, damping, tethers, passes);
    }

    public XpbdSettings withTethers(boolean on) {
        return new XpbdSettings(mode, iterations, stretchCompliance, shearCompliance, bendCompliance,
                distanceBendCompliance, damping, on, stretchPasses);
    }
}
