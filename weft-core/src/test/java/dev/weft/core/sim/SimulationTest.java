package dev.weft.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.State;
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
}
