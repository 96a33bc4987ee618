package dev.weft.core.collide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.RopeSpec;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import java.util.List;
import org.junit.jupiter.api.Test;

class ColliderTest {
    @Test
    void sphereProjectsRadiallyOntoItsThicknessShell() {
        SphereCollider s = new SphereCollider("s", new float[] {1f, 2f, 3f}, 0.5f, 0.01f, 0f);
        float[] x = {1.3f, 2f, 3.4f};
        float[] prev = x.clone();
        s.collide(x, prev, new float[] {1f}, 0, 1);
        assertThat(s.signedDistance(x[0], x[1], x[2])).isCloseTo(0.01f, within(1e-6f));
        // along the radius: the direction from the centre is unchanged (0.3, 0, 0.4) / 0.5
        assertThat(x[0] - 1f).isCloseTo(0.6f * 0.51f, within(1e-6f));
        assertThat(x[1]).isEqualTo(2f);
        assertThat(x[2] - 3f).isCloseTo(0.8f * 0.51f, within(1e-6f));
        // a pinned particle (inverse mass 0) is never moved
        float[] pinned = {1.3f, 2f, 3.4f};
        s.collide(pinned, pinned.clone(), new float[] {0f}, 0, 1);
        assertThat(pinned).containsExactly(1.3f, 2f, 3.4f);
    }

    @Test
    void aPlaneSaysWhichPlaneItIsAndOtherShapesSayNone() {
        PlaneCollider p = new PlaneCollider("tilted", new float[] {0f, 2f, 0f}, new float[] {0f, 3f, 4f}, 0.01f, 0f);
        float[] plane = p.plane();
        // unit normal (0, 0.6, 0.8), offset n·point = 1.2; its signed distance agrees at any point
        assertThat(plane[0]).isEqualTo(0f);
        assertThat(plane[1]).isCloseTo(0.6f, within(1e-7f));
        assertThat(plane[2]).isCloseTo(0.8f, within(1e-7f));
        assertThat(plane[3]).isCloseTo(1.2f, within(1e-6f));
        float[] q = {0.3f, -1f, 2f};
        assertThat(plane[0] * q[0] + plane[1] * q[1] + plane[2] * q[2] - plane[3])
                .isEqualTo(p.signedDistance(q[0], q[1], q[2]));
        assertThat(new SphereCollider("s", new float[] {0f, 0f, 0f}, 1f, 0.01f, 0f).plane()).isNull();
    }

    /** Distance a short rigid rod travels down a plane tilted by theta in {@code seconds}. */
    private static double slide(double thetaDegrees, float mu, float seconds) {
        double theta = Math.toRadians(thetaDegrees);
        float sin = (float) Math.sin(theta);
        float cos = (float) Math.cos(theta);
        float thickness = 0.005f;
        // plane through the origin, normal (-sin, cos, 0); the rod lies across the slope along z
        PlaneCollider plane = new PlaneCollider("slope", new float[] {0, 0, 0}, new float[] {-sin, cos, 0},
                thickness, mu);
        float px = -sin * thickness;
        float py = cos * thickness;
        ModelBuilder b = new ModelBuilder().tethers(false).bending(false);
        b.addRope(new RopeSpec("rod", new float[] {px, py, -0.05f, px, py, 0.05f}, 2, 1f));
        Model m = b.build().withMaterial(mat -> mat.withDamping(0f));
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.<Collider>of(plane));
        XpbdSettings settings = XpbdSettings.defaults();
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m), new XpbdSolver(settings, pool), env, 4)) {
            int frames = Math.round(seconds * 60f);
            for (int f = 0; f < frames; f++) {
                sim.advance(1f / 60f);
            }
            float[] x = sim.state().positions();
            // displacement along the downhill direction (-cos, -sin, 0)
            return -(x[0] - px) * cos - (x[1] - py) * sin;
        }
    }

    @Test
    void coulombFrictionHoldsBelowTheFrictionAngleAndSlidesAboveIt() {
        // tan 20 deg = 0.364: mu = 0.5 holds the rod, mu = 0.2 lets it slide with a = g (sin - mu cos)
        assertThat(slide(20, 0.5f, 2f)).isCloseTo(0.0, within(1e-4));
        double theta = Math.toRadians(20);
        double a = 9.81 * (Math.sin(theta) - 0.2 * Math.cos(theta));
        double expected = 0.5 * a * 1.0 * 1.0;
        // position-based friction acts per substep on the substep's displacement: a few percent
        assertThat(slide(20, 0.2f, 1f)).isCloseTo(expected, within(0.05 * expected));
        // frictionless: free sliding, a = g sin
        double free = 0.5 * 9.81 * Math.sin(theta);
        assertThat(slide(20, 0f, 1f)).isCloseTo(free, within(0.03 * free));
    }

    /** The infinite plane's inside is a half-space: a 20 m/s step (0.33 m) ends in front, whatever its depth. */
    @Test
    void fastParticlesThroughTheInfinitePlaneEndInFront() {
        PlaneCollider floor = PlaneCollider.floor(0f, 0.01f, 0.3f);
        java.util.Random rnd = new java.util.Random(8);
        int count = 100;
        float[] x = new float[3 * count];
        float[] prev = new float[3 * count];
        float[] w = new float[count];
        for (int i = 0; i < count; i++) {
            float[] dir = new float[3];
            AnalyticShapes.direction(rnd, dir);
            dir[1] = -Math.abs(dir[1]) - 0.2f; // downwards
            float len = (float) Math.sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
            float start = 0.02f + 0.3f * rnd.nextFloat();
            for (int k = 0; k < 3; k++) {
                prev[3 * i + k] = k == 1 ? start : rnd.nextFloat();
                x[3 * i + k] = prev[3 * i + k] + (20f / 60f) * dir[k] / len;
            }
            w[i] = 1f;
        }
        float[] ends = x.clone();
        floor.collide(x, prev, w, 0, count);
        int crossed = 0;
        for (int i = 0; i < count; i++) {
            if (ends[3 * i + 1] < 0.01f) {
                crossed += ends[3 * i + 1] < 0f ? 1 : 0;
                assertThat(x[3 * i + 1]).as("particle %d", i).isCloseTo(0.01f, within(1e-6f));
            } else {
                assertThat(x[3 * i + 1]).isEqualTo(ends[3 * i + 1]); // never reached the thickness
            }
        }
        assertThat(crossed).isGreaterThan(count / 2);
    }
}
