package dev.weft.core.model;

import dev.weft.core.InvalidInputException;
import dev.weft.core.coloring.Coloring;
import dev.weft.core.coloring.ParticleColoring;
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
 * each set's storage and sequential Gauss–Seidel order).
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

    private final IntList distPairs;
    private final FloatList distRest;
    private final IntList distKind;
    private final IntList distColor;
    private final List<Boolean> distRemoved = new ArrayList<>();
    private final MutableIncidence distAt;

    private final IntList stencils;
    private final FloatList stencilAngle;
    private final IntList stencilColor;
    private final List<Boolean> stencilRemoved = new ArrayList<>();
    private final MutableIncidence stencilAt;

    private final IntList tetherPairs;
    private final FloatList tetherLength;
    private final IntList tetherColor;
    private final MutableIncidence tetherAt;
    private boolean split;

    private final List<ModelEdit> log;

    private ModelEditor(Model m) {
        model = m;
        int n = m.particleCount();
        surface = new SurfaceSplitter(m.restPositions(), m.triangles(), m.triangleIncidence());
        invMass = FloatList.of(m.invMass());
        uvs = FloatList.of(m.uvs());
        particleObject = IntList.of(m.particleObjects());
        source = IntList.of(m.sources());
        particleColor = new IntList(n);
        for (int i = 0; i < n; i++) {
            particleColor.add(m.particleColoring().colorOf(i));
        }
        DistanceConstraints d = m.distances();
        distPairs = IntList.of(d.particlesInNaturalOrder());
        distRest = FloatList.of(d.unpermute(d.restLength()));
        distKind = new IntList(d.count());
        for (byte k : d.unpermute(d.kind())) {
            distKind.add(k);
        }
        distColor = IntList.of(d.colorsInNaturalOrder());
        for (int i = 0; i < d.count(); i++) {
            distRemoved.add(false);
        }
        distAt = new MutableIncidence(distPairs.toArray(), 2, n);

        BendingConstraints b = m.bending();
        stencils = IntList.of(b.particlesInNaturalOrder());
        stencilAngle = FloatList.of(b.unpermute(b.restAngle()));
        stencilColor = IntList.of(b.colorsInNaturalOrder());
        for (int i = 0; i < b.count(); i++) {
            stencilRemoved.add(false);
        }
        stencilAt = new MutableIncidence(stencils.toArray(), 4, n);

        TetherConstraints t = m.tethers();
        tetherPairs = IntList.of(t.particlesInNaturalOrder());
        tetherLength = FloatList.of(t.unpermute(t.maxLength()));
        tetherColor = IntList.of(t.colorsInNaturalOrder());
        // only a tether's particle (slot 0) is ever split into copies that need its tethers
        int[] tetherParticle = new int[t.count()];
        for (int i = 0; i < tetherParticle.length; i++) {
            tetherParticle[i] = tetherPairs.get(2 * i);
        }
        tetherAt = new MutableIncidence(tetherParticle, 1, n);
        log = new ArrayList<>(m.edits());
    }

    static Model apply(Model m, List<ModelEdit> edits) {
        ModelEditor e = new ModelEditor(m);
        for (ModelEdit edit : edits) {
            if (edit instanceof ModelEdit.Split) {
                e.split((ModelEdit.Split) edit);
            } else if (edit instanceof ModelEdit.AddDistance) {
                e.addDistance((ModelEdit.AddDistance) edit);
            } else {
                throw new AssertionError(edit);
            }
        }
        return e.build();
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
        float len2 = e.nx() * e.nx() + e.ny() * e.ny() + e.nz() * e.nz();
        if (!(len2 > 0f) || !Float.isFinite(len2)) {
            throw new InvalidInputException("split.normal", "must be a finite, non-zero vector, got ("
                    + e.nx() + ", " + e.ny() + ", " + e.nz() + ")");
        }
        boolean separates = surface.plan(p, e.nx(), e.ny(), e.nz());
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
        split = true;

        // the copy: same place, same body, same color, its share of the mass (a pin stays a pin)
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

        removeBendingAcross(p, constraints, distSide);
        // moves first: an edge kept on both sides takes a color free of everything the copy holds
        for (int k = 0; k < constraints.size(); k++) {
            int c = constraints.get(k);
            if (distSide[k] == SurfaceSplitter.Side.MOVE) {
                distPairs.set(distPairs.get(2 * c) == p ? 2 * c : 2 * c + 1, q);
                distAt.remove(p, c);
                distAt.add(q, c);
            }
        }
        for (int k = 0; k < constraints.size(); k++) {
            int c = constraints.get(k);
            if (distSide[k] == SurfaceSplitter.Side.BOTH) {
                appendDistance(q, other(c, p), distRest.get(c), distKind.get(c));
            }
        }
        for (int k = 0; k < stencilsHere.size(); k++) {
            int s = stencilsHere.get(k);
            if (stencilAction[k] == 2) {
                stencilRemoved.set(s, true);
                for (int v = 0; v < 4; v++) {
                    stencilAt.remove(stencils.get(4 * s + v), s);
                }
            } else if (stencilAction[k] == 1) {
                for (int v = 4 * s; v < 4 * s + 4; v++) {
                    if (stencils.get(v) == p) {
                        stencils.set(v, q);
                    }
                }
                stencilAt.remove(p, s);
                stencilAt.add(q, s);
            }
        }
        IntList tethersHere = tetherAt.itemsOf(p);
        for (int k = 0; k < tethersHere.size(); k++) {
            int t = tethersHere.get(k);
            int copy = tetherLength.size();
            tetherPairs.add(q, tetherPairs.get(2 * t + 1));
            tetherLength.add(tetherLength.get(t));
            tetherColor.add(tetherColor.get(t));
            tetherAt.add(q, copy);
        }
        log.add(e);
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
                int bend = around.get(j);
                if (distKind.get(bend) != DistanceKind.BEND.code() || distRemoved.get(bend)) {
                    continue;
                }
                int b = other(bend, a);
                for (int m = 0; m < constraints.size(); m++) {
                    if (side[m] == SurfaceSplitter.Side.MOVE && other(constraints.get(m), p) == b) {
                        removeDistance(bend);
                        break;
                    }
                }
            }
        }
    }

    private void removeDistance(int c) {
        distRemoved.set(c, true);
        distAt.remove(distPairs.get(2 * c), c);
        distAt.remove(distPairs.get(2 * c + 1), c);
    }

    /** A stencil at p: 0 stays with p, 1 moves to the copy, 2 is removed (its hinge is on the tear). */
    private int stencilAction(int s, int p) {
        int e0 = stencils.get(4 * s);
        int e1 = stencils.get(4 * s + 1);
        int o0 = stencils.get(4 * s + 2);
        int o1 = stencils.get(4 * s + 3);
        boolean first = surface.sideOf(e0, e1, o0);
        boolean second = surface.sideOf(e0, e1, o1);
        if (p == e0 || p == e1) {
            return first != second ? 2 : first ? 1 : 0;
        }
        return (p == o0 ? first : second) ? 1 : 0;
    }

    private int other(int c, int p) {
        int a = distPairs.get(2 * c);
        return a == p ? distPairs.get(2 * c + 1) : a;
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
        appendDistance(e.a(), e.b(), e.restLength(), e.kind().code());
        if (particleColor.get(e.a()) == particleColor.get(e.b())) {
            recolorParticles = true;
        }
        log.add(e);
    }

    private void appendDistance(int a, int b, float rest, int kind) {
        int c = distRest.size();
        distPairs.add(a, b);
        distRest.add(rest);
        distKind.add(kind);
        distColor.add(freeColor(a, b));
        distRemoved.add(false);
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
                int color = distColor.get(items.get(k));
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
        if (split) {
            retargetTethers(n);
        }
        IntList keptPairs = new IntList(distPairs.size());
        FloatList keptRest = new FloatList(distRest.size());
        IntList keptColor = new IntList(distColor.size());
        IntList keptKind = new IntList(distKind.size());
        for (int c = 0; c < distRest.size(); c++) {
            if (!distRemoved.get(c)) {
                keptPairs.add(distPairs.get(2 * c), distPairs.get(2 * c + 1));
                keptRest.add(distRest.get(c));
                keptColor.add(distColor.get(c));
                keptKind.add(distKind.get(c));
            }
        }
        int[] pairs = keptPairs.toArray();
        byte[] kinds = new byte[keptKind.size()];
        for (int i = 0; i < kinds.length; i++) {
            kinds[i] = (byte) keptKind.get(i);
        }
        DistanceConstraints distances = new DistanceConstraints(pairs, keptRest.toArray(), kinds,
                Coloring.fromColors(keptColor.toArray()));

        IntList keptStencils = new IntList(stencils.size());
        FloatList keptAngles = new FloatList(stencilAngle.size());
        IntList keptColors = new IntList(stencilColor.size());
        for (int s = 0; s < stencilAngle.size(); s++) {
            if (!stencilRemoved.get(s)) {
                for (int v = 0; v < 4; v++) {
                    keptStencils.add(stencils.get(4 * s + v));
                }
                keptAngles.add(stencilAngle.get(s));
                keptColors.add(stencilColor.get(s));
            }
        }
        BendingConstraints bending = new BendingConstraints(keptStencils.toArray(), keptAngles.toArray(),
                Coloring.fromColors(keptColors.toArray()));

        IntList keptTethers = new IntList(tetherPairs.size());
        FloatList keptLengths = new FloatList(tetherLength.size());
        IntList keptTetherColors = new IntList(tetherColor.size());
        for (int t = 0; t < tetherLength.size(); t++) {
            if (tetherPairs.get(2 * t) >= 0) {
                keptTethers.add(tetherPairs.get(2 * t), tetherPairs.get(2 * t + 1));
                keptLengths.add(tetherLength.get(t));
                keptTetherColors.add(tetherColor.get(t));
            }
        }
        TetherConstraints tethers = new TetherConstraints(keptTethers.toArray(), keptLengths.toArray(),
                Coloring.fromColors(keptTetherColors.toArray()));

        Coloring particles = recolorParticles
                ? Coloring.fromColors(ParticleColoring.greedy(pairs, n, filled(n, -1)))
                : Coloring.fromColors(particleColor.toArray());
        return new Model(surface.restPositions(), invMass.toArray(), surface.triangles().clone(), uvs.toArray(),
                distances, bending, tethers, model.objects(), particles, particleObject.toArray(),
                source.toArray(), model.tearStrains().clone(), model.base(), log);
    }

    /**
     * After splits, a tether whose particle no longer reaches its anchor through the distance constraints
     * would hold a torn-off piece in the air: it moves to a pinned copy of the anchor the particle does
     * reach (a split pin), or is dropped (marked by particle −1).
     */
    private void retargetTethers(int n) {
        int[] parent = new int[n];
        for (int i = 0; i < n; i++) {
            parent[i] = i;
        }
        for (int c = 0; c < distRest.size(); c++) {
            if (!distRemoved.get(c)) {
                union(parent, distPairs.get(2 * c), distPairs.get(2 * c + 1));
            }
        }
        // (the particle a pin was split from, its component) -> the pin there
        java.util.Map<Long, Integer> pinIn = new java.util.HashMap<>();
        for (int i = 0; i < n; i++) {
            if (invMass.get(i) == 0f) {
                pinIn.putIfAbsent(key(rootOf(i), find(parent, i)), i);
            }
        }
        for (int t = 0; t < tetherLength.size(); t++) {
            int particle = tetherPairs.get(2 * t);
            int anchor = tetherPairs.get(2 * t + 1);
            int component = find(parent, particle);
            if (component == find(parent, anchor)) {
                continue;
            }
            Integer replacement = pinIn.get(key(rootOf(anchor), component));
            if (replacement != null) {
                tetherPairs.set(2 * t + 1, replacement);
            } else {
                tetherPairs.set(2 * t, -1);
            }
        }
    }

    private static long key(int root, int component) {
        return ((long) root << 32) | (component & 0xffffffffL);
    }

    /** The particle of the built model a particle was (eventually) split from. */
    private int rootOf(int i) {
        while (source.get(i) != i) {
            i = source.get(i);
        }
        return i;
    }

    private static int find(int[] parent, int i) {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }

    private static void union(int[] parent, int a, int b) {
        int ra = find(parent, a);
        int rb = find(parent, b);
        if (ra != rb) {
            parent[Math.max(ra, rb)] = Math.min(ra, rb);
        }
    }

    private static int[] filled(int n, int value) {
        int[] a = new int[n];
        java.util.Arrays.fill(a, value);
        return a;
    }
}
