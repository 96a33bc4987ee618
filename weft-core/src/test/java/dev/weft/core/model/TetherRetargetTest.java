package dev.weft.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.parallel.WorkerPool;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * After a cut, every tether holds a particle to a pin it still reaches through the cloth's own edges: a
 * piece with no pin keeps no tether, and a piece that holds a split pin's copy is tethered to the copy. The
 * editor joins most of that connectivity on a second thread before the edits run; the model is the same
 * on one thread and on two.
 */
class TetherRetargetTest {
    private static final int SIZE = 40;
    private static final int MIDDLE = SIZE / 2;

    @Test
    void aCutOffPieceKeepsOnlyTheTethersToPinsItReaches() {
        Model m = pinnedCloth();
        Model edited = m.edit(cutIntoThree(m), null);
        int n = edited.particleCount();
        int[] component = components(edited);
        boolean[] pinnedComponent = new boolean[n];
        for (int i = 0; i < n; i++) {
            if (edited.invMass()[i] == 0f) {
                pinnedComponent[component[i]] = true;
            }
        }
        int[] pairs = edited.tethers().particles();
        boolean[] tethered = new boolean[n];
        boolean anchoredAtTheMiddlePinsCopy = false;
        int middlePin = m.objects().get(0).gridParticle(0, MIDDLE);
        for (int k = 0; k < pairs.length; k += 2) {
            int particle = pairs[k];
            int anchor = pairs[k + 1];
            assertThat(edited.invMass()[anchor]).as("tether %d's anchor is pinned", k / 2).isZero();
            assertThat(component[anchor]).as("tether %d's particle %d reaches its anchor %d", k / 2, particle, anchor)
                    .isEqualTo(component[particle]);
            tethered[particle] = true;
            anchoredAtTheMiddlePinsCopy |= anchor >= m.particleCount() && edited.sourceOf(anchor) == middlePin;
        }
        // and none is dropped that still could hold: a particle whose piece holds a pin (or its copy) that it
        // was tethered to keeps a tether to it
        java.util.Set<Long> kept = new java.util.HashSet<>();
        for (int k = 0; k < pairs.length; k += 2) {
            kept.add(key(pairs[k], rootOf(edited, pairs[k + 1])));
        }
        java.util.Set<Long> pinsInComponent = new java.util.HashSet<>();
        for (int i = 0; i < n; i++) {
            if (edited.invMass()[i] == 0f) {
                pinsInComponent.add(key(component[i], rootOf(edited, i)));
            }
        }
        int[] before = m.tethers().particles();
        int checked = 0;
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < before.length; k += 2) {
                if (before[k] == rootOf(edited, i) && pinsInComponent.contains(key(component[i], before[k + 1]))) {
                    assertThat(kept).as("particle %d keeps its tether to pin %d", i, before[k + 1])
                            .contains(key(i, before[k + 1]));
                    checked++;
                }
            }
        }
        assertThat(checked).isGreaterThan(SIZE * SIZE / 2);
        int bottomLeft = m.objects().get(0).gridParticle(SIZE - 1, 0);
        assertThat(pinnedComponent[component[bottomLeft]]).as("the bottom half hangs from no pin").isFalse();
        for (int i = 0; i < n; i++) {
            if (!pinnedComponent[component[i]]) {
                assertThat(tethered[i]).as("particle %d of a piece without a pin keeps a tether", i).isFalse();
            }
        }
        // the top half is in two pieces, each with a corner pin and one side of the split middle pin
        int topLeft = m.objects().get(0).gridParticle(1, 1);
        int topRight = m.objects().get(0).gridParticle(1, SIZE - 2);
        assertThat(component[topLeft]).isNotEqualTo(component[topRight]);
        assertThat(tethered[topLeft]).isTrue();
        assertThat(tethered[topRight]).isTrue();
        assertThat(anchoredAtTheMiddlePinsCopy).as("tethers moved to the middle pin's pinned copy").isTrue();
    }

    @Test
    void twoThreadsRetargetTheSameTethersAsOne() {
        Model m = pinnedCloth();
        List<ModelEdit> edits = cutIntoThree(m);
        Model one = m.edit(edits, null);
        Model two;
        try (WorkerPool pool = new WorkerPool(2)) {
            two = m.edit(edits, pool);
            assertThat(pool.passesSplit()).as("passes split over the two threads").isPositive();
            assertThat(pool.rangesRunOnWorkers()).as("ranges the second thread ran").isPositive();
        }
        assertThat(one.tethers().count()).isLessThan(m.tethers().count()); // the cut dropped some
        assertThat(two.tethers().particles()).containsExactly(one.tethers().particles());
        assertThat(two.tethers().maxLength()).containsExactly(one.tethers().maxLength());
        assertThat(two.tethers().colorStart()).containsExactly(one.tethers().colorStart());
        assertThat(two.tethers().naturalOrder()).containsExactly(one.tethers().naturalOrder());
        assertThat(two.distances().particles()).containsExactly(one.distances().particles());
        assertThat(two.invMass()).containsExactly(one.invMass());
    }

    private static long key(int a, int b) {
        return ((long) a << 32) | b;
    }

    private static int rootOf(Model m, int i) {
        while (m.sourceOf(i) != i) {
            i = m.sourceOf(i);
        }
        return i;
    }

    /** A cloth pinned at its two top corners and the middle of its top row (a tether to each pin per particle). */
    private static Model pinnedCloth() {
        ModelBuilder b = new ModelBuilder();
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", SIZE, SIZE, 1f, 1f).withOrigin(-0.5f, 1f, -0.5f));
        b.pinCorners(cloth, "top-left", "top-right");
        b.pin(cloth.gridParticle(0, MIDDLE));
        return b.build();
    }

    /**
     * The middle row split from the row below (the bottom half falls off), then the middle column, top down
     * through the middle pin, split from its right (the top half in two).
     */
    private static List<ModelEdit> cutIntoThree(Model m) {
        ModelObject cloth = m.objects().get(0);
        float[] r = m.restPositions();
        List<ModelEdit> edits = new ArrayList<>();
        for (int c = 0; c < SIZE; c++) {
            edits.add(split(r, cloth.gridParticle(MIDDLE, c), cloth.gridParticle(MIDDLE + 1, c)));
        }
        for (int row = 0; row <= MIDDLE; row++) {
            edits.add(split(r, cloth.gridParticle(row, MIDDLE), cloth.gridParticle(row, MIDDLE + 1)));
        }
        return edits;
    }

    private static ModelEdit split(float[] r, int p, int towards) {
        return new ModelEdit.Split(p, r[3 * towards] - r[3 * p], r[3 * towards + 1] - r[3 * p + 1],
                r[3 * towards + 2] - r[3 * p + 2]);
    }

    /** Per particle a representative of the particles it reaches through stretch and shear constraints. */
    private static int[] components(Model m) {
        int n = m.particleCount();
        int[] parent = new int[n];
        for (int i = 0; i < n; i++) {
            parent[i] = i;
        }
        int[] pairs = m.distances().particles();
        byte[] kind = m.distances().kind();
        for (int c = 0; c < kind.length; c++) {
            if (kind[c] != DistanceKind.BEND.code()) {
                parent[root(parent, pairs[2 * c])] = root(parent, pairs[2 * c + 1]);
            }
        }
        int[] component = new int[n];
        for (int i = 0; i < n; i++) {
            component[i] = root(parent, i);
        }
        return component;
    }

    private static int root(int[] parent, int i) {
        while (parent[i] != i) {
            i = parent[i];
        }
        return i;
    }
}
