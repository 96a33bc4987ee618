package dev.weft.core.solver.relaxation;

import dev.weft.core.InvalidInputException;
import dev.weft.core.util.Check;

/**
 * Settings of {@link RelaxationSolver}.
 *
 * @param iterations    relaxation steps per time step (each: every distance constraint once, then collisions)
 * @param verletDamping seed 002 eq. 1's k: 1 is undamped, "usually very close to 1"; the share of velocity
 *                      kept per 1/60 s, whatever the step ({@link dev.weft.core.step.VerletDamping})
 * @param tethers       project the model's long-range attachments after each relaxation step
 *                      ({@link dev.weft.core.solver.TetherProjection})
 */
public record RelaxationSettings(int iterations, float verletDamping, boolean tethers) {
    public RelaxationSettings {
        Check.atLeast("iterations", iterations, 1);
        if (!(verletDamping > 0f && verletDamping <= 1f)) {
            throw new InvalidInputException("verletDamping", "must be in (0, 1] (1 = undamped), got " + verletDamping);
        }
    }

    /** With the model's tethers. */
    public RelaxationSettings(int iterations, float verletDamping) {
        this(iterations, verletDamping, true);
    }

    public static RelaxationSettings defaults() {
        return new RelaxationSettings(16, 0.99f);
    }

    public RelaxationSettings withIterations(int n) {
        return new RelaxationSettings(n, verletDamping, tethers);
    }

    public RelaxationSettings withTethers(boolean on) {
        return new RelaxationSettings(iterations, verletDamping, on);
    }
}
