package dev.weft.core.model;

import dev.weft.core.InvalidInputException;

/**
 * What a body is made of, in SI units, the same for every solver: each converts it to its own
 * parameters ({@link MaterialParameters}), so choosing a solver chooses the method, not the cloth.
 *
 * <p>Stiffnesses are those of a sheet, not of a spring: stretch and shear in N/m (force per unit width
 * per unit strain, the membrane stiffness), bending as the bending rigidity B in N·m (moment per unit
 * width per unit curvature). On a square lattice a spring along an edge represents as much sheet as its
 * length squared, so an edge spring's k equals the sheet's stiffness whatever the resolution.
 *
 * @param stretchStiffness N/m along the weave (stretch constraints); +∞ is inextensible, which only the
 *                         position-based solvers can take (compliance 0)
 * @param shearStiffness   N/m across the diagonals (shear constraints); +∞ as for stretch
 * @param bendStiffness    bending rigidity B in N·m (woven cotton: 10⁻⁵…10⁻⁴; card: 10⁻²)
 * @param damping          velocity damping in 1/s: a free body's velocity decays as e^(−damping·t), standing
 *                         in for air resistance where a scene has no air
 * @param strainDamping    stiffness-proportional (Rayleigh) damping β in s: a spring of stiffness k gets
 *                         the dashpot k_d = β·k along it (the spring solvers' k_d; 0: none)
 * @param tearStrain       strain past which a stretch or shear constraint breaks (0.3: at 30 % stretch);
 *                         +∞: never ({@link dev.weft.core.interact.Tearing})
 * @param friction         the body's grip, a factor on the friction coefficients of every contact it makes:
 *                         a collider's μ times it, a contact between two bodies the contact settings' μ
 *                         times both (the product rule: 1 keeps the collider's own μ, 0 is frictionless,
 *                         silk 0.5)
 * @param density          mass per area in kg/m² of a cloth body (its particles share each triangle's mass in
 *                         thirds when the model is built); a rope's mass per length is its {@link RopeSpec}'s
 * @param thickness        the sheet's thickness in m for contacts: its particles stay half of it further off
 *                         every collider than the collider's own thickness, and two particles of bodies
 *                         with thickness keep at least their half-thicknesses' sum apart where that is more
 *                         than the contact settings' distance (0: a sheet thinner than its particle spacing,
 *                         the colliders' thickness and the contact distance alone)
 */
public record Material(float stretchStiffness, float shearStiffness, float bendStiffness, float damping,
                       float strainDamping, float tearStrain, float friction, float density, float thickness) {
    /** Cotton-like areal density in kg/m². */
    public static final float COTTON_DENSITY = 0.2f;

    public Material {
        positiveOrInfinite("stretchStiffness", stretchStiffness);
        positiveOrInfinite("shearStiffness", shearStiffness);
        finiteNonNegative("bendStiffness", bendStiffness);
        finiteNonNegative("damping", damping);
        finiteNonNegative("strainDamping", strainDamping);
        if (!(tearStrain > 0f)) {
            throw new InvalidInputException("tearStrain", "must be a number > 0 (0.3: tears at 30 % stretch; "
                    + "infinity: never), got " + tearStrain);
        }
        finiteNonNegative("friction", friction);
        if (!(density > 0f && density < Float.POSITIVE_INFINITY)) {
            throw new InvalidInputException("density", "must be a mass per area > 0 in kg/m² (cotton: 0.2), got "
                    + density);
        }
        finiteNonNegative("thickness", thickness);
    }

    /** A sheet of no contact thickness (see {@link #thickness()}). */
    public Material(float stretchStiffness, float shearStiffness, float bendStiffness, float damping,
                    float strainDamping, float tearStrain, float friction, float density) {
        this(stretchStiffness, shearStiffness, bendStiffness, damping, strainDamping, tearStrain, friction, density, 0f);
    }

    /**
     * With grip 1 (every contact has its collider's or contact settings' own friction) and cotton's
     * density.
     */
    public Material(float stretchStiffness, float shearStiffness, float bendStiffness, float damping,
                    float strainDamping, float tearStrain) {
        this(stretchStiffness, shearStiffness, bendStiffness, damping, strainDamping, tearStrain, 1f, COTTON_DENSITY, 0f);
    }

    /**
     * A woven cotton sheet of about 0.2 kg/m²: 2000 N/m in stretch (a 1 m strip hung from a bar stretches
     * 0.1 % under its own weight), 500 N/m in shear, bending rigidity B = 10⁻⁴ N·m (Kawabata's B of heavy
     * cotton and denim, about 1 gf·cm²/cm; a bending length (B/(ρg))^⅓ of 3.7 cm: it drapes in folds),
     * velocity damping 1/s, β = 2.5·10⁻⁵ s (k_d = 0.05 N·s/m along a stretch spring), never tears, no contact
     * thickness.
     * Until the material moved into the model (issue #13) every solver had its own cloth: the spring
     * solvers' was this one's stretch and shear; XPBD's was inextensible with bend springs of 1000 N/m
     * (B ≈ 0.015 N·m at the default scene's spacing: felt or card), which hid its iteration error under
     * a stiff sheet (README, "One material for every solver").
     */
    public static Material cloth() {
        return new Material(2000f, 500f, 1e-4f, 1f, 2.5e-5f, Float.POSITIVE_INFINITY, 1f, COTTON_DENSITY, 0f);
    }

    public Material withStretch(float k) {
        return new Material(k, shearStiffness, bendStiffness, damping, strainDamping, tearStrain, friction, density,
                thickness);
    }

    public Material withShear(float k) {
        return new Material(stretchStiffness, k, bendStiffness, damping, strainDamping, tearStrain, friction, density,
                thickness);
    }

    public Material withBend(float rigidity) {
        return new Material(stretchStiffness, shearStiffness, rigidity, damping,
                strainDamping, tearStrain, friction, density, thickness);
    }

    public Material withDamping(float perSecond) {
        return new Material(stretchStiffness, shearStiffness, bendStiffness, perSecond, strainDamping, tearStrain,
                friction, density, thickness);
    }

    public Material withStrainDamping(float beta) {
        return new Material(stretchStiffness, shearStiffness, bendStiffness, damping,
                beta, tearStrain, friction, density, thickness);
    }

    public Material withTearStrain(float strain) {
        return new Material(stretchStiffness, shearStiffness, bendStiffness, damping,
                strainDamping, strain, friction, density, thickness);
    }

    public Material withFriction(float grip) {
        return new Material(stretchStiffness, shearStiffness, bendStiffness, damping,
                strainDamping, tearStrain, grip, density, thickness);
    }

    public Material withDensity(float kgPerSquareMetre) {
        return new Material(stretchStiffness, shearStiffness, bendStiffness, damping, strainDamping, tearStrain,
                friction, kgPerSquareMetre, thickness);
    }

    public Material withThickness(float metres) {
        return new Material(stretchStiffness, shearStiffness, bendStiffness, damping, strainDamping, tearStrain,
                friction, density, metres);
    }

    /** The sheet stiffness of a distance constraint's kind: stretch or shear in N/m; bend: B in N·m. */
    public float stiffness(DistanceKind kind) {
        switch (kind) {
            case STRETCH: return stretchStiffness;
            case SHEAR: return shearStiffness;
            case BEND: return bendStiffness;
            default: throw new AssertionError(kind);
        }
    }

    private static void positiveOrInfinite(String name, float v) {
        if (!(v > 0f)) {
            throw new InvalidInputException(name, "must be a stiffness > 0 in N/m (infinity: rigid), got " + v);
        }
    }

    private static void finiteNonNegative(String name, float v) {
        if (!(v >= 0f && v < Float.POSITIVE_INFINITY)) {
            throw new InvalidInputException(name, "must be a finite number >= 0, got " + v);
        }
    }
}
