package dev.weft.core.collide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Seed 001 §5.3.6 friction with static and kinetic coefficients: a cloth on a slope of angle θ. */
class FrictionTest {
    private static final double THETA = Math.toRadians(20); // tan θ = 0.364
    private static final float THICKNESS = 0.005f;
    private static final float G = 9.81f;

    /**
     * Lays a 0.3 m cloth on a slope (an infinite plane, or the top face of a tilted box), optionally
     * with a downhill start speed, and returns how far its centre moved downhill in {@code seconds}.
     */
    private static double slide(boolean box, float staticMu, float kineticMu, float startSpeed, float seconds) {
        return slide(box, staticMu, kineticMu, 1f, startSpeed, seconds);
    }

    /** As above, the cloth's material gripping with {@code grip} (a factor on the slope's coefficients). */
    private static double slide(boolean box, float staticMu, float kineticMu, float grip, float startSpeed,
                                float seconds) {
        float sin = (float) Math.sin(THETA);
        float cos = (float) Math.cos(THETA);
        float[] normal = {-sin, cos, 0f};
        float[] downhill = {-cos, -sin, 0f};
        Collider slope;
        if (box) {
            // a 4 m x 0.2 m x 2 m slab turned by θ about z, its top face through the origin
            float h = 0.1f;
            slope = new BoxCollider("slope", new float[] {-h * normal[0], -h * normal[1], 0f},
                    new float[] {2f, h, 1f}, THICKNESS, staticMu)
                    .withOrientation(Quaternions.axisAngle("q", new float[] {0f, 0f, 1f}, (float) THETA));
        } else {
            slope = new PlaneCollider("slope", new float[3], normal, THICKNESS, staticMu);
        }
        slope.withFriction(staticMu, kineticMu);
        float width = 0.3f;
        float[] origin = new float[3];
        for (int k = 0; k < 3; k++) {
            origin[k] = THICKNESS * normal[k] - 0.5f * width * downhill[k];
        }
        origin[2] -= 0.5f * width;
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("cloth", 10, 10, width, width).withOrigin(origin[0], origin[1], origin[2])
                .withAxes(downhill, new float[] {0f, 0f, 1f}));
        Model m = b.build().withMaterial(mat -> mat.withDamping(0f).withFriction(grip));
        State state = State.atRest(m);
        float[] v = state.velocities();
        for (int i = 0; i < m.particleCount(); i++) {
            for (int k = 0; k < 3; k++) {
                v[3 * i + k] = startSpeed * downhill[k];
            }
        }
        Environment env = new Environment(new float[] {0f, -G, 0f}, List.of(slope));
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, state, new XpbdSolver(XpbdSettings.defaults(), pool),
                     env, 8)) {
            double start = centreAlong(sim.state().positions(), downhill);
            int frames = Math.round(seconds * 60f);
            for (int f = 0; f < frames; f++) {
                sim.advance(1f / 60f);
            }
            return centreAlong(sim.state().positions(), downhill) - start;
        }
    }

    private static double centreAlong(float[] x, float[] dir) {
        double s = 0;
        int n = x.length / 3;
        for (int i = 0; i < n; i++) {
            s += x[3 * i] * dir[0] + x[3 * i + 1] * dir[1] + x[3 * i + 2] * dir[2];
        }
        return s / n;
    }

    @ParameterizedTest(name = "box = {0}")
    @ValueSource(booleans = {false, true})
    void clothStaysWhenMuExceedsTanThetaAndSlidesWhenBelow(boolean box) {
        // μ = 0.45 > tan 20° = 0.364: it stays (under a millimetre in a second: the contact settles)
        assertThat(slide(box, 0.45f, 0.45f, 0f, 1f)).isCloseTo(0.0, within(1e-3));
        // μ = 0.25 < tan θ: it slides with a = g (sin θ − μ cos θ); position-based friction acts on each
        // substep's displacement, which holds the analytic value within a few percent
        double a = G * (Math.sin(THETA) - 0.25 * Math.cos(THETA));
        double expected = 0.5 * a;
        assertThat(slide(box, 0.25f, 0.25f, 0f, 1f)).isCloseTo(expected, within(0.05 * expected));
    }

    @Test
    void staticFrictionHoldsAtRestWhileKineticFrictionLetsAMovingClothSlide() {
        // μs = 0.45 > tan θ > μk = 0.2: at rest it stays put ...
        assertThat(slide(false, 0.45f, 0.2f, 0f, 1f)).isCloseTo(0.0, within(1e-3));
        // ... but launched downhill at 1 m/s it keeps sliding and speeds up at g (sin θ − μk cos θ)
        double a = G * (Math.sin(THETA) - 0.2 * Math.cos(THETA));
        double expected = 1.0 * 0.5 + 0.5 * a * 0.25;
        assertThat(slide(false, 0.45f, 0.2f, 1f, 0.5f)).isCloseTo(expected, within(0.05 * expected));
        // and with kinetic friction above tan θ the launched cloth decelerates and stops
        double stop = slide(false, 0.6f, 0.6f, 1f, 1f);
        double decel = G * (0.6 * Math.cos(THETA) - Math.sin(THETA));
        assertThat(stop).isCloseTo(1.0 / (2 * decel), within(0.1 / (2 * decel)));
    }

    @ParameterizedTest(name = "box = {0}")
    @ValueSource(booleans = {false, true})
    void aBodysGripScalesTheSlopesFriction(boolean box) {
        // μ = 0.45 holds the cloth (above); a cloth of grip 0.5 meets μ = 0.225 < tan θ and slides with
        // a = g (sin θ − 0.225 cos θ), as a cloth of grip 1 on a slope of μ = 0.225 does
        double a = G * (Math.sin(THETA) - 0.225 * Math.cos(THETA));
        assertThat(slide(box, 0.45f, 0.45f, 0.5f, 0f, 1f)).isCloseTo(0.5 * a, within(0.05 * 0.5 * a));
        assertThat(slide(box, 0.45f, 0.45f, 0.5f, 0f, 1f)).isCloseTo(slide(box, 0.225f, 0.225f, 0f, 1f),
                within(1e-6));
        // grip 0: frictionless, a = g sin θ
        double free = 0.5 * G * Math.sin(THETA);
        assertThat(slide(box, 0.45f, 0.45f, 0f, 0f, 1f)).isCloseTo(free, within(0.02 * free));
    }
}
