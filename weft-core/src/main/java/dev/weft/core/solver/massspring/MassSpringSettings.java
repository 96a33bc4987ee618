package dev.weft.core.solver.massspring;

import dev.weft.core.InvalidInputException;
import dev.weft.core.springs.SpringLayout;

/**
 * Settings of {@link MassSpringSolver}: method parameters only; k_s, k_d and the Verlet damping come
 * from the bodies' {@link dev.weft.core.model.Material} ({@link dev.weft.core.model.MaterialParameters}:
 * seed 002's damping k is e^(−d/60 s) per 1/60 s for a damping rate d).
 *
 * @param layout          which springs the model gets (seed 004: {@link SpringLayout#PATTERN_12})
 * @param stableSteps     split every step into as many equal Verlet steps as the springs' stability bound
 *                        needs ({@link StableStep}); off, a step longer than the bound blows up (seed 004 runs
 *                        fixed steps)
 * @param tethers         project the model's long-range attachments after each Verlet step
 *                        ({@link dev.weft.core.solver.TetherProjection})
 */
public record MassSpringSettings(SpringLayout layout, boolean stableSteps, boolean tethers) {
    public MassSpringSettings {
        if (layout == null) {
            throw new InvalidInputException("springs", "must be stencil24, pattern12 or mesh");
        }
    }

    /** Fixed steps as given, no tethers: seed 004's algorithm as it stands. */
    public MassSpringSettings(SpringLayout layout) {
        this(layout, false, false);
    }

    /** Seed 004's 12-spring cloth, stable steps, the model's tethers. */
    public static MassSpringSettings defaults() {
        return new MassSpringSettings(SpringLayout.PATTERN_12, true, true);
    }

    public MassSpringSettings withLayout(SpringLayout l) {
        return new MassSpringSettings(l, stableSteps, tethers);
    }

    public MassSpringSettings withStableSteps(boolean on) {
        return new MassSpringSettings(layout, on, tethers);
    }

    public MassSpringSettings withTethers(boolean on) {
        return new MassSpringSettings(layout, stableSteps, on);
    }
}
