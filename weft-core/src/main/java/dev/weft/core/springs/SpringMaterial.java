package dev.weft.core.springs;

import dev.weft.core.model.DistanceKind;
import dev.weft.core.util.Check;

/**
 * Stiffness k_s (N/m) and damping k_d (N·s/m) per spring type, the constants of seed 000 eq. 2.13.
 */
public record SpringMaterial(float stretchStiffness, float stretchDamping, float shearStiffness, float shearDamping,
                             float bendStiffness, float bendDamping) {
    public SpringMaterial {
        Check.nonNegative("stretchStiffness", stretchStiffness);
        Check.nonNegative("stretchDamping", stretchDamping);
        Check.nonNegative("shearStiffness", shearStiffness);
        Check.nonNegative("shearDamping", shearDamping);
        Check.nonNegative("bendStiffness", bendStiffness);
        Check.nonNegative("bendDamping", bendDamping);
    }

    /**
     * A cotton-like sheet of about 0.2 kg/m² at 1–5 cm spacing: stiff in stretch, softer in shear,
     * soft in bending; a little damping along every spring. The damping is kept small because explicit
     * integration needs h·k_d/m below about 2 for the lightest (corner) particles too.
     */
    public static SpringMaterial cloth() {
        return new SpringMaterial(500f, 0.05f, 100f, 0.02f, 10f, 0.005f);
    }

    /** The same stiffness and damping for every type. */
    public static SpringMaterial uniform(float stiffness, float damping) {
        return new SpringMaterial(stiffness, damping, stiffness, damping, stiffness, damping);
    }

    public float stiffness(DistanceKind kind) {
        switch (kind) {
            case STRETCH: return stretchStiffness;
            case SHEAR: return shearStiffness;
            case BEND: return bendStiffness;
            default: throw new AssertionError(kind);
        }
    }

    public float damping(DistanceKind kind) {
        switch (kind) {
            case STRETCH: return stretchDamping;
            case SHEAR: return shearDamping;
            case BEND: return bendDamping;
            default: throw new AssertionError(kind);
        }
    }

    public SpringMaterial scaled(float stiffnessFactor, float dampingFactor) {
        return new SpringMaterial(stretchStiffness * stiffnessFactor, stretchDamping * dampingFactor,
                shearStiffness * stiffnessFactor, shearDamping * dampingFactor,
                bendStiffness * stiffnessFactor, bendDamping * dampingFactor);
    }
}
