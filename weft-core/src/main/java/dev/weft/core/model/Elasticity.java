package dev.weft.core.model;

import dev.weft.core.InvalidInputException;

/**
 * An isotropic elastic solid: Young's modulus E in Pa and Poisson's ratio ν (rubber: E ≈ 1–10 MPa,
 * ν ≈ 0.45–0.49; gelatin: E ≈ 10 kPa). ν = 0.5 is incompressible (λ = +∞).
 */
public record Elasticity(float youngsModulus, float poissonRatio) {
    public Elasticity {
        if (!(youngsModulus > 0f && youngsModulus < Float.POSITIVE_INFINITY)) {
            throw new InvalidInputException("youngsModulus", "must be a finite modulus > 0 in Pa (rubber: 1e6), got "
                    + youngsModulus);
        }
        if (!(poissonRatio >= 0f && poissonRatio <= 0.5f)) {
            throw new InvalidInputException("poissonRatio", "must be in [0, 0.5] (rubber: 0.45; 0.5: "
                    + "incompressible), got " + poissonRatio);
        }
    }

    /** Lamé's μ = E / (2 (1 + ν)), the shear modulus, in Pa. */
    public float shearModulus() {
        return (float) (youngsModulus / (2.0 * (1.0 + poissonRatio)));
    }

    /** Lamé's λ = E ν / ((1 + ν)(1 − 2ν)) in Pa; +∞ at ν = 0.5. */
    public float lameLambda() {
        double nu = poissonRatio;
        if (nu >= 0.5) {
            return Float.POSITIVE_INFINITY;
        }
        return (float) (youngsModulus * nu / ((1.0 + nu) * (1.0 - 2.0 * nu)));
    }
}
