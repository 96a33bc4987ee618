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
     * A woven sheet of about 0.2 kg/m² at 1–5 cm spacing: stiff in stretch (2000 N/m: a 1 m wide strip
     * stretches 0.1 % under its own weight hung from a bar), softer in shear, soft in bending; a little
     * damping along every spring. Stretch was 500 N/m and shear 100 until issue #12: the implicit solver
     * then ended the default scene at 7 % strain and peaked at 19 % with 4 steps per frame (2000/500 at 8
     * steps: 7.0 % / 1.7 %). The explicit solver's stable step shrinks as √(m/k) ({@code StableStep}).
     */
    public static SpringMaterial cloth() {
        return new SpringMaterial(2000f, 0.05f, 500f, 0.02f, 10f, 0.005f);
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
