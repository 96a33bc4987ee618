package dev.weft.core.solver.pd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.interact.TearingTest;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.Elasticity;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.State;
import dev.weft.core.model.TetBodySpec;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.step.Environment;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PD with its global step solved by a prefactored Cholesky factor (Bouaziz et al. 2014): it is the limit the
 * sweeps converge to, so a tall stiff column reaches linear elasticity's shortening in a few local steps where
 * Gauss–Seidel needs a hundred sweeps per substep; pinned particles, tethers and threads behave as for the
 * sweeps.
 */
class PdCholeskyTest {
    private static final float FRAME = 1f / 60f;
    private static final float G = 9.81f;

    private static PdSettings cholesky(int localSteps) {
        return PdSettings.defaults().withInner(InnerSolver.CHOLESKY).withIterations(localSteps, 1);
    }

    /** A 1 m column, 0.1 × 0.1 m, 2 × 20 × 2 cubes, E = 1 MPa, ν = 0.3, ρ = 1000, its base pinned. */
    private static Model column() {
        ModelBuilder b = new ModelBuilder();
        b.material(Material.cloth().withDamping(60f)); // near critical for its first axial mode (50 rad/s)
        b.addTetBody(TetBodySpec.box("column", new float[] {-0.05f, 0f, -0.05f}, new float[] {0.05f, 1f, 0.05f},
                2, 20, 2, 1000f, new Elasticity(1e6f, 0.3f)));
        float[] x = b.build().restPositions();
        for (int i = 0; i < x.length / 3; i++) {
            if (x[3 * i + 1] == 0f) {
                b.pin(i);
            }
        }
        return b.build();
    }

    /** The mean height change of the column's top nodes after 1.5 s. */
    private static double topSink(Model m, PdSettings settings, int substeps) {
        float[] x0 = m.restPositions();
        try (WorkerPool pool = new WorkerPool(2);
             Simulation sim = new Simulation(m, State.atRest(m), new PdSolver(settings, pool),
                     new Environment(new float[] {0f, -G, 0f}, List.of()), substeps)) {
            for (int f = 0; f < 90; f++) {
                sim.advance(FRAME);
            }
            float[] x = sim.state().positions();
            double sum = 0;
            int count = 0;
            for (int i = 0; i < m.particleCount(); i++) {
                if (x0[3 * i + 1] == 1f) {
                    sum += x0[3 * i + 1] - x[3 * i + 1];
                    count++;
                }
            }
            return sum / count;
        }
    }

    @Test
    void aTallColumnReachesLinearElasticityInOneLocalStepWhereSweepsNeedAHundred() {
        // rho g L^2 / (2E) = 4.9 mm. Measured, 10 substeps, one sweep per local step: Gauss-Seidel 8.97 of it at
        // 1 local step, 1.44 at 10; the exact global step 0.990 at 1 local step, 0.984 at 2 and on (what
        // Gauss-Seidel reaches at 10 x 10 sweeps too: one discretisation, one limit)
        Model m = column();
        double expected = 1000 * G * 1.0 / (2 * 1e6);
        double one = topSink(m, cholesky(1), 10);
        double two = topSink(m, cholesky(2), 10);
        double gaussSeidel = topSink(m, PdSettings.defaults().withIterations(10, 10)
                .withInner(InnerSolver.GAUSS_SEIDEL), 10);
        assertThat(one).isCloseTo(expected, within(0.1 * expected));
        assertThat(two).isCloseTo(expected, within(0.1 * expected));
        // converged sweeps and the exact solve agree (to 1 % of the sink: GS at 10 x 10 is 0.2 % apart)
        assertThat(gaussSeidel).isCloseTo(two, within(0.01 * expected));
        // and the sweeps at the same cost per local step are far off: the reason for the direct solve
        double sweepsOne = topSink(m, PdSettings.defaults().withIterations(1, 1)
                .withInner(InnerSolver.GAUSS_SEIDEL), 10);
        assertThat(sweepsOne).isGreaterThan(3 * expected);
    }

    /**
     * One local step and an exact global step is the limit of one local step and ever more sweeps: a cloth
     * hanging from two pinned corners (its pinned neighbours are known values of the system) and swinging,
     * one step after another, lands where 4000 red-black sweeps per step put it, to 10 µm (the sweeps'
     * remaining error; float rounding of the corrections is 1e-7 m).
     */
    @Test
    void oneSolveIsWhereTheSweepsConvergeToOnAPinnedCloth() {
        ModelBuilder b = new ModelBuilder();
        b.material(Material.cloth().withDamping(0f));
        b.addGridCloth(GridClothSpec.of("c", 16, 16, 1f, 1f).withOrigin(-0.5f, 1f, -0.5f));
        b.pin(0);
        b.pin(15);
        Model m = b.build();
        float[][] end = new float[2][];
        PdSettings[] settings = {cholesky(1), PdSettings.defaults().withIterations(1, 4000)};
        for (int k = 0; k < 2; k++) {
            try (WorkerPool pool = new WorkerPool(2);
                 Simulation sim = new Simulation(m, State.atRest(m), new PdSolver(settings[k].withTethers(false), pool),
                         new Environment(new float[] {0f, -G, 0f}, List.of()), 4)) {
                for (int f = 0; f < 12; f++) {
                    sim.advance(FRAME);
                }
                end[k] = sim.state().positions().clone();
            }
        }
        float moved = 0f;
        for (int i = 0; i < end[0].length; i++) {
            assertThat(end[0][i]).as("coordinate %d", i).isCloseTo(end[1][i], within(1e-5f));
            moved = Math.max(moved, Math.abs(end[0][i] - m.restPositions()[i]));
        }
        assertThat(moved).as("the cloth swung").isGreaterThan(0.05f);
        assertThat(end[0][0]).isEqualTo(m.restPositions()[0]);
    }

    @Test
    void oneAndTwoThreadsGiveTheSameBitsWithTheSubstitutionsSplit() {
        // 12 x 12 x 12 cubes: 2197 nodes, a factor with 8 independent subtrees
        ModelBuilder b = new ModelBuilder();
        b.addTetBody(TetBodySpec.box("block", new float[] {-0.3f, 0.1f, -0.3f}, new float[] {0.3f, 0.7f, 0.3f},
                12, 12, 12, 1000f, new Elasticity(2e5f, 0.45f)));
        Model m = b.build();
        Environment env = new Environment(new float[] {0f, -G, 0f}, List.of(PlaneCollider.floor(0f, 0.005f, 0.5f)));
        float[][] out = new float[2][];
        for (int t = 1; t <= 2; t++) {
            try (WorkerPool pool = new WorkerPool(t);
                 Simulation sim = new Simulation(m, State.atRest(m), new PdSolver(cholesky(2), pool), env, 4)) {
                for (int f = 0; f < 20; f++) {
                    sim.advance(FRAME);
                }
                out[t - 1] = sim.state().positions().clone();
                if (t == 2) {
                    assertThat(pool.rangesRunOnWorkers()).as("ranges the second thread ran").isPositive();
                }
            }
        }
        assertThat(out[1]).containsExactly(out[0]);
    }

    /**
     * Tearing changes the model: the solver makes a new factor for each edited model, and the cloth pulled by
     * two grips parts into two pieces with every position finite, as under the sweeps (TearingTest).
     */
    @Test
    void aTearingClothIsRefactoredAtEachEditAndPartsInTwo() {
        Model m = TearingTest.pulledCloth(BendingModel.DISTANCE, 0.3f);
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m), new PdSolver(cholesky(2), pool),
                     TearingTest.grips(m, 0.4f), 8)) {
            for (int f = 0; f < 90; f++) {
                sim.advance(FRAME);
            }
            Model torn = sim.model();
            assertThat(torn.edits()).isNotEmpty();
            assertThat(TearingTest.Components.count(TearingTest.Components.of(torn))).isEqualTo(2);
            for (float v : sim.state().positions()) {
                assertThat(Float.isFinite(v)).isTrue();
            }
        }
    }
}
