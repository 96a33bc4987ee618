package dev.weft.core.solver.implicit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.metrics.ClothMetrics;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.RopeSpec;
import dev.weft.core.model.State;
import dev.weft.core.parallel.PoolChecks;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.sim.SimulationDivergedException;
import dev.weft.core.step.Environment;
import java.util.List;
import org.junit.jupiter.api.Test;

class ImplicitSolverTest {
    /** Stiff for this cloth: particle mass 0.2 kg/m² × (1/19 m)² ≈ 5.5e-4 kg, so √(k/m) ≈ 1000 rad/s ≫ 2/h. */
    /**
     * 500 N/m stretch, 200 shear, B = 6.6·10⁻³ N·m (stencil-24 bend springs of 20 N/m across two diagonals
     * of the 20 x 20 cloth's 5.3 cm cells, 40 N/m across two edges), k_d = 10⁻³ s·k_s along every spring,
     * no velocity damping: what damps the swing is implicit Euler's own.
     */
    static final Material STIFF = new Material(500f, 200f, 6.6e-3f, 0f, 1e-3f, Float.POSITIVE_INFINITY);

    static Model hangingCloth(int n) {
        ModelBuilder b = new ModelBuilder().material(STIFF);
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", n, n, 1f, 1f).withOrigin(-0.5f, 1f, -0.5f));
        b.pinCorners(cloth, "top-left", "top-right");
        return b.build();
    }

    @Test
    void stiffClothAtAThirtiethOfASecondStaysBoundedAndSettles() {
        Model m = hangingCloth(20);
        ImplicitSettings s = ImplicitSettings.defaults().withIterations(60, 1e-4f);
        try (WorkerPool pool = new WorkerPool(2);
             Simulation sim = new Simulation(m, State.atRest(m), new ImplicitSolver(s, pool), Environment.earth(), 1)) {
            double peakKe = 0;
            for (int f = 0; f < 300; f++) { // 10 s at h = 1/30 s
                sim.advance(1f / 30f);
                double ke = ClothMetrics.kineticEnergy(m, sim.state().velocities());
                peakKe = Math.max(peakKe, ke);
                // bounded: no particle further from the pins than the cloth's diagonal (√2 m) plus 10 %
                float[] x = sim.state().positions();
                for (int i = 0; i < m.particleCount(); i++) {
                    assertThat(Math.abs(x[3 * i + 1] - 1f)).isLessThan(1.6f);
                }
            }
            ImplicitSolver solver = (ImplicitSolver) sim.solver();
            double finalKe = ClothMetrics.kineticEnergy(m, sim.state().velocities());
            // settled: after 10 s the swing's kinetic energy is damped below 1 % of its peak (the
            // pendulum swing of the whole sheet is damped only by implicit Euler's numerical damping,
            // k_d acts along springs); it hangs with small strain (springs at 500 N/m carry
            // ~0.2 kg·9.81 / 20 columns ≈ 0.1 N each: strain ≈ 0.1 / (500 · 0.05) ≈ 0.4 %, times the
            // corner concentration)
            assertThat(peakKe).isGreaterThan(1e-3);
            assertThat(finalKe).isLessThan(1e-2 * peakKe);
            assertThat(ClothMetrics.maxStrain(m, sim.state().positions())).isLessThan(0.2);
            assertThat(solver.lastIterations()).isBetween(1, 60);
            assertThat(solver.lastRelativeResidual()).isLessThan(1e-2);
        }
    }

    @Test
    void pinnedAndPlaneConstrainedParticlesStayExactlyOnTheirConstraint() {
        Model m = hangingCloth(12);
        float[] rest = m.restPositions().clone();
        int planeParticle = 5 * 12 + 5; // moves only in the horizontal plane y = 1
        int lineParticle = 11 * 12 + 3; // moves only along x
        int tiltedParticle = 11 * 12 + 9; // moves only in a tilted plane through its rest position
        float[] tilt = {0.3f, 1f, -0.2f};
        ImplicitSettings s = ImplicitSettings.defaults();
        try (WorkerPool pool = new WorkerPool(1)) {
            ImplicitSolver solver = new ImplicitSolver(s, pool);
            solver.constrainToPlane(planeParticle, new float[] {0f, 1f, 0f});
            solver.constrainToLine(lineParticle, new float[] {1f, 0f, 0f});
            solver.constrainToPlane(tiltedParticle, tilt);
            State state = State.atRest(m);
            double tiltNorm = Math.sqrt(0.3 * 0.3 + 1 + 0.2 * 0.2);
            for (int step = 0; step < 60; step++) {
                solver.step(m, state, Environment.earth(), 1f / 60f);
                float[] x = state.positions();
                for (int corner : new int[] {0, 11}) {
                    for (int k = 0; k < 3; k++) {
                        assertThat(x[3 * corner + k]).isEqualTo(rest[3 * corner + k]);
                    }
                }
                // axis-aligned constraints: the filtered component of Δv is exactly −v's, so the
                // coordinate never changes, bit for bit
                assertThat(x[3 * planeParticle + 1]).isEqualTo(rest[3 * planeParticle + 1]);
                assertThat(x[3 * lineParticle + 1]).isEqualTo(rest[3 * lineParticle + 1]);
                assertThat(x[3 * lineParticle + 2]).isEqualTo(rest[3 * lineParticle + 2]);
                // tilted plane: only float rounding of the position update (1 ulp of ~1 m ≈ 1e-7 per step)
                double off = 0;
                for (int k = 0; k < 3; k++) {
                    off += tilt[k] * (x[3 * tiltedParticle + k] - rest[3 * tiltedParticle + k]);
                }
                assertThat(Math.abs(off / tiltNorm)).isLessThan(1e-5);
            }
            // the rest of the cloth sagged (the plane-constrained middle particle holds it up like a
            // third support), so the constraints carried load
            assertThat(state.positions()[3 * (11 * 12 + 6) + 1]).isLessThan(rest[3 * (11 * 12 + 6) + 1] - 0.01f);
            assertThat(state.positions()[3 * lineParticle]).isNotEqualTo(rest[3 * lineParticle]);
        }
    }

    @Test
    void aClothDroppedOnAFloorRestsOnItThroughTheFilter() {
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("cloth", 10, 10, 0.5f, 0.5f).withOrigin(-0.25f, 0.1f, -0.25f));
        Model m = b.build().withMaterial(mat -> STIFF);
        PlaneCollider floor = PlaneCollider.floor(0f, 0.002f, 0f);
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of(floor));
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m),
                     new ImplicitSolver(ImplicitSettings.defaults(), pool), env, 1)) {
            for (int f = 0; f < 90; f++) {
                sim.advance(1f / 60f);
            }
            ImplicitSolver solver = (ImplicitSolver) sim.solver();
            assertThat(solver.lastContactCount()).isEqualTo(100);
            float[] x = sim.state().positions();
            for (int i = 0; i < 100; i++) {
                // resting on the floor at its thickness: the contact constraint holds the normal
                // velocity at 0, so the height is exact up to float rounding of the positions
                assertThat(x[3 * i + 1]).isCloseTo(0.002f, org.assertj.core.data.Offset.offset(1e-6f));
            }
        }
    }

    @Test
    void oneTwoAndThreeThreadsGiveIdenticalBits() {
        for (LinearMethod method : LinearMethod.values()) {
            float[][] results = new float[3][];
            for (int t = 1; t <= 3; t++) {
                Model m = hangingCloth(36); // 1,296 particles (> RowChunks.MIN_PARALLEL_ROWS): every pass splits
                ImplicitSettings s = ImplicitSettings.defaults().withMethod(method).withIterations(30, 0f);
                try (WorkerPool pool = new WorkerPool(t);
                     Simulation sim = new Simulation(m, State.atRest(m), new ImplicitSolver(s, pool),
                             Environment.earth(), 2)) {
                    for (int f = 0; f < 10; f++) {
                        sim.advance(1f / 60f);
                    }
                    results[t - 1] = sim.state().positions().clone();
                    PoolChecks.assertEveryPassSplit(pool, method.label() + ", " + t + " threads");
                }
            }
            assertThat(results[1]).as(method.label()).isEqualTo(results[0]);
            assertThat(results[2]).as(method.label()).isEqualTo(results[0]);
        }
    }

    @Test
    void anIndefiniteDiagonalBlockIsReportedWithStepAndParticleNotTurnedIntoNaN() {
        ModelBuilder b = new ModelBuilder();
        b.addRope(new RopeSpec("rope", new float[] {0, 1, 0, 1, 1, 0}, 2, 0.01f));
        // two particles of 5 g, one spring of rest length 1 m, 100 N/m, undamped
        Model m = b.build().withMaterial(mat -> new Material(100f, 100f, 0f, 0f, 0f, Float.POSITIVE_INFINITY));
        State state = State.atRest(m);
        state.positions()[3] = 0.1f; // compressed to a tenth: k_s (l − L) / l = −9 k_s transverse
        ImplicitSettings exact = ImplicitSettings.defaults().withDefiniteJacobian(false);
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, state, new ImplicitSolver(exact, pool), Environment.earth(), 1)) {
            // A_ii = m I − h² K has m − h² · 9 k_s = 0.005 − 0.01 · 900 < 0 across the spring
            assertThatThrownBy(() -> sim.advance(0.1f))
                    .isInstanceOf(SimulationDivergedException.class)
                    .hasMessageContaining("step 1")
                    .hasMessageContaining("particle 0")
                    .hasMessageContaining("singular or indefinite diagonal block");
            for (float c : state.positions()) {
                assertThat(Float.isFinite(c)).isTrue();
            }
        }
        // the definite Jacobian (the default) keeps the same step solvable
        State again = State.atRest(m);
        again.positions()[3] = 0.1f;
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, again,
                     new ImplicitSolver(exact.withDefiniteJacobian(true), pool), Environment.earth(), 1)) {
            sim.advance(0.1f);
            assertThat(again.positions()[3]).isGreaterThan(0.1f); // pushed apart
        }
    }
}
