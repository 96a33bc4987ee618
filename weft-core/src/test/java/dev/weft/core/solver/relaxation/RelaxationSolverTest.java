package dev.weft.core.solver.relaxation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.model.DistanceConstraints;
import dev.weft.core.model.DistanceKind;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.Environment;
import org.junit.jupiter.api.Test;

class RelaxationSolverTest {
    private static Model hanging(int n) {
        ModelBuilder b = new ModelBuilder();
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", n, n, 1f, 1f).withOrigin(-0.5f, 1f, -0.5f));
        b.pinCorners(cloth, "top-left", "top-right");
        return b.build();
    }

    /** Largest |length − rest| / rest over the structural and shear edges. */
    private static double worstEdgeError(Model m, float[] x) {
        DistanceConstraints d = m.distances();
        double worst = 0;
        for (int c = 0; c < d.count(); c++) {
            if (d.kind()[c] == DistanceKind.BEND.code()) {
                continue;
            }
            int a = 3 * d.particles()[2 * c];
            int b = 3 * d.particles()[2 * c + 1];
            double dx = x[b] - x[a];
            double dy = x[b + 1] - x[a + 1];
            double dz = x[b + 2] - x[a + 2];
            worst = Math.max(worst, Math.abs(Math.sqrt(dx * dx + dy * dy + dz * dz) - d.restLength()[c]) / d.restLength()[c]);
        }
        return worst;
    }

    @Test
    void aGridRelaxesInSeed002sEightPasses() {
        Model m = hanging(16);
        // structural x/y even/odd and the two diagonals even/odd: 8 colors, as the white paper's 8 shaders
        assertThat(m.distances().colorCount()).isEqualTo(8);
    }

    @Test
    void afterEnoughPassesEveryStructuralEdgeIsWithinATenthOfAPercentOfRest() {
        // A curtain pinned along its top edge. (Two corner pins exactly one rest width apart would make
        // the top row a taut string, which no relaxation straightens quickly once it sags.)
        ModelBuilder b = new ModelBuilder();
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", 16, 16, 1f, 1f).withOrigin(-0.5f, 1f, -0.5f));
        b.pinEdge(cloth, "top");
        Model m = b.build();
        try (WorkerPool pool = new WorkerPool(2)) {
            // Every particle but the pinned row jittered by up to 10 % of the spacing in 3-D: edges
            // off by several percent. (A state reached by falling is no test here: rigid structural
            // plus shear springs make every cell a rigid square, so the sheet may only hinge along
            // grid lines, and a doubly curved drape cannot meet all of them at once.)
            State state = State.atRest(m);
            java.util.Random rnd = new java.util.Random(7);
            float spacing = 1f / 15f;
            for (int i = 16; i < m.particleCount(); i++) {
                for (int k = 0; k < 3; k++) {
                    state.positions()[3 * i + k] += 0.1f * spacing * (2 * rnd.nextFloat() - 1);
                }
            }
            double stretched = worstEdgeError(m, state.positions());
            assertThat(stretched).isGreaterThan(0.05);
            // Relax it: one step, so short (1 µs) that gravity and inertia move nothing
            // that matters (h² g ≈ 1e-11 m), with more and more passes. Gauss–Seidel by colors converges:
            double previous = stretched;
            for (int passes : new int[] {50, 200, 800, 3200}) {
                State s = state.copy();
                new RelaxationSolver(new RelaxationSettings(passes, 1f), pool).step(m, s, Environment.earth(), 1e-6f);
                double error = worstEdgeError(m, s.positions());
                assertThat(error).isLessThan(previous);
                previous = error;
            }
            // 3200 passes: every structural and shear edge within 0.1 % of its rest length
            assertThat(previous).isLessThan(0.001);
        }
    }

    @Test
    void fixedParticlesNeverMove() {
        Model m = hanging(10);
        float[] rest = m.restPositions().clone();
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m),
                     new RelaxationSolver(RelaxationSettings.defaults(), pool), Environment.earth(), 1)) {
            for (int f = 0; f < 30; f++) {
                sim.advance(1f / 60f);
                for (int corner : new int[] {0, 9}) {
                    for (int k = 0; k < 3; k++) {
                        assertThat(sim.state().positions()[3 * corner + k]).isEqualTo(rest[3 * corner + k]);
                    }
                }
            }
        }
    }

    @Test
    void oneTwoAndThreeThreadsGiveIdenticalBits() {
        float[][] results = new float[3][];
        for (int t = 1; t <= 3; t++) {
            Model m = hanging(32);
            try (WorkerPool pool = new WorkerPool(t);
                 Simulation sim = new Simulation(m, State.atRest(m),
                         new RelaxationSolver(RelaxationSettings.defaults(), pool), Environment.earth(), 2)) {
                for (int f = 0; f < 10; f++) {
                    sim.advance(1f / 60f);
                }
                results[t - 1] = sim.state().positions().clone();
            }
        }
        assertThat(results[1]).isEqualTo(results[0]);
        assertThat(results[2]).isEqualTo(results[0]);
    }
}
