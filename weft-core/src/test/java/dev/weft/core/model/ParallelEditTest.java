package dev.weft.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.parallel.WorkerPool;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An edit made on two threads (the distances', tethers' and triangles' incidences on one, the stencils' rows
 * and the tethers' untouched connectivity on the other; then the layouts against the tethers' retargeting)
 * is the model the calling thread alone makes, bit for bit, on a model big enough that the work really ran
 * on the second thread.
 */
class ParallelEditTest {
    @Test
    void twoThreadsMakeTheSameModelAsOne() {
        ModelBuilder b = new ModelBuilder().bendingModel(BendingModel.DIHEDRAL);
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", 60, 60, 1f, 1f).withOrigin(-0.5f, 1f, -0.5f));
        b.pinCorners(cloth, "top-left", "top-right"); // tethers to retarget when the row is cut through
        Model m = b.build();
        float[] r = m.restPositions();
        List<ModelEdit> edits = new ArrayList<>();
        int row = 30;
        for (int c = 0; c < 60; c++) {
            int p = cloth.gridParticle(row, c);
            int below = cloth.gridParticle(row + 1, c);
            edits.add(new ModelEdit.Split(p, r[3 * below] - r[3 * p], r[3 * below + 1] - r[3 * p + 1],
                    r[3 * below + 2] - r[3 * p + 2]));
        }
        edits.add(new ModelEdit.AddDistance(cloth.gridParticle(5, 5), cloth.gridParticle(50, 50), 0.2f,
                DistanceKind.STRETCH));
        Model one = m.edit(edits, null);
        Model two;
        try (WorkerPool pool = new WorkerPool(2)) {
            two = m.edit(edits, pool);
            assertThat(pool.rangesRunOnWorkers()).as("ranges the second thread ran").isPositive();
        }
        assertThat(two.particleCount()).isEqualTo(one.particleCount()).isGreaterThan(m.particleCount());
        assertThat(two.invMass()).containsExactly(one.invMass());
        assertThat(two.triangles()).containsExactly(one.triangles());
        assertThat(two.sources()).containsExactly(one.sources());
        for (ColoredConstraints[] sets : new ColoredConstraints[][] {{one.distances(), two.distances()},
            {one.bending(), two.bending()}, {one.tethers(), two.tethers()}}) {
            assertThat(sets[1].particles()).containsExactly(sets[0].particles());
            assertThat(sets[1].colorStart()).containsExactly(sets[0].colorStart());
            assertThat(sets[1].naturalOrder()).containsExactly(sets[0].naturalOrder());
        }
        assertThat(two.distances().restLength()).containsExactly(one.distances().restLength());
        assertThat(two.distances().kind()).containsExactly(one.distances().kind());
        assertThat(two.bending().restAngle()).containsExactly(one.bending().restAngle());
        assertThat(two.tethers().maxLength()).containsExactly(one.tethers().maxLength());
        for (int i = 0; i < one.particleCount(); i++) {
            assertThat(two.particleColoring().colorOf(i)).isEqualTo(one.particleColoring().colorOf(i));
        }
    }
}
