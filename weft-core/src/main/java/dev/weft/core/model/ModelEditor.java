package dev.weft.core.model;

import dev.weft.core.InvalidInputException;
import dev.weft.core.coloring.Coloring;
import dev.weft.core.coloring.ParticleColoring;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.util.FloatList;
import dev.weft.core.util.IntList;
import java.util.ArrayList;
import java.util.List;

/**
 * Applies a batch of {@link ModelEdit}s to a model, giving a new one. Every constraint set keeps its
 * coloring: a split moves a particle's constraints to a fresh particle, so no color gains a second
 * constraint at any particle, and the copy takes its particle's color; an edge kept on both sides and a
 * new distance constraint take the lowest color free at both their particles. Work is in proportion
 * to the particles the edits touch, plus one copy of the arrays (in the builder's order, which keeps
 * each set's storage and sequential Gauss–Seidel order), the distances' and triangles' incidences, and
 * one union–find pass over the distances for the tethers (half of it beside the incidences, on a second
 * thread where the pool has one).
 */
final class ModelEditor {
    private final Model model;
    private final SurfaceSplitter surface;
    private final FloatList invMass;
    private final FloatList uvs;
    private final IntList particleObject;
    private final IntList source;
    private final IntList particleColor;
    private boolean recolorParticles;

    private final EditableConstraints dist;
    private final MutableIncidence distAt;
    private final EditableConstraints bend;
    private final MutableIncidence stencilAt;
    private final EditableConstraints tether;
    private final MutableIncidence tetherAt;
    private boolean split;

    private final List<ModelEdit> log;

    /** The tetrahedra's working copy, made at the first split of a model with tetrahedra (null before). */
    private TetSplitter tets;
    /** Per body its skin while edits re-point it (null: as the model's). */
    private Skin[] skins;
    /** Per skinned body, which of its skin's vertices ride on each particle (made at its first split). */
    private MutableIncidence[] skinAt;

    /**
     * The tethers' connectivity made before the edits ({@link #joinUntouchedPairs}): the particles joined by
     * the model's constraints that no edit touches, and those it does (null: not made, no split can need it).
     */
    private ParticleSets untouchedJoined;
    private IntList touchedPairs;

    /** Threads for the two halves of the editor's set-up and of its copy-out (null: the calling thread does both). */
    private final WorkerPool pool;

    private ModelEditor(Model m, WorkerPool pool, List<ModelEdit> edits) {
        model = m;
        int room = edits.size();
        this.pool = pool;
        int n = m.particleCount();
        DistanceConstraints d = m.distances();
        BendingConstraints b = m.bending();
        TetherConstraints t = m.tethers();
        // in two about equal halves (measured on the tear bench's 100 x 100 cloth): the distances' and tethers'
        // working copies on one thread, with the part of the tethers' connectivity after the edits that the edits
        // cannot change (joinUntouchedPairs); on another the stencils' (four corners each) and the surface's and
        // particles' working copies. The model's incidences are built once per model: where they are not yet
        // (a model that does not tear, cut), their sorts go on the first thread, the union-find on the second and
        // the surface's splitter after both.
        boolean[] splitHere = splitParticles(edits, n);
        boolean tethersMayLoseAnchors = t.count() > 0 && splitsIn(edits);
        boolean incidencesReady = m.incidencesBuilt();
        Object[] made = new Object[12];
        both(() -> {
            made[0] = new EditableConstraints(d, d.restLength(), d.kind(), d.ownMaterialIndex());
            made[1] = new MutableIncidence(m.distanceIncidence(), n, room);
            made[4] = new EditableConstraints(t, t.maxLength(), null, null);
            // only a tether's particle (its first) is ever split into copies that need its tethers, and only
            // the rows of the particles split are read
            made[5] = MutableIncidence.rowsOf(t.particles(), 2, 1, n, room, splitHere);
            m.triangleIncidence(); // the surface's splitter reads it
            if (tethersMayLoseAnchors && incidencesReady) {
                joinUntouchedPairs(splitHere, room);
            }
        }, () -> {
            made[2] = new EditableConstraints(b, b.restAngle(), b.models(), null);
            // a split reads the stencils at the particle it splits (its copy's are its own), and rewires or
            // removes some of them: the rows of their other corners are never read
            made[3] = MutableIncidence.rowsOf(b.particles(), 4, 4, n, room, splitHere);
            if (tethersMayLoseAnchors && !incidencesReady) {
                joinUntouchedPairs(splitHere, room);
            }
            // room for a copy per edit, so no list grows (a copy of all of it) in the middle of the splits
            made[6] = FloatList.of(m.invMass(), room);
            made[7] = FloatList.of(m.uvs(), 2 * room);
            made[8] = IntList.of(m.particleObjects(), room);
            made[9] = IntList.of(m.sources(), room);
            IntList colorOf = new IntList(n + room);
            Coloring colors = m.particleColoring();
            for (int i = 0; i < n; i++) {
                colorOf.add(colors.colorOf(i));
            }
            made[10] = colorOf;
            if (incidencesReady) {
                made[11] = new SurfaceSplitter(m.restPositions(), m.triangles(), m.triangleIncidence(), room);
            }
        });
        dist = (EditableConstraints) made[0];
        distAt = (MutableIncidence) made[1];
        bend = (EditableConstraints) made[2];
        stencilAt = (MutableIncidence) made[3];
        tether = (EditableConstraints) made[4];
        tetherAt = (MutableIncidence) made[5];
        invMass = (FloatList) made[6];
        uvs = (FloatList) made[7];
        particleObject = (IntList) made[8];
        source = (IntList) made[9];
        particleColor = (IntList) made[10];
        // where the model's triangle incidence was not built before, the first half built it
        surface = incidencesReady ? (SurfaceSplitter) made[11]
                : new SurfaceSplitter(m.restPositions(), m.triangles(), m.triangleIncidence(), room);
        log = new ArrayList<>(m.edits());
    }

    /**
     * Runs {@code first} and {@code second}, on two threads of the pool when there is one with two:
     * each writes only what it makes, so the result is the same bits either way.
     */
    private void both(Runnable first, Runnable second) {
        if (pool == null || pool.threads() < 2) {
            first.run();
            second.run();
            return;
        }
        pool.parallelFor(0, 2, 1, (from, to) -> {
            for (int k = from; k < to; k++) {
                (k == 0 ? first : second).run();
            }
        });
    }

    static Model apply(Model m, List<ModelEdit> edits, WorkerPool pool) {
        ModelEditor e = new ModelEditor(m, pool, edits);
        e.make(edits);
        return e.build();
    }

    private void make(List<ModelEdit> edits) {
        for (ModelEdit edit : edits) {
            if (edit instanceof ModelEdit.Split) {
                split((ModelEdit.Split) edit);
            } else if (edit instanceof ModelEdit.Detach) {
                detach((ModelEdit.Detach) edit);
            } else if (edit instanceof ModelEdit.AddDistance) {
                addDistance((ModelEdit.AddDistance) edit);
            } else {
                throw new AssertionError(edit);
            }
        }
    }

    /** Per particle of the model, whether an edit splits it (a split or a cut's detach names it). */
    private static boolean[] splitParticles(List<ModelEdit> edits, int n) {
        boolean[] split = new boolean[n];
        for (ModelEdit edit : edits) {
            int p = edit instanceof ModelEdit.Split ? ((ModelEdit.Split) edit).particle()
                    : edit instanceof ModelEdit.Detach ? ((ModelEdit.Detach) edit).particle() : -1;
            if (p >= 0 && p < n) {
                split[p] = true;
            }
        }
        return split;
    }

    private static boolean splitsIn(List<ModelEdit> edits) {
        for (ModelEdit edit : edits) {
            if (edit instanceof ModelEdit.Split || edit instanceof ModelEdit.Detach) {
                return true;
            }
        }
        return false;
    }

    /**
     * Joins the particles of every distance constraint of the model (not bending: see {@link #retargetTethers})
     * that has no particle an edit splits, and lists the others. An edit rewires only the constraints at the
     * particle it splits (and removes only bending ones), so these join the same particles after the edits;
     * the partition does not depend on the order of the unions, so the rest can be joined afterwards.
     */
    private void joinUntouchedPairs(boolean[] splitHere, int room) {
        int n = model.particleCount();
        // each edit adds at most one particle (its copy)
        ParticleSets sets = new ParticleSets(n + room);
        IntList touched = new IntList();
        int[] pairs = model.distances().particles();
        byte[] kind = model.distances().kind();
        byte bendKind = DistanceKind.BEND.code();
        for (int c = 0; c < kind.length; c++) {
            int a = pairs[2 * c];
            int b = pairs[2 * c + 1];
            if (splitHere[a] || splitHere[b]) {
                touched.add(c);
            } else if (kind[c] != bendKind) {
                sets.union(a, b);
            }
        }
        untouchedJoined = sets;
        touchedPairs = touched;
    }

    private int particleCount() {
        return invMass.size();
    }

    private void checkParticle(String what, int p) {
        if (p < 0 || p >= particleCount()) {
            throw new InvalidInputException(what, "must be a particle of the model (0.." + (particleCount() - 1)
                    + "), got " + p);
        }
    }

    private void split(ModelEdit.Split e) {
        int p = e.particle();
        checkParticle("split.particle", p);
        checkNormal("split.normal", e.nx(), e.ny(), e.nz());
        if (inTetrahedra(p, "split")) {
            splitTetrahedra(e, p);
            return;
        }
        separate(e, p, surface.plan(p, e.nx(), e.ny(), e.nz()));
    }

    /**
     * True when p is a corner of tetrahedra of an elastic tetrahedral body (whose split {@link TetSplitter}
     * decides); a volume-keeping voxel body's tetrahedra are refused (its surface is its voxels' faces, which
     * a tetrahedral split does not update), and so is a cut ({@code detach}) of any tetrahedral node.
     */
    private boolean inTetrahedra(int p, String what) {
        if (model.tets().count() == 0) {
            return false;
        }
        if (tets == null) {
            tets = new TetSplitter(model.tets(), model.restPositions(), surface);
        }
        if (tets.tetCount(p) == 0) {
            return false;
        }
        ModelObject body = model.objects().get(particleObject.get(p));
        if (body.type() != ModelObject.Type.TET_BODY) {
            throw new InvalidInputException(what, "particle " + p + " belongs to " + body.name() + ", a volume-keeping "
                    + "voxel body, whose tetrahedra cannot be torn or cut yet (its springs tear without 'volume')");
        }
        if (!"split".equals(what)) {
            throw new InvalidInputException(what, "particle " + p + " belongs to " + body.name() + ", a tetrahedral "
                    + "body, which a cut cannot split yet (it tears: ModelEdit.Split)");
        }
        return true;
    }

    /**
     * A tetrahedral node's split ({@link TetSplitter}): the tetrahedra whose rest centroid lies on the plane's
     * positive side go to the copy with their quarter of ρ V₀ (the node's mass times their share of its
     * tetrahedra's rest volume, as {@link ModelBuilder#addTetBody} gave it); its boundary triangles on that
     * side go with them and each face between the two sides becomes two boundary triangles, one per side.
     * The tetrahedra keep their storage order and colors (a moved one's copy corner is new to its color),
     * and the copy takes the node's particle color (its neighbours are some of the node's).
     */
    private void splitTetrahedra(ModelEdit.Split e, int p) {
        if (!tets.plan(p, e.nx(), e.ny(), e.nz())) {
            return;
        }
        // decide every constraint's side before the split changes the tetrahedra the rule reads
        IntList constraints = distAt.itemsOf(p);
        SurfaceSplitter.Side[] distSide = new SurfaceSplitter.Side[constraints.size()];
        for (int k = 0; k < constraints.size(); k++) {
            distSide[k] = tets.side(other(constraints.get(k), p));
        }
        int[] moved = tets.moved().toArray();
        double share = tets.movedVolumeShare();
        int q = surface.splitTriangles(p, tets.movedBoundary());
        int[] crack = tets.split(q);
        for (int k = 0; k < crack.length; k += 3) {
            surface.addTriangle(crack[k], crack[k + 1], crack[k + 2]);
        }
        addCopy(p, share);
        for (int k = 0; k < constraints.size(); k++) {
            int c = constraints.get(k);
            if (distSide[k] == SurfaceSplitter.Side.MOVE) {
                dist.setParticle(c, dist.particle(c, 0) == p ? 0 : 1, q);
                distAt.remove(p, c);
                distAt.add(q, c);
            }
        }
        for (int k = 0; k < constraints.size(); k++) {
            int c = constraints.get(k);
            if (distSide[k] == SurfaceSplitter.Side.BOTH) {
                appendDistance(q, other(c, p), dist.param(c), dist.kind(c), dist.own(c));
            }
        }
        copyTethers(p, q);
        repointSkin(particleObject.get(p), p, q, moved);
        log.add(e);
    }

    /** The skin vertices of body o that ride on a moved tetrahedron (its four corners) ride on the copy now. */
    private void repointSkin(int o, int p, int q, int[] moved) {
        if (skins == null) {
            skins = new Skin[model.objects().size()];
            skinAt = new MutableIncidence[skins.length];
            for (Skin s : model.skins()) {
                skins[s.body()] = s;
            }
        }
        Skin s = skins[o];
        if (s == null) {
            return;
        }
        if (skinAt[o] == null) {
            s = new Skin(s.body(), s.corners().clone(), s.weights(), s.triangles(), s.uvs());
            skins[o] = s;
            skinAt[o] = new MutableIncidence(s.corners(), 4, particleCount());
        }
        int[] corners = s.corners();
        int[] t = tets.tets();
        IntList riding = skinAt[o].itemsOf(p);
        for (int k = 0; k < riding.size(); k++) {
            int v = riding.get(k);
            for (int m : moved) {
                // the tetrahedron's corners, with the copy for the node now: the same four as the vertex's
                boolean same = true;
                for (int c = 0; c < 4 && same; c++) {
                    int x = t[4 * m + c];
                    int want = x == q ? p : x;
                    same = corners[4 * v] == want || corners[4 * v + 1] == want || corners[4 * v + 2] == want
                            || corners[4 * v + 3] == want;
                }
                if (same) {
                    for (int c = 4 * v; c < 4 * v + 4; c++) {
                        if (corners[c] == p) {
                            corners[c] = q;
                        }
                    }
                    skinAt[o].remove(p, v);
                    skinAt[o].add(q, v);
                    break;
                }
            }
        }
    }

    private void detach(ModelEdit.Detach e) {
        int p = e.particle();
        checkParticle("detach.particle", p);
        checkNormal("detach.normal", e.nx(), e.ny(), e.nz());
        inTetrahedra(p, "detach");
        int triangles = surface.workingTriangleCount();
        int[] named = e.triangles();
        for (int t : named) {
            if (t < 0 || t >= triangles) {
                throw new InvalidInputException("detach.triangles", "must be triangles of the model (0.."
                        + (triangles - 1) + "), got " + t);
            }
        }
        if (triangles > model.triangles().length / 3) {
            // the cut named triangles of the model it was made on, laid out body by body with the crack faces
            // of earlier splits in this batch in their bodies: the working triangles keep those at the end
            int[] working = laidOutTriangles();
            for (int k = 0; k < named.length; k++) {
                named[k] = working[named[k]];
            }
        }
        separate(e, p, surface.plan(p, named, e.nx(), e.ny(), e.nz()));
    }

    private static void checkNormal(String what, float nx, float ny, float nz) {
        float len2 = nx * nx + ny * ny + nz * nz;
        if (!(len2 > 0f) || !Float.isFinite(len2)) {
            throw new InvalidInputException(what, "must be a finite, non-zero vector, got (" + nx + ", " + ny + ", "
                    + nz + ")");
        }
    }

    /** Carries out the split {@link SurfaceSplitter} has planned for {@code e}, if it separates something. */
    private void separate(ModelEdit e, int p, boolean separates) {
        IntList constraints = distAt.itemsOf(p);
        if (surface.triangleCount(p) == 0) {
            // a particle without triangles (a rope's): it separates if its constraints lie on both sides
            boolean keep = false;
            boolean move = false;
            for (int k = 0; k < constraints.size(); k++) {
                boolean m = surface.side(other(constraints.get(k), p)) == SurfaceSplitter.Side.MOVE;
                keep |= !m;
                move |= m;
            }
            separates = keep && move;
        }
        if (!separates) {
            return;
        }
        // decide every pair before the split changes the triangles the rule reads
        SurfaceSplitter.Side[] distSide = new SurfaceSplitter.Side[constraints.size()];
        int moved = 0;
        for (int k = 0; k < constraints.size(); k++) {
            distSide[k] = surface.side(other(constraints.get(k), p));
            moved += distSide[k] == SurfaceSplitter.Side.KEEP ? 0 : 1;
        }
        IntList stencilsHere = stencilAt.itemsOf(p);
        int[] stencilAction = new int[stencilsHere.size()]; // 0 keep, 1 move, 2 remove
        for (int k = 0; k < stencilsHere.size(); k++) {
            stencilAction[k] = stencilAction(stencilsHere.get(k), p);
        }
        double share = surface.movedAreaShare();
        if (Double.isNaN(share)) {
            share = (double) moved / constraints.size();
        }
        int q = surface.split();
        addCopy(p, share);

        removeBendingAcross(p, constraints, distSide);
        // moves first: an edge kept on both sides takes a color free of everything the copy holds
        for (int k = 0; k < constraints.size(); k++) {
            int c = constraints.get(k);
            if (distSide[k] == SurfaceSplitter.Side.MOVE) {
                dist.setParticle(c, dist.particle(c, 0) == p ? 0 : 1, q);
                distAt.remove(p, c);
                distAt.add(q, c);
            }
        }
        for (int k = 0; k < constraints.size(); k++) {
            int c = constraints.get(k);
            if (distSide[k] == SurfaceSplitter.Side.BOTH) {
                // the copy keeps the constraint's own material (a seam's thread), if it has one
                appendDistance(q, other(c, p), dist.param(c), dist.kind(c), dist.own(c));
            }
        }
        for (int k = 0; k < stencilsHere.size(); k++) {
            int s = stencilsHere.get(k);
            if (stencilAction[k] == 2) {
                bend.remove(s);
                for (int v = 0; v < 4; v++) {
                    stencilAt.remove(bend.particle(s, v), s);
                }
            } else if (stencilAction[k] == 1) {
                for (int v = 0; v < 4; v++) {
                    if (bend.particle(s, v) == p) {
                        bend.setParticle(s, v, q);
                    }
                }
                stencilAt.remove(p, s);
                stencilAt.add(q, s);
            }
        }
        copyTethers(p, q);
        log.add(e);
    }

    /**
     * The copy of p a split appends (its index is the particle count before): same place, same body, same
     * color, {@code share} of p's mass (a pin stays a pin on both sides).
     */
    private void addCopy(int p, double share) {
        split = true;
        float w = invMass.get(p);
        if (w > 0f) {
            double mass = 1.0 / w;
            double movedMass = mass * share;
            invMass.set(p, (float) (1.0 / (mass - movedMass)));
            invMass.add((float) (1.0 / movedMass));
        } else {
            invMass.add(0f);
        }
        uvs.add(uvs.get(2 * p));
        uvs.add(uvs.get(2 * p + 1));
        particleObject.add(particleObject.get(p));
        source.add(p);
        particleColor.add(particleColor.get(p));
    }

    /** The copy q of p takes p's tethers too (retargeted at the end if it no longer reaches their anchor). */
    private void copyTethers(int p, int q) {
        IntList tethersHere = tetherAt.itemsOf(p);
        for (int k = 0; k < tethersHere.size(); k++) {
            int t = tethersHere.get(k);
            int copy = tether.add(new int[] {q, tether.particle(t, 1)}, tether.param(t), (byte) 0, tether.color(t));
            tetherAt.add(q, copy);
        }
    }

    /**
     * The working triangles in the order the edited model lays them out, as working indices: body by body,
     * its triangles of the model and then the crack faces appended for it, in the order they came.
     */
    private int[] laidOutTriangles() {
        List<ModelObject> objects = model.objects();
        int total = surface.workingTriangleCount();
        int before = model.triangles().length / 3;
        int[] working = surface.triangles();
        IntList[] appended = new IntList[objects.size()];
        for (int t = before; t < total; t++) {
            int o = particleObject.get(working[3 * t]);
            if (appended[o] == null) {
                appended[o] = new IntList();
            }
            appended[o].add(t);
        }
        int[] out = new int[total];
        int k = 0;
        for (int o = 0; o < objects.size(); o++) {
            ModelObject body = objects.get(o);
            for (int t = body.firstTriangle(); t < body.firstTriangle() + body.triangleCount(); t++) {
                out[k++] = t;
            }
            for (int j = 0; appended[o] != null && j < appended[o].size(); j++) {
                out[k++] = appended[o].get(j);
            }
        }
        return out;
    }

    /**
     * Distance bending across the split: a bending constraint between two neighbours of the split
     * particle, one on each side (a skip spring over it, the opposite-vertex spring across a torn edge),
     * would hold the two surfaces together as the dihedral stencil across a torn edge would; it goes.
     */
    private void removeBendingAcross(int p, IntList constraints, SurfaceSplitter.Side[] side) {
        for (int k = 0; k < constraints.size(); k++) {
            if (side[k] != SurfaceSplitter.Side.KEEP) {
                continue;
            }
            int a = other(constraints.get(k), p);
            IntList around = distAt.itemsOf(a);
            for (int j = 0; j < around.size(); j++) {
                int bending = around.get(j);
                if (dist.kind(bending) != DistanceKind.BEND.code() || dist.removed(bending)) {
                    continue;
                }
                int b = other(bending, a);
                for (int m = 0; m < constraints.size(); m++) {
                    if (side[m] == SurfaceSplitter.Side.MOVE && other(constraints.get(m), p) == b) {
                        removeDistance(bending);
                        break;
                    }
                }
            }
        }
    }

    private void removeDistance(int c) {
        dist.remove(c);
        distAt.remove(dist.particle(c, 0), c);
        distAt.remove(dist.particle(c, 1), c);
    }

    /** A stencil at p: 0 stays with p, 1 moves to the copy, 2 is removed (its hinge is on the tear). */
    private int stencilAction(int s, int p) {
        int e0 = bend.particle(s, 0);
        int e1 = bend.particle(s, 1);
        int o0 = bend.particle(s, 2);
        int o1 = bend.particle(s, 3);
        boolean first = surface.moves(e0, e1, o0);
        boolean second = surface.moves(e0, e1, o1);
        if (p == e0 || p == e1) {
            return first != second ? 2 : first ? 1 : 0;
        }
        return (p == o0 ? first : second) ? 1 : 0;
    }

    private int other(int c, int p) {
        int a = dist.particle(c, 0);
        return a == p ? dist.particle(c, 1) : a;
    }

    private void addDistance(ModelEdit.AddDistance e) {
        checkParticle("addDistance.a", e.a());
        checkParticle("addDistance.b", e.b());
        if (e.a() == e.b()) {
            throw new InvalidInputException("addDistance", "joins particle " + e.a() + " to itself");
        }
        if (!(e.restLength() >= 0f) || !Float.isFinite(e.restLength())) {
            throw new InvalidInputException("addDistance.restLength", "must be a finite length >= 0, got "
                    + e.restLength());
        }
        if (e.kind() == null) {
            throw new InvalidInputException("addDistance.kind", "must be one of stretch, shear, bend");
        }
        appendDistance(e.a(), e.b(), e.restLength(), e.kind().code(), (short) -1);
        if (particleColor.get(e.a()) == particleColor.get(e.b())) {
            recolorParticles = true;
        }
        log.add(e);
    }

    private void appendDistance(int a, int b, float rest, byte kind, short own) {
        int c = dist.add(new int[] {a, b}, rest, kind, own, freeColor(a, b));
        distAt.add(a, c);
        distAt.add(b, c);
    }

    /** The lowest color no distance constraint at a or b has. */
    private int freeColor(int a, int b) {
        long used = 0L;
        IntList more = new IntList();
        for (int p : new int[] {a, b}) {
            IntList items = distAt.itemsOf(p);
            for (int k = 0; k < items.size(); k++) {
                int color = dist.color(items.get(k));
                if (color < 64) {
                    used |= 1L << color;
                } else {
                    more.add(color);
                }
            }
        }
        for (int color = 0; ; color++) {
            boolean taken = color < 64 ? (used & (1L << color)) != 0 : more.contains(color);
            if (!taken) {
                return color;
            }
        }
    }

    private Model build() {
        int n = particleCount();
        // in two about equal halves (measured on the tear bench's cloth): the distances laid out with the values
        // carried per distance constraint, and the particles' coloring, on one thread; on another the tethers
        // retargeted (reading the distances, which a layout only reads) and laid out, and the stencils laid out
        // with their carried values. Edits only remove stencils or rewire them to split copies (same rest
        // position, same body), and a split keeps each distance constraint's bodies, material and rest length:
        // the kept constraints' values are what they were, so a tear costs no pass over every material.
        EditableConstraints.Layout[] laid = new EditableConstraints.Layout[3];
        Coloring[] particles = new Coloring[1];
        float[][] carried = new float[4][];
        float[] springs = model.computedDistanceStiffness();
        float[] tearLengths = model.computedTearLengthsSquared();
        float[] hinges = model.computedHingeStiffness();
        float[] weights = model.computedIsometricWeights();
        both(() -> {
            EditableConstraints.Layout d = dist.layout();
            laid[0] = d;
            int count = d.param().length;
            carried[0] = springs == null ? null : d.carry(springs, count);
            carried[1] = tearLengths == null ? null : d.carry(tearLengths, count);
            particles[0] = recolorParticles
                    ? Coloring.fromColors(ParticleColoring.greedy(TetConstraints.withElasticEdges(d.particles(),
                    tets == null ? model.tets().particles() : tets.tets(), model.tets().shearModulus()), n,
                    filled(n, -1)))
                    : Coloring.fromColors(particleColor.toArray());
        }, () -> {
            if (split && tether.count() > 0) {
                retargetTethers(n);
            }
            laid[2] = tether.layout();
            EditableConstraints.Layout b = bend.layout();
            laid[1] = b;
            int count = b.param().length;
            carried[2] = hinges == null ? null : b.carry(hinges, count);
            carried[3] = weights == null ? null : b.carry(weights, count, 4);
        });
        EditableConstraints.Layout d = laid[0];
        DistanceConstraints distances = new DistanceConstraints(d.particles(), d.param(), d.kind(), d.own(),
                model.distances().ownMaterials(), d.colorStart(), d.naturalOrder());
        EditableConstraints.Layout b = laid[1];
        BendingConstraints bending = new BendingConstraints(b.particles(), b.param(), b.kind(), b.colorStart(),
                b.naturalOrder());
        EditableConstraints.Layout t = laid[2];
        TetherConstraints tethers = new TetherConstraints(t.particles(), t.param(), t.colorStart(), t.naturalOrder());
        // a tetrahedral split appended crack faces: each goes into its body's range (the bodies after it move up)
        int[] triangles;
        List<ModelObject> objects = model.objects();
        if (surface.workingTriangleCount() > model.triangles().length / 3) {
            int[] order = laidOutTriangles();
            int[] working = surface.triangles();
            triangles = new int[working.length];
            for (int k = 0; k < order.length; k++) {
                System.arraycopy(working, 3 * order[k], triangles, 3 * k, 3);
            }
            objects = new ArrayList<>(objects.size());
            int first = 0;
            for (ModelObject o : model.objects()) {
                int count = o.triangleCount();
                for (int w = model.triangles().length / 3; w < working.length / 3; w++) {
                    count += model.objects().get(particleObject.get(working[3 * w])) == o ? 1 : 0;
                }
                objects.add(new ModelObject(o.name(), o.type(), o.firstParticle(), o.particleCount(), first, count,
                        o.gridCols(), o.gridRows()));
                first += count;
            }
        } else {
            triangles = surface.triangles(); // the splitter's own copy, which nothing else holds
        }
        Model edited = new Model(surface.restPositions(), invMass.toArray(), triangles, uvs.toArray(), distances,
                bending, tethers, objects, particles[0], particleObject.toArray(), source.toArray(),
                model.materials(), model.springLayout(), model.base(), log);
        // tetrahedra keep their order, colors and rest data; a split moved some to copies of their corners
        TetConstraints tetSet = tets == null || !tets.changed() ? model.tets() : model.tets().withParticles(tets.tets());
        List<Skin> skinSet = model.skins();
        if (skinAt != null) {
            skinSet = new ArrayList<>();
            for (Skin s : model.skins()) {
                skinSet.add(skins[s.body()]);
            }
        }
        edited.carryTets(tetSet, skinSet);
        if (springs != null) {
            edited.carryDistanceStiffness(complete(d, springs.length, carried[0], edited,
                    MaterialParameters::distanceStiffness));
        }
        if (tearLengths != null) {
            edited.carryTearLengthsSquared(complete(d, tearLengths.length, carried[1], edited, Model::tearLengthSquared));
        }
        if (hinges != null) {
            edited.carryHingeStiffness(carried[2]);
        }
        if (weights != null) {
            edited.carryIsometricWeights(carried[3]);
        }
        return edited;
    }

    /**
     * A per-constraint value {@code carried} (moved with the old constraints, {@code oldCount} of them) completed
     * for the constraints the edits added, computed from the edited model; returns {@code carried}.
     */
    private static float[] complete(EditableConstraints.Layout d, int oldCount, float[] carried, Model edited,
                                    PerConstraint value) {
        int[] place = d.place();
        for (int k = oldCount; place != null && k < place.length; k++) {
            if (place[k] >= 0) {
                carried[place[k]] = value.of(edited, place[k]);
            }
        }
        return carried;
    }

    /** A per-distance-constraint value of a model, computed for a constraint an edit added. */
    private interface PerConstraint {
        float of(Model m, int constraint);
    }

    /**
     * After splits, a tether whose particle no longer reaches its anchor through the distance constraints
     * would hold a torn-off piece in the air: it moves to a pinned copy of the anchor the particle does
     * reach (a split pin), or is dropped.
     */
    private void retargetTethers(int n) {
        // the surface's own edges join it (stretch, shear, seams); a bending skip spring over a tear
        // holds nothing together and goes with it (removeBendingAcross), and is a third of the unions.
        // Joined before the edits: the constraints no edit touches; now the rest, as the edits left them
        ParticleSets sets = untouchedJoined;
        byte bendKind = DistanceKind.BEND.code();
        for (int k = 0; k < touchedPairs.size(); k++) {
            int c = touchedPairs.get(k);
            if (!dist.removed(c) && dist.kind(c) != bendKind) {
                sets.union(dist.particle(c, 0), dist.particle(c, 1));
            }
        }
        dist.joinAddedPairs(sets, bendKind);
        int[] component = new int[n];
        for (int i = 0; i < n; i++) {
            component[i] = sets.find(i);
        }
        // per particle of the built model, the pins split from it, ascending (a list through nextPin): a tether
        // that lost its anchor takes the first of them in its particle's set
        int[] firstPin = null;
        int[] nextPin = null;
        for (int t = 0; t < tether.count(); t++) {
            int particle = tether.particle(t, 0);
            int anchor = tether.particle(t, 1);
            int set = component[particle];
            if (set == component[anchor]) {
                continue;
            }
            if (firstPin == null) {
                firstPin = filled(n, -1);
                nextPin = new int[n];
                for (int i = n - 1; i >= 0; i--) {
                    if (invMass.get(i) == 0f) {
                        int root = rootOf(i);
                        nextPin[i] = firstPin[root];
                        firstPin[root] = i;
                    }
                }
            }
            int replacement = firstPin[rootOf(anchor)];
            while (replacement >= 0 && component[replacement] != set) {
                replacement = nextPin[replacement];
            }
            if (replacement >= 0) {
                tether.setParticle(t, 1, replacement);
            } else {
                tether.remove(t);
            }
        }
    }

    /** The particle of the built model a particle was (eventually) split from. */
    private int rootOf(int i) {
        while (source.get(i) != i) {
            i = source.get(i);
        }
        return i;
    }

    private static int[] filled(int n, int value) {
        int[] a = new int[n];
        java.util.Arrays.fill(a, value);
        return a;
    }
}
