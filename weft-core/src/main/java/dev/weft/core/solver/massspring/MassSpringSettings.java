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
 *                        not change the damping ({@link dev.weft.core.solver.VerletDamping})
 */
public record MassSpringSettings(SpringLayout layout, SpringMaterial material, float verletDamping) {
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

    /** Seed 004's 12-spring cloth, k = 0.99. */
    public static MassSpringSettings defaults() {
        return new MassSpringSettings(SpringLayout.PATTERN_12, SpringMaterial.cloth(), 0.99f);
    }

    public MassSpringSettings withMaterial(SpringMaterial m) {
        return new MassSpringSettings(layout, m, verletDamping);
    }

    public MassSpringSettings withLayout(SpringLayout l) {
        return new MassSpringSettings(l, material, verletDamping);
    }

    public MassSpringSettings withVerletDamping(float k) {
        return new MassSpringSettings(layout, material, k);
    }
}
