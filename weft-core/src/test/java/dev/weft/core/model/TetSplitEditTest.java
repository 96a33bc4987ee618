package dev.weft.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.Icosphere;
import dev.weft.core.interact.TetSurfaceChecks;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The edit API's split of a tetrahedral node ({@link TetSplitter}, issue #18): which tetrahedra go, the mass
 * they take, the surface it opens, the colorings it keeps, and that a log replays to the same model.
 */
class TetSplitEditTest {
    private static final float DENSITY = 1000f;

    /** A 0.4 × 0.1 × 0.1 m block of 4 × 1 × 1 cubes (5 × 2 × 2 nodes), and a grid cloth after it when asked. */
    private static Model block(boolean withCloth) {
        ModelBuilder b = new ModelBuilder();
        b.addTetBody(TetBodySpec.box("block", new float[] {0f, 0f, 0f}, new float[] {0.4f, 0.1f, 0.1f}, 4, 1, 1,
                DENSITY, new Elasticity(1e5f, 0.3f)));
        if (withCloth) {
            b.addGridCloth(GridClothSpec.of("cloth", 6, 6, 0.5f, 0.5f).withOrigin(1f, 1f, 0f));
        }
        return b.build();
    }

    /** The node at rest position (x, y, z). */
    private static int node(Model m, float x, float y, float z) {
        float[] r = m.restPositions();
        for (int i = 0; i < r.length / 3; i++) {
            if (r[3 * i] == x && r[3 * i + 1] == y && r[3 * i + 2] == z) {
                return i;
            }
        }
        throw new AssertionError("no node at " + x + ", " + y + ", " + z);
    }

    @Test
    void aSplitGivesTheCopyThePositiveSidesTetrahedraAndTheirShareOfTheMass() {
        Model m = block(false);
        int p = node(m, 0.2f, 0f, 0f);
        Model e = m.edit(List.of(new ModelEdit.Split(p, 1f, 0f, 0f)));
        assertThat(e.edits()).hasSize(1);
        int q = m.particleCount();
        assertThat(e.particleCount()).isEqualTo(q + 1);
        assertThat(e.sourceOf(q)).isEqualTo(p);
        assertThat(e.restPositions()[3 * q]).isEqualTo(0.2f);
        // every tetrahedron at the copy lies beyond the plane x = 0.2, every one still at the node before it
        int[] t = e.tets().particles();
        float[] r = e.restPositions();
        int atCopy = 0;
        int atNode = 0;
        for (int c = 0; c < e.tets().count(); c++) {
            double cx = 0;
            boolean hasP = false;
            boolean hasQ = false;
            for (int k = 0; k < 4; k++) {
                cx += r[3 * t[4 * c + k]] / 4.0;
                hasP |= t[4 * c + k] == p;
                hasQ |= t[4 * c + k] == q;
            }
            if (hasQ) {
                atCopy++;
                assertThat(cx).isGreaterThan(0.2);
            }
            if (hasP) {
                atNode++;
                assertThat(cx).isLessThan(0.2);
            }
        }
        assertThat(atCopy).isPositive();
        assertThat(atNode).isPositive();
        // mass: the total kept, each node's the quarter of rho V0 of its tetrahedra
        assertThat(e.totalFreeMass()).isCloseTo(m.totalFreeMass(), within(1e-6 * m.totalFreeMass()));
        assertQuarterMasses(e);
        // the rest data and colors of the tetrahedra are the model's; each color still a coloring
        assertThat(e.tets().restVolume()).isSameAs(m.tets().restVolume());
        assertThat(e.tets().colorStart()).isEqualTo(m.tets().colorStart());
        assertColoringsHold(e);
        TetSurfaceChecks.assertBoundaryOfTets(e);
        // the copy starts where and as fast as its node
        State s = State.atRest(m);
        s.velocities()[3 * p + 1] = 2f;
        State grown = s.resizedFor(e);
        assertThat(grown.velocities()[3 * q + 1]).isEqualTo(2f);
    }

    @Test
    void aSplitThatLeavesOneSideEmptyIsSkippedAndNotLogged() {
        Model m = block(false);
        // a corner node: every tetrahedron at it lies on the plane's positive side
        Model e = m.edit(List.of(new ModelEdit.Split(node(m, 0f, 0f, 0f), 1f, 0f, 0f)));
        assertThat(e.edits()).isEmpty();
        assertThat(e.particleCount()).isEqualTo(m.particleCount());
        assertThat(e.triangles()).isEqualTo(m.triangles());
    }

    @Test
    void aCrossSectionSplitNodeByNodeCutsTheBlockInTwoWithAClosedSurfaceOnEachPiece() {
        Model m = block(false);
        Model e = m;
        for (float y : new float[] {0f, 0.1f}) {
            for (float z : new float[] {0f, 0.1f}) {
                e = e.edit(List.of(new ModelEdit.Split(node(m, 0.2f, y, z), 1f, 0f, 0f)));
                TetSurfaceChecks.assertBoundaryOfTets(e);
                assertColoringsHold(e);
            }
        }
        assertThat(e.edits()).hasSize(4);
        // two pieces of two cubes each: 2 × (2 end squares + 2 × 4 side squares) × 2 triangles, a manifold
        assertThat(e.objects().get(0).triangleCount()).isEqualTo(2 * (2 + 8) * 2);
        assertThat(TetSurfaceChecks.nonManifoldEdges(e, 0)).isZero();
        assertQuarterMasses(e);
    }

    /**
     * Crack faces go into their body's range, so a body after it moves up: a cut of that body logged after the
     * split names triangles in the moved-up numbering, and one batch of the whole log must give the same model.
     */
    @Test
    void aLogReplayedInOneBatchGivesTheModelItsBatchesGave() {
        Model m = block(true);
        Model torn = m.edit(List.of(new ModelEdit.Split(node(m, 0.2f, 0f, 0f), 1f, 0f, 0f)));
        torn = torn.edit(List.of(new ModelEdit.Split(node(m, 0.2f, 0.1f, 0f), 1f, 0f, 0f)));
        assertThat(torn.objects().get(1).firstTriangle()).isGreaterThan(m.objects().get(1).firstTriangle());
        // a cut of the cloth's middle particle: its triangles right of it go
        ModelObject cloth = torn.objects().get(1);
        int particle = cloth.gridParticle(3, 3);
        float[] r = torn.restPositions();
        int[] tri = torn.triangles();
        List<Integer> right = new ArrayList<>();
        for (int k = cloth.firstTriangle(); k < cloth.firstTriangle() + cloth.triangleCount(); k++) {
            boolean at = tri[3 * k] == particle || tri[3 * k + 1] == particle || tri[3 * k + 2] == particle;
            float cx = (r[3 * tri[3 * k]] + r[3 * tri[3 * k + 1]] + r[3 * tri[3 * k + 2]]) / 3f;
            if (at && cx > r[3 * particle]) {
                right.add(k);
            }
        }
        int[] moved = right.stream().mapToInt(Integer::intValue).toArray();
        Model cut = torn.edit(List.of(new ModelEdit.Detach(particle, moved, 1f, 0f, 0f)));
        cut = cut.edit(List.of(new ModelEdit.Split(node(m, 0.2f, 0f, 0.1f), 1f, 0f, 0f)));
        assertThat(cut.edits()).hasSize(4);
        // the cut separated the cloth there: its copy holds exactly the named triangles
        int copy = m.particleCount() + 2;
        int[] ct = cut.triangles();
        int holding = 0;
        for (int v : ct) {
            holding += v == copy ? 1 : 0;
        }
        assertThat(holding).isEqualTo(moved.length);

        Model replayed = m.edit(cut.edits());
        assertThat(replayed.edits()).isEqualTo(cut.edits());
        assertThat(replayed.triangles()).isEqualTo(cut.triangles());
        assertThat(replayed.objects()).isEqualTo(cut.objects());
        assertThat(replayed.invMass()).isEqualTo(cut.invMass());
        assertThat(replayed.tets().particles()).isEqualTo(cut.tets().particles());
        assertThat(replayed.distances().particles()).isEqualTo(cut.distances().particles());
        TetSurfaceChecks.assertBoundaryOfTets(replayed);
    }

    @Test
    void aCutThroughATetrahedralNodeIsRefusedByName() {
        Model m = block(false);
        int p = node(m, 0.2f, 0f, 0f);
        int[] at = m.triangleIncidence().items();
        assertThatThrownBy(() -> m.edit(List.of(new ModelEdit.Detach(p, new int[] {at[m.triangleIncidence()
                .start()[p]]}, 1f, 0f, 0f))))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("tetrahedral body")
                .hasMessageContaining("ModelEdit.Split");
    }

    @Test
    void aVoxelBodysVolumeTetrahedraAreRefusedByName() {
        ModelBuilder b = new ModelBuilder();
        b.addVoxelBody(new VoxelBodySpec("jelly", Icosphere.of(0.1f, 2), 0.05f, 1000f, false, true));
        Model m = b.build();
        int p = m.tets().particles()[0];
        assertThatThrownBy(() -> m.edit(List.of(new ModelEdit.Split(p, 1f, 0f, 0f))))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("voxel body");
    }

    /** A skinned body's skin vertices ride on the tetrahedra they were embedded in, copy corners and all. */
    @Test
    void aSkinFollowsItsTetrahedraToTheCopy() {
        ModelBuilder b = new ModelBuilder();
        b.addTetBody(TetBodySpec.voxelized("ball", Icosphere.of(0.2f, 3), 0.05f, 1000f, new Elasticity(1e5f, 0.4f)));
        Model m = b.build();
        // the node nearest the centre, split by the plane x = its x
        float[] r = m.restPositions();
        int p = 0;
        for (int i = 0; i < r.length / 3; i++) {
            if (r[3 * i] * r[3 * i] + r[3 * i + 1] * r[3 * i + 1] + r[3 * i + 2] * r[3 * i + 2]
                    < r[3 * p] * r[3 * p] + r[3 * p + 1] * r[3 * p + 1] + r[3 * p + 2] * r[3 * p + 2]) {
                p = i;
            }
        }
        Model e = m.edit(List.of(new ModelEdit.Split(p, 1f, 0f, 0f)));
        assertThat(e.edits()).hasSize(1);
        Skin before = m.skins().get(0);
        Skin after = e.skins().get(0);
        assertThat(after.weights()).isSameAs(before.weights());
        int[] t = e.tets().particles();
        List<String> sets = new ArrayList<>();
        for (int c = 0; c < e.tets().count(); c++) {
            sets.add(sorted(t, 4 * c));
        }
        int repointed = 0;
        for (int v = 0; v < after.vertexCount(); v++) {
            assertThat(sets).as("skin vertex %d rides on a tetrahedron", v).contains(sorted(after.corners(), 4 * v));
            repointed += Arrays.equals(Arrays.copyOfRange(after.corners(), 4 * v, 4 * v + 4),
                    Arrays.copyOfRange(before.corners(), 4 * v, 4 * v + 4)) ? 0 : 1;
        }
        // the ball's centre node carries some skin only where the skin comes near it: none, or some moved
        assertThat(repointed).isGreaterThanOrEqualTo(0);
        // drawn: particles then the skin, the same count of drawn triangles
        assertThat(e.drawnSurface().triangles().length).isEqualTo(m.drawnSurface().triangles().length);
    }

    /**
     * Random splits (any node, copies included, any normal) of a 3 × 2 × 2 block, applied one at a time and as one
     * batch: after each, the surface is the boundary of the tetrahedra, the colorings hold, every node has its
     * quarter masses; the batch gives the same model; a skipped split is not logged.
     */
    @Test
    void randomSplitsKeepTheBoundaryColoringsAndMassesAndReplay() {
        java.util.Random random = new java.util.Random(18);
        int done = 0;
        for (int trial = 0; trial < 40; trial++) {
            ModelBuilder b = new ModelBuilder();
            b.addTetBody(TetBodySpec.box("block", new float[] {0f, 0f, 0f}, new float[] {0.3f, 0.2f, 0.2f}, 3, 2, 2,
                    DENSITY, new Elasticity(1e5f, 0.3f)));
            Model m = b.build();
            Model e = m;
            List<ModelEdit> asked = new ArrayList<>();
            for (int k = 0; k < 8; k++) {
                ModelEdit.Split split = new ModelEdit.Split(random.nextInt(e.particleCount()),
                        (float) random.nextGaussian(), (float) random.nextGaussian(), (float) random.nextGaussian());
                asked.add(split);
                Model next = e.edit(List.of(split));
                assertThat(next.particleCount() - e.particleCount()).isEqualTo(next.edits().size() - e.edits().size());
                e = next;
                TetSurfaceChecks.assertBoundaryOfTets(e);
                assertColoringsHold(e);
                assertQuarterMasses(e);
                assertThat(e.totalFreeMass()).isCloseTo(m.totalFreeMass(), within(1e-6 * m.totalFreeMass()));
            }
            Model batch = m.edit(asked);
            assertThat(batch.edits()).isEqualTo(e.edits());
            assertThat(batch.triangles()).isEqualTo(e.triangles());
            assertThat(batch.tets().particles()).isEqualTo(e.tets().particles());
            assertThat(batch.invMass()).isEqualTo(e.invMass());
            done += e.edits().size();
        }
        assertThat(done).as("splits carried out (the others separated nothing or would be non-manifold)")
                .isGreaterThan(100);
    }

    private static String sorted(int[] a, int from) {
        int[] s = Arrays.copyOfRange(a, from, from + 4);
        Arrays.sort(s);
        return Arrays.toString(s);
    }

    static void assertQuarterMasses(Model m) {
        double[] mass = new double[m.particleCount()];
        int[] p = m.tets().particles();
        for (int c = 0; c < m.tets().count(); c++) {
            for (int k = 0; k < 4; k++) {
                mass[p[4 * c + k]] += DENSITY * m.tets().restVolume()[c] / 4.0;
            }
        }
        float[] w = m.invMass();
        for (int i = 0; i < m.particleCount(); i++) {
            if (w[i] > 0f && m.objects().get(m.objectOf(i)).type() == ModelObject.Type.TET_BODY) {
                assertThat(1.0 / w[i]).as("mass of node %d", i).isCloseTo(mass[i], within(1e-5 * mass[i]));
            }
        }
    }

    /** Every tetrahedron color touches a particle once; no elastic tetrahedron joins two particles of one color. */
    static void assertColoringsHold(Model m) {
        TetConstraints t = m.tets();
        int[] p = t.particles();
        int[] start = t.colorStart();
        for (int c = 0; c + 1 < start.length; c++) {
            java.util.Set<Integer> seen = new java.util.HashSet<>();
            for (int k = 4 * start[c]; k < 4 * start[c + 1]; k++) {
                assertThat(seen.add(p[k])).as("color %d touches particle %d once", c, p[k]).isTrue();
            }
        }
        for (int c = 0; c < t.count(); c++) {
            for (int i = 0; i < 4; i++) {
                for (int j = i + 1; j < 4; j++) {
                    assertThat(m.particleColoring().colorOf(p[4 * c + i]))
                            .isNotEqualTo(m.particleColoring().colorOf(p[4 * c + j]));
                }
            }
        }
    }
}
