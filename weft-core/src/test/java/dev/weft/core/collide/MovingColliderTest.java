package dev.weft.core.collide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.collide.AnalyticShapes.Shape;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MovingColliderTest {
    private static final float THICKNESS = 0.01f;
    private static final float DT = 1f / 60f;

    @Test
    void keyframedMotionInterpolatesTranslationLinearlyAndRotationSpherically() {
        float[] q1 = Quaternions.axisAngle("q", new float[] {0f, 1f, 0f}, 1.2f);
        KeyframedMotion m = new KeyframedMotion(new double[] {1.0, 3.0}, new float[] {0f, 0f, 0f, 2f, 4f, -2f},
                new float[] {1f, 0f, 0f, 0f, q1[0], q1[1], q1[2], q1[3]});
        float[] pose = new float[7];
        m.poseAt(2.0, pose);
        assertThat(pose[0]).isCloseTo(1f, within(1e-6f));
        assertThat(pose[1]).isCloseTo(2f, within(1e-6f));
        assertThat(pose[2]).isCloseTo(-1f, within(1e-6f));
        // half way: half the angle about the same axis
        float[] half = Quaternions.axisAngle("q", new float[] {0f, 1f, 0f}, 0.6f);
        for (int k = 0; k < 4; k++) {
            assertThat(pose[3 + k]).isCloseTo(half[k], within(1e-6f));
        }
        // held before the first and after the last key
        m.poseAt(0.0, pose);
        assertThat(pose).containsExactly(0f, 0f, 0f, 1f, 0f, 0f, 0f);
        m.poseAt(9.0, pose);
        assertThat(pose[0]).isEqualTo(2f);
        assertThat(pose[4]).isEqualTo(q1[1]);
    }

    @Test
    void constantAngularVelocityTurnsByOmegaTimesT() {
        ConstantVelocityMotion m = new ConstantVelocityMotion(new float[] {1f, 0f, 0f}, new float[] {1f, 0f, 0f, 0f},
                new float[] {0f, 0f, 2f}, new float[] {0f, 0f, 0.5f});
        float[] pose = new float[7];
        m.poseAt(2.0, pose);
        assertThat(pose[2]).isCloseTo(4f, within(1e-6f));
        float[] expected = Quaternions.axisAngle("q", new float[] {0f, 0f, 1f}, 1f);
        for (int k = 0; k < 4; k++) {
            assertThat(pose[3 + k]).isCloseTo(expected[k], within(1e-6f));
        }
    }

    static Stream<Shape> shapes() {
        return AnalyticShapes.all().stream();
    }

    /**
     * Each shape, moving at 20 m/s and turning at 3 rad/s, sweeps through resting particles in one
     * 60 Hz step (a third of a metre, more than its own size for most): every particle ends at least
     * 99 % of the thickness off the moved surface, and its path relative to the body never crosses it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void fastMovingShapesSweepParticlesAlongInsteadOfPassingThem(Shape shape) {
        float[] dir = {0.6f, 0f, 0.8f};
        float speed = 20f;
        ConstantVelocityMotion motion = new ConstantVelocityMotion(new float[] {0f, 0.5f, 0f},
                Quaternions.axisAngle("q", new float[] {1f, 0.5f, 0f}, 0.4f),
                new float[] {speed * dir[0], speed * dir[1], speed * dir[2]}, new float[] {0f, 3f, 0f});
        RigidCollider c = shape.factory().make(new float[3], THICKNESS, 0.3f).withMotion(motion);
        RigidCollider local = shape.factory().make(new float[3], THICKNESS, 0.3f);
        Random rnd = new Random(5);
        int count = 300;
        float[] x = new float[3 * count];
        float[] w = new float[count];
        int made = 0;
        float[] off = new float[3];
        while (made < count) {
            float u = rnd.nextFloat() * speed * DT;
            AnalyticShapes.direction(rnd, off);
            float r = shape.solid() ? shape.size() * rnd.nextFloat() : 0.6f * rnd.nextFloat();
            float px = u * dir[0] + r * off[0];
            float py = 0.5f + u * dir[1] + r * off[1];
            float pz = u * dir[2] + r * off[2];
            float sd = c.sideDistance(px, py, pz); // at the start pose
            if (Math.abs(sd) <= THICKNESS || (shape.solid() && sd < 0f)) {
                continue;
            }
            x[3 * made] = px;
            x[3 * made + 1] = py;
            x[3 * made + 2] = pz;
            w[made] = 1f;
            made++;
        }
        float[] start = x.clone();
        c.advance(0.0, DT);
        c.collide(x, start, w, 0, count);
        float[] pose0 = new float[7];
        float[] pose1 = new float[7];
        motion.poseAt(0.0, pose0);
        motion.poseAt(DT, pose1);
        float[] n = new float[3];
        for (int i = 0; i < count; i++) {
            float sd = c.sideDistance(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
            float[] a = toBody(pose0, start, i);
            float[] b = toBody(pose1, x, i);
            if (!shape.solid()) {
                // a shell has no inside: off the surface, and the relative path never went through it
                assertThat(Math.abs(sd)).as("%s particle %d", shape, i).isGreaterThanOrEqualTo(0.99f * THICKNESS);
                assertThat(crossesShell(shape, a, b)).as("%s particle %d passed through", shape, i).isFalse();
                continue;
            }
            assertThat(sd).as("%s particle %d", shape, i).isGreaterThanOrEqualTo(0.99f * THICKNESS);
            for (int k = 0; k <= 100; k++) {
                float t = k / 100f;
                float d = local.localDistance(a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]),
                        a[2] + t * (b[2] - a[2]), n);
                // as for static shapes: grazing contact, 10 % of the thickness
                assertThat(d).as("%s particle %d passed through", shape, i).isGreaterThan(-0.1f * THICKNESS);
            }
        }
    }

    /**
     * Whether the body-frame segment a→b goes through the shell: the side function (rectangle: the
     * sign of y; funnel: the sign of ρ − e^(y/a)) changes between two samples that both lie where the
     * shell is (over the rectangle, within the funnel's height).
     */
    private static boolean crossesShell(Shape shape, float[] a, float[] b) {
        boolean funnel = shape.name().equals("funnel");
        int steps = 400;
        float prevSide = 0f;
        boolean prevOver = false;
        for (int k = 0; k <= steps; k++) {
            float t = (float) k / steps;
            float x = a[0] + t * (b[0] - a[0]);
            float y = a[1] + t * (b[1] - a[1]);
            float z = a[2] + t * (b[2] - a[2]);
            float sideFn;
            boolean over;
            if (funnel) {
                sideFn = Math.signum((float) (Math.hypot(x, z) - Math.exp(y / AnalyticShapes.FUNNEL_A)));
                over = y > AnalyticShapes.FUNNEL_Y_MIN && y < AnalyticShapes.FUNNEL_Y_MAX;
            } else {
                sideFn = Math.signum(y);
                over = Math.abs(x) < 0.5f && Math.abs(z) < 0.3f;
            }
            if (k > 0 && over && prevOver && sideFn != prevSide) {
                return true;
            }
            prevSide = sideFn;
            prevOver = over;
        }
        return false;
    }

    private static float[] toBody(float[] pose, float[] x, int i) {
        float[] r = new float[9];
        Quaternions.toMatrix(pose, 3, r);
        float dx = x[3 * i] - pose[0];
        float dy = x[3 * i + 1] - pose[1];
        float dz = x[3 * i + 2] - pose[2];
        return new float[] {r[0] * dx + r[3] * dy + r[6] * dz, r[1] * dx + r[4] * dy + r[7] * dz,
                r[2] * dx + r[5] * dy + r[8] * dz};
    }

    /** A box platform sliding at 0.5 m/s carries a cloth lying on it by friction, and only by friction. */
    @Test
    void movingPlatformCarriesTheClothByFriction() {
        assertThat(carried(1.0f)).isCloseTo(0.5, within(0.03));
        assertThat(carried(0f)).isCloseTo(0.0, within(0.005));
    }

    private static double carried(float mu) {
        BoxCollider platform = new BoxCollider("platform", new float[] {0f, -0.05f, 0f},
                new float[] {1f, 0.05f, 1f}, 0.005f, mu);
        platform.withVelocity(new float[] {0.5f, 0f, 0f}, new float[3]);
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("cloth", 10, 10, 0.3f, 0.3f).withOrigin(-0.15f, 0.005f, -0.15f));
        Model m = b.build().withMaterial(mat -> mat.withDamping(0f));
        State s = State.atRest(m);
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of(platform));
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, s, new XpbdSolver(XpbdSettings.defaults(), pool),
                     env, 8)) {
            double x0 = meanX(sim.state().positions());
            for (int f = 0; f < 60; f++) {
                sim.advance(1f / 60f);
            }
            return meanX(sim.state().positions()) - x0;
        }
    }

    private static double meanX(float[] x) {
        double s = 0;
        for (int i = 0; i < x.length; i += 3) {
            s += x[i];
        }
        return s / (x.length / 3);
    }

    /**
     * Seed 001 figure 6.12: four cloths hanging from two corners each, one behind the other, and a
     * 0.15 m sphere flying through them at 10 m/s. With one substep per 60 Hz frame the sphere moves
     * 0.17 m per step, more than its radius, so a test of end positions alone would let it pass
     * through the cloths. With the swept test every cloth is pushed ahead of it: no particle's path
     * relative to the sphere crosses it, every particle ends outside, and each cloth's middle is
     * carried well forward.
     */
    @Test
    void sphereAtTenMetresPerSecondPushesFourHangingClothsWithoutTunnelling() {
        float radius = 0.15f;
        float speed = 10f;
        SphereCollider ball = new SphereCollider("ball", new float[] {0f, 0.7f, -0.5f}, radius, THICKNESS, 0.2f);
        ball.withVelocity(new float[] {0f, 0f, speed}, new float[3]);
        ModelBuilder b = new ModelBuilder();
        List<ModelObject> cloths = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth" + k, 16, 16, 0.6f, 0.6f)
                    .withOrigin(-0.3f, 1f, 0.3f * k).withAxes(GridClothSpec.VERTICAL[0], GridClothSpec.VERTICAL[1]));
            b.pinCorners(cloth, "top-left", "top-right");
            cloths.add(cloth);
        }
        Model m = b.build();
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of(ball));
        float[] maxPush = new float[4];
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m), new XpbdSolver(XpbdSettings.defaults(), pool), env,
                     1)) {
            float[] x = sim.state().positions();
            int n = m.particleCount();
            for (int f = 0; f < 30; f++) {
                float[] before = x.clone();
                double t0 = sim.state().time();
                float c0 = -0.5f + speed * (float) t0;
                sim.advance(DT);
                float c1 = -0.5f + speed * (float) sim.state().time();
                for (int i = 0; i < n; i++) {
                    assertThat(ball.signedDistance(x[3 * i], x[3 * i + 1], x[3 * i + 2]))
                            .as("frame %d particle %d", f, i).isGreaterThanOrEqualTo(0.99f * THICKNESS);
                    // the path relative to the ball: from (before - c0) to (x - c1)
                    for (int k = 0; k <= 20; k++) {
                        float t = k / 20f;
                        float rx = before[3 * i] + t * (x[3 * i] - before[3 * i]);
                        float ry = before[3 * i + 1] + t * (x[3 * i + 1] - before[3 * i + 1]) - 0.7f;
                        float rz = before[3 * i + 2] + t * (x[3 * i + 2] - before[3 * i + 2]) - (c0 + t * (c1 - c0));
                        float d = (float) Math.sqrt(rx * rx + ry * ry + rz * rz) - radius;
                        assertThat(d).as("frame %d: particle %d passed through the ball", f, i)
                                .isGreaterThan(-0.1f * THICKNESS);
                    }
                }
                for (int k = 0; k < 4; k++) {
                    ModelObject cloth = cloths.get(k);
                    int mid = cloth.gridParticle(8, 8);
                    maxPush[k] = Math.max(maxPush[k], x[3 * mid + 2] - 0.3f * k);
                }
            }
        }
        for (int k = 0; k < 4; k++) {
            // each cloth's middle is carried forward by more than the ball's radius
            assertThat(maxPush[k]).as("cloth %d pushed", k).isGreaterThan(radius);
        }
    }
}
