package dev.weft.core.contact;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.CoulombFriction;
import dev.weft.core.collide.ParticleSurface;
import dev.weft.core.model.BendingConstraints;
import dev.weft.core.model.DistanceConstraints;
import dev.weft.core.model.DistanceKind;
import dev.weft.core.model.Model;
import dev.weft.core.model.TetConstraints;
import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.util.IntList;
import java.util.Arrays;

/**
 * Particle–particle contact within one cloth (self-collision) and between cloths, seed 001 §3.4 and
 * §5.3.5: particles closer than the contact distance are pushed apart along the line between them,
 * shared by inverse mass, with Coulomb friction on their relative motion over the step (§5.3.6, static
 * and kinetic). Once per step a {@link ParticleGrid} (cells of the search radius, 1.25 contact
 * distances) is rebuilt and each particle lists its candidate partners within that radius; the sweeps
 * then only walk the lists.
 *
 * <p>Pairs never in contact: particles joined by a constraint (distance, bending stencil, triangle)
 * and particles of one body already nearer than the contact distance in the rest shape.
 *
 * <p>Each sweep is Jacobi: every particle gathers the corrections of all its contacts from the same
 * positions (averaged over its contacts, which keeps stacks stable), then all move at once. A particle
 * writes only its own correction, in a fixed order (neighbour cells in a fixed order, each bucket
 * sorted by index), so results are bitwise identical for any thread count.
 *
 * <p>Friction and colliders: given the colliders ({@link #project(float[], float[], float[], Collider[],
 * WorkerPool)}), the contacts first run them once, so that a particle a collider holds (one the pass
 * moved, or one on a collider's surface) is where the collider's own friction puts it. Held and pinned
 * particles get support level 0, a particle in contact with a level-k one level k + 1 (Jacobi passes,
 * at most {@link #MAX_LEVEL}); of a pair on different levels the upper one removes the whole tangential
 * slip relative to the lower one, which does not give way, rather than its inverse-mass share. Without
 * this a cloth resting on a cloth on a slope crept with μ above tan θ: the lower particle took half of
 * the pair's correction and the collider pass after the contacts undid that half (XPBD: 23 mm in 1 s
 * with μ = 0.6 on 20°).
 *
 * <p>With {@link ParticleContactSettings#vertexTriangle()} the sweeps are followed by as many sweeps of
 * {@link VertexTriangleContacts} (particles kept half a contact distance off other triangles' faces).
 */
public final class ParticleContacts {
    /**
     * The most grid cells one triangle's bounds may cover in the vertex–triangle grid (cells of three contact
     * thicknesses): 256 × 256 cells, a triangle 18 m across at the default 2.3 cm. More means it has blown up
     * (an infinite coordinate saturates its cell to ±2³¹): it is left out of that step's grid rather than binned
     * into every cell up to the blow-up, the same on every backend.
     */
    public static final int MAX_TRIANGLE_CELLS = 1 << 16;
    /**
     * The most entries the vertex–triangle grid takes in one step (16M: half a GiB of arrays; a 256² cloth
     * needs about 1M); more is an error naming the blow-up.
     */
    public static final int MAX_GRID_ENTRIES = 1 << 24;
    /** Search radius over contact distance: particles that close in during the sweeps are still listed. */
    private static final float SEARCH_MARGIN = 1.25f;
    /**
     * Partner slots per particle. Particles held a contact distance apart have at most ~20 within 1.25
     * of it (dense packing); more are dropped and counted by {@link #overflowCount()}.
     */
    public static final int MAX_NEIGHBOURS = 32;

    private final ParticleContactSettings settings;
    private final float distance;
    private final int n;
    private final ParticleGrid grid;
    /** Excluded partners of particle i: excluded[excludedStart[i] .. excludedStart[i + 1]), ascending. */
    private final int[] excludedStart;
    private final int[] excluded;
    private final float[] correction;
    private final int[] contactsOf;
    /**
     * Candidates are searched once per step within this radius (a margin over the contact distance for
     * particles that approach during the sweeps) and listed per particle, MAX_NEIGHBOURS slots each.
     */
    private final float searchRadius;
    private final int[] neighbourCount;
    private final int[] neighbours;
    private final boolean[] overflow;
    /**
     * Particle i's support level this step: 0 where a collider or a pin holds it, k + 1 where a partner in
     * contact has level k, {@link #UNSUPPORTED} where no chain of contacts reaches a held particle within
     * {@link #MAX_LEVEL} steps. The next array is the Jacobi copy the level passes write.
     */
    private int[] level;
    private int[] nextLevel;
    private static final int MAX_LEVEL = 8;
    private static final int UNSUPPORTED = Integer.MAX_VALUE;
    /** Positions of a range before that collider pass, to see which particles it moved. */
    private final float[] beforeColliders;
    private Collider[] colliders = NO_COLLIDERS;
    private static final Collider[] NO_COLLIDERS = new Collider[0];
    /**
     * How close to a collider's thickness, in contact distances, a particle the collider pass did not
     * move still counts as held: float rounding of a projection, not a gap (10⁻⁴ d ≈ 3 µm on 3 cm cloth).
     */
    private static final float ON_SURFACE = 1e-4f;
    /** Vertex–triangle contacts, or null when the settings leave them off. */
    private final VertexTriangleContacts faces;

    private float[] x;
    private float[] prev;
    private float[] w;
    private final RangeBody searchBody = this::search;
    /**
     * Each particle's grip (μ of a pair × both) and offset (half its sheet's thickness: a pair keeps the larger
     * of the contact distance and their offsets' sum apart), from its body's material.
     */
    private final ParticleSurface surface;
    private final RangeBody gatherBody = this::gather;
    private final RangeBody applyBody = this::apply;
    private final RangeBody collideBody = this::collide;
    private final RangeBody levelBody = this::propagateLevels;

    public ParticleContacts(Model model, ParticleContactSettings settings) {
        this.settings = settings;
        this.n = model.particleCount();
        this.surface = ParticleSurface.of(model);
        float spacing = meanStretchLength(model);
        this.distance = settings.distanceFactor() * spacing;
        this.searchRadius = SEARCH_MARGIN * Math.max(distance, 2f * surface.maxOffset());
        this.grid = new ParticleGrid(n, searchRadius);
        this.neighbourCount = new int[n];
        this.neighbours = new int[MAX_NEIGHBOURS * n];
        this.overflow = new boolean[n];
        this.correction = new float[3 * n];
        this.contactsOf = new int[n];
        this.level = new int[n];
        this.nextLevel = new int[n];
        this.beforeColliders = new float[3 * n];
        IntList a = new IntList();
        IntList b = new IntList();
        DistanceConstraints d = model.distances();
        int[] pairs = d.particles();
        for (int c = 0; c < d.count(); c++) {
            a.add(pairs[2 * c]);
            b.add(pairs[2 * c + 1]);
        }
        BendingConstraints bend = model.bending();
        int[] st = bend.particles();
        for (int c = 0; c < bend.count(); c++) {
            for (int p = 0; p < 4; p++) {
                for (int q = p + 1; q < 4; q++) {
                    a.add(st[4 * c + p]);
                    b.add(st[4 * c + q]);
                }
            }
        }
        int[] tri = model.triangles();
        for (int t = 0; t + 2 < tri.length; t += 3) {
            a.add(tri[t]);
            b.add(tri[t + 1]);
            a.add(tri[t + 1]);
            b.add(tri[t + 2]);
            a.add(tri[t + 2]);
            b.add(tri[t]);
        }
        addRestNeighbours(model, a, b);
        // CSR, both directions, sorted and without duplicates
        int[] count = new int[n + 1];
        for (int k = 0; k < a.size(); k++) {
            count[a.get(k) + 1]++;
            count[b.get(k) + 1]++;
        }
        for (int i = 0; i < n; i++) {
            count[i + 1] += count[i];
        }
        int[] fill = Arrays.copyOf(count, n);
        int[] list = new int[count[n]];
        for (int k = 0; k < a.size(); k++) {
            list[fill[a.get(k)]++] = b.get(k);
            list[fill[b.get(k)]++] = a.get(k);
        }
        excludedStart = new int[n + 1];
        IntList out = new IntList(list.length);
        for (int i = 0; i < n; i++) {
            Arrays.sort(list, count[i], count[i + 1]);
            excludedStart[i] = out.size();
            for (int k = count[i]; k < count[i + 1]; k++) {
                if (k == count[i] || list[k] != list[k - 1]) {
                    out.add(list[k]);
                }
            }
        }
        excludedStart[n] = out.size();
        excluded = out.toArray();
        faces = settings.vertexTriangle() && model.triangleCount() > 0
                ? new VertexTriangleContacts(model, 0.5f * distance, this) : null;
    }

    /** The mean rest length of stretch constraints: the cloth's particle spacing. */
    private static float meanStretchLength(Model model) {
        DistanceConstraints d = model.distances();
        float[] rest = d.restLength();
        byte[] kind = d.kind();
        double sum = 0;
        int count = 0;
        for (int c = 0; c < d.count(); c++) {
            if (kind[c] == DistanceKind.STRETCH.ordinal()) {
                sum += rest[c];
                count++;
            }
        }
        if (count == 0 && model.tets().count() > 0) {
            // a model of tetrahedral bodies only: their lattice spacing, where the stretch constraints give a cloth's
            return TetConstraints.meanShortestEdge(model.tets().particles(), model.restPositions());
        }
        if (count == 0) {
            throw new InvalidInputException("selfCollision", "the model has no stretch constraints or tetrahedra "
                    + "to take the particle spacing from");
        }
        return (float) (sum / count);
    }

    /** Pairs of one body within the contact distance in the rest shape: they would push forever. */
    private void addRestNeighbours(Model model, IntList a, IntList b) {
        float[] rest = model.restPositions();
        // the body of each particle, copies made by splits included (they sit on their source at rest)
        int[] object = new int[n];
        for (int i = 0; i < n; i++) {
            object[i] = model.objectOf(i);
        }
        try (WorkerPool single = new WorkerPool(1)) {
            grid.build(rest, single);
        }
        int[] sorted = grid.sorted();
        for (int i = 0; i < n; i++) {
            int cx = grid.cellX(i);
            int cy = grid.cellY(i);
            int cz = grid.cellZ(i);
            for (int dz = -1; dz <= 1; dz++) {
                for (int dy = -1; dy <= 1; dy++) {
                    for (int dx = -1; dx <= 1; dx++) {
                        int bk = grid.bucket(cx + dx, cy + dy, cz + dz);
                        for (int k = grid.start(bk); k < grid.end(bk); k++) {
                            int j = sorted[k];
                            if (j <= i || object[j] != object[i] || grid.cellX(j) != cx + dx
                                    || grid.cellY(j) != cy + dy || grid.cellZ(j) != cz + dz) {
                                continue;
                            }
                            float ex = rest[3 * i] - rest[3 * j];
                            float ey = rest[3 * i + 1] - rest[3 * j + 1];
                            float ez = rest[3 * i + 2] - rest[3 * j + 2];
                            float dij = pairDistance(i, j);
                            if (ex * ex + ey * ey + ez * ez < dij * dij) {
                                a.add(i);
                                b.add(j);
                            }
                        }
                    }
                }
            }
        }
    }

    /** The distance particles i and j keep: the contact distance, or their offsets' sum where larger. */
    private float pairDistance(int i, int j) {
        return Math.max(distance, surface.offset(i) + surface.offset(j));
    }

    /** The contact distance in metres. */
    public float contactDistance() {
        return distance;
    }

    public ParticleContactSettings settings() {
        return settings;
    }

    /** The grid (for benchmarks). */
    public ParticleGrid grid() {
        return grid;
    }

    /** The radius candidates are listed within (the grid's cell size): a margin over the contact distance. */
    public float searchRadius() {
        return searchRadius;
    }

    /**
     * Where each particle's excluded partners begin in {@link #excludedPartners()}: particle i's are
     * {@code excludedPartners()[excludedStart()[i] .. excludedStart()[i + 1])}, ascending (a device backend
     * uploads both; do not modify).
     */
    public int[] excludedStart() {
        return excludedStart;
    }

    /** The excluded partners of every particle, see {@link #excludedStart()} (do not modify). */
    public int[] excludedPartners() {
        return excluded;
    }

    /** How far within a collider's thickness, in m, a particle the collider pass did not move still counts as held. */
    public float onSurfaceSlack() {
        return ON_SURFACE * distance;
    }

    /** Whether the pair (i, j) is excluded from contact. */
    public boolean excluded(int i, int j) {
        return Arrays.binarySearch(excluded, excludedStart[i], excludedStart[i + 1], j) >= 0;
    }

    /**
     * Separates particles closer than the contact distance: rebuilds the grid on {@code positions}, then
     * runs the configured Jacobi sweeps. {@code previous} holds the step's start positions (friction);
     * particles with zero inverse mass never move.
     */
    public void project(float[] positions, float[] previous, float[] invMass, WorkerPool pool) {
        project(positions, previous, invMass, NO_COLLIDERS, pool);
    }

    /**
     * As {@link #project(float[], float[], float[], WorkerPool)}, with the step's colliders run once
     * before the sweeps: a particle they hold counts as immovable for cloth–cloth friction (see the class
     * comment). The solver still runs its own collider pass after this, so that no particle ends the
     * step inside a collider.
     */
    public void project(float[] positions, float[] previous, float[] invMass, Collider[] stepColliders,
                        WorkerPool pool) {
        // candidates first: the collider pass moves particles by their penetration only, well within the
        // search margin, and knowing which particles have partners spares the others the surface test
        findCandidates(positions, pool);
        x = positions;
        prev = previous;
        w = invMass;
        if (settings.staticFriction() == 0f) {
            Arrays.fill(level, UNSUPPORTED); // frictionless: the levels decide nothing
        } else {
            colliders = stepColliders;
            pool.parallelFor(0, n, collideBody);
            colliders = NO_COLLIDERS;
            supportLevels(pool);
        }
        for (int it = 0; it < settings.iterations(); it++) {
            pool.parallelFor(0, n, gatherBody);
            pool.parallelFor(0, n, applyBody);
        }
        if (faces != null) {
            faces.project(positions, previous, invMass, settings.iterations(), pool);
        }
        x = null;
        prev = null;
        w = null;
    }

    /** Jacobi passes of {@link #propagateLevels} until nothing changes, at most {@link #MAX_LEVEL}. */
    private void supportLevels(WorkerPool pool) {
        for (int pass = 0; pass < MAX_LEVEL; pass++) {
            pool.parallelFor(0, n, levelBody);
            boolean changed = false;
            for (int i = 0; i < n && !changed; i++) {
                changed = nextLevel[i] != level[i];
            }
            int[] t = level;
            level = nextLevel;
            nextLevel = t;
            if (!changed) {
                break;
            }
        }
    }

    /**
     * Rebuilds the grid on {@code positions} and lists every particle's candidate partners (within the
     * search radius, not excluded). {@link #project} does this itself; a velocity-level solver calls it
     * before {@link #normalConstraint}.
     */
    public void findCandidates(float[] positions, WorkerPool pool) {
        x = positions;
        grid.build(positions, pool);
        pool.parallelFor(0, n, searchBody);
        x = null;
    }

    /**
     * The velocity-level form of particle i's contacts, for a solver that constrains directions of the
     * velocity (the implicit solver's filter S): its partners from the last {@link #findCandidates}
     * closer than {@code reach} contact distances, their unit normals (from partner to i) averaged into
     * one direction n, and the normal velocity i should have, the mean over its contacts of the pair's
     * centre-of-mass normal velocity (w_j v_i·n + w_i v_j·n)/(w_i + w_j) (an inelastic contact).
     * Writes n into out[0..2], the target into out[3], the mean velocity of those partners into
     * out[4..6] (for friction relative to them) and the contact's grip into out[7]: i's material friction
     * times its partners' mean (the product rule of {@link #project}; 1 where every body's is 1). {@code invMass} is the inverse mass as the
     * contact sees it: a solver passes 0 for a partner that another constraint holds (it acts as a wall).
     *
     * @return false where one direction does not describe the contacts: no contact, i pinned, partners on
     *         opposite sides (|Σ n_ij| below half the contact count: i is squeezed between layers), or
     *         i already moving away from them (mean relative normal speed above {@code separatingSpeed})
     */
    public boolean normalConstraint(int i, float[] positions, float[] velocities, float[] invMass, float reach,
                                    float separatingSpeed, double[] out) {
        float wi = invMass[i];
        if (wi == 0f) {
            return false;
        }
        int i3 = 3 * i;
        double sx = 0;
        double sy = 0;
        double sz = 0;
        int contacts = 0;
        for (int k = i * MAX_NEIGHBOURS, kEnd = k + neighbourCount[i]; k < kEnd; k++) {
            int j3 = 3 * neighbours[k];
            double ex = positions[i3] - positions[j3];
            double ey = positions[i3 + 1] - positions[j3 + 1];
            double ez = positions[i3 + 2] - positions[j3 + 2];
            double r2 = ex * ex + ey * ey + ez * ez;
            double dij = pairDistance(i, neighbours[k]);
            if (r2 >= (double) reach * dij * reach * dij || r2 < 1e-20) {
                continue;
            }
            double r = Math.sqrt(r2);
            sx += ex / r;
            sy += ey / r;
            sz += ez / r;
            contacts++;
        }
        double len = Math.sqrt(sx * sx + sy * sy + sz * sz);
        if (contacts == 0 || len < 0.5 * contacts) {
            return false;
        }
        double nx = sx / len;
        double ny = sy / len;
        double nz = sz / len;
        double vin = velocities[i3] * nx + velocities[i3 + 1] * ny + velocities[i3 + 2] * nz;
        double target = 0;
        double relative = 0;
        double pvx = 0;
        double pvy = 0;
        double pvz = 0;
        double partnerGrip = 0;
        for (int k = i * MAX_NEIGHBOURS, kEnd = k + neighbourCount[i]; k < kEnd; k++) {
            int j = neighbours[k];
            int j3 = 3 * j;
            double ex = positions[i3] - positions[j3];
            double ey = positions[i3 + 1] - positions[j3 + 1];
            double ez = positions[i3 + 2] - positions[j3 + 2];
            double r2 = ex * ex + ey * ey + ez * ez;
            double dij = pairDistance(i, j);
            if (r2 >= (double) reach * dij * reach * dij || r2 < 1e-20) {
                continue;
            }
            double vjn = velocities[j3] * nx + velocities[j3 + 1] * ny + velocities[j3 + 2] * nz;
            double wj = invMass[j];
            target += (wj * vin + wi * vjn) / (wi + wj);
            relative += vin - vjn;
            pvx += velocities[j3];
            pvy += velocities[j3 + 1];
            pvz += velocities[j3 + 2];
            partnerGrip += surface.grip(j);
        }
        if (relative / contacts > separatingSpeed) {
            return false;
        }
        out[0] = nx;
        out[1] = ny;
        out[2] = nz;
        out[3] = target / contacts;
        out[4] = pvx / contacts;
        out[5] = pvy / contacts;
        out[6] = pvz / contacts;
        out[7] = surface.grip(i) * partnerGrip / contacts;
        return true;
    }

    /** Particles held off a triangle face in the last {@link #project} (0 when vertex–triangle contact is off). */
    public int lastVertexTriangleCount() {
        return faces == null ? 0 : faces.lastContactCount();
    }

    /** Particles whose candidate list overflowed in the last {@link #project} (0 unless badly crushed). */
    public int overflowCount() {
        int c = 0;
        for (boolean o : overflow) {
            c += o ? 1 : 0;
        }
        return c;
    }

    /** Contacts found in the last sweep of the last {@link #project} (a sequential sum). */
    public int lastContactCount() {
        int total = 0;
        for (int i = 0; i < n; i++) {
            total += contactsOf[i];
        }
        return total / 2;
    }

    /**
     * Lists the candidate partners of particles [begin, end): not excluded and within the search
     * radius at the step's positions, in a fixed order (neighbour cells in order, each bucket sorted by
     * index), at most {@link #MAX_NEIGHBOURS} each (the nearest are not preferred: particles kept a
     * contact distance apart have far fewer within the search radius).
     */
    private void search(int begin, int end) {
        final float r = searchRadius;
        final float r2max = r * r;
        final int[] sorted = grid.sorted();
        final float inv = 1f / grid.cellSize();
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            float xi = x[i3];
            float yi = x[i3 + 1];
            float zi = x[i3 + 2];
            // cells one search radius wide: partners lie in the 3 x 3 x 3 block around the particle's cell
            int lx = (int) Math.floor(xi * inv) - 1;
            int ly = (int) Math.floor(yi * inv) - 1;
            int lz = (int) Math.floor(zi * inv) - 1;
            int exFrom = excludedStart[i];
            int exTo = excludedStart[i + 1];
            int base = i * MAX_NEIGHBOURS;
            int count = 0;
            // by offsets, not `c <= l + 2`: a blown-up particle's saturated cell makes l + 2 wrap, and the device's
            // C (where that overflow is undefined) looped on without end; three cells, wrapping, on both
            for (int dz = 0; dz < 3; dz++) {
                int cz = lz + dz;
                for (int dy = 0; dy < 3; dy++) {
                    int cy = ly + dy;
                    for (int dx = 0; dx < 3; dx++) {
                        int cx = lx + dx;
                        int bk = grid.bucket(cx, cy, cz);
                        int kEnd = grid.end(bk);
                        for (int k = grid.start(bk); k < kEnd; k++) {
                            int j = sorted[k];
                            if (j == i) {
                                continue;
                            }
                            int j3 = 3 * j;
                            float ex = xi - x[j3];
                            float ey = yi - x[j3 + 1];
                            float ez = zi - x[j3 + 2];
                            if (ex * ex + ey * ey + ez * ez >= r2max || grid.cellX(j) != cx || grid.cellY(j) != cy
                                    || grid.cellZ(j) != cz || isExcluded(exFrom, exTo, j)) {
                                continue;
                            }
                            if (count < MAX_NEIGHBOURS) {
                                neighbours[base + count] = j;
                            }
                            count++;
                        }
                    }
                }
            }
            neighbourCount[i] = Math.min(count, MAX_NEIGHBOURS);
            overflow[i] = count > MAX_NEIGHBOURS;
        }
    }

    /** One Jacobi pass of the support levels: each particle takes one more than its lowest partner's. */
    private void propagateLevels(int begin, int end) {
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            int best = level[i];
            for (int k = i * MAX_NEIGHBOURS, kEnd = k + neighbourCount[i]; k < kEnd; k++) {
                int j = neighbours[k];
                int lj = level[j];
                if (lj == UNSUPPORTED || lj >= best - 1) {
                    continue;
                }
                int j3 = 3 * j;
                float ex = x[i3] - x[j3];
                float ey = x[i3 + 1] - x[j3 + 1];
                float ez = x[i3 + 2] - x[j3 + 2];
                float dij = pairDistance(i, j);
                if (ex * ex + ey * ey + ez * ez < dij * dij) {
                    best = lj + 1;
                }
            }
            nextLevel[i] = best;
        }
    }

    /**
     * Runs the colliders on particles [begin, end) and gives support level 0 to pinned particles and to
     * those with contact partners that the pass moved or that lie on a collider's surface (within
     * {@link #ON_SURFACE} contact distances of its thickness: a solver that ran its colliders just before
     * leaves them exactly there); the rest start {@link #UNSUPPORTED}.
     */
    private void collide(int begin, int end) {
        boolean any = colliders.length > 0;
        if (any) {
            System.arraycopy(x, 3 * begin, beforeColliders, 3 * begin, 3 * (end - begin));
            for (Collider c : colliders) {
                c.collide(x, prev, w, surface, begin, end);
            }
        }
        float slack = onSurfaceSlack();
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            boolean h = w[i] == 0f;
            if (any && neighbourCount[i] > 0 && !h) {
                h = x[i3] != beforeColliders[i3] || x[i3 + 1] != beforeColliders[i3 + 1]
                        || x[i3 + 2] != beforeColliders[i3 + 2];
                for (int c = 0; !h && c < colliders.length; c++) {
                    h = colliders[c].signedDistance(x[i3], x[i3 + 1], x[i3 + 2])
                            <= colliders[c].thickness() + surface.offset(i) + slack;
                }
            }
            level[i] = h ? 0 : UNSUPPORTED;
        }
    }

    private void gather(int begin, int end) {
        final float mus = settings.staticFriction();
        final float muk = settings.kineticFriction();
        final int[] list = neighbours;
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            float wi = w[i];
            int levelI = level[i];
            float cxs = 0f;
            float cys = 0f;
            float czs = 0f;
            float fxs = 0f;
            float fys = 0f;
            float fzs = 0f;
            int contacts = 0;
            int frictional = 0;
            float xi = x[i3];
            float yi = x[i3 + 1];
            float zi = x[i3 + 2];
            for (int k = i * MAX_NEIGHBOURS, kEnd = k + neighbourCount[i]; k < kEnd; k++) {
                int j = list[k];
                int j3 = 3 * j;
                float ex = xi - x[j3];
                float ey = yi - x[j3 + 1];
                float ez = zi - x[j3 + 2];
                float r2 = ex * ex + ey * ey + ez * ez;
                float d = pairDistance(i, j);
                if (r2 >= d * d) {
                    continue;
                }
                float wsum = wi + w[j];
                contacts++;
                if (wi == 0f || wsum == 0f || r2 < 1e-20f) {
                    continue; // pinned, or coincident with no direction to separate along
                }
                float r = (float) Math.sqrt(r2);
                float share = wi / wsum;
                float depth = d - r;
                float nx = ex / r;
                float ny = ey / r;
                float nz = ez / r;
                float push = share * depth;
                float px = push * nx;
                float py = push * ny;
                float pz = push * nz;
                int levelJ = level[j];
                float slipShare = levelI == levelJ ? share : levelI > levelJ ? 1f : 0f;
                float pairGrip = surface.grip(i) * surface.grip(j);
                if (mus > 0f && slipShare > 0f && pairGrip > 0f) {
                    frictional++;
                    // relative motion over the step, its tangential part removed up to μ·depth
                    float rx = (xi - prev[i3]) - (x[j3] - prev[j3]);
                    float ry = (yi - prev[i3 + 1]) - (x[j3 + 1] - prev[j3 + 1]);
                    float rz = (zi - prev[i3 + 2]) - (x[j3 + 2] - prev[j3 + 2]);
                    float rn = rx * nx + ry * ny + rz * nz;
                    float tx = rx - rn * nx;
                    float ty = ry - rn * ny;
                    float tz = rz - rn * nz;
                    float t2 = tx * tx + ty * ty + tz * tz;
                    if (t2 > 0f) {
                        // Coulomb on i's own corrections: its tangential one at most μ times its normal
                        // one (push). A partner nearer to a collider or pin (lower level) does not give
                        // way, so i removes the whole slip rather than its share (and the partner none).
                        float f = CoulombFriction.removedShare((float) Math.sqrt(t2), push, pairGrip * mus,
                                pairGrip * muk, slipShare);
                        fxs -= f * tx;
                        fys -= f * ty;
                        fzs -= f * tz;
                    }
                }
                cxs += px;
                cys += py;
                czs += pz;
            }
            contactsOf[i] = contacts;
            if (contacts > 1) {
                // averaged over the contacts: stable in stacks (over-relaxing by 1.5 was not)
                float scale = 1f / contacts;
                cxs *= scale;
                cys *= scale;
                czs *= scale;
            }
            if (frictional > 0) {
                // friction averaged over the contacts that give it: a middle layer's contacts with the
                // layer above (which takes their slip) would otherwise dilute its hold on the one below
                float scale = 1f / frictional;
                cxs += fxs * scale;
                cys += fys * scale;
                czs += fzs * scale;
            }
            correction[i3] = cxs;
            correction[i3 + 1] = cys;
            correction[i3 + 2] = czs;
        }
    }

    private boolean isExcluded(int from, int to, int j) {
        for (int k = from; k < to; k++) {
            int e = excluded[k];
            if (e >= j) {
                return e == j;
            }
        }
        return false;
    }

    private void apply(int begin, int end) {
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            x[i3] += correction[i3];
            x[i3 + 1] += correction[i3 + 1];
            x[i3 + 2] += correction[i3 + 2];
        }
    }
}
