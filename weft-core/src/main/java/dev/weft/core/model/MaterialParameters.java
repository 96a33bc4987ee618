package dev.weft.core.model;

import dev.weft.core.InvalidInputException;

/**
 * How a {@link Material} becomes the numbers the solvers use, in one place, so that every solver
 * simulates the same cloth:
 * <ul>
 *   <li>a stretch or shear constraint gets k = the sheet stiffness (N/m): on a square lattice an edge
 *       represents as much sheet as its length squared, so k per spring equals the sheet's k;</li>
 *   <li>a dihedral hinge across an edge e between triangles of total area A gets k_θ = B·|e|²/A (N·m per
 *       rad²), so that Σ ½k_θ(θ − θ₀)² is ∫ ½B·κ² over the surface on Weft's grids: a square of two right
 *       triangles bent into a cylinder about either axis folds only across its axis edges (each triangle
 *       pair spans one chord plane), by θ = κ·d, and ½·B·(d²/d²)·(κd)² is exactly ½Bκ² times the square's
 *       area d². (The discrete-shells constant, k_θ = 3B|e|²/A of Grinspun et al. 2003, assumes every edge
 *       bends and is 3 times too stiff on such a grid; MaterialParametersTest measures both.) On a square
 *       grid k_θ = B across the axis edges, 2B across the diagonals;</li>
 *   <li>an isometric stencil (Bergou et al. 2006: C = ‖Σ_j K_j x_j‖, the stencil's mean-curvature vector,
 *       energy ½k_iso·C²) gets k_iso = B/(A₀ + A₁) in N/m, A₀ + A₁ its two triangles' rest area, so that
 *       Σ ½k_iso C² is ∫ ½Bκ² over a flat sheet bent into a cylinder ({@link #ISOMETRIC_FACTOR});</li>
 *   <li>a bend spring of rest length L (two particles two edges apart) gets k = {@link #BEND_SPRING_FACTOR}·B/L²:
 *       a spring resists a fold only through the shortening of its chord, quartically in the fold angle,
 *       so no stiffness matches a hinge at every angle; this one stores the same energy as the hinge it
 *       spans on a square grid at a fold of 1 rad (chord L·cos(θ/2): ½k(L(1 − cos ½))² = ½·B·1²);</li>
 *   <li>a constraint between two bodies (a seam) gets their stiffnesses in series where they differ;</li>
 *   <li>velocity damping d (1/s) is d for XPBD and PD, a Verlet share of e^(−d/60 s) kept per 1/60 s for
 *       relaxation and mass-spring (seed 002's k), and spring dashpots k_d = β·k;</li>
 *   <li>friction is a grip factor per particle on the coefficients of every contact: a collider's μ times
 *       it, a contact between two bodies μ times both; thickness t puts a particle t/2 further off every
 *       collider and two particles at least t_a/2 + t_b/2 apart (both as {@code collide.ParticleSurface},
 *       which every contact reads).</li>
 * </ul>
 * Each solver then takes its own form: XPBD compliance α = 1/k, PD weight k, springs k_s = k.
 */
public final class MaterialParameters {
    /**
     * k_iso = this·B/(A₀ + A₁) for an isometric stencil: Σ_e ½k_iso‖Σ_j K_j x_j‖² is then ½Bκ² over the area
     * of a flat sheet rolled into a cylinder of curvature κ, on Weft's right-triangle grids and on equilateral
     * meshes alike (Σ_e ‖K_e x‖²/(A₀+A₁) → ∫(κ₁+κ₂)² dA, measured in MaterialParametersTest). Bergou et al.'s
     * Q = 3/(A₀+A₁)·K Kᵀ is three times this 1/(A₀+A₁)·K Kᵀ: their stiffness is B/3.
     */
    public static final float ISOMETRIC_FACTOR = 1f;

    /** 1 / (1 − cos ½)²: a bend spring of this k·B/L² stores a hinge's energy at a 1 rad fold. */
    public static final float BEND_SPRING_FACTOR = (float) (1.0 / Math.pow(1.0 - Math.cos(0.5), 2));

    private MaterialParameters() {
    }

    /**
     * k per distance constraint of {@code model} in storage order: N/m, +∞ where the material is rigid.
     * Bend springs convert the bending rigidity by their rest length.
     */
    public static float[] distanceStiffness(Model model) {
        float[] k = new float[model.distances().count()];
        for (int c = 0; c < k.length; c++) {
            k[c] = distanceStiffness(model, c);
        }
        return k;
    }

    /** k of distance constraint c of {@code model} (as {@link #distanceStiffness(Model)} gives it). */
    public static float distanceStiffness(Model model, int c) {
        DistanceConstraints d = model.distances();
        DistanceKind kind = DistanceKind.of(d.kind()[c]);
        float rest = d.restLength()[c];
        Material own = d.ownMaterial(c);
        return own != null ? springStiffness(own, kind, rest)
                : springStiffness(model, d.particles()[2 * c], d.particles()[2 * c + 1], kind, rest);
    }

    /** k of a spring of {@code kind} and rest length {@code rest} between particles a and b. */
    public static float springStiffness(Model model, int a, int b, DistanceKind kind, float rest) {
        float ka = springStiffness(model.material(model.objectOf(a)), kind, rest);
        float kb = springStiffness(model.material(model.objectOf(b)), kind, rest);
        return inSeries(ka, kb);
    }

    /** The dashpot k_d = β·k in N·s/m of a spring of {@code kind} and rest length {@code rest} between a and b. */
    public static float springDamping(Model model, int a, int b, DistanceKind kind, float rest) {
        Material ma = model.material(model.objectOf(a));
        Material mb = model.material(model.objectOf(b));
        return inSeries(ma.strainDamping() * springStiffness(ma, kind, rest),
                mb.strainDamping() * springStiffness(mb, kind, rest));
    }

    /** k in N/m of one material's spring of {@code kind} and rest length {@code rest}. */
    public static float springStiffness(Material m, DistanceKind kind, float rest) {
        if (kind != DistanceKind.BEND) {
            return m.stiffness(kind);
        }
        return rest > 0f ? BEND_SPRING_FACTOR * m.bendStiffness() / (rest * rest) : 0f;
    }

    /**
     * The stiffness per bending stencil (edge e0-e1, opposite vertices o0, o1) of {@code model}: k_θ in
     * N·m/rad² for a dihedral stencil, k_iso in N/m for an isometric one (see the class comment).
     */
    public static float[] hingeStiffness(Model model) {
        BendingConstraints b = model.bending();
        int[] p = b.particles();
        float[] x = model.restPositions();
        float[] k = new float[b.count()];
        for (int c = 0; c < k.length; c++) {
            int e0 = p[4 * c];
            int e1 = p[4 * c + 1];
            float ex = x[3 * e1] - x[3 * e0];
            float ey = x[3 * e1 + 1] - x[3 * e0 + 1];
            float ez = x[3 * e1 + 2] - x[3 * e0 + 2];
            float area = triangleArea(x, e0, ex, ey, ez, p[4 * c + 2]) + triangleArea(x, e0, ex, ey, ez, p[4 * c + 3]);
            float bend = inSeries(model.material(model.objectOf(e0)).bendStiffness(),
                    model.material(model.objectOf(p[4 * c + 2])).bendStiffness());
            if (b.model(c) == BendingConstraints.ISOMETRIC) {
                k[c] = area > 0f ? ISOMETRIC_FACTOR * bend / area : 0f;
            } else {
                k[c] = area > 0f ? bend * (ex * ex + ey * ey + ez * ez) / area : 0f;
            }
        }
        return k;
    }

    private static float triangleArea(float[] x, int e0, float ex, float ey, float ez, int o) {
        float ox = x[3 * o] - x[3 * e0];
        float oy = x[3 * o + 1] - x[3 * e0 + 1];
        float oz = x[3 * o + 2] - x[3 * e0 + 2];
        float cx = ey * oz - ez * oy;
        float cy = ez * ox - ex * oz;
        float cz = ex * oy - ey * ox;
        return 0.5f * (float) Math.sqrt(cx * cx + cy * cy + cz * cz);
    }

    /** Two stiffnesses in series (the same one where they are equal; the finite one doubled beside a rigid one). */
    static float inSeries(float a, float b) {
        if (a == b) {
            return a;
        }
        if (a == Float.POSITIVE_INFINITY || b == Float.POSITIVE_INFINITY) {
            return 2f * Math.min(a, b);
        }
        return a + b > 0f ? 2f * a * b / (a + b) : 0f;
    }

    /** Velocity damping in 1/s per particle, from its body's material. */
    public static float[] particleDamping(Model model) {
        float[] d = new float[model.particleCount()];
        for (int i = 0; i < d.length; i++) {
            d[i] = model.material(model.objectOf(i)).damping();
        }
        return d;
    }

    /** Seed 002's Verlet damping k, the share of velocity kept per 1/60 s, for a damping rate in 1/s. */
    public static float verletKeepPerFrame(float dampingPerSecond) {
        return (float) Math.exp(-dampingPerSecond / 60.0);
    }

    /**
     * Checks that a solver which needs finite stiffness (PD's weights, the spring solvers' forces) gets it.
     */
    public static void requireFinite(Model model, String solver) {
        for (int o = 0; o < model.objects().size(); o++) {
            Material m = model.material(o);
            if (m.stretchStiffness() == Float.POSITIVE_INFINITY || m.shearStiffness() == Float.POSITIVE_INFINITY) {
                throw new InvalidInputException(model.objects().get(o).name() + ".material", "is rigid (infinite "
                        + "stretch or shear stiffness), which only xpbd, pbd and relaxation can take; the " + solver
                        + " solver needs a finite stiffness in N/m (cotton: 2000)");
            }
        }
        DistanceConstraints d = model.distances();
        for (Material m : d.ownMaterials()) {
            if (m.stretchStiffness() == Float.POSITIVE_INFINITY) {
                throw new InvalidInputException("seam.material", "is rigid (infinite stretch stiffness), which only "
                        + "xpbd, pbd and relaxation can take; the " + solver + " solver needs a finite stiffness in "
                        + "N/m (cotton: 2000)");
            }
        }
    }

    /**
     * Checks that a solver which does not project isometric bending stencils ({@link
     * BendingModel#ISOMETRIC}) is not given any, naming the body and what to use instead.
     */
    public static void requireNoIsometricBending(Model model, String solver) {
        BendingConstraints b = model.bending();
        if (!b.anyIsometric()) {
            return;
        }
        for (int c = 0; c < b.count(); c++) {
            if (b.model(c) == BendingConstraints.ISOMETRIC) {
                String body = model.objects().get(model.objectOf(b.particles()[4 * c])).name();
                throw new InvalidInputException(body + ".bending", "is isometric (Bergou et al. 2006), which only "
                        + "xpbd and pbd simulate yet; run it with xpbd or pbd, or build it with dihedral or distance "
                        + "bending for the " + solver + " solver");
            }
        }
    }

    /**
     * Checks that a device backend's solver that does not run elastic tetrahedra is not given any, naming the body
     * and the ways out (the same solver on the cpu backend, or a device solver that runs them).
     */
    public static void requireNoElasticTetsOnDevice(Model model, String backend, String solver) {
        if (model.tets().elastic()) {
            for (ModelObject o : model.objects()) {
                if (o.type() == ModelObject.Type.TET_BODY) {
                    throw new InvalidInputException(o.name(), "is an elastic tetrahedral body, which the " + backend
                            + " " + solver + " solver does not simulate yet; run " + solver + " on the cpu backend, "
                            + "or xpbd, pbd or pd (or a voxel body, whose springs every solver takes)");
                }
            }
        }
    }
}
