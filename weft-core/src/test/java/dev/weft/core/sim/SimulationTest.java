package dev.weft.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.Solvers;
import dev.weft.core.solver.Solver;
import dev.weft.core.step.Environment;
import org.junit.jupiter.api.Test;

class SimulationTest {
    /** A solver that moves nothing until its third step, when particle 7 goes non-finite. */
    private static final class FailingSolver implements Solver {
        private int steps;

        @Override
        public String name() {
            return "failing";
        }

        @Override
        public void step(Model model, State state, Environment environment, float dt) {
            if (++steps == 3) {
                state.positions()[3 * 7 + 1] = Float.NaN;
            }
            state.advance(dt);
        }
    }

    @Test
    void aBlowUpStopsTheRunNamingStepAndParticle() {
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("c", 4, 4, 1f, 1f));
        Model m = b.build();
        Simulation sim = new Simulation(m, State.atRest(m), new FailingSolver(), Environment.earth(), 2);
        sim.advance(0.01f); // steps 1 and 2: fine
        assertThatThrownBy(() -> sim.advance(0.01f))
                .isInstanceOf(SimulationDivergedException.class)
                .hasMessageContaining("particle 7")
                .hasMessageContaining("step 3");
        // the positions are left as they were, for the caller to inspect or write out
        assertThat(Float.isNaN(sim.state().positions()[3 * 7 + 1])).isTrue();
    }

    /** A 1 m cloth, 11 × 11, pinned at its two top corners, falling from horizontal at y = 1. */
    private static Model hangingCloth(float tearStrain) {
        ModelBuilder b = new ModelBuilder();
        var cloth = b.addGridCloth(GridClothSpec.of("c", 11, 11, 1f, 1f).withOrigin(-0.5f, 1f, -0.5f));
        b.pinCorners(cloth, "top-left", "top-right");
        Model m = b.build();
        return tearStrain == Float.POSITIVE_INFINITY ? m : m.withMaterial(x -> x.withTearStrain(tearStrain));
    }

    @Test
    void aColliderAddedWhileRunningActsFromTheNextStepAndTheEnvironmentKeepsItsWind() {
        Model m = hangingCloth(Float.POSITIVE_INFINITY);
        Environment windy = Environment.earth().withWind(new float[] {0f, 0f, 2f}).withAir(1.2f, 1f, 0.02f);
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m), Solvers.create("xpbd", pool), windy, 8)) {
            sim.advance(1f / 60);
            // a floor 5 cm below the cloth, put in between frames (as the viewer throws a cannonball)
            Environment withFloor = sim.environment().withColliders(new Collider[] {PlaneCollider.floor(0.95f, 0f, 0f)});
            assertThat(withFloor.windZ()).isEqualTo(2f);
            assertThat(withFloor.hasAir()).isTrue();
            sim.setEnvironment(withFloor);
            for (int f = 0; f < 60; f++) {
                sim.advance(1f / 60);
            }
            // without the floor the free corners fall about a metre in a second; with it no particle goes
            // deeper than a few millimetres of contact slack below it
            float lowest = Float.POSITIVE_INFINITY;
            float[] x = sim.state().positions();
            for (int i = 1; i < x.length; i += 3) {
                lowest = Math.min(lowest, x[i]);
            }
            assertThat(lowest).isGreaterThan(0.94f);
        }
    }

    @Test
    void withTearingOffAClothThatWouldTearStaysWhole() {
        int[] particles = new int[2];
        for (int k = 0; k < 2; k++) {
            boolean tearing = k == 0;
            // a 0.5 % tear strain under 10 g: the jerk at the bottom of the swing stretches the edges at
            // the pinned corners past it
            Model m = hangingCloth(0.005f);
            try (WorkerPool pool = new WorkerPool(1);
                 Simulation sim = new Simulation(m, State.atRest(m), Solvers.create("xpbd", pool),
                         Environment.earth().withGravity(new float[] {0f, -98.1f, 0f}), 8)) {
                assertThat(sim.tearing()).isTrue(); // the default
                sim.setTearing(tearing);
                for (int f = 0; f < 40; f++) {
                    sim.advance(1f / 60);
                }
                particles[k] = sim.model().particleCount();
            }
        }
        assertThat(particles[0]).as("particles with tearing on").isGreaterThan(121);
        assertThat(particles[1]).as("particles with tearing off").isEqualTo(121);
    }
}
