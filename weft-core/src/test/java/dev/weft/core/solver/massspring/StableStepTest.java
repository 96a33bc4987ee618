package dev.weft.core.solver.massspring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.RopeSpec;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.springs.SpringSet;
import dev.weft.core.step.Environment;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link StableStep} against the analytic limit of explicit integration, h·ω &lt; 2 (seed 004): one
 * undamped spring, where the Gershgorin bound is the exact frequency, and the solver run just under and
 * just over it.
 */
class StableStepTest {
    private static final float K = 100f;
    private static final Environment NO_GRAVITY = new Environment(new float[] {0f, 0f, 0f}, List.of());

    /** Two particles 1 m apart joined by one spring, the first pinned when {@code pinned}. */
    private static Model spring(boolean pinned) {
        ModelBuilder b = new ModelBuilder();
        ModelObject rope = b.addRope(new RopeSpec("spring", new float[] {0, 1, 0, 1, 1, 0}, 2, 0.01f));
        if (pinned) {
            b.pinIndices(rope, 0);
        }
        return b.build().withMaterial(mat -> new Material(K, K, 0f, 0f, 0f, Float.POSITIVE_INFINITY));
    }

    private static SpringSet springs(Model m, float kd) {
        return SpringSet.build(m.withMaterial(mat -> mat.withStrainDamping(kd / K)));
    }

    @Test
    void boundIsTheExactFrequencyOfOneSpring() {
        // pinned anchor: ω² = k/m; two free equal masses: the relative mode's ω² = 2k/m
        Model pinned = spring(true);
        double m = 1.0 / pinned.invMass()[1];
        assertThat(StableStep.of(springs(pinned, 0f), pinned.invMass()))
                .isCloseTo(StableStep.SAFETY * 2.0 / Math.sqrt(K / m), within(1e-9));
        Model free = spring(false);
        double mf = 1.0 / free.invMass()[1];
        assertThat(StableStep.of(springs(free, 0f), free.invMass()))
                .isCloseTo(StableStep.SAFETY * 2.0 / Math.sqrt(2.0 * K / mf), within(1e-9));
        // damping shortens it: the root of h²λ + 2hμ = 4 with μ = k_d/m
        double kd = 0.05;
        double lambda = K / m;
        double mu = kd / m;
        assertThat(StableStep.of(springs(pinned, (float) kd), pinned.invMass()))
                .isCloseTo(StableStep.SAFETY * (Math.sqrt(mu * mu + 4 * lambda) - mu) / lambda, within(1e-9));
    }

    @Test
    void countSplitsAStepIntoPiecesNoLongerThanTheBound() {
        assertThat(StableStep.count(1.0, 0.3)).isEqualTo(4);
        assertThat(StableStep.count(0.9, 0.3)).isEqualTo(3);
        assertThat(StableStep.count(0.1, 0.3)).isEqualTo(1);
        assertThat(StableStep.count(0.1, Double.POSITIVE_INFINITY)).isEqualTo(1);
    }

    /** Largest |stretch| of the spring over {@code steps} fixed steps of h from 5 cm stretched at rest. */
    private static double largestStretch(MassSpringSettings s, float h, int steps) {
        Model m = spring(true);
        double largest = 0.0;
        try (WorkerPool pool = new WorkerPool(1)) {
            MassSpringSolver solver = new MassSpringSolver(s, pool);
            State state = State.atRest(m);
            state.positions()[3] += 0.05f;
            for (int i = 0; i < steps; i++) {
                solver.step(m, state, NO_GRAVITY, h);
                float[] x = state.positions();
                double len = Math.hypot(Math.hypot(x[3] - x[0], x[4] - x[1]), x[5] - x[2]);
                largest = Math.max(largest, Math.abs(len - 1.0));
            }
        }
        return largest;
    }

    @Test
    void fixedStepsAreStableJustUnderTheLimitAndGrowJustOverIt() {
        Model m = spring(true);
        double critical = 2.0 / Math.sqrt(K * m.invMass()[1]); // h·ω = 2
        MassSpringSettings fixed = MassSpringSettings.fixedSteps();
        // under the limit the oscillation stays bounded: from rest at 5 cm, Verlet's amplitude is at most
        // 5 cm / √(1 − (hω/2)²) = 16 cm at hω = 1.9, for ever (it is symplectic)
        assertThat(largestStretch(fixed, (float) (0.95 * critical), 5000)).isLessThan(0.2);
        // over it, each step multiplies the amplitude by 1.88 at hω = 2.1: 5 cm become metres in 8 steps
        assertThat(largestStretch(fixed, (float) (1.05 * critical), 8)).isGreaterThan(1.0);
        // with stable steps on, the solver splits a step 10 times the limit and stays bounded the same way
        MassSpringSettings stable = fixed.withStableSteps(true);
        try (WorkerPool pool = new WorkerPool(1)) {
            assertThat(new MassSpringSolver(stable, pool).verletStepsPer(m, (float) (10 * critical)))
                    .isEqualTo((int) Math.ceil(10 / StableStep.SAFETY));
        }
        assertThat(largestStretch(stable, (float) (10 * critical), 500)).isLessThan(0.2);
    }
}
