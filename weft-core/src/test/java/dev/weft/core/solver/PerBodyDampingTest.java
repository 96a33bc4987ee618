package dev.weft.core.solver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.step.Environment;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Damping is a property of each body's material: two cloths of different damping falling side by side
 * in one model each follow their own analytic velocity, v(t) = g(1 − e^(−ct))/c (c = 0: g·t), under
 * every solver.
 */
class PerBodyDampingTest {
    private static final float RATE = 4f;
    private static final int SUBSTEPS = 16;

    static List<String> solvers() {
        return Solvers.names();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("solvers")
    void eachBodyFallsAsItsOwnDampingSays(String solver) {
        ModelBuilder b = new ModelBuilder();
        ModelObject free = b.addGridCloth(GridClothSpec.of("free", 4, 4, 0.3f, 0.3f).withOrigin(0f, 10f, 0f));
        ModelObject damped = b.addGridCloth(GridClothSpec.of("damped", 4, 4, 0.3f, 0.3f).withOrigin(2f, 10f, 0f));
        b.material(free, Material.cloth().withDamping(0f));
        b.material(damped, Material.cloth().withDamping(RATE));
        Model m = b.build();
        Environment gravity = new Environment(new float[] {0f, -9.81f, 0f}, List.of());
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m), Solvers.create(solver, pool), gravity, SUBSTEPS)) {
            for (int f = 0; f < 60; f++) {
                sim.advance(1f / 60f);
            }
            float[] v = sim.state().velocities();
            double expectedDamped = 9.81 * (1 - Math.exp(-RATE)) / RATE;
            // each integrator damps to first order in h: c·h/2 = 0.2 % relative at 1/960 s; 0.5 % bounds them
            assertThat(-meanVy(v, free)).as("%s, undamped body", solver).isCloseTo(9.81, within(0.005 * 9.81));
            assertThat(-meanVy(v, damped)).as("%s, body damped at %s/s", solver, RATE)
                    .isCloseTo(expectedDamped, within(0.005 * expectedDamped));
        }
    }

    private static double meanVy(float[] v, ModelObject body) {
        double sum = 0;
        for (int i = body.firstParticle(); i < body.firstParticle() + body.particleCount(); i++) {
            sum += v[3 * i + 1];
        }
        return sum / body.particleCount();
    }
}
