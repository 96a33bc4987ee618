package dev.weft.core.solver.xpbd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.step.Environment;
import org.junit.jupiter.api.Test;

/**
 * XPBD's colored distance sweeps in vector lanes ({@link VectorDistanceKernel}, where the JDK's Vector API module
 * is present, as in this test run) give the scalar loops' bits: lane by lane the same IEEE operations in the same
 * order, a skipped lane blended back unchanged. Checked on grid cloths (whose colors are rows of consecutive
 * particles) with rigid and compliant constraints, one and two stretch passes and iterations, dihedral and
 * distance bending (with distance bending the tethers run in the lanes too), a collider; and on one and two threads
 * with the work really split.
 */
class XpbdLanesTest {
    private static Model grid(int n, Material material, BendingModel bending) {
        ModelBuilder b = new ModelBuilder();
        b.material(material);
        b.bendingModel(bending);
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", n, n, 1f, 1f).withOrigin(-0.5f, 1f, -0.5f));
        b.pinEdge(cloth, "top");
        return b.build();
    }

    private static State run(Model m, XpbdSolver solver, Environment env, int steps) {
        State s = State.atRest(m);
        for (int k = 0; k < steps; k++) {
            solver.step(m, s, env, 1f / 300f);
        }
        return s;
    }

    @Test
    void theLanesGiveTheScalarLoopsBitsOnGridCloths() {
        Environment ball = Environment.earth().withColliders(new Collider[] {
                new SphereCollider("ball", new float[] {0.1f, 0.6f, 0.1f}, 0.25f, 0.005f, 0.4f)});
        Material[] materials = {Material.cloth(), Material.cloth().withStretch(Float.POSITIVE_INFINITY)
                .withShear(Float.POSITIVE_INFINITY)};
        for (Material material : materials) {
            for (BendingModel bending : new BendingModel[] {BendingModel.DISTANCE, BendingModel.DIHEDRAL}) {
                Model m = grid(33, material, bending);
                for (int iterations = 1; iterations <= 2; iterations++) {
                    for (int passes = 1; passes <= 2; passes++) {
                        XpbdSettings s = XpbdSettings.defaults().withIterations(iterations).withStretchPasses(passes);
                        try (WorkerPool pool = new WorkerPool(1)) {
                            XpbdSolver scalar = LaneChoice.solver(s, pool, false);
                            XpbdSolver lanes = LaneChoice.solver(s, pool, true);
                            State a = run(m, scalar, ball, 120);
                            State b = run(m, lanes, ball, 120);
                            String what = material.stretchStiffness() + " N/m stretch, " + bending + ", " + iterations
                                    + " iterations, " + passes + " stretch passes";
                            assertThat(lanes.distancesInLanes()).as(what).isTrue();
                            assertThat(scalar.distancesInLanes()).as(what).isFalse();
                            // the tethers too, by slot, where nothing runs between the distances and them
                            assertThat(m.tethers().count()).as(what).isGreaterThan(0);
                            assertThat(lanes.tethersInLanes()).as(what).isEqualTo(bending == BendingModel.DISTANCE);
                            assertThat(scalar.tethersInLanes()).as(what).isFalse();
                            // with each row's columns stored by residue mod 4 (LaneLayout) every color of a grid
                            // is runs: with dihedral bending every distance constraint, with distance bending all
                            // but the pieces of horizontal skip colors shorter than 8 on this small grid (measured
                            // 5975 of 6206 on 33 x 33; the model's own order left the 4 horizontal colors out)
                            if (bending == BendingModel.DIHEDRAL) {
                                assertThat(lanes.constraintsInRuns()).as(what).isEqualTo(m.distances().count());
                            } else {
                                assertThat(10 * lanes.constraintsInRuns()).as(what)
                                        .isGreaterThanOrEqualTo(9 * m.distances().count());
                            }
                            assertThat(b.positions()).as(what).containsExactly(a.positions());
                            assertThat(b.velocities()).as(what).containsExactly(a.velocities());
                            // and the cloth moved: it swung down onto the ball
                            assertThat(a.positions()[3 * 33 * 32 + 1]).as(what).isLessThan(0.9f);
                        }
                    }
                }
            }
        }
    }

    @Test
    void oneAndTwoThreadsGiveTheSameBitsInLanesWithTheWorkSplit() {
        Model m = grid(64, Material.cloth(), BendingModel.DISTANCE);
        XpbdSettings s = XpbdSettings.defaults();
        State one;
        try (WorkerPool pool = new WorkerPool(1)) {
            one = run(m, LaneChoice.solver(s, pool, true), Environment.earth(), 60);
        }
        try (WorkerPool pool = new WorkerPool(2)) {
            XpbdSolver lanes = LaneChoice.solver(s, pool, true);
            pool.resetCounters();
            State two = run(m, lanes, Environment.earth(), 60);
            assertThat(lanes.distancesInLanes()).isTrue();
            assertThat(lanes.tethersInLanes()).isTrue();
            assertThat(pool.rangesRunOnWorkers()).as("ranges run on the second thread").isGreaterThan(0L);
            assertThat(two.positions()).containsExactly(one.positions());
            assertThat(two.velocities()).containsExactly(one.velocities());
        }
    }

    @Test
    void aColoringWithFewRunsKeepsTheScalarLoops() {
        // the Jacobi and Gauss–Seidel modes never use lanes; a colored grid does
        Model m = grid(16, Material.cloth(), BendingModel.DISTANCE);
        try (WorkerPool pool = new WorkerPool(1)) {
            XpbdSolver jacobi = LaneChoice.solver(XpbdSettings.defaults().withMode(IterationMode.JACOBI), pool, true);
            run(m, jacobi, Environment.earth(), 2);
            assertThat(jacobi.distancesInLanes()).isFalse();
        }
        // runs: consecutive first particles, a fixed offset to the second, at least 8 long
        int[] pairs = {0, 5, 1, 6, 2, 7, 3, 8, 4, 9, 10, 11, 20, 30, 21, 31};
        int[] runEnd = new int[8];
        assertThat(XpbdSolver.runs(pairs, new int[] {0, 5, 8}, 4, runEnd)).isEqualTo(5);
        assertThat(runEnd).containsExactly(5, 5, 5, 5, 5, -1, -1, -1);
        assertThat(XpbdSolver.runs(pairs, new int[] {0, 5, 8}, 4, null)).as("the count alone").isEqualTo(5);
    }
}
