package dev.weft.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.coloring.ParticleColoring;
import dev.weft.core.mesh.TriangleMesh;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * What every edit keeps, for any sequence of splits and new distance constraints on any body: each
 * constraint set's coloring is still a coloring (no two constraints of a color share a particle, so
 * colored passes stay race-free and thread-count independent), the particle coloring still separates
 * every constrained pair, mass is conserved (a split shares a particle's mass out), every triangle and
 * constraint names particles of the model, the hinge stiffness carried through the edits is the edited
 * model's own, and the log replays to the same model.
 */
class ModelEditProperties {
    static Model body(int kind, boolean distanceBending) {
        ModelBuilder b = new ModelBuilder().bendingModel(distanceBending ? BendingModel.DISTANCE : BendingModel.DIHEDRAL);
        switch (kind) {
            case 0: {
                ModelObject c = b.addGridCloth(GridClothSpec.of("grid", 9, 7, 0.8f, 0.6f));
                b.pinCorners(c, "top-left", "top-right");
                break;
            }
            case 1: {
                // a disc-like mesh: a fan of triangles, unevenly sized
                int ring = 10;
                float[] v = new float[3 * (2 * ring + 1)];
                List<Integer> t = new ArrayList<>();
                for (int i = 0; i < ring; i++) {
                    double a = 2 * Math.PI * i / ring;
                    v[3 * (1 + i)] = (float) (0.3 * Math.cos(a));
                    v[3 * (1 + i) + 2] = (float) (0.3 * Math.sin(a));
                    v[3 * (1 + ring + i)] = (float) (0.6 * Math.cos(a + 0.3));
                    v[3 * (1 + ring + i) + 2] = (float) (0.6 * Math.sin(a + 0.3));
                }
                for (int i = 0; i < ring; i++) {
                    int a = 1 + i;
                    int bb = 1 + (i + 1) % ring;
                    int oa = 1 + ring + i;
                    int ob = 1 + ring + (i + 1) % ring;
                    t.addAll(List.of(0, a, bb, a, oa, bb, bb, oa, ob));
                }
                int[] tri = t.stream().mapToInt(Integer::intValue).toArray();
                b.addMeshCloth("disc", new TriangleMesh(v, null, tri));
                break;
            }
            default: {
                ModelObject r = b.addRope(new RopeSpec("rope", new float[] {0f, 1f, 0f, 1f, 1f, 0f}, 12, 0.1f));
                b.pinIndices(r, 0);
                break;
            }
        }
        return b.build();
    }

    static List<ModelEdit> randomEdits(Model m, long seed, int count) {
        Random rnd = new Random(seed);
        List<ModelEdit> edits = new ArrayList<>();
        int n = m.particleCount();
        for (int k = 0; k < count; k++) {
            if (rnd.nextInt(5) == 0) {
                int a = rnd.nextInt(n);
                int b = rnd.nextInt(n);
                if (a != b) {
                    edits.add(new ModelEdit.AddDistance(a, b, rnd.nextFloat() * 0.1f, DistanceKind.STRETCH));
                }
            } else {
                edits.add(new ModelEdit.Split(rnd.nextInt(n), (float) rnd.nextGaussian(), (float) rnd.nextGaussian(),
                        (float) rnd.nextGaussian()));
            }
        }
        return edits;
    }

    @Property(tries = 120)
    void editsKeepColoringsMassAndIndices(@ForAll @IntRange(min = 0, max = 2) int kind,
                                          @ForAll boolean distanceBending, @ForAll long seed,
                                          @ForAll @IntRange(min = 1, max = 40) int count) {
        Model m = body(kind, distanceBending);
        m.hingeStiffness(); // computed before the edits, so that they carry it
        double mass = m.totalFreeMass();
        int pins = m.pinnedCount();
        // in one batch, and again in batches of one (the way tearing applies them frame by frame)
        List<ModelEdit> edits = randomEdits(m, seed, count);
        Model once = m.edit(edits);
        Model stepwise = m;
        for (ModelEdit e : edits) {
            stepwise = stepwise.edit(List.of(e));
        }
        for (Model e : List.of(once, stepwise)) {
            int n = e.particleCount();
            assertThat(n).isEqualTo(m.particleCount() + (int) e.edits().stream()
                    .filter(x -> x instanceof ModelEdit.Split).count());
            assertColoring(e.distances(), n);
            assertColoring(e.bending(), n);
            assertTetherColoring(e.tethers(), n);
            assertThat(ParticleColoring.isValid(e.particleColoring(), e.distances().particles())).isTrue();
            for (int t : e.triangles()) {
                assertThat(t).isBetween(0, n - 1);
            }
            assertThat(e.totalFreeMass()).isCloseTo(mass, org.assertj.core.data.Offset.offset(1e-5 * mass));
            // a pinned particle's copies are pinned: pins only multiply
            assertThat(e.pinnedCount()).isGreaterThanOrEqualTo(pins);
            // the hinge stiffness the edits carried is what the edited model's own rest shape and materials give
            assertThat(e.hingeStiffness()).isEqualTo(MaterialParameters.hingeStiffness(e));
            for (int i = m.particleCount(); i < n; i++) {
                assertThat(e.sourceOf(i)).isLessThan(i);
                assertThat(e.isPinned(i)).isEqualTo(e.isPinned(e.sourceOf(i)));
            }
        }
        assertThat(stepwise.edits()).isEqualTo(once.edits());
        assertThat(stepwise.triangles()).isEqualTo(once.triangles());
        assertThat(stepwise.invMass()).isEqualTo(once.invMass());
        // the log replayed onto the base model gives the same model
        Model replayed = m.edit(once.edits());
        assertThat(replayed.triangles()).isEqualTo(once.triangles());
        assertThat(replayed.distances().particles()).isEqualTo(once.distances().particles());
    }

    /**
     * An edit hands the model it makes the tear lengths copied from its own (a split keeps each constraint's rest
     * length, kind and body) and computed for the constraints it adds: they must be exactly what the edited
     * model's own constraints give, batch after batch.
     */
    @Property(tries = 80)
    void editsCarryTheTearLengthsTheEditedConstraintsHave(@ForAll @IntRange(min = 0, max = 2) int kind,
                                                          @ForAll boolean distanceBending, @ForAll long seed,
                                                          @ForAll @IntRange(min = 1, max = 30) int count) {
        Model e = body(kind, distanceBending);
        e.tearLengthsSquared();
        Random rnd = new Random(seed);
        for (int batch = 0; batch < 4; batch++) {
            e = e.edit(randomEdits(e, rnd.nextLong(), count));
            assertTearLengths(e);
        }
    }

    /** The model's tear lengths are those its constraints give. */
    static void assertTearLengths(Model e) {
        float[] tear = e.tearLengthsSquared();
        assertThat(tear).hasSize(e.distances().count());
        for (int c = 0; c < tear.length; c++) {
            assertThat(tear[c]).isEqualTo(e.tearLengthSquared(c));
        }
    }

    static void assertColoring(ColoredConstraints set, int n) {
        int[] p = set.particles();
        int arity = set.arity();
        int[] start = set.colorStart();
        int[] seen = new int[n];
        java.util.Arrays.fill(seen, -1);
        for (int c = 0; c + 1 < start.length; c++) {
            for (int k = start[c]; k < start[c + 1]; k++) {
                for (int v = 0; v < arity; v++) {
                    int q = p[arity * k + v];
                    assertThat(q).isBetween(0, n - 1);
                    assertThat(seen[q]).as("color %d has two constraints at particle %d", c, q).isNotEqualTo(c);
                    seen[q] = c;
                }
            }
        }
    }

    /** Only a tether's particle is written: no color may hold two tethers of one particle. */
    static void assertTetherColoring(TetherConstraints set, int n) {
        int[] p = set.particles();
        int[] start = set.colorStart();
        int[] seen = new int[n];
        java.util.Arrays.fill(seen, -1);
        for (int c = 0; c + 1 < start.length; c++) {
            for (int k = start[c]; k < start[c + 1]; k++) {
                int q = p[2 * k];
                assertThat(seen[q]).isNotEqualTo(c);
                seen[q] = c;
                assertThat(p[2 * k + 1]).isBetween(0, n - 1);
            }
        }
    }
}
