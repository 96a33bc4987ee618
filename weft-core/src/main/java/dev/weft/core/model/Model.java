package dev.weft.core.model;

import dev.weft.core.InvalidInputException;
import dev.weft.core.coloring.Coloring;
import dev.weft.core.parallel.WorkerPool;
import java.util.List;

/**
 * What does not change every step: particles at rest, their inverse masses (0 = pinned), topology
 * and the colored constraint sets. All arrays are flat and shared with solvers and backends without
 * copying; treat them as read-only. Built by {@link ModelBuilder}.
 */
public final class Model {
    private final float[] restPositions;
    private final float[] invMass;
    private final int[] triangles;
    private final float[] uvs;
    private final DistanceConstraints distances;
    private final BendingConstraints bending;
    private final TetherConstraints tethers;
    private final List<ModelObject> objects;
    private final Coloring particleColoring;
    /** Built on first use (volatile: a racing second build gives an equal one). */
    private volatile Incidence triangleIncidence;
    private volatile Incidence distanceIncidence;
    private volatile Incidence bendingIncidence;
    /**
     * Per bending stencil its hinge stiffness k_θ ({@link MaterialParameters#hingeStiffness}), computed on
     * first use; an edit carries it to the edited model (edits keep the rest shape and the materials, and
     * only remove stencils or rewire them to split copies at the same rest position).
     */
    private volatile float[] hingeStiffness;
    /** Per distance constraint its spring stiffness k, computed on first use and carried through edits. */
    private volatile float[] distanceStiffness;
    /** Per bending stencil its four isometric weights K (0 for a dihedral stencil), computed on first use, carried. */
    private volatile float[] isometricWeights;
    /** Soft bodies' volume-keeping tetrahedra (set once while the model is made, see {@link #carryTets}). */
    private TetConstraints tets = TetConstraints.NONE;
    /** Soft bodies' drawn surfaces embedded in their tetrahedra (set with the tetrahedra). */
    private List<Skin> skins = List.of();
    private DrawnSurface drawn;
    /** Built on first use: see {@link #tearLengthsSquared()}. */
    private volatile float[] tearLengthsSquared;
    /** Index into {@link #objects} per particle (split copies belong to their particle's body). */
    private final int[] particleObject;
    /** Per particle: itself, or for a copy made by a split, the particle it was split from. */
    private final int[] source;
    /** Per object: what it is made of. */
    private final Material[] materials;
    /** Which particle pairs are springs for the spring solvers. */
    private final SpringLayout springLayout;
    /** Built on first use (volatile: a racing second build gives an equal one). */
    private volatile SpringTopology springs;
    /** The model as built, before any edit (this for an unedited model). */
    private final Model base;
    /** The edits applied to {@link #base} to make this model, in order. */
    private final List<ModelEdit> edits;

    Model(float[] restPositions, float[] invMass, int[] triangles, float[] uvs,
          DistanceConstraints distances, BendingConstraints bending, TetherConstraints tethers,
          List<ModelObject> objects, Coloring particleColoring, Material[] materials, SpringLayout springLayout) {
        this(restPositions, invMass, triangles, uvs, distances, bending, tethers, objects, particleColoring,
                objectRanges(objects, invMass.length), identity(invMass.length), materials, springLayout, null,
                List.of());
    }

    /** An edited model: {@code base} and the {@code edits} that made it. */
    Model(float[] restPositions, float[] invMass, int[] triangles, float[] uvs,
          DistanceConstraints distances, BendingConstraints bending, TetherConstraints tethers,
          List<ModelObject> objects, Coloring particleColoring, int[] particleObject, int[] source,
          Material[] materials, SpringLayout springLayout, Model base, List<ModelEdit> edits) {
        this.restPositions = restPositions;
        this.invMass = invMass;
        this.triangles = triangles;
        this.uvs = uvs;
        this.distances = distances;
        this.bending = bending;
        this.tethers = tethers;
        this.objects = List.copyOf(objects);
        this.particleColoring = particleColoring;
        this.particleObject = particleObject;
        this.source = source;
        this.materials = materials;
        this.springLayout = springLayout;
        this.base = base == null ? this : base;
        this.edits = List.copyOf(edits);
    }

    private static int[] objectRanges(List<ModelObject> objects, int n) {
        int[] object = new int[n];
        for (int o = 0; o < objects.size(); o++) {
            ModelObject body = objects.get(o);
            java.util.Arrays.fill(object, body.firstParticle(), body.firstParticle() + body.particleCount(), o);
        }
        return object;
    }

    private static int[] identity(int n) {
        int[] id = new int[n];
        for (int i = 0; i < n; i++) {
            id[i] = i;
        }
        return id;
    }

    /**
     * This model with {@code edits} applied, in order (tearing, cutting, seams: {@link ModelEdit}); this
     * model is unchanged. Particles keep their indices; a split appends its copy. The new model's
     * {@link #edits()} is this one's followed by the edits that changed something. Pair it with
     * {@link State#resizedFor}.
     */
    public Model edit(List<ModelEdit> edits) {
        return edit(edits, null);
    }

    /**
     * As {@link #edit(List)}, the copying split over two threads of {@code pool} (null: this thread);
     * the same model either way.
     */
    public Model edit(List<ModelEdit> edits, WorkerPool pool) {
        return edits.isEmpty() ? this : ModelEditor.apply(this, edits, pool);
    }

    /** The model as its builder made it, before any edit ({@code this} when unedited). */
    public Model base() {
        return base;
    }

    /** The edits that made this model from {@link #base()}, in order (empty when unedited). */
    public List<ModelEdit> edits() {
        return edits;
    }

    /** The body (index into {@link #objects()}) particle p belongs to. */
    public int objectOf(int particle) {
        return particleObject[particle];
    }

    int[] particleObjects() {
        return particleObject;
    }

    /** Particle p itself, or for a copy a split made, the particle it was split from (a lower index). */
    public int sourceOf(int particle) {
        return source[particle];
    }

    int[] sources() {
        return source;
    }

    /** What body {@code object} (an index into {@link #objects()}) is made of. */
    public Material material(int object) {
        return materials[object];
    }

    Material[] materials() {
        return materials;
    }

    /** This model with every body's material changed by {@code change} (e.g. {@code m -> m.withDamping(0f)}). */
    public Model withMaterial(java.util.function.UnaryOperator<Material> change) {
        Material[] changed = new Material[materials.length];
        for (int o = 0; o < changed.length; o++) {
            changed[o] = change.apply(materials[o]);
        }
        return withMaterials(changed);
    }

    /**
     * This model with body o made of {@code materials[o]}: the same particles, topology and colorings
     * (shared, not copied). A cloth body of another density gets its particles' masses scaled by the ratio
     * (a particle's mass is its share of its triangles' area times the density); a rope's mass is its
     * mass per length, so a rope refuses one. Only for a model as built (edits are made on the materials
     * they started with).
     */
    public Model withMaterials(Material[] materials) {
        if (base != this) {
            throw new IllegalStateException("change the materials of the model as built, before any edit");
        }
        if (materials.length != objects.size()) {
            throw new IllegalArgumentException(materials.length + " materials for " + objects.size() + " bodies");
        }
        float[] w = invMass;
        for (int o = 0; o < materials.length; o++) {
            java.util.Objects.requireNonNull(materials[o], "material");
            float before = this.materials[o].density();
            float after = materials[o].density();
            if (after == before) {
                continue;
            }
            ModelObject body = objects.get(o);
            if (body.type() == ModelObject.Type.ROPE) {
                throw new InvalidInputException(body.name() + ".material.density", "is a cloth's mass per area; a "
                        + "rope's mass is its mass per length (RopeSpec.massPerLength)");
            }
            if (body.type() == ModelObject.Type.VOXEL_BODY || body.type() == ModelObject.Type.TET_BODY) {
                throw new InvalidInputException(body.name() + ".material.density", "is a cloth's mass per area; a "
                        + "soft body's is its density per volume (its spec's density, kg/m³)");
            }
            if (w == invMass) {
                w = invMass.clone();
            }
            double scale = (double) before / after;
            for (int i = body.firstParticle(); i < body.firstParticle() + body.particleCount(); i++) {
                w[i] = (float) (w[i] * scale); // a pin (0) stays a pin
            }
        }
        return new Model(restPositions, w, triangles, uvs, distances, bending, tethers, objects,
                particleColoring, particleObject, source, materials.clone(), springLayout, null, List.of())
                .carryTets(tets, skins);
    }

    /** Which particle pairs are the spring solvers' springs ({@link ModelBuilder#springLayout}). */
    public SpringLayout springLayout() {
        return springLayout;
    }

    /**
     * This model with the spring solvers' springs in {@code layout}: the same particles, constraints and
     * materials (shared). Only for a model as built.
     */
    public Model withSpringLayout(SpringLayout layout) {
        if (base != this) {
            throw new IllegalStateException("change the spring layout of the model as built, before any edit");
        }
        if (layout == null) {
            throw new InvalidInputException("springs", "must be stencil24, pattern12 or mesh");
        }
        return new Model(restPositions, invMass, triangles, uvs, distances, bending, tethers, objects,
                particleColoring, particleObject, source, materials, layout, null, List.of()).carryTets(tets, skins);
    }

    /**
     * The springs of the spring solvers (implicit, mass-spring) in {@link #springLayout()}, made from this
     * model's topology on first use: an edited model's are its base model's with the edits replayed.
     */
    public SpringTopology springs() {
        SpringTopology t = springs;
        if (t == null) {
            t = SpringTopology.of(this);
            springs = t;
        }
        return t;
    }

    /** The strain (0.5 = 50 % longer than at rest) past which body {@code object}'s cloth tears; infinite: never. */
    public float tearStrain(int object) {
        return materials[object].tearStrain();
    }

    /**
     * For each distance constraint (storage order) the square of the length past which it tears: (1 + tear
     * strain)² times its rest length², infinite where it cannot (a body that does not tear, a bending skip
     * spring, which stretches when the cloth folds rather than when it is pulled, a seam of rest length 0).
     * Built once, so a tearing scan is a compare per constraint, cheap enough for every substep.
     */
    public float[] tearLengthsSquared() {
        float[] t = tearLengthsSquared;
        if (t == null) {
            t = new float[distances.count()];
            for (int c = 0; c < t.length; c++) {
                t[c] = tearLengthSquared(c);
            }
            tearLengthsSquared = t;
        }
        return t;
    }

    /** Distance constraint c's entry of {@link #tearLengthsSquared()}. */
    float tearLengthSquared(int c) {
        float rest = distances.restLength()[c];
        float limit = (1f + tearStrain(objectOf(distances.particles()[2 * c]))) * rest;
        boolean never = distances.kind()[c] == DistanceKind.BEND.code() || rest == 0f;
        return never || limit == Float.POSITIVE_INFINITY ? Float.POSITIVE_INFINITY : limit * limit;
    }

    /** The tear lengths if they were computed, else null (for an edit to carry). */
    float[] computedTearLengthsSquared() {
        return tearLengthsSquared;
    }

    /** Sets the tear lengths an edit carried over (and completed for new constraints). */
    void carryTearLengthsSquared(float[] t) {
        tearLengthsSquared = t;
    }

    /** True when some body tears. */
    public boolean tears() {
        for (Material m : materials) {
            if (m.tearStrain() < Float.POSITIVE_INFINITY) {
                return true;
            }
        }
        return false;
    }

    public int particleCount() {
        return invMass.length;
    }

    /** xyz per particle at rest (also the initial state). */
    public float[] restPositions() {
        return restPositions;
    }

    /** 1/mass per particle; 0 marks a pinned (kinematic) particle. */
    public float[] invMass() {
        return invMass;
    }

    public boolean isPinned(int particle) {
        return invMass[particle] == 0f;
    }

    public int pinnedCount() {
        int n = 0;
        for (float w : invMass) {
            if (w == 0f) {
                n++;
            }
        }
        return n;
    }

    /** Three particle indices per triangle (for rendering, export, bending, drag). */
    public int[] triangles() {
        return triangles;
    }

    public int triangleCount() {
        return triangles.length / 3;
    }

    /** Which triangles touch each particle ({@link Incidence} of arity 3), built once. */
    public Incidence triangleIncidence() {
        Incidence t = triangleIncidence;
        if (t == null) {
            t = Incidence.of(triangles, 3, particleCount());
            triangleIncidence = t;
        }
        return t;
    }

    /** Whether the triangles' and the distances' incidences are built (the editor shares its work out by it). */
    boolean incidencesBuilt() {
        return triangleIncidence != null && distanceIncidence != null;
    }

    /**
     * Which distance constraints touch each particle ({@link Incidence} of arity 2 over {@link
     * #distances()}' storage order), built once: Projective Dynamics' spring slots, XPBD's Jacobi gather.
     */
    public Incidence distanceIncidence() {
        Incidence t = distanceIncidence;
        if (t == null) {
            t = Incidence.of(distances.particles(), 2, particleCount());
            distanceIncidence = t;
        }
        return t;
    }

    /** Which bending stencils touch each particle ({@link Incidence} of arity 4), built once. */
    public Incidence bendingIncidence() {
        Incidence t = bendingIncidence;
        if (t == null) {
            t = Incidence.of(bending.particles(), 4, particleCount());
            bendingIncidence = t;
        }
        return t;
    }

    /**
     * The hinge stiffness k_θ in N·m/rad² per bending stencil (storage order), from the materials and the rest
     * shape ({@link MaterialParameters#hingeStiffness}), computed once per model and carried through edits.
     * Do not modify.
     */
    public float[] hingeStiffness() {
        float[] k = hingeStiffness;
        if (k == null) {
            k = MaterialParameters.hingeStiffness(this);
            hingeStiffness = k;
        }
        return k;
    }

    /** The hinge stiffness if it was computed, else null (for an edit to carry). */
    float[] computedHingeStiffness() {
        return hingeStiffness;
    }

    /** Sets the hinge stiffness an edit carried over from the model it edited. */
    void carryHingeStiffness(float[] k) {
        hingeStiffness = k;
    }

    /**
     * Per distance constraint its stiffness k in N/m ({@link MaterialParameters#distanceStiffness(Model)}: its
     * own material's or its two bodies' in series, by kind and rest length), computed once per model and
     * carried through edits, so a solver taking an edited model does not walk every constraint's materials.
     * Do not modify.
     */
    public float[] distanceStiffness() {
        float[] k = distanceStiffness;
        if (k == null) {
            k = MaterialParameters.distanceStiffness(this);
            distanceStiffness = k;
        }
        return k;
    }

    /** The distance stiffness if it was computed, else null (for an edit to carry). */
    float[] computedDistanceStiffness() {
        return distanceStiffness;
    }

    /** Sets the distance stiffness an edit carried over (and completed for new constraints). */
    void carryDistanceStiffness(float[] k) {
        distanceStiffness = k;
    }

    /**
     * The constant cotangent weights K of every isometric bending stencil ({@link
     * dev.weft.core.geom.IsometricBending#weights}), four per stencil in storage order (e0, e1, o0, o1), zeros
     * for a dihedral stencil; from the rest shape, computed once per model and carried through edits (a split
     * copy keeps its particle's rest position). Do not modify.
     */
    public float[] isometricWeights() {
        float[] k = isometricWeights;
        if (k == null) {
            k = computeIsometricWeights(restPositions, bending);
            isometricWeights = k;
        }
        return k;
    }

    static float[] computeIsometricWeights(float[] x, BendingConstraints b) {
        int[] p = b.particles();
        float[] k = new float[4 * b.count()];
        for (int c = 0; c < b.count(); c++) {
            if (b.model(c) == BendingConstraints.ISOMETRIC) {
                dev.weft.core.geom.IsometricBending.weights(x, p[4 * c], p[4 * c + 1], p[4 * c + 2], p[4 * c + 3], k,
                        4 * c);
            }
        }
        return k;
    }

    /** The isometric weights if they were computed, else null (for an edit to carry). */
    float[] computedIsometricWeights() {
        return isometricWeights;
    }

    /** Sets the isometric weights an edit carried over from the model it edited. */
    void carryIsometricWeights(float[] k) {
        isometricWeights = k;
    }

    /** uv per particle (zeros for bodies without texture coordinates). */
    public float[] uvs() {
        return uvs;
    }

    public DistanceConstraints distances() {
        return distances;
    }

    public BendingConstraints bending() {
        return bending;
    }

    /** The tetrahedra of its soft bodies, volume-keeping or elastic (none for cloth and ropes). */
    public TetConstraints tets() {
        return tets;
    }

    /** The skins of its soft bodies: surfaces drawn instead of their own triangles (none for cloth and ropes). */
    public List<Skin> skins() {
        return skins;
    }

    /** What is drawn and exported: its triangles, with each skinned body's skin in place of its own. */
    public DrawnSurface drawnSurface() {
        if (drawn == null) {
            drawn = new DrawnSurface(this, skins);
        }
        return drawn;
    }

    /** Sets the tetrahedra while the model is made (builder) or copied from the one it derives from. */
    Model carryTets(TetConstraints v, List<Skin> s) {
        tets = v;
        skins = List.copyOf(s);
        return this;
    }

    public TetherConstraints tethers() {
        return tethers;
    }

    /**
     * Colors of the particles such that no distance constraint and no elastic tetrahedron joins two
     * particles of one color: red-black (2 colors) on 4-neighbour lattices (seed 001 algorithm 7), greedy on
     * any other body. Per-particle solvers (Projective Dynamics) update one color in parallel.
     */
    public Coloring particleColoring() {
        return particleColoring;
    }

    public List<ModelObject> objects() {
        return objects;
    }

    public ModelObject object(String name) {
        for (ModelObject o : objects) {
            if (o.name().equals(name)) {
                return o;
            }
        }
        throw new IllegalArgumentException("no object named " + name);
    }

    /** Total mass of the free particles in kg. */
    public double totalFreeMass() {
        double m = 0;
        for (float w : invMass) {
            if (w > 0f) {
                m += 1.0 / w;
            }
        }
        return m;
    }
}
