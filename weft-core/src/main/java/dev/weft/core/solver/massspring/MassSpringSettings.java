package dev.weft.core.solver.massspring;

import dev.weft.core.InvalidInputException;
import dev.weft.core.springs.SpringLayout;
import dev.weft.core.springs.SpringMaterial;

/**
 * Settings of {@link MassSpringSolver}.
 *
 * @param layout          which springs the model gets (seed 004: {@link SpringLayout#PATTERN_12})
 * @param material        k_s, k_d per spring type
 * @param verletDamping   seed 002 eq. 1's k, the share of last step's displacement kept: 1 is undamped,
 *                        "usually very close to 1"; kept per 1/60 s whatever the step, so substeps do
 *                        not change the damping ({@link dev.weft.core.step.VerletDamping})
 * @param stableSteps     split every step into as many equal Verlet steps as the springs' stability bound
 *                        needs ({@link StableStep}); off, a step longer than the bound blows up (seed 004 runs
 *                        fixed steps)
 * @param tethers         project the model's long-range attachments after each Verlet step
 *                        ({@link dev.weft.core.solver.TetherProjection})
 */
public record MassSpringSettings(SpringLayout layout, SpringMaterial material, float verletDamping,
                                 boolean stableSteps, boolean tethers) {
    public MassSpringSettings {
        if (layout == null) {
            throw new InvalidInputException("springs", "must be stencil24, pattern12 or mesh");
        }
        if (material == null) {
            throw new InvalidInputException("material", "is required");
        }
        if (!(verletDamping > 0f && verletDamping <= 1f)) {
            throw new InvalidInputException("verletDamping", "must be in (0, 1] (1 = undamped), got " + verletDamping);
        }
    }

    /** Fixed steps as given, no tethers: seed 004's algorithm as it stands. */
    public MassSpringSettings(SpringLayout layout, SpringMaterial material, float verletDamping) {
        this(layout, material, verletDamping, false, false);
    }

    /** Seed 004's 12-spring cloth, k = 0.99, stable steps, the model's tethers. */
    public static MassSpringSettings defaults() {
        return new MassSpringSettings(SpringLayout.PATTERN_12, SpringMaterial.cloth(), 0.99f, true, true);
    }

    public MassSpringSettings withMaterial(SpringMaterial m) {
        return new MassSpringSettings(layout, m, verletDamping, stableSteps, tethers);
    }

    public MassSpringSettings withLayout(SpringLayout l) {
        return new MassSpringSettings(l, material, verletDamping, stableSteps, tethers);
    }

    public MassSpringSettings withVerletDamping(float k) {
        return new MassSpringSettings(layout, material, k, stableSteps, tethers);
    }

    public MassSpringSettings withStableSteps(boolean on) {
        return new MassSpringSettings(layout, material, verletDamping, on, tethers);
    }

    public MassSpringSettings withTethers(boolean on) {
        return new MassSpringSettings(layout, material, verletDamping, stableSteps, on);
    }
}
