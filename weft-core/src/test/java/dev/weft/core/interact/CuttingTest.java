package dev.weft.core.interact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.InvalidInputException;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.scene.BuiltInScenes;
import dev.weft.core.scene.Scene;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.Solvers;
import dev.weft.core.step.Environment;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue #13's cutting laws (seed 002): a cut leaves exactly the pieces its line makes. */
class CuttingTest {
    /** A 21 x 21 cloth, 1 m, hanging in the XY plane from its top edge (pinned) or from nothing. */
    static Model hanging(boolean pinTop, BendingModel bending) {
        ModelBuilder b = new ModelBuilder().bendingModel(bending);
        ModelObject c = b.addGridCloth(GridClothSpec.of("c", 21, 21, 1f, 1f).withOrigin(-0.5f, 1.8f, 0f)
                .withAxes(GridClothSpec.VERTICAL[0], GridClothSpec.VERTICAL[1]));
        if (pinTop) {
            b.pinEdge(c, "top");
        }
        return b.build();
    }

    /** A vertical cut surface x = {@code x0} through the whole cloth (and 0.5 m beyond it on every side). */
    static List<dev.weft.core.model.ModelEdit> verticalCut(Model m, float x0) {
        return Cutting.across(m, m.restPositions(), new float[] {x0, 2.5f, -0.5f}, new float[] {0f, 0f, 1f},
                new float[] {0f, -2f, 0f});
    }

    @ParameterizedTest
    @ValueSource(strings = {"distance", "dihedral"})
    void aCutAcrossTheWholeClothLeavesTwoPiecesAndNoTriangleAcross(String bending) {
        Model m = hanging(false, "distance".equals(bending) ? BendingModel.DISTANCE : BendingModel.DIHEDRAL);
        m.hingeStiffness(); // computed before the cut, which carries it
        Model cut = m.edit(verticalCut(m, 0.013f));
        assertThat(cut.hingeStiffness()).isEqualTo(dev.weft.core.model.MaterialParameters.hingeStiffness(cut));
        int[] piece = TearingTest.Components.of(cut);
        assertThat(TearingTest.Components.count(piece)).isEqualTo(2);
        assertThat(TearingTest.Components.trianglesAcross(cut, piece)).isZero();
        // one column of 21 particles is split; the pieces are the 10 and 11 columns on either side
        assertThat(cut.particleCount()).isEqualTo(m.particleCount() + 21);
        assertThat(cut.totalFreeMass()).isCloseTo(m.totalFreeMass(), org.assertj.core.data.Offset.offset(1e-6));
        float[] x = State.atRest(m).resizedFor(cut).positions();
        for (int p = 0; p < cut.particleCount(); p++) {
            // the copies take the triangles on the cut's positive side (+x)
            boolean left = x[3 * p] < 0.013f && p < m.particleCount();
            assertThat(piece[p]).as("particle %d at x = %f", p, x[3 * p])
                    .isEqualTo(piece[left ? 0 : 20]);
        }
    }

    @Test
    void aCutThatStopsInsideTheClothLeavesOnePieceWithASlit() {
        Model m = hanging(false, BendingModel.DISTANCE);
        // from above the top down to the middle only
        Model cut = m.edit(Cutting.across(m, m.restPositions(), new float[] {0.013f, 2.5f, -0.5f},
                new float[] {0f, 0f, 1f}, new float[] {0f, -1.2f, 0f}));
        assertThat(TearingTest.Components.count(TearingTest.Components.of(cut))).isEqualTo(1);
        assertThat(cut.particleCount()).isGreaterThan(m.particleCount());
    }

    @ParameterizedTest
    @ValueSource(strings = {"xpbd", "pbd", "pd", "relaxation", "implicit", "mass-spring"})
    void aCutThroughThePinnedRowLeavesEachHalfHangingFromItsOwnPins(String solver) {
        Model m = hanging(true, BendingModel.DISTANCE);
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m), Solvers.create(solver, pool), Environment.earth(),
                     8)) {
            sim.edit(verticalCut(m, 0.013f));
            Model cut = sim.model();
            int[] piece = TearingTest.Components.of(cut);
            assertThat(TearingTest.Components.count(piece)).isEqualTo(2);
            for (int k = 0; k < 60; k++) {
                sim.advance(1f / 60f);
            }
            float[] x = sim.state().positions();
            // each piece has pins, and nothing fell: every particle is within the cloth's height below the pins
            boolean[] pinned = new boolean[cut.particleCount()];
            int pinsLeft = 0;
            int pinsRight = 0;
            for (int p = 0; p < cut.particleCount(); p++) {
                if (cut.isPinned(p)) {
                    if (piece[p] == piece[0]) {
                        pinsLeft++;
                    } else {
                        pinsRight++;
                    }
                }
                assertThat(x[3 * p + 1]).as("%s: particle %d height", solver, p).isGreaterThan(0.75f);
            }
            assertThat(pinsLeft).isPositive();
            assertThat(pinsRight).isPositive();
        }
    }

    @Test
    void theBladeSceneCutsTheClothInTwoAndTheHalvesSwingApart() {
        Scene s = BuiltInScenes.byName("cut");
        Model m = s.model();
        try (WorkerPool pool = new WorkerPool(2);
             Simulation sim = new Simulation(m, State.atRest(m), s.solver("xpbd", pool), s.environment(),
                     s.substeps())) {
            for (int f = 0; f < 150; f++) {
                sim.advance(1f / s.fps());
            }
            Model cut = sim.model();
            int[] piece = TearingTest.Components.of(cut);
            assertThat(TearingTest.Components.count(piece)).isEqualTo(2);
            assertThat(TearingTest.Components.trianglesAcross(cut, piece)).isZero();
            // each half swings to hang its centre of mass under its own corner, which turns it by
            // atan(0.25 / 0.5) = 27 degrees and carries its outer bottom corner 0.45 m outwards: the
            // two outer bottom corners, 1 m apart before, end near 1.9 m apart (damping has not
            // quite settled the swing after 2.5 s)
            ModelObject cloth = m.objects().get(0);
            float[] x = sim.state().positions();
            int left = cloth.gridParticle(40, 0);
            int right = cloth.gridParticle(40, 40);
            assertThat(x[3 * right] - x[3 * left]).isGreaterThan(1.6f);
        }
    }

    @Test
    void aCutSurfaceWithoutAreaIsAnError() {
        Model m = hanging(false, BendingModel.DISTANCE);
        assertThatThrownBy(() -> Cutting.across(m, m.restPositions(), new float[3], new float[] {1f, 0f, 0f},
                new float[] {2f, 0f, 0f})).isInstanceOf(InvalidInputException.class).hasMessageContaining("span no surface");
    }
}
