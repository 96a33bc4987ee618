package dev.weft.core.solver.relaxation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.model.DistanceConstraints;
import dev.weft.core.model.DistanceKind;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.RopeSpec;
import dev.weft.core.model.State;
import dev.weft.core.parallel.PoolChecks;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.step.Environment;
import java.util.List;
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
                new RelaxationSolver(new RelaxationSettings(passes), pool).step(m, s, Environment.earth(), 1e-6f);
                double error = worstEdgeError(m, s.positions());
                assertThat(error).isLessThan(previous);
                previous = error;
            }
            // 3200 passes: every structural and shear edge within 0.1 % of its rest length
            assertThat(previous).isLessThan(0.001);
        }
    }

    @Test
    void aProjectionSplitsTheCorrectionByInverseMassAndKeepsTheCentreOfMass() {
        // Responsivenesses (w_a, w_b)/(w_a + w_b): inverse masses 4 and 1, a spring of rest 1 stretched to
        // 1.3 along x and 0.4 along y; a moves 4 times as far as b, so m_a·Δa + m_b·Δb = 0
        float[] w = {4f, 1f};
        float[] x = relaxed(new float[] {0f, 0f, 0f, 1.3f, 0.4f, 0f}, w);
        for (int k = 0; k < 2; k++) {
            double moveA = x[k];
            double moveB = x[3 + k] - (k == 0 ? 1.3 : 0.4);
            assertThat(moveA / w[0] + moveB / w[1]).as("momentum change along %d", k).isCloseTo(0.0, within(1e-6));
        }
        assertThat(x[0]).isGreaterThan(0.25f); // towards b: 4/5 of the 0.36 m error, along (0.96, 0.29)
        double length = Math.hypot(x[3] - x[0], x[4] - x[1]);
        assertThat(length).isCloseTo(1.0, within(1e-6)); // float rounding of a unit length
        // equal masses: seed 002's (0.5, 0.5)
        float[] e = relaxed(new float[] {0f, 0f, 0f, 1.3f, 0.4f, 0f}, new float[] {2f, 2f});
        assertThat(e[0]).isCloseTo(-(e[3] - 1.3f), within(1e-6f));
        assertThat(e[1]).isCloseTo(-(e[4] - 0.4f), within(1e-6f));
        // next to a fixed particle (inverse mass 0) the free one takes the whole correction: (0, 1)
        float[] y = relaxed(new float[] {0f, 0f, 0f, 1.3f, 0.4f, 0f}, new float[] {0f, 1f});
        assertThat(new float[] {y[0], y[1], y[2]}).containsExactly(0f, 0f, 0f);
        assertThat(Math.hypot(y[3], y[4])).isCloseTo(1.0, within(1e-6));
    }

    /** One projection of the rest-length-1 spring between particles 0 and 1 at {@code x}: the positions after it. */
    private static float[] relaxed(float[] x, float[] w) {
        float[] d = new float[x.length];
        RelaxationSolver.relaxPair(x, d, w, 0, 1, 1f);
        float[] out = new float[x.length];
        for (int k = 0; k < x.length; k++) {
            out[k] = x[k] + d[k];
        }
        return out;
    }

    @Test
    void inASolverStepTheLighterEndOfARopeMovesTwoThirdsOfTheError() {
        // A 3-particle rope along x without bending: its ends carry half the middle's mass. Particle 0
        // is pulled out by 0.1 m; no gravity, no motion, one relaxation pass. Whichever color runs
        // first, 0–1 is projected once with 1–2 still or already at rest, and the mass-weighted split
        // moves particle 0 back by 2/3 of the error (w_0 = 2 w_1), the middle by 1/3.
        ModelBuilder b = new ModelBuilder().bending(false);
        b.addRope(new RopeSpec("rope", new float[] {0f, 1f, 0f, 2f, 1f, 0f}, 3, 0.5f));
        Model m = b.build();
        assertThat(m.invMass()[0]).isEqualTo(2 * m.invMass()[1]);
        State s = State.atRest(m);
        s.positions()[0] = -0.1f;
        try (WorkerPool pool = new WorkerPool(1)) {
            new RelaxationSolver(new RelaxationSettings(1), pool)
                    .step(m, s, new Environment(new float[3], List.of()), 1e-3f);
        }
        assertThat(s.positions()[0]).isCloseTo(-0.1f / 3f, within(1e-6f)); // float rounding of 0.1 m sums
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
                PoolChecks.assertEveryPassSplit(pool, t + " threads");
            }
        }
        assertThat(results[1]).isEqualTo(results[0]);
        assertThat(results[2]).isEqualTo(results[0]);
    }
}
