package dev.weft.core.solver.relaxation;

import dev.weft.core.util.Check;

/**
 * Settings of {@link RelaxationSolver}: method parameters only. Relaxation projects every stretch and
 * shear constraint to its rest length whatever the material's stiffness (seed 002's rigid constraints);
 * its Verlet damping k comes from the material's damping rate d as e^(−d/60 s) per 1/60 s ({@link
 * dev.weft.core.model.MaterialParameters}).
 *
 * @param iterations    relaxation steps per time step (each: every distance constraint once, then collisions)
 * @param tethers       project the model's long-range attachments after each relaxation step
 *                      ({@link dev.weft.core.solver.TetherProjection})
 */
public record RelaxationSettings(int iterations, boolean tethers) {
    public RelaxationSettings {
        Check.atLeast("iterations", iterations, 1);
    }

    /** With the model's tethers. */
    public RelaxationSettings(int iterations) {
        this(iterations, true);
    }

    public static RelaxationSettings defaults() {
        return new RelaxationSettings(16);
    }

    public RelaxationSettings withIterations(int n) {
        return new RelaxationSettings(n, tethers);
    }

    public RelaxationSettings withTethers(boolean on) {
        return new RelaxationSettings(iterations, on);
    }
}
