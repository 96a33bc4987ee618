package dev.weft.core.model;

import dev.weft.core.InvalidInputException;
import dev.weft.core.coloring.Coloring;
import dev.weft.core.coloring.GreedyColoring;
import dev.weft.core.coloring.LatticeColoring.EdgeDirection;
import dev.weft.core.coloring.LatticeColoring;
import dev.weft.core.coloring.ParticleColoring;
import dev.weft.core.geom.DihedralAngle;
import dev.weft.core.mesh.MeshTopology;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.util.FloatList;
import dev.weft.core.util.IntList;
import java.util.ArrayList;
import java.util.List;

/**
 * Assembles a {@link Model} from bodies (grid cloths, triangle-mesh cloths, ropes), pins and options,
 * then derives the constraint sets and their colorings. Not thread-safe; use once.
 */
public final class ModelBuilder {
    /** Tether every free particle to every pinned particle when there are at most this many pins. */
    private static final int TETHER_ALL_PINS_LIMIT = 8;
    /** The distance-color mark of a seam: colored after every body's own constraints. */
    private static final int SEAM = -2;

    private final FloatList positions = new FloatList(1024);
    private final FloatList uvs = new FloatList(1024);
    private final FloatList mass = new FloatList(512);
    private final IntList triangles = new IntList(1024);
    private final IntList distPairs = new IntList(1024);
    private final FloatList distRest = new FloatList(512);
    private final IntList distKind = new IntList(512);
    /** Lattice color per distance constraint, or −1 where greedy coloring decides, {@link #SEAM} for a seam. */
    private final IntList distLatticeColor = new IntList(512);
    /** Per distance constraint, an index into {@link #ownMaterials} or −1 for its bodies' materials. */
    private final IntList distOwnMaterial = new IntList(512);
    /** The materials constraint sets have of their own (a seam's thread). */
    private final List<Material> ownMaterials = new ArrayList<>();
    private final IntList bendStencils = new IntList(1024);
    /** Per bending stencil, {@link BendingConstraints#DIHEDRAL} or {@link BendingConstraints#ISOMETRIC}. */
    private final IntList bendModels = new IntList(256);
    /** Soft bodies' tetrahedra (four particles each, positively oriented), rest volumes, D_m⁻¹ and Lamé's μ, λ. */
    private final IntList tetParticles = new IntList();
    private final FloatList tetRestVolume = new FloatList();
    private final FloatList tetRestInverse = new FloatList();
    private final FloatList tetShearModulus = new FloatList();
    private final FloatList tetLameLambda = new FloatList();
    /** Soft bodies' drawn surfaces embedded in their tetrahedra. */
    private final List<Skin> skins = new ArrayList<>();
    /**
     * Per body, the lattice spacing of a skinned soft body (0 for others): its drawn surface lies up to about
     * that far outside its particles, so a material of no thickness gets that thickness at build.
     */
    private final FloatList skinDepth = new FloatList();
    /** Red-black color per particle of a 4-neighbour lattice, or −1 where greedy particle coloring decides. */
    private final IntList particleLatticeColor = new IntList(512);
    private final List<ModelObject> objects = new ArrayList<>();
    /** Per object: true when its rest shape is flat and convex, so Euclidean distance is geodesic. */
    private final List<Boolean> flatConvex = new ArrayList<>();
    private final IntList pins = new IntList();
    /** Per object: what it is made of. */
    private final List<Material> materials = new ArrayList<>();
    /** Per object: true when its particles' masses come from its triangles' areas and its density. */
    private final List<Boolean> areaMass = new ArrayList<>();
    /** The material of bodies added from now on. */
    private Material material = Material.cloth();
    private SpringLayout springLayout = SpringLayout.STENCIL_24;
    private boolean tethers = true;
    private boolean bending = true;
    private BendingModel bendingModel = BendingModel.DIHEDRAL;

    /** Long-range attachments to pinned particles (on by default). */
    public ModelBuilder tethers(boolean enabled) {
        this.tethers = enabled;
        return this;
    }

    /**
     * Bending (on by default): on cloths as {@link #bendingModel} says (dihedral constraints across
     * edges by default), second-neighbour springs on ropes.
     */
    public ModelBuilder bending(boolean enabled) {
        this.bending = enabled;
        return this;
    }

    /**
     * How cloths added after this call bend ({@link BendingModel#DIHEDRAL} by default); ropes always
     * use second-neighbour distance springs. With {@link BendingModel#DISTANCE} a cloth gets distance
     * constraints of kind {@link DistanceKind#BEND} instead of dihedral stencils, made when the body
     * is added, so {@link #bending(boolean) bending(false)} must come before it (as for ropes). On a
     * grid its colored passes end with the stretch edges ({@link LatticeColoring#stretchLastColor}).
     * {@link BendingModel#ISOMETRIC} uses the dihedral model's stencils and coloring, with Bergou et al.'s
     * constant weights; {@link #build} refuses it on a body whose rest shape is not flat.
     */
    public ModelBuilder bendingModel(BendingModel model) {
        if (model == null) {
            throw new InvalidInputException("bendingModel", "must be one of dihedral, distance, isometric");
        }
        this.bendingModel = model;
        return this;
    }

    /**
     * The material of the bodies added after this call ({@link Material#cloth()} until then); {@link
     * #material(ModelObject, Material)} changes one body's.
     */
    public ModelBuilder material(Material m) {
        if (m == null) {
            throw new InvalidInputException("material", "is required");
        }
        this.material = m;
        return this;
    }

    /**
     * Which particle pairs the spring solvers (implicit, mass-spring) join by springs ({@link
     * Model#springs()}); seed 000's {@link SpringLayout#STENCIL_24} by default. The position-based solvers
     * use the model's constraints ({@link #bendingModel}); {@link SpringLayout#PATTERN_12} on a grid with
     * distance bending is the same set of pairs.
     */
    public ModelBuilder springLayout(SpringLayout layout) {
        if (layout == null) {
            throw new InvalidInputException("springs", "must be stencil24, pattern12 or mesh");
        }
        this.springLayout = layout;
        return this;
    }

    /** Makes {@code body} of {@code m}. */
    public ModelBuilder material(ModelObject body, Material m) {
        if (m == null) {
            throw new InvalidInputException(body.name() + ".material", "is required");
        }
        materials.set(indexOf(body, "material"), m);
        return this;
    }

    /** The material {@code body} has so far. */
    public Material materialOf(ModelObject body) {
        return materials.get(indexOf(body, "material"));
    }

    /**
     * Lets {@code body} tear (seed 001 §5.3.7): a stretch or shear constraint of it longer than
     * (1 + {@code strain}) times its rest length breaks after a frame, and the surface separates there
     * ({@link dev.weft.core.interact.Tearing}). Woven cloth tears somewhere near 0.3; a strain a solver's
     * iterations leave in a cloth under load (a few percent) must stay below it. A tetrahedral body tears where
     * a tetrahedron's largest principal stretch passes 1 + {@code strain} ({@link
     * dev.weft.core.interact.TetTearing}). Sets the tear strain of the body's {@link Material}.
     */
    public ModelBuilder tearStrain(ModelObject body, float strain) {
        int o = indexOf(body, "tearStrain");
        if (!(strain > 0f)) {
            throw new InvalidInputException(body.name() + ".tearStrain", "must be a number > 0 (0.3: tears at 30 % "
                    + "stretch; infinity: never), got " + strain);
        }
        materials.set(o, materials.get(o).withTearStrain(strain));
        return this;
    }

    private int indexOf(ModelObject body, String parameter) {
        int o = objects.indexOf(body);
        if (o < 0) {
            throw new InvalidInputException(parameter, "'" + body.name() + "' is not a body of this builder");
        }
        return o;
    }

    public ModelObject addGridCloth(GridClothSpec s) {
        return addGrid(s, true);
    }

    private ModelObject addGrid(GridClothSpec s, boolean withBending) {
        checkName(s.name());
        int first = particleCount();
        int cols = s.cols();
        int rows = s.rows();
        float dx = s.width() / (cols - 1);
        float dy = s.height() / (rows - 1);
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                float a = c * dx;
                float b = r * dy;
                positions.add(s.origin()[0] + a * s.u()[0] + b * s.v()[0],
                        s.origin()[1] + a * s.u()[1] + b * s.v()[1],
                        s.origin()[2] + a * s.u()[2] + b * s.v()[2]);
                // u along a row; v from 1 at the first row (the "top" edge) to 0 at the last, OBJ's convention
                // (v up an image): an image drawn or exported onto the cloth stands upright, its top at "top"
                uvs.add((float) c / (cols - 1));
                uvs.add(1f - (float) r / (rows - 1));
                mass.add(0f);
                // Without shear diagonals the particle graph is bipartite: red-black by (row + col) parity.
                particleLatticeColor.add(s.shear() ? -1 : (r + c) & 1);
            }
        }
        int firstTriangle = triangleCount();
        int[] localTris = new int[(rows - 1) * (cols - 1) * 6];
        int t = 0;
        for (int r = 0; r + 1 < rows; r++) {
            for (int c = 0; c + 1 < cols; c++) {
                int p00 = r * cols + c;
                int p01 = p00 + 1;
                int p10 = p00 + cols;
                int p11 = p10 + 1;
                localTris[t++] = p00;
                localTris[t++] = p10;
                localTris[t++] = p11;
                localTris[t++] = p00;
                localTris[t++] = p11;
                localTris[t++] = p01;
            }
        }
        addTriangles(first, localTris);
        // Rest lengths are the float32 distances between the stored rest positions, computed as the
        // solvers compute a length, not the nominal spacing: then a cloth in its rest shape has exactly
        // zero constraint error wherever it is placed. The spacing differs from them by an ulp or so,
        // and those sub-ulp corrections, rounded unequally at the two ends, once made an undamped
        // resting cloth creep (0.2 mm in 2 s) and changed its momentum.
        // Row-major (lexicographic) creation order: the "natural" order of sequential Gauss-Seidel.
        // Distance bending adds the skip springs (r, c)-(r, c+2) and (r, c)-(r+2, c) and orders the
        // colored passes so that the stretch edges come last (LatticeColoring.stretchLastColor).
        boolean skipSprings = withBending && bending && bendingModel == BendingModel.DISTANCE;
        if (withBending && bending && !skipSprings && !s.shear()) {
            // Each dihedral stencil spans a quad's diagonal, and without shear constraints nothing holds
            // it: the quads shear into slivers that invert, and projecting angles measured on them adds
            // energy without bound (a free undamped 3 x 5 cloth: 15,000 times its kinetic energy in 5 s).
            throw new InvalidInputException(s.name() + ".shear", bendingModel.name().toLowerCase(java.util.Locale.ROOT)
                    + " bending needs the shear constraints "
                    + "that hold each quad's diagonal; give the grid shear (withShear(true)), bend by distance "
                    + "(bendingModel(DISTANCE)) or turn bending off (bending(false))");
        }
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                int p = first + r * cols + c;
                if (c + 1 < cols) {
                    addGridEdge(p, p + 1, DistanceKind.STRETCH, EdgeDirection.HORIZONTAL, r, c, skipSprings);
                }
                if (r + 1 < rows) {
                    addGridEdge(p, p + cols, DistanceKind.STRETCH, EdgeDirection.VERTICAL, r, c, skipSprings);
                }
                if (s.shear() && r + 1 < rows && c + 1 < cols) {
                    addGridEdge(p, p + cols + 1, DistanceKind.SHEAR, EdgeDirection.DIAGONAL, r, c, skipSprings);
                    addGridEdge(p + 1, p + cols, DistanceKind.SHEAR, EdgeDirection.ANTI_DIAGONAL, r, c, skipSprings);
                }
                if (skipSprings && c + 2 < cols) {
                    addGridEdge(p, p + 2, DistanceKind.BEND, EdgeDirection.SKIP_HORIZONTAL, r, c, true);
                }
                if (skipSprings && r + 2 < rows) {
                    addGridEdge(p, p + 2 * cols, DistanceKind.BEND, EdgeDirection.SKIP_VERTICAL, r, c, true);
                }
            }
        }
        if (withBending && !skipSprings) {
            addBendingStencils(first, cols * rows, localTris);
        }
        return addObject(new ModelObject(s.name(), ModelObject.Type.GRID_CLOTH, first, cols * rows,
                firstTriangle, localTris.length / 3, cols, rows), true);
    }

    /**
     * Seed 001's 4-neighbour lattice ({@link QuadLatticeSpec}): equal particle masses, one structural
     * spring to each of the 4 neighbours, no shear and no bending constraints; red-black colored.
     * Its triangles are there for rendering and export only. Pins by corner or edge name work as on a
     * grid cloth.
     */
    public ModelObject addQuadLattice(QuadLatticeSpec spec) {
        ModelObject body = addGrid(spec.asGrid(), false);
        for (int i = body.firstParticle(); i < body.firstParticle() + body.particleCount(); i++) {
            mass.set(i, spec.particleMass());
        }
        areaMass.set(objects.indexOf(body), false); // the seed's equal masses, not its triangles'
        return body;
    }

    /**
     * A cloth from a triangle mesh (as loaded by {@code ObjReader}): edges become stretch constraints; its
     * mass is its material's density times its area.
     */
    public ModelObject addMeshCloth(String name, TriangleMesh mesh) {
        checkName(name);
        int first = particleCount();
        int n = mesh.vertexCount();
        float[] p = mesh.positions();
        float[] uv = mesh.uvs();
        for (int i = 0; i < n; i++) {
            positions.add(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
            uvs.add(uv == null ? 0f : uv[2 * i]);
            uvs.add(uv == null ? 0f : uv[2 * i + 1]);
            mass.add(0f);
            particleLatticeColor.add(-1);
        }
        int firstTriangle = triangleCount();
        addTriangles(first, mesh.triangles());
        MeshTopology topology = MeshTopology.of(n, mesh.triangles());
        int[] edges = topology.edges();
        for (int e = 0; e < edges.length; e += 2) {
            int a = first + edges[e];
            int b = first + edges[e + 1];
            addDistance(a, b, distance(a, b), DistanceKind.STRETCH, -1);
        }
        if (bending && bendingModel == BendingModel.DISTANCE) {
            addOppositeVertexSprings(first, edges, topology.bendingStencils());
        } else {
            addStencils(first, topology.bendingStencils());
        }
        return addObject(new ModelObject(name, ModelObject.Type.MESH_CLOTH, first, n, firstTriangle,
                mesh.triangleCount(), 0, 0), false);
    }

    public ModelObject addRope(RopeSpec s) {
        checkName(s.name());
        int first = particleCount();
        int n = s.particles();
        float[] line = s.polyline();
        float total = s.length();
        float spacing = total / (n - 1);
        // Walk the polyline and drop a particle every `spacing` metres of arc length.
        int seg = 0;
        float segStart = 0f;
        for (int i = 0; i < n; i++) {
            float target = Math.min(i * spacing, total);
            float segLen = segmentLength(line, seg);
            while (target > segStart + segLen && seg + 1 < line.length / 3 - 1) {
                segStart += segLen;
                seg++;
                segLen = segmentLength(line, seg);
            }
            float t = segLen > 0f ? Math.min(1f, (target - segStart) / segLen) : 0f;
            int a = 3 * seg;
            positions.add(line[a] + t * (line[a + 3] - line[a]), line[a + 1] + t * (line[a + 4] - line[a + 1]),
                    line[a + 2] + t * (line[a + 5] - line[a + 2]));
            uvs.add((float) i / (n - 1));
            uvs.add(0f);
            mass.add(s.massPerLength() * spacing * (i == 0 || i == n - 1 ? 0.5f : 1f));
            particleLatticeColor.add(-1);
        }
        for (int i = 0; i + 1 < n; i++) {
            addDistance(first + i, first + i + 1, distance(first + i, first + i + 1), DistanceKind.STRETCH, -1);
        }
        // A rope has no triangles to fold: it bends through second-neighbour distance springs.
        for (int i = 0; bending && i + 2 < n; i++) {
            addDistance(first + i, first + i + 2, distance(first + i, first + i + 2), DistanceKind.BEND, -1);
        }
        return addObject(new ModelObject(s.name(), ModelObject.Type.ROPE, first, n, triangleCount(), 0, 0, 0), false);
    }

    /**
     * A volumetric soft body voxelized from a closed mesh ({@link VoxelBodySpec}, seed 001 §5.3.1). Its
     * axis neighbours are stretch constraints (colored by axis and parity, 6 colors, and its particles
     * red-black by (x + y + z) mod 2, as the seed's); with diagonals, the face and body diagonals are
     * shear constraints and everything is colored greedily. Its surface, for drawing and export, is
     * the boundary of the voxel cells whose eight corners are all particles (two triangles per face,
     * wound outwards): the particles themselves, so it moves with them.
     */
    public ModelObject addVoxelBody(VoxelBodySpec s) {
        checkName(s.name());
        VoxelLattice v = VoxelLattice.of(s);
        int first = particleCount();
        float h = v.h;
        float m = s.density() * h * h * h;
        for (int p = 0; p < v.count; p++) {
            int i = v.cell[3 * p];
            int j = v.cell[3 * p + 1];
            int k = v.cell[3 * p + 2];
            positions.add(v.x0 + i * h, v.y0 + j * h, v.z0 + k * h);
            uvs.add(0f);
            uvs.add(0f);
            mass.add(m);
            particleLatticeColor.add(s.diagonals() ? -1 : (i + j + k) % 2);
        }
        for (int p = 0; p < v.count; p++) {
            int i = v.cell[3 * p];
            int j = v.cell[3 * p + 1];
            int k = v.cell[3 * p + 2];
            for (int axis = 0; axis < 3; axis++) {
                int q = v.at(i + (axis == 0 ? 1 : 0), j + (axis == 1 ? 1 : 0), k + (axis == 2 ? 1 : 0));
                if (q >= 0) {
                    // along an axis, two edges at a particle differ in that coordinate's parity
                    int parity = axis == 0 ? i : axis == 1 ? j : k;
                    addDistance(first + p, first + q, distance(first + p, first + q), DistanceKind.STRETCH,
                            s.diagonals() ? -1 : 2 * axis + (parity & 1));
                }
            }
            if (s.diagonals()) {
                for (int[] d : VOXEL_DIAGONALS) {
                    int q = v.at(i + d[0], j + d[1], k + d[2]);
                    if (q >= 0) {
                        addDistance(first + p, first + q, distance(first + p, first + q), DistanceKind.SHEAR, -1);
                    }
                }
            }
        }
        if (s.volume()) {
            IntList cells = TetBodySpec.latticeTetrahedra(v, first, true);
            for (int t = 0; t < cells.size(); t += 4) {
                addTetrahedron(cells.get(t), cells.get(t + 1), cells.get(t + 2), cells.get(t + 3), 0f,
                        Float.POSITIVE_INFINITY, null, -1);
            }
        }
        int firstTriangle = triangleCount();
        addTriangles(first, voxelSurface(v));
        ModelObject body = addObject(new ModelObject(s.name(), ModelObject.Type.VOXEL_BODY, first, v.count,
                firstTriangle, triangleCount() - firstTriangle, 0, 0), false);
        areaMass.set(objects.size() - 1, false); // density × voxel volume, not a cloth's area
        IntList lattice = TetBodySpec.latticeTetrahedra(v, first, false);
        if (lattice.size() > 0) {
            // drawn as the mesh it was made from, embedded in the tetrahedra between its voxels
            skins.add(SkinEmbedding.embed(objects.size() - 1, positions.toArray(), lattice.toArray(), s.surface(),
                    v.h));
            skinDepth.set(objects.size() - 1, v.h);
        }
        return body;
    }

    /**
     * An elastic solid of tetrahedra ({@link TetBodySpec}, {@link TetConstraints}): a particle per node with a
     * quarter of ρ V₀ of each tetrahedron it is a corner of; its surface is the faces that belong to one
     * tetrahedron only, wound outwards. It has no distance constraints: only the position-based solvers
     * (xpbd, pbd) and pd simulate it, and the others refuse it by name. With a tear strain ({@link #tearStrain})
     * it tears: a split of a node ({@link ModelEdit.Split}) divides its tetrahedra ({@link TetSplitter}).
     */
    public ModelObject addTetBody(TetBodySpec s) {
        checkName(s.name());
        int first = particleCount();
        int n = s.nodeCount();
        float[] x = s.nodes();
        for (int p = 0; p < n; p++) {
            positions.add(x[3 * p], x[3 * p + 1], x[3 * p + 2]);
            uvs.add(0f);
            uvs.add(0f);
            mass.add(0f);
            particleLatticeColor.add(-1);
        }
        float mu = s.elasticity().shearModulus();
        float lambda = s.elasticity().lameLambda();
        int[] t = s.tets();
        int firstTet = tetParticles.size() / 4;
        for (int c = 0; c < t.length / 4; c++) {
            addTetrahedron(first + t[4 * c], first + t[4 * c + 1], first + t[4 * c + 2], first + t[4 * c + 3], mu,
                    lambda, s, c);
        }
        for (int c = firstTet; c < tetParticles.size() / 4; c++) {
            float quarter = s.density() * tetRestVolume.get(c) / 4f;
            for (int k = 0; k < 4; k++) {
                int p = tetParticles.get(4 * c + k);
                mass.set(p, mass.get(p) + quarter);
            }
        }
        for (int p = 0; p < n; p++) {
            if (!(mass.get(first + p) > 0f)) {
                throw new InvalidInputException(s.name() + ".nodes", "node " + p + " is a corner of no tetrahedron "
                        + "(every node needs a mass)");
            }
        }
        int firstTriangle = triangleCount();
        addTriangles(first, TetSurface.of(t, x));
        ModelObject body = addObject(new ModelObject(s.name(), ModelObject.Type.TET_BODY, first, n,
                firstTriangle, triangleCount() - firstTriangle, 0, 0), false);
        areaMass.set(objects.size() - 1, false); // density × tetrahedra's volume, not a cloth's area
        if (s.skin() != null) {
            int[] global = java.util.Arrays.copyOfRange(tetParticles.toArray(), 4 * firstTet, tetParticles.size());
            float spacing = TetConstraints.meanShortestEdge(global, positions.toArray());
            skins.add(SkinEmbedding.embed(objects.size() - 1, positions.toArray(), global, s.skin(), spacing));
            skinDepth.set(objects.size() - 1, spacing);
        }
        return body;
    }

    /**
     * The bodies' materials, a skinned soft body's of thickness 0 given its lattice spacing as thickness: its
     * particles (voxel centres) then keep half a voxel off colliders and a voxel from each other, where its
     * drawn surface (the voxels' outside) touches.
     */
    private Material[] skinnedMaterials() {
        Material[] out = materials.toArray(new Material[0]);
        for (int o = 0; o < out.length; o++) {
            if (skinDepth.get(o) > 0f && out[o].thickness() == 0f) {
                out[o] = out[o].withThickness(skinDepth.get(o));
            }
        }
        return out;
    }

    /**
     * One tetrahedron, stored positively oriented, with its rest volume and D_m⁻¹ (in double, then
     * rounded). {@code spec} names the body for an error about a flat tetrahedron (null: a voxel cell's).
     */
    private void addTetrahedron(int a, int b, int c, int d, float mu, float lambda, TetBodySpec spec, int index) {
        double[] m = new double[9];
        int[] corner = {b, c, d};
        for (int col = 0; col < 3; col++) {
            for (int row = 0; row < 3; row++) {
                m[3 * row + col] = (double) positions.get(3 * corner[col] + row) - positions.get(3 * a + row);
            }
        }
        double det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
                + m[2] * (m[3] * m[7] - m[4] * m[6]);
        double scale = 0;
        for (double e : m) {
            scale = Math.max(scale, Math.abs(e));
        }
        if (!(Math.abs(det) > 1e-9 * scale * scale * scale)) {
            throw new InvalidInputException(spec == null ? "tetrahedra" : spec.name() + ".tets", "tetrahedron "
                    + index + " is flat (its four nodes lie in a plane): every tetrahedron needs a volume");
        }
        if (det < 0) {
            // swap the last two corners: the same tetrahedron, positively oriented
            int swap = c;
            c = d;
            d = swap;
            for (int row = 0; row < 3; row++) {
                double e = m[3 * row + 1];
                m[3 * row + 1] = m[3 * row + 2];
                m[3 * row + 2] = e;
            }
            det = -det;
        }
        tetParticles.add(a, b);
        tetParticles.add(c, d);
        tetRestVolume.add((float) (det / 6.0));
        // D_m⁻¹ = adj(D_m) / det, row by row
        double[] inv = {
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3]};
        for (double e : inv) {
            tetRestInverse.add((float) (e / det));
        }
        tetShearModulus.add(mu);
        tetLameLambda.add(lambda);
    }

    /** Half the 12 face diagonals and half the 8 body diagonals of a voxel: each pair once. */
    private static final int[][] VOXEL_DIAGONALS = {
        {1, 1, 0}, {1, -1, 0}, {0, 1, 1}, {0, 1, -1}, {1, 0, 1}, {1, 0, -1},
        {1, 1, 1}, {1, 1, -1}, {1, -1, 1}, {1, -1, -1}};

    /** Corners (di, dj, dk) of each face of a cell, counter-clockwise seen from outside: -x, +x, -y, +y, -z, +z. */
    private static final int[][][] CELL_FACES = {
        {{0, 0, 0}, {0, 0, 1}, {0, 1, 1}, {0, 1, 0}},
        {{1, 0, 0}, {1, 1, 0}, {1, 1, 1}, {1, 0, 1}},
        {{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}},
        {{0, 1, 0}, {0, 1, 1}, {1, 1, 1}, {1, 1, 0}},
        {{0, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, 0, 0}},
        {{0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}}};

    /** The faces of full cells (eight particle corners) not shared with another full cell, as local triangles. */
    private static int[] voxelSurface(VoxelLattice v) {
        IntList out = new IntList();
        int[] corner = new int[4];
        for (int k = 0; k + 1 < v.nz; k++) {
            for (int j = 0; j + 1 < v.ny; j++) {
                for (int i = 0; i + 1 < v.nx; i++) {
                    if (!v.fullCell(i, j, k)) {
                        continue;
                    }
                    for (int f = 0; f < 6; f++) {
                        int axis = f / 2;
                        int step = (f & 1) == 0 ? -1 : 1;
                        if (v.fullCell(i + (axis == 0 ? step : 0), j + (axis == 1 ? step : 0),
                                k + (axis == 2 ? step : 0))) {
                            continue;
                        }
                        for (int c = 0; c < 4; c++) {
                            int[] d = CELL_FACES[f][c];
                            corner[c] = v.at(i + d[0], j + d[1], k + d[2]);
                        }
                        out.add(corner[0], corner[1]);
                        out.add(corner[2], corner[0]);
                        out.add(corner[2], corner[3]);
                    }
                }
            }
        }
        return out.toArray();
    }

    /** Pins a particle by its global index. */
    public ModelBuilder pin(int particle) {
        if (particle < 0 || particle >= particleCount()) {
            throw new InvalidInputException("pin", "particle index " + particle + " is outside 0.."
                    + (particleCount() - 1));
        }
        pins.add(particle);
        return this;
    }

    /** Pins particles of one body by their index within that body. */
    public ModelBuilder pinIndices(ModelObject body, int... local) {
        for (int i : local) {
            if (i < 0 || i >= body.particleCount()) {
                throw new InvalidInputException(body.name() + ".pins", "index " + i + " is outside 0.."
                        + (body.particleCount() - 1));
            }
            pins.add(body.firstParticle() + i);
        }
        return this;
    }

    /**
     * Pins every particle of {@code body} whose rest position lies in the axis-aligned box [min, max]
     * (bounds included); returns how many it pinned. A box that holds none of the body is an error: it
     * is a mistake in a scene, not a wish for a free cloth.
     */
    public int pinInBox(ModelObject body, float[] min, float[] max) {
        int pinned = 0;
        for (int i = body.firstParticle(); i < body.firstParticle() + body.particleCount(); i++) {
            boolean inside = true;
            for (int k = 0; k < 3; k++) {
                float p = positions.get(3 * i + k);
                inside &= p >= min[k] && p <= max[k];
            }
            if (inside) {
                pins.add(i);
                pinned++;
            }
        }
        if (pinned == 0) {
            throw new InvalidInputException(body.name() + ".pins.box", "holds none of the body's particles");
        }
        return pinned;
    }

    /** Pins grid corners by name: top-left, top-right, bottom-left, bottom-right. */
    public ModelBuilder pinCorners(ModelObject grid, String... corners) {
        requireGrid(grid);
        int last = grid.gridCols() - 1;
        int bottom = grid.gridRows() - 1;
        for (String corner : corners) {
            switch (corner) {
                case "top-left": pins.add(grid.gridParticle(0, 0)); break;
                case "top-right": pins.add(grid.gridParticle(0, last)); break;
                case "bottom-left": pins.add(grid.gridParticle(bottom, 0)); break;
                case "bottom-right": pins.add(grid.gridParticle(bottom, last)); break;
                default:
                    throw new InvalidInputException(grid.name() + ".pins", "unknown corner '" + corner
                            + "'; allowed: top-left, top-right, bottom-left, bottom-right");
            }
        }
        return this;
    }

    /** Pins a whole grid edge by name: top, bottom, left, right. */
    public ModelBuilder pinEdge(ModelObject grid, String edge) {
        requireGrid(grid);
        int cols = grid.gridCols();
        int rows = grid.gridRows();
        switch (edge) {
            case "top": for (int c = 0; c < cols; c++) { pins.add(grid.gridParticle(0, c)); } break;
            case "bottom": for (int c = 0; c < cols; c++) { pins.add(grid.gridParticle(rows - 1, c)); } break;
            case "left": for (int r = 0; r < rows; r++) { pins.add(grid.gridParticle(r, 0)); } break;
            case "right": for (int r = 0; r < rows; r++) { pins.add(grid.gridParticle(r, cols - 1)); } break;
            default:
                throw new InvalidInputException(grid.name() + ".pins", "unknown edge '" + edge
                        + "'; allowed: top, bottom, left, right");
        }
        return this;
    }

    /**
     * Sews grid {@code a}'s edge {@code edgeA} to grid {@code b}'s edge {@code edgeB} (top, bottom, left,
     * right; the same grid sews into a tube): particle k of one edge (left to right, top to bottom) to
     * particle k of the other, by a distance constraint of rest length 0 (seed 002's seams), which pulls
     * the seam closed while the cloth moves and then holds it as stiffly as the cloth's stretch. Only
     * particles {@code from} to {@code to − 1} along the edges are sewn (a poncho leaves the middle of its
     * shoulder seam open for the head).
     */
    public ModelBuilder sew(ModelObject a, String edgeA, ModelObject b, String edgeB, int from, int to) {
        return sew(a, edgeA, b, edgeB, from, to, null);
    }

    /**
     * {@link #sew(ModelObject, String, ModelObject, String, int, int)} with a thread of its own: the seam's
     * constraints take their stretch stiffness and strain damping from {@code thread} (an elastic seam, a
     * stiff binding) instead of the two bodies' materials in series; null: the bodies'. The bodies'
     * material changes ({@link Model#withMaterial}) leave a seam's own material as it is.
     */
    public ModelBuilder sew(ModelObject a, String edgeA, ModelObject b, String edgeB, int from, int to,
                            Material thread) {
        int[] ea = edge(a, edgeA);
        int[] eb = edge(b, edgeB);
        if (ea.length != eb.length) {
            throw new InvalidInputException("seam", a.name() + "." + edgeA + " has " + ea.length + " particles, "
                    + b.name() + "." + edgeB + " " + eb.length + ": a seam joins edges of equal length");
        }
        if (from < 0 || to > ea.length || from >= to) {
            throw new InvalidInputException("seam", "range " + from + ".." + to + " must lie within 0.." + ea.length
                    + " and hold at least one particle");
        }
        int own = -1;
        if (thread != null) {
            if (ownMaterials.size() == Short.MAX_VALUE) {
                throw new InvalidInputException("seam", "more than " + Short.MAX_VALUE + " seams with threads of "
                        + "their own: sew seams of one thread with one material");
            }
            own = ownMaterials.size();
            ownMaterials.add(thread);
        }
        for (int k = from; k < to; k++) {
            if (ea[k] != eb[k]) {
                addDistance(ea[k], eb[k], 0f, DistanceKind.STRETCH, SEAM);
                distOwnMaterial.set(distOwnMaterial.size() - 1, own);
            }
        }
        // a seam joins the bodies' particle graphs: their preset red-black colors no longer hold
        for (ModelObject body : new ModelObject[] {a, b}) {
            for (int i = body.firstParticle(); i < body.firstParticle() + body.particleCount(); i++) {
                particleLatticeColor.set(i, -1);
            }
        }
        return this;
    }

    /** {@link #sew(ModelObject, String, ModelObject, String, int, int)} along the whole edges. */
    public ModelBuilder sew(ModelObject a, String edgeA, ModelObject b, String edgeB) {
        return sew(a, edgeA, b, edgeB, 0, edge(a, edgeA).length);
    }

    private int[] edge(ModelObject grid, String edge) {
        requireGrid(grid);
        int cols = grid.gridCols();
        int rows = grid.gridRows();
        int[] out;
        switch (edge) {
            case "top":
            case "bottom":
                out = new int[cols];
                for (int c = 0; c < cols; c++) {
                    out[c] = grid.gridParticle("top".equals(edge) ? 0 : rows - 1, c);
                }
                return out;
            case "left":
            case "right":
                out = new int[rows];
                for (int r = 0; r < rows; r++) {
                    out[r] = grid.gridParticle(r, "left".equals(edge) ? 0 : cols - 1);
                }
                return out;
            default:
                throw new InvalidInputException(grid.name() + ".seam", "unknown edge '" + edge
                        + "'; allowed: top, bottom, left, right");
        }
    }

    public int particleCount() {
        return mass.size();
    }

    private int triangleCount() {
        return triangles.size() / 3;
    }

    public Model build() {
        int n = particleCount();
        if (n == 0) {
            throw new InvalidInputException("model", "has no particles: add a cloth, mesh or rope");
        }
        float[] x = positions.toArray();
        float[] invMass = new float[n];
        float[] masses = masses();
        float mean = meanPositive(masses);
        for (int i = 0; i < n; i++) {
            float m = masses[i];
            if (!(m > 0f)) {
                // A vertex no triangle touches (cannot happen for grids) gets the mean mass, not infinity.
                m = mean;
            }
            invMass[i] = 1f / m;
        }
        for (int k = 0; k < pins.size(); k++) {
            invMass[pins.get(k)] = 0f;
        }

        int[] pairs = distPairs.toArray();
        int dc = distRest.size();
        byte[] kinds = new byte[dc];
        for (int i = 0; i < dc; i++) {
            kinds[i] = (byte) distKind.get(i);
        }
        short[] own = null;
        if (!ownMaterials.isEmpty()) {
            own = new short[dc];
            for (int i = 0; i < dc; i++) {
                own[i] = (short) distOwnMaterial.get(i);
            }
        }
        DistanceConstraints distances = new DistanceConstraints(pairs, distRest.toArray(), kinds, own,
                ownMaterials.toArray(new Material[0]), colorDistances(pairs, n));

        int[] stencils = bending ? bendStencils.toArray() : new int[0];
        float[] restAngle = new float[stencils.length / 4];
        byte[] bendModel = new byte[restAngle.length];
        float[] weights = new float[4];
        float[] curvature = new float[3];
        for (int i = 0; i < restAngle.length; i++) {
            float a = DihedralAngle.compute(x, stencils[4 * i], stencils[4 * i + 1], stencils[4 * i + 2],
                    stencils[4 * i + 3], null);
            restAngle[i] = Float.isNaN(a) ? 0f : a;
            bendModel[i] = (byte) bendModels.get(i);
            if (bendModel[i] == BendingConstraints.ISOMETRIC) {
                restAngle[i] = isometricRestValue(x, stencils, i, restAngle[i], weights, curvature);
            }
        }
        BendingConstraints bendingSet = new BendingConstraints(stencils, restAngle, bendModel,
                GreedyColoring.of(stencils, 4, n));

        TetherConstraints tetherSet = tethers ? buildTethers(x, invMass, pairs) : emptyTethers();
        Coloring particleColoring = Coloring.fromColors(
                ParticleColoring.greedy(TetConstraints.withElasticEdges(pairs, tetParticles.toArray(),
                        tetShearModulus.toArray()), n, particleLatticeColor.toArray()));
        Model model = new Model(x, invMass, triangles.toArray(), uvs.toArray(), distances, bendingSet, tetherSet,
                objects, particleColoring, skinnedMaterials(), springLayout);
        if (model.tears()) {
            // what a tear reads (the scan, the edit), made with the model rather than at its first tear; an edit
            // carries the tear lengths to the model it makes, whose incidences the next tear's scan builds
            model.triangleIncidence();
            model.distanceIncidence();
            model.tearLengthsSquared();
        }
        return tetParticles.size() == 0 && skins.isEmpty() ? model
                : model.carryTets(new TetConstraints(tetParticles.toArray(), tetRestVolume.toArray(),
                tetRestInverse.toArray(), tetShearModulus.toArray(), tetLameLambda.toArray(), n), skins);
    }

    /**
     * The largest rest fold, in radians, across an edge of a body with isometric bending. Bergou et al.'s
     * model is quadratic about a flat rest shape: ‖Σ K_j x_j‖ holds every stencil flat, and a rest curvature
     * subtracted from it would either lose its sign (a bump and a dent of one size alike) or need the
     * stencil's current frame (no longer quadratic, no longer as cheap). A body cut flat passes; 1° leaves
     * room for float32 rounding (a 1 cm grid 1 km from the origin has rest folds of about 0.4°).
     */
    static final float ISOMETRIC_FLAT_TOLERANCE = (float) Math.toRadians(1.0);

    /**
     * The rest value ‖Σ K_j x̄_j‖ of isometric stencil i (float rounding of a flat stencil, subtracted so that
     * the rest shape is exactly at rest), refusing a stencil that is folded at rest.
     */
    private float isometricRestValue(float[] x, int[] stencils, int i, float restFold, float[] weights,
                                     float[] curvature) {
        int e0 = stencils[4 * i];
        int e1 = stencils[4 * i + 1];
        if (Math.abs(restFold) > ISOMETRIC_FLAT_TOLERANCE) {
            String body = objects.get(objectIndexOf(e0)).name();
            int first = objects.get(objectIndexOf(e0)).firstParticle();
            throw new InvalidInputException(body + ".bending", String.format(java.util.Locale.ROOT,
                    "is isometric, which needs a flat rest shape (Bergou et al. 2006), but the body is folded "
                    + "%.2f degrees at rest across its edge %d-%d; bend it with the dihedral model "
                    + "(bendingModel(DIHEDRAL), scene files: \"bending\": \"dihedral\"), which keeps any rest "
                    + "shape", Math.toDegrees(restFold), e0 - first, e1 - first));
        }
        dev.weft.core.geom.IsometricBending.weights(x, e0, e1, stencils[4 * i + 2], stencils[4 * i + 3], weights, 0);
        return dev.weft.core.geom.IsometricBending.curvature(x, null, e0, e1, stencils[4 * i + 2],
                stencils[4 * i + 3], weights, 0, curvature);
    }

    private int objectIndexOf(int particle) {
        for (int o = 0; o < objects.size(); o++) {
            ModelObject body = objects.get(o);
            if (particle >= body.firstParticle() && particle < body.firstParticle() + body.particleCount()) {
                return o;
            }
        }
        throw new IllegalStateException("particle " + particle + " belongs to no body");
    }

    private Coloring colorDistances(int[] pairs, int n) {
        int count = pairs.length / 2;
        // Bodies own disjoint particles, so per-body colorings merge by color index; seams join bodies,
        // so they get colors of their own after all of those.
        int[] greedyItems = new int[pairs.length];
        int[] seamItems = new int[pairs.length];
        boolean anyGreedy = false;
        boolean anySeam = false;
        for (int i = 0; i < count; i++) {
            int mark = distLatticeColor.get(i);
            boolean greedy = mark == -1;
            boolean seam = mark == SEAM;
            anyGreedy |= greedy;
            anySeam |= seam;
            greedyItems[2 * i] = greedy ? pairs[2 * i] : -1;
            greedyItems[2 * i + 1] = greedy ? pairs[2 * i + 1] : -1;
            seamItems[2 * i] = seam ? pairs[2 * i] : -1;
            seamItems[2 * i + 1] = seam ? pairs[2 * i + 1] : -1;
        }
        int[] greedyColors = anyGreedy ? GreedyColoring.colors(greedyItems, 2, n) : null;
        int[] colorOf = new int[count];
        int colors = 0;
        for (int i = 0; i < count; i++) {
            int mark = distLatticeColor.get(i);
            colorOf[i] = mark >= 0 ? mark : mark == -1 ? greedyColors[i] : 0;
            colors = Math.max(colors, mark == SEAM ? 0 : colorOf[i] + 1);
        }
        if (anySeam) {
            int[] seamColors = GreedyColoring.colors(seamItems, 2, n);
            for (int i = 0; i < count; i++) {
                if (distLatticeColor.get(i) == SEAM) {
                    colorOf[i] = colors + seamColors[i];
                }
            }
        }
        return Coloring.fromColors(colorOf);
    }

    private TetherConstraints buildTethers(float[] x, float[] invMass, int[] pairs) {
        IntList tetherPairs = new IntList();
        FloatList tetherLength = new FloatList();
        IntList tetherColor = new IntList();
        for (int o = 0; o < objects.size(); o++) {
            ModelObject body = objects.get(o);
            int first = body.firstParticle();
            int count = body.particleCount();
            IntList anchors = new IntList();
            for (int i = first; i < first + count; i++) {
                if (invMass[i] == 0f) {
                    anchors.add(i);
                }
            }
            if (anchors.size() == 0 || anchors.size() == count) {
                continue;
            }
            GeodesicDistances geodesic = new GeodesicDistances(x, pairs, first, count);
            int[] slot = new int[count];
            if (anchors.size() <= TETHER_ALL_PINS_LIMIT) {
                for (int k = 0; k < anchors.size(); k++) {
                    int anchor = anchors.get(k);
                    float[] dist = geodesic.from(new int[] {anchor});
                    for (int i = 0; i < count; i++) {
                        int p = first + i;
                        if (invMass[p] > 0f && Float.isFinite(dist[i])) {
                            float len = flatConvex.get(o) ? euclidean(x, p, anchor) : dist[i];
                            tetherPairs.add(p, anchor);
                            tetherLength.add(len);
                            tetherColor.add(slot[i]++);
                        }
                    }
                }
            } else {
                int[] nearest = new int[count];
                float[] dist = geodesic.nearest(anchors.toArray(), nearest);
                for (int i = 0; i < count; i++) {
                    int p = first + i;
                    if (invMass[p] > 0f && nearest[i] >= 0) {
                        float len = flatConvex.get(o) ? euclidean(x, p, nearest[i]) : dist[i];
                        tetherPairs.add(p, nearest[i]);
                        tetherLength.add(len);
                        tetherColor.add(0);
                    }
                }
            }
        }
        // Only the free particle of a tether is written, so the k-th tether of every particle shares color k.
        return new TetherConstraints(tetherPairs.toArray(), tetherLength.toArray(),
                Coloring.fromColors(tetherColor.toArray()));
    }

    private static TetherConstraints emptyTethers() {
        return new TetherConstraints(new int[0], new float[0], Coloring.fromColors(new int[0]));
    }

    private void addTriangles(int first, int[] local) {
        for (int t = 0; t < local.length; t += 3) {
            triangles.add(first + local[t]);
            triangles.add(first + local[t + 1]);
            triangles.add(first + local[t + 2]);
        }
    }

    /**
     * Particle masses: those given (ropes, seed 001's lattice), plus for every cloth body a third of each
     * triangle's area times the body's material density, summed in triangle order.
     */
    private float[] masses() {
        float[] m = mass.toArray();
        for (int o = 0; o < objects.size(); o++) {
            if (!areaMass.get(o)) {
                continue;
            }
            ModelObject body = objects.get(o);
            float density = materials.get(o).density();
            for (int t = body.firstTriangle(); t < body.firstTriangle() + body.triangleCount(); t++) {
                int a = triangles.get(3 * t);
                int b = triangles.get(3 * t + 1);
                int c = triangles.get(3 * t + 2);
                float third = triangleArea(a, b, c) * density / 3f;
                m[a] += third;
                m[b] += third;
                m[c] += third;
            }
        }
        return m;
    }

    private void addBendingStencils(int first, int vertexCount, int[] localTriangles) {
        addStencils(first, MeshTopology.of(vertexCount, localTriangles).bendingStencils());
    }

    /**
     * Distance bending on a triangle mesh: one spring between the two opposite vertices of each
     * bending stencil (e0, e1, o0, o1), unless they are already joined by an edge; colored greedily.
     */
    private void addOppositeVertexSprings(int first, int[] edges, int[] stencils) {
        java.util.Set<Long> joined = new java.util.HashSet<>();
        for (int e = 0; e < edges.length; e += 2) {
            joined.add(pairKey(edges[e], edges[e + 1]));
        }
        for (int s = 0; s < stencils.length; s += 4) {
            int o0 = stencils[s + 2];
            int o1 = stencils[s + 3];
            if (joined.add(pairKey(o0, o1))) {
                addDistance(first + o0, first + o1, distance(first + o0, first + o1), DistanceKind.BEND, -1);
            }
        }
    }

    private static long pairKey(int a, int b) {
        return ((long) Math.min(a, b) << 32) | Math.max(a, b);
    }

    private void addStencils(int first, int[] stencils) {
        for (int s : stencils) {
            bendStencils.add(first + s);
        }
        int model = bendingModel == BendingModel.ISOMETRIC ? BendingConstraints.ISOMETRIC : BendingConstraints.DIHEDRAL;
        for (int k = 0; k < stencils.length / 4; k++) {
            bendModels.add(model);
        }
    }

    private void addGridEdge(int a, int b, DistanceKind kind, EdgeDirection direction, int row, int col,
                             boolean stretchLast) {
        addDistance(a, b, distance(a, b), kind, stretchLast ? LatticeColoring.stretchLastColor(direction, row, col)
                : LatticeColoring.edgeColor(direction, row, col));
    }

    private void addDistance(int a, int b, float rest, DistanceKind kind, int latticeColor) {
        distPairs.add(a, b);
        distRest.add(rest);
        distKind.add(kind.code());
        distLatticeColor.add(latticeColor);
        distOwnMaterial.add(-1);
    }

    private ModelObject addObject(ModelObject o, boolean isFlatConvex) {
        areaMass.add(o.triangleCount() > 0);
        skinDepth.add(0f);
        objects.add(o);
        materials.add(material);
        flatConvex.add(isFlatConvex);
        return o;
    }

    private void checkName(String name) {
        if (name == null || name.isBlank()) {
            throw new InvalidInputException("name", "every body needs a non-empty name");
        }
        for (ModelObject o : objects) {
            if (o.name().equals(name)) {
                throw new InvalidInputException(name, "a body with this name already exists");
            }
        }
    }

    private static void requireGrid(ModelObject body) {
        if (!body.isGrid()) {
            throw new InvalidInputException(body.name() + ".pins",
                    "corner and edge names apply to grid cloths only; pin a mesh or rope by indices");
        }
    }

    private float distance(int a, int b) {
        float dx = positions.get(3 * b) - positions.get(3 * a);
        float dy = positions.get(3 * b + 1) - positions.get(3 * a + 1);
        float dz = positions.get(3 * b + 2) - positions.get(3 * a + 2);
        return (float) Math.sqrt(dx * dx + dy * dy + dz * dz);
    }

    private static float euclidean(float[] x, int a, int b) {
        float dx = x[3 * b] - x[3 * a];
        float dy = x[3 * b + 1] - x[3 * a + 1];
        float dz = x[3 * b + 2] - x[3 * a + 2];
        return (float) Math.sqrt(dx * dx + dy * dy + dz * dz);
    }

    private float triangleArea(int a, int b, int c) {
        float ux = positions.get(3 * b) - positions.get(3 * a);
        float uy = positions.get(3 * b + 1) - positions.get(3 * a + 1);
        float uz = positions.get(3 * b + 2) - positions.get(3 * a + 2);
        float vx = positions.get(3 * c) - positions.get(3 * a);
        float vy = positions.get(3 * c + 1) - positions.get(3 * a + 1);
        float vz = positions.get(3 * c + 2) - positions.get(3 * a + 2);
        float cx = uy * vz - uz * vy;
        float cy = uz * vx - ux * vz;
        float cz = ux * vy - uy * vx;
        return 0.5f * (float) Math.sqrt(cx * cx + cy * cy + cz * cz);
    }

    private static float segmentLength(float[] p, int seg) {
        int a = 3 * seg;
        float dx = p[a + 3] - p[a];
        float dy = p[a + 4] - p[a + 1];
        float dz = p[a + 5] - p[a + 2];
        return (float) Math.sqrt(dx * dx + dy * dy + dz * dz);
    }

    private static float meanPositive(float[] masses) {
        double sum = 0;
        int k = 0;
        for (float m : masses) {
            if (m > 0f) {
                sum += m;
                k++;
            }
        }
        return k == 0 ? 1f : (float) (sum / k);
    }
}
