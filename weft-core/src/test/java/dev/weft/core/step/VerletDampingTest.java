package dev.weft.core.step;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.Solver;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.massspring.MassSpringSolver;
import dev.weft.core.solver.relaxation.RelaxationSettings;
import dev.weft.core.solver.relaxation.RelaxationSolver;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seed 002's damping k is a share of velocity kept per 1/60 s, so a damped free fall follows
 * dv/dt = g − c·v with c = −60·ln k at any substep count: v(t) = g(1 − e^(−ct))/c. Applied per step (as
 * before), k = 0.99 at 64 substeps per frame was c = 38 s⁻¹ and the cloth fell at 0.25 m/s after 1 s
 * instead of 7.6 m/s.
 */
class VerletDampingTest {
    /** Velocity damping in 1/s: seed 002's k = e^(−0.6/60) ≈ 0.99 per 1/60 s. */
    private static final float RATE = 0.6f;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"relaxation", "mass-spring"})
    void aDampedFreeFallIsTheSameAtAnySubstepCountAndFollowsTheAnalyticVelocity(String solver) {
        double c = RATE;
        double expected = 9.81 * (1 - Math.exp(-c)) / c; // after 1 s
        Function<WorkerPool, Solver> make = "relaxation".equals(solver)
                ? p -> new RelaxationSolver(new RelaxationSettings(4), p)
                : p -> new MassSpringSolver(MassSpringSettings.defaults(), p);
        double[] v = new double[3];
        int[] substeps = {16, 64, 160};
        for (int k = 0; k < substeps.length; k++) {
            v[k] = fallSpeedAfterOneSecond(make, substeps[k]);
        }
        // Symplectic Euler with damping is first order in h: at 16 substeps (h = 1/960 s) the velocity is
        // off by about c·h/2 ≈ 3e-4 relative; 1e-3 leaves room for float32 and bounds every count.
        for (int k = 0; k < substeps.length; k++) {
            assertThat(v[k]).as("%s at %d substeps per 1/60 s; analytic %s m/s", solver, substeps[k], expected)
                    .isCloseTo(expected, within(1e-3 * expected));
        }
    }

    /** A free 4 × 4 cloth (no pins, in its rest shape, so no spring acts) falling for 1 s: its speed. */
    private static double fallSpeedAfterOneSecond(Function<WorkerPool, Solver> make, int substeps) {
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("cloth", 4, 4, 0.3f, 0.3f).withOrigin(0f, 10f, 0f));
        Model m = b.build().withMaterial(mat -> mat.withDamping(RATE));
        State s = State.atRest(m);
        Environment gravity = new Environment(new float[] {0f, -9.81f, 0f}, java.util.List.of());
        try (WorkerPool pool = new WorkerPool(1); Solver solver = make.apply(pool)) {
            float h = 1f / (60f * substeps);
            for (int step = 0; step < 60 * substeps; step++) {
                solver.step(m, s, gravity, h);
            }
        }
        return -s.velocities()[1];
    }
}
