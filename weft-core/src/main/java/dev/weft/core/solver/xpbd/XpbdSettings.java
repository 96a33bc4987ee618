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
 */
public record XpbdSettings(IterationMode mode, int iterations, float stretchCompliance, float shearCompliance,
                           float bendCompliance, float distanceBendCompliance, float damping, boolean tethers) {
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
    }

    /**
     * Cotton-like cloth: inextensible and unsheared, soft bending. One iteration per step: scenes take
     * many substeps instead ("small steps", Macklin et al. 2019). Measured on a 64 x 64 cloth hanging
     * from an edge, 1 iteration x 16 substeps leaves 0.5 % strain where 2 iterations x 8 substeps, the
     * same work, leave 1.9 %. Shear compliance is 0: the former 10⁻⁶ m/N, divided by h², was
     * 2 × 10⁻⁵ of the summed inverse masses of a 64 x 64 cloth's shear constraint at 16 substeps and
     * 2 × 10⁻⁴ at the default scene's 46, far below what one iteration resolves, and it kept the
     * shear passes off the multiplier-free path (issue #12: about 10 % of a frame of the default
     * scene). Damping 1/s stands in for air resistance where a scene has no air
     * ({@code Environment.withAir}): a swinging cloth settles within seconds and a free fall tops out
     * near g / 1 s⁻¹ ≈ 10 m/s.
     */
    public static XpbdSettings defaults() {
        return new XpbdSettings(IterationMode.COLORED, 1, 0f, 0f, 2f, 1e-3f, 1f, true);
    }

    public XpbdSettings withMode(IterationMode m) {
        return new XpbdSettings(m, iterations, stretchCompliance, shearCompliance, bendCompliance,
                distanceBendCompliance, damping, tethers);
    }

    public XpbdSettings withIterations(int n) {
        return new XpbdSettings(mode, n, stretchCompliance, shearCompliance, bendCompliance,
                distanceBendCompliance, damping, tethers);
    }

    public XpbdSettings withCompliance(float stretch, float shear, float bend) {
        return new XpbdSettings(mode, iterations, stretch, shear, bend, distanceBendCompliance, damping, tethers);
    }

    public XpbdSettings withDamping(float d) {
        return new XpbdSettings(mode, iterations, stretchCompliance, shearCompliance, bendCompliance,
                distanceBendCompliance, d, tethers);
    }

    public XpbdSettings withTethers(boolean on) {
        return new XpbdSettings(mode, iterations, stretchCompliance, shearCompliance, bendCompliance,
                distanceBendCompliance, damping, on);
    }
}
