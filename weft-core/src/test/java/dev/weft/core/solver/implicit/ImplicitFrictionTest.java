package dev.weft.core.solver.implicit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.State;
import dev.weft.core.parallel.PoolChecks;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.step.Environment;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Coulomb friction at the implicit solver's plane contacts: a cloth lying on a tilted plane. */
class ImplicitFrictionTest {
    private static final double THETA = Math.toRadians(20); // tan θ ≈ 0.364
    private static final double G = 9.81;
    private static final float THICKNESS = 0.002f;
    /** 1 s at h = 1/120 s. */
    private static final int STEPS = 120;
    private static final float H = 1f / 120f;

    private static final Model CLOTH = cloth(5);
    /**
     * For the thread test: more particles than WorkerPool.MIN_PARALLEL_ITEMS and the linear solvers'
     * MIN_PARALLEL_ROWS (1024), so 2 and 3 threads really split every pass.
     */
    private static final Model BIG_CLOTH = cloth(36);

    private static Model cloth(int side) {
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("cloth", side, side, 0.2f, 0.2f).withOrigin(-0.1f, 0f, -0.1f));
        return b.build().withMaterial(mat -> mat.withDamping(0f)); // Coulomb's law alone, no air
    }

    /** The cloth laid flat on the plane y = x tan θ (normal (−sin θ, cos θ, 0)), at the plane's thickness. */
    private static State onSlope(Model cloth) {
        State s = State.atRest(cloth);
        float[] x = s.positions();
        double c = Math.cos(THETA);
        double sn = Math.sin(THETA);
        for (int i = 0; i < cloth.particleCount(); i++) {
            double px = x[3 * i];
            x[3 * i] = (float) (px * c - THICKNESS * sn);
            x[3 * i + 1] = (float) (px * sn + THICKNESS * c);
        }
        return s;
    }

    private static PlaneCollider slope(float staticFriction, float kineticFriction) {
        PlaneCollider p = new PlaneCollider("slope", new float[3],
                new float[] {(float) -Math.sin(THETA), (float) Math.cos(THETA), 0f}, THICKNESS, staticFriction);
        p.withFriction(staticFriction, kineticFriction);
        return p;
    }

    /** Mean displacement of the particles down the slope, direction −(cos θ, sin θ, 0), after 1 s. */
    private static double slid(PlaneCollider plane, int threads, float[] out) {
        return slid(CLOTH, plane, threads, out);
    }

    private static double slid(Model cloth, PlaneCollider plane, int threads, float[] out) {
        State start = onSlope(cloth);
        float[] x0 = start.positions().clone();
        Environment env = new Environment(new float[] {0f, (float) -G, 0f}, List.of(plane));
        try (WorkerPool pool = new WorkerPool(threads);
             Simulation sim = new Simulation(cloth, start, new ImplicitSolver(ImplicitSettings.defaults(), pool), env, 1)) {
            for (int k = 0; k < STEPS; k++) {
                sim.advance(H);
            }
            ImplicitSolver solver = (ImplicitSolver) sim.solver();
            assertThat(solver.lastContactCount()).isEqualTo(cloth.particleCount()); // still lying on it
            if (cloth == BIG_CLOTH) {
                PoolChecks.assertEveryPassSplit(pool, threads + " threads");
            }
            float[] x = sim.state().positions();
            if (out != null) {
                System.arraycopy(x, 0, out, 0, x.length);
            }
            double sum = 0;
            for (int i = 0; i < cloth.particleCount(); i++) {
                sum -= (x[3 * i] - x0[3 * i]) * Math.cos(THETA) + (x[3 * i + 1] - x0[3 * i + 1]) * Math.sin(THETA);
            }
            return sum / cloth.particleCount();
        }
    }

    /** Distance the step scheme covers in STEPS steps at acceleration a from rest: v_k = k h a, x += h v_k. */
    private static double discreteDistance(double a) {
        return a * H * H * STEPS * (STEPS + 1) / 2.0;
    }

    @Test
    void staysWhenTheFrictionCoefficientExceedsTheTangentOfTheSlope() {
        // μ = 0.45 > tan 20° ≈ 0.364: the normal impulse m g cos θ h allows a tangential impulse up to
        // μ m g cos θ h, more than gravity's m g sin θ h, so every step's sliding velocity is cancelled.
        // Left: float rounding of the positions (~1e-7 m per step; 1e-5 m over 120 steps).
        float[] x = new float[3 * CLOTH.particleCount()];
        double moved = slid(slope(0.45f, 0.45f), 1, x);
        assertThat(Math.abs(moved)).isLessThan(1e-5);
        float[] x0 = onSlope(CLOTH).positions();
        for (int i = 0; i < x.length; i++) {
            assertThat(x[i]).isCloseTo(x0[i], within(1e-5f));
        }
        // just above the tangent still holds
        assertThat(Math.abs(slid(slope((float) Math.tan(THETA) + 0.02f, (float) Math.tan(THETA) + 0.02f), 1, null)))
                .isLessThan(1e-5);
    }

    @Test
    void aBodysGripScalesThePlanesFrictionInTheFilter() {
        // μ = 0.45 holds the cloth; of grip 0.4 it meets μ = 0.18 < tan θ and slides at g (sin θ − 0.18 cos θ)
        Model slippery = CLOTH.withMaterial(mat -> mat.withFriction(0.4f));
        double a = G * (Math.sin(THETA) - 0.18 * Math.cos(THETA));
        assertThat(slid(slippery, slope(0.45f, 0.45f), 1, null)).isCloseTo(discreteDistance(a),
                within(0.01 * discreteDistance(a)));
    }

    @Test
    void slidesWithCoulombsAccelerationWhenItIsBelow() {
        // μ = 0.2 < tan θ: it slides at a = g (sin θ − μ cos θ) ≈ 1.51 m/s², every particle alike
        // (a rigid slide leaves the springs at rest). The step scheme's exact distance, to 1 %: the
        // normal impulse is the filter's, exact up to the linear solver's tolerance (1e-4) and floats.
        double a = G * (Math.sin(THETA) - 0.2 * Math.cos(THETA));
        double moved = slid(slope(0.2f, 0.2f), 1, null);
        assertThat(moved).isCloseTo(discreteDistance(a), within(0.01 * discreteDistance(a)));
        // just below the tangent it slides, slowly: a ≈ 0.18 m/s²
        float below = (float) Math.tan(THETA) - 0.02f;
        double slow = G * (Math.sin(THETA) - below * Math.cos(THETA));
        assertThat(slid(slope(below, below), 1, null)).isCloseTo(discreteDistance(slow), within(0.01 * discreteDistance(slow)));
        // frictionless: g sin θ ≈ 3.36 m/s²
        double free = slid(slope(0f, 0f), 1, null);
        assertThat(free).isCloseTo(discreteDistance(G * Math.sin(THETA)), within(0.01 * discreteDistance(G * Math.sin(THETA))));
    }

    @Test
    void staticFrictionHoldsAtRestWhereKineticFrictionAloneWouldNot() {
        // μ_s = 0.45 > tan θ > μ_k = 0.2: starting at rest, static friction holds it
        assertThat(Math.abs(slid(slope(0.45f, 0.2f), 1, null))).isLessThan(1e-5);
    }

    @Test
    void oneTwoAndThreeThreadsGiveIdenticalBitsWithFriction() {
        float[][] x = new float[3][3 * BIG_CLOTH.particleCount()];
        for (int t = 1; t <= 3; t++) {
            slid(BIG_CLOTH, slope(0.2f, 0.2f), t, x[t - 1]);
        }
        assertThat(x[1]).isEqualTo(x[0]);
        assertThat(x[2]).isEqualTo(x[0]);
    }
}
