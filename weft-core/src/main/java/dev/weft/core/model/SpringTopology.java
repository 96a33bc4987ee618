package dev.weft.core.model;

import dev.weft.core.mesh.MeshTopology;
import dev.weft.core.util.FloatList;
import dev.weft.core.util.IntList;
import java.util.HashSet;
import java.util.Set;

/**
 * The springs of a model in its {@link SpringLayout} (what the spring solvers, implicit and mass-spring,
 * simulate): particle pairs, rest lengths and kinds, in flat arrays. Made by the model from its own
 * topology ({@link Model#springs()}), so every spring solver sees the same springs. An edited model's
 * springs are its base model's with the edit log replayed onto them ({@link SurfaceSplitter#replay}): a
 * split moves a spring with the triangles it borders or the side its other particle lies on, keeps a
 * spring along the tear on both sides, and a new distance constraint is a new spring.
 */
public final class SpringTopology {
    private final int[] pairs;
    private final float[] rest;
    private final byte[] kind;
    /** Per spring the material it has of its own (a seam's thread), or null for its bodies'; null when none has one. */
    private final Material[] own;

    private SpringTopology(int[] pairs, float[] rest, byte[] kind, Material[] own) {
        this.pairs = pairs;
        this.rest = rest;
        this.kind = kind;
        this.own = own;
    }

    static SpringTopology of(Model model) {
        Builder b = baseSprings(model.base(), model.springLayout());
        if (!model.edits().isEmpty()) {
            b.replay(model);
            b = b.kept();
        }
        return new SpringTopology(b.pairs.toArray(), b.rest.toArray(), b.kindArray(),
                b.ownArray(model.distances().ownMaterials()));
    }

    public int count() {
        return rest.length;
    }

    /** Two particle indices per spring. Do not modify. */
    public int[] pairs() {
        return pairs;
    }

    public float[] restLength() {
        return rest;
    }

    /** {@link DistanceKind#code()} per spring. */
    public byte[] kind() {
        return kind;
    }

    /** The material spring s has of its own (a seam sewn with its own thread), or null where its bodies' apply. */
    public Material ownMaterial(int s) {
        return own == null ? null : own[s];
    }

    private static Builder baseSprings(Model model, SpringLayout layout) {
        Builder b = new Builder(model.restPositions());
        DistanceConstraints d = model.distances();
        for (ModelObject o : model.objects()) {
            switch (o.type()) {
                case GRID_CLOTH:
                    if (layout == SpringLayout.MESH) {
                        b.meshSprings(model, o);
                    } else {
                        b.gridSprings(o, layout);
                    }
                    break;
                case MESH_CLOTH:
                    b.meshSprings(model, o);
                    break;
                case ROPE:
                case VOXEL_BODY:
                case TET_BODY:
                    // no layout of its own: its springs are its constraints (a tetrahedral body has none: its
                    // tetrahedra are ElasticTetForces')
                    int[] p = d.particles();
                    byte[] k = d.kind();
                    for (int c = 0; c < d.count(); c++) {
                        int a = p[2 * c];
                        if (a >= o.firstParticle() && a < o.firstParticle() + o.particleCount()) {
                            b.add(a, p[2 * c + 1], DistanceKind.of(k[c]));
                        }
                    }
                    break;
                default:
                    throw new AssertionError(o.type());
            }
        }
        // seams (rest length 0; ModelBuilder.sew) are the model's, not a layout's: springs of length 0
        float[] rest = d.restLength();
        int[] pairs = d.particles();
        byte[] kinds = d.kind();
        short[] own = d.ownMaterialIndex();
        for (int c = 0; c < rest.length; c++) {
            if (rest[c] == 0f) {
                b.append(pairs[2 * c], pairs[2 * c + 1], 0f, kinds[c], own == null ? -1 : own[c]);
            }
        }
        return b;
    }

    /** Collects unique springs. */
    private static final class Builder {
        private final float[] x;
        private final IntList pairs = new IntList(1024);
        private final FloatList rest = new FloatList(512);
        private final IntList kinds = new IntList(512);
        /** Per spring an index into the distance constraints' own materials, or −1. */
        private final IntList owns = new IntList(512);
        private final Set<Long> seen = new HashSet<>();
        private final java.util.BitSet removed = new java.util.BitSet();

        Builder(float[] x) {
            this.x = x;
        }

        void add(int a, int b, DistanceKind kind) {
            if (a == b) {
                return;
            }
            long key = ((long) Math.min(a, b) << 32) | Math.max(a, b);
            if (!seen.add(key)) {
                return;
            }
            float dx = x[3 * b] - x[3 * a];
            float dy = x[3 * b + 1] - x[3 * a + 1];
            float dz = x[3 * b + 2] - x[3 * a + 2];
            pairs.add(a, b);
            rest.add((float) Math.sqrt(dx * dx + dy * dy + dz * dz));
            kinds.add(kind.code());
            owns.add(-1);
        }

        void gridSprings(ModelObject o, SpringLayout layout) {
            int cols = o.gridCols();
            int rows = o.gridRows();
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < cols; c++) {
                    // Offsets "after" (0, 0) in row-major order, so every pair is made once.
                    for (int dr = 0; dr <= 2; dr++) {
                        for (int dc = -2; dc <= 2; dc++) {
                            if (dr == 0 && dc <= 0) {
                                continue;
                            }
                            int rr = r + dr;
                            int cc = c + dc;
                            if (rr >= rows || cc < 0 || cc >= cols) {
                                continue;
                            }
                            DistanceKind k = stencilKind(dr, dc, layout);
                            if (k != null) {
                                add(o.gridParticle(r, c), o.gridParticle(rr, cc), k);
                            }
                        }
                    }
                }
            }
        }

        /** Type of the spring to offset (dr, dc), or null when the layout has none there. */
        private static DistanceKind stencilKind(int dr, int dc, SpringLayout layout) {
            int adr = Math.abs(dr);
            int adc = Math.abs(dc);
            if (adr + adc == 1) {
                return DistanceKind.STRETCH;
            }
            if (adr == 1 && adc == 1) {
                return DistanceKind.SHEAR;
            }
            if (layout == SpringLayout.STENCIL_24) {
                return DistanceKind.BEND;
            }
            // Seed 004's bend springs skip one particle along an axis.
            return (adr == 2 && adc == 0) || (adr == 0 && adc == 2) ? DistanceKind.BEND : null;
        }

        void meshSprings(Model model, ModelObject o) {
            int first = o.firstParticle();
            int[] all = model.triangles();
            int[] local = new int[3 * o.triangleCount()];
            for (int t = 0; t < local.length; t++) {
                local[t] = all[3 * o.firstTriangle() + t] - first;
            }
            MeshTopology topology = MeshTopology.of(o.particleCount(), local);
            int[] edges = topology.edges();
            for (int e = 0; e < edges.length; e += 2) {
                add(first + edges[e], first + edges[e + 1], DistanceKind.STRETCH);
            }
            int[] stencils = topology.bendingStencils();
            for (int s = 0; s < stencils.length; s += 4) {
                add(first + stencils[s + 2], first + stencils[s + 3], DistanceKind.BEND);
            }
        }

        /** Applies {@code model}'s edit log to the springs made for its base model. */
        void replay(Model model) {
            MutableIncidence at = new MutableIncidence(pairs.toArray(), 2, model.base().particleCount());
            SurfaceSplitter.replay(model, new SurfaceSplitter.PairVisitor() {
                @Override
                public void split(SurfaceSplitter s, int p, int q) {
                    IntList springs = at.itemsOf(p);
                    SurfaceSplitter.Side[] side = new SurfaceSplitter.Side[springs.size()];
                    for (int k = 0; k < springs.size(); k++) {
                        int spring = springs.get(k);
                        side[k] = s.side(pairs.get(2 * spring) == p ? pairs.get(2 * spring + 1) : pairs.get(2 * spring));
                    }
                    removeBendingAcross(at, p, springs, side);
                    for (int k = 0; k < springs.size(); k++) {
                        int spring = springs.get(k);
                        int slot = pairs.get(2 * spring) == p ? 2 * spring : 2 * spring + 1;
                        int r = pairs.get(slot ^ 1);
                        if (side[k] == SurfaceSplitter.Side.MOVE) {
                            pairs.set(slot, q);
                            at.remove(p, spring);
                            at.add(q, spring);
                        } else if (side[k] == SurfaceSplitter.Side.BOTH) {
                            at.add(q, count());
                            at.add(r, count());
                            append(q, r, rest.get(spring), kinds.get(spring), owns.get(spring));
                        }
                    }
                }

                @Override
                public void other(ModelEdit e) {
                    ModelEdit.AddDistance add = (ModelEdit.AddDistance) e;
                    at.add(add.a(), count());
                    at.add(add.b(), count());
                    append(add.a(), add.b(), add.restLength(), add.kind().code(), -1);
                }
            });
        }

        /** As ModelEditor: a bend spring between two neighbours of the split particle, one on each side, goes. */
        private void removeBendingAcross(MutableIncidence at, int p, IntList springs, SurfaceSplitter.Side[] side) {
            for (int k = 0; k < springs.size(); k++) {
                if (side[k] != SurfaceSplitter.Side.KEEP) {
                    continue;
                }
                int a = other(springs.get(k), p);
                IntList around = at.itemsOf(a);
                for (int j = 0; j < around.size(); j++) {
                    int bend = around.get(j);
                    if (kinds.get(bend) != DistanceKind.BEND.code() || removed.get(bend)) {
                        continue;
                    }
                    int b = other(bend, a);
                    for (int m = 0; m < springs.size(); m++) {
                        if (side[m] == SurfaceSplitter.Side.MOVE && other(springs.get(m), p) == b) {
                            removed.set(bend);
                            at.remove(a, bend);
                            at.remove(b, bend);
                            break;
                        }
                    }
                }
            }
        }

        private int other(int spring, int p) {
            int a = pairs.get(2 * spring);
            return a == p ? pairs.get(2 * spring + 1) : a;
        }

        /** The springs not removed by the replay. */
        Builder kept() {
            if (removed.isEmpty()) {
                return this;
            }
            Builder out = new Builder(x);
            for (int k = 0; k < rest.size(); k++) {
                if (!removed.get(k)) {
                    out.append(pairs.get(2 * k), pairs.get(2 * k + 1), rest.get(k), kinds.get(k), owns.get(k));
                }
            }
            return out;
        }

        private int count() {
            return rest.size();
        }

        private void append(int a, int b, float length, int kind, int own) {
            pairs.add(a, b);
            rest.add(length);
            kinds.add(kind);
            owns.add(own);
        }

        /** Each spring's own material from {@code table}, or null when no spring has one. */
        Material[] ownArray(Material[] table) {
            Material[] out = null;
            for (int i = 0; i < owns.size(); i++) {
                if (owns.get(i) >= 0) {
                    if (out == null) {
                        out = new Material[owns.size()];
                    }
                    out[i] = table[owns.get(i)];
                }
            }
            return out;
        }

        byte[] kindArray() {
            byte[] out = new byte[kinds.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = (byte) kinds.get(i);
            }
            return out;
        }
    }
}
