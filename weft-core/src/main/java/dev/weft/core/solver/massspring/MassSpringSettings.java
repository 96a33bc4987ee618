package dev.weft.core.solver.massspring;

/**
 * Settings of {@link MassSpringSolver}: method parameters only. The springs are the model's ({@link
 * dev.weft.core.model.Model#springs()}, seed 004's pattern12 where the model is built with {@code
 * ModelBuilder.springLayout(PATTERN_12)}); k_s, k_d and the Verlet damping come from the bodies' {@link
 * dev.weft.core.model.Material} ({@link dev.weft.core.model.MaterialParameters}: seed 002's damping k is
 * e^(−d/60 s) per 1/60 s for a damping rate d).
 *
 * @param stableSteps     split every step into as many equal Verlet steps as the springs' stability bound
 *                        needs ({@link StableStep}); off, a step longer than the bound blows up (seed 004 runs
 *                        fixed steps)
 * @param tethers         project the model's long-range attachments after each Verlet step
 *                        ({@link dev.weft.core.solver.TetherProjection})
 */
public record MassSpringSettings(boolean stableSteps, boolean tethers) {
    /** Fixed steps as given, no tethers: seed 004's algorithm as it stands. */
    public static MassSpringSettings fixedSteps() {
        return new MassSpringSettings(false, false);
    }

    /** Stable steps, the model's tethers. */
    public static MassSpringSettings defaults() {
        return new MassSpringSettings(true, true);
    }

    public MassSpringSettings withStableSteps(boolean on) {
        return new MassSpringSettings(on, tethers);
    }

    public MassSpringSettings withTethers(boolean on) {
        return new MassSpringSettings(stableSteps, on);
    }
}
