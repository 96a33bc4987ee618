package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.BoxCollider;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.SpringLayout;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.massspring.MassSpringSolver;
import dev.weft.core.step.Environment;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The OpenCL mass-spring solver against the CPU's {@link MassSpringSolver} on the same scenes.
 *
 * <p>Tolerance: the kernels do the CPU's float operations in its order (no fused multiply-add, the
 * gather in double where the device has fp64, correctly rounded division and square root where the
 * device offers them), so on PoCL the two agree bit for bit (measured: 0 m and 0 m/s after 1 step and
 * after 100 or 240 steps of every scene here; checked exactly on PoCL). A device without those
 * guarantees rounds differently: OpenCL's default sqrt may be 3 ulp off and division 2.5 ulp, a GPU
 * compiler fuses a·b + c, and a float gather sums in float. The kernels built that way ({@code
 * WEFT_RELAXED}: float gather, contraction and mad allowed, default division and sqrt) measured on PoCL
 * 1.9e-9 m after one step and 7.8e-7 m after 100 steps of the 32 × 32 hanging cloth (velocities
 * 6.6e-4 m/s: a stiff spring turns a position rounding into h·k/m times it), 8.9e-8 m on the landed
 * cloth after 240 steps. {@link #TOLERANCE}, 1e-5 m (a third of a thousandth of the 3.2 cm spacing), is
 * 13 times the largest of those; {@link #VELOCITY_TOLERANCE} 7.6 times.
 */
class OpenClMassSpringSolverTest {
    /** Positions within this (m) of the CPU's on any device (see the class comment). */
    private static final float TOLERANCE = 1e-5f;
    /** Velocities within this (m/s) of the CPU's on any device. */
    private static final float VELOCITY_TOLERANCE = 5e-3f;
    /** One substep of the default scene's 16 at 60 fps. */
    private static final float DT = 1f / 960f;

    @Test
    void aHangingClothAgreesWithTheCpuAfterOneAndAfterAHundredSteps() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = hangingCloth(32, SpringLayout.PATTERN_12);
        Comparison c = compare(device, model, State.atRest(model), Environment.earth(), 100);
        assertThat(c.afterOne).isLessThanOrEqualTo(TOLERANCE);
        assertThat(c.afterAll).isLessThanOrEqualTo(TOLERANCE);
        assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
        // it moved: the comparison is of a falling, stretching cloth, not of two still ones
        assertThat(c.travel).isGreaterThan(0.01f);
        if (device.fp64() && device.platformName().contains("Portable Computing Language")) {
            assertThat(c.afterAll).as("PoCL: the CPU's bits").isZero();
        }
    }

    @Test
    void withoutTheCpusRoundingTheDifferenceStaysWithinTheTolerance() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = hangingCloth(32, SpringLayout.PATTERN_12);
        Comparison hanging = compare(device, false, model, State.atRest(model), Environment.earth(), 100);
        assertThat(hanging.afterAll).isLessThanOrEqualTo(TOLERANCE);
        assertThat(hanging.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
        Model dropped = droppedCloth(24, 0.2f);
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of(PlaneCollider.floor(0f, 0.005f, 0.4f)));
        Comparison landed = compare(device, false, dropped, State.atRest(dropped), env, 240);
        assertThat(landed.afterAll).isLessThanOrEqualTo(TOLERANCE);
    }

    @Test
    void theDefaultSpringLayoutAgreesToo() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = hangingCloth(24, SpringLayout.STENCIL_24);
        Comparison c = compare(device, model, State.atRest(model), Environment.earth(), 100);
        assertThat(c.afterAll).isLessThanOrEqualTo(TOLERANCE);
    }

    @Test
    void aClothDroppedOnTheFloorStaysAboveItAndAgreesWithTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = droppedCloth(24, 0.2f);
        PlaneCollider floor = PlaneCollider.floor(0f, 0.005f, 0.4f);
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of(floor));
        // 0.25 s: it falls 0.2 m in 0.2 s and lands
        Comparison c = compare(device, model, State.atRest(model), env, 240);
        assertThat(c.lowestClearance(floor)).isGreaterThanOrEqualTo(0.005f - 1e-6f);
        assertThat(c.travel).isGreaterThan(0.15f);
        assertThat(c.afterAll).isLessThanOrEqualTo(TOLERANCE);
    }

    @Test
    void aClothDroppedOnASphereStaysOutsideItAndAgreesWithTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = droppedCloth(24, 0.5f);
        SphereCollider ball = new SphereCollider("ball", new float[] {0f, 0.2f, 0f}, 0.2f, 0.005f, 0.3f);
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of(ball));
        Comparison c = compare(device, model, State.atRest(model), env, 240);
        assertThat(c.lowestClearance(ball)).isGreaterThanOrEqualTo(0.005f - 1e-6f);
        assertThat(c.afterAll).isLessThanOrEqualTo(TOLERANCE);
    }

    @Test
    void pinnedParticlesKeepTheirBitsAndHaveNoVelocity() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = hangingCloth(32, SpringLayout.PATTERN_12);
        State state = State.atRest(model);
        float[] start = state.positions().clone();
        try (OpenClMassSpringSolver solver = new OpenClMassSpringSolver(settings(), device)) {
            for (int k = 0; k < 100; k++) {
                solver.step(model, state, Environment.earth(), DT);
            }
        }
        int pinned = 0;
        for (int i = 0; i < model.particleCount(); i++) {
            if (model.isPinned(i)) {
                pinned++;
                for (int a = 0; a < 3; a++) {
                    assertThat(Float.floatToRawIntBits(state.positions()[3 * i + a]))
                            .isEqualTo(Float.floatToRawIntBits(start[3 * i + a]));
                    assertThat(state.velocities()[3 * i + a]).isZero();
                }
            }
        }
        assertThat(pinned).isEqualTo(2);
        assertThat(state.steps()).isEqualTo(100);
    }

    @Test
    void aParticleMovedOnTheHostBetweenStepsIsUploaded() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = hangingCloth(16, SpringLayout.PATTERN_12);
        State cpu = State.atRest(model);
        State gpu = State.atRest(model);
        try (WorkerPool pool = new WorkerPool(1);
             MassSpringSolver reference = new MassSpringSolver(settings(), pool);
             OpenClMassSpringSolver solver = new OpenClMassSpringSolver(settings(), device)) {
            for (int k = 0; k < 20; k++) {
                if (k == 10) { // a drag: one particle moved and given a velocity by the host
                    for (State s : List.of(cpu, gpu)) {
                        s.positions()[3 * 100 + 2] += 0.05f;
                        s.velocities()[3 * 100 + 1] = 1f;
                    }
                }
                reference.step(model, cpu, Environment.earth(), DT);
                solver.step(model, gpu, Environment.earth(), DT);
            }
        }
        assertThat(maxDifference(cpu.positions(), gpu.positions())).isLessThanOrEqualTo(TOLERANCE);
    }

    @Test
    void whatIsNotOnTheDeviceYetIsRefusedByName() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        ModelBuilder b = new ModelBuilder(); // tethers on, as by default
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", 8, 8, 0.4f, 0.4f));
        b.pinCorners(cloth, "top-left", "top-right");
        Model tethered = b.build();
        Model plain = hangingCloth(8, SpringLayout.PATTERN_12);
        try (OpenClMassSpringSolver solver = new OpenClMassSpringSolver(MassSpringSettings.defaults(), device)) {
            assertThatThrownBy(() -> solver.step(tethered, State.atRest(tethered), Environment.earth(), DT))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("tethers");
            Environment windy = Environment.earth().withWind(new float[] {3f, 0f, 0f}).withAir(1.2f, 1f, 0.02f);
            assertThatThrownBy(() -> solver.step(plain, State.atRest(plain), windy, DT))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("air");
            Collider box = new BoxCollider("crate", new float[] {0f, -1f, 0f}, new float[] {0.5f, 0.5f, 0.5f}, 0f, 0f);
            Environment boxed = new Environment(new float[] {0f, -9.81f, 0f}, List.of(box));
            assertThatThrownBy(() -> solver.step(plain, State.atRest(plain), boxed, DT))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("crate")
                    .hasMessageContaining("BoxCollider");
            Collider moving = new SphereCollider("ball", new float[] {0f, -1f, 0f}, 0.3f, 0f, 0f)
                    .withVelocity(new float[] {1f, 0f, 0f}, new float[3]);
            Environment rolling = new Environment(new float[] {0f, -9.81f, 0f}, List.of(moving));
            assertThatThrownBy(() -> solver.step(plain, State.atRest(plain), rolling, DT))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("ball").hasMessageContaining("moves");
            assertThatThrownBy(() -> solver.withParticleContacts(ParticleContactSettings.defaults()))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("particle contacts");
            // after the refusals it still runs what it supports
            State s = State.atRest(plain);
            solver.step(plain, s, Environment.earth(), DT);
            assertThat(s.steps()).isEqualTo(1);
        }
    }

    /** Seed 004's settings of Weft's mass-spring: stable steps; tethers are not on the device yet. */
    private static MassSpringSettings settings() {
        return MassSpringSettings.defaults().withTethers(false);
    }

    /** An n × n, 1 m cloth held horizontally 1 m up by its two top corners (the hanging scene's), default material. */
    static Model hangingCloth(int n, SpringLayout layout) {
        ModelBuilder b = new ModelBuilder().tethers(false).springLayout(layout);
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", n, n, 1f, 1f).withOrigin(-0.5f, 1f, -0.5f));
        b.pinCorners(cloth, "top-left", "top-right");
        return b.build();
    }

    /** An n × n, 0.6 m cloth held horizontally at {@code height}, free. */
    private static Model droppedCloth(int n, float height) {
        ModelBuilder b = new ModelBuilder().tethers(false).springLayout(SpringLayout.PATTERN_12);
        b.addGridCloth(GridClothSpec.of("cloth", n, n, 0.6f, 0.6f).withOrigin(-0.3f, height, -0.3f));
        return b.build();
    }

    /** Both solvers from the same start, step by step; every position of the OpenCL run kept for checks. */
    private static Comparison compare(OpenClDevice device, Model model, State start, Environment env, int steps) {
        return compare(device, true, model, start, env, steps);
    }

    private static Comparison compare(OpenClDevice device, boolean cpuRounding, Model model, State start,
                                      Environment env, int steps) {
        State cpu = start.copy();
        State gpu = start.copy();
        Comparison c = new Comparison(model);
        try (WorkerPool pool = new WorkerPool(1);
             MassSpringSolver reference = new MassSpringSolver(settings(), pool);
             OpenClMassSpringSolver solver = new OpenClMassSpringSolver(settings(), device, cpuRounding)) {
            for (int k = 0; k < steps; k++) {
                reference.step(model, cpu, env, DT);
                solver.step(model, gpu, env, DT);
                c.record(gpu.positions());
                if (k == 0) {
                    c.afterOne = maxDifference(cpu.positions(), gpu.positions());
                }
            }
        }
        c.afterAll = maxDifference(cpu.positions(), gpu.positions());
        c.velocityAfterAll = maxDifference(cpu.velocities(), gpu.velocities());
        c.travel = maxDifference(start.positions(), gpu.positions());
        System.out.printf((cpuRounding ? "" : "relaxed ") + "OpenCL vs CPU on %d particles, %d steps: max |dx| after 1 step %.3g m, after all %.3g m, "
                + "max |dv| %.3g m/s%n", model.particleCount(), steps, c.afterOne, c.afterAll, c.velocityAfterAll);
        return c;
    }

    static float maxDifference(float[] a, float[] b) {
        float most = 0f;
        for (int k = 0; k < a.length; k++) {
            most = Math.max(most, Math.abs(a[k] - b[k]));
        }
        return most;
    }

    /** What a comparison measured, and the smallest distance to each collider seen in any step. */
    private static final class Comparison {
        private final Model model;
        private final java.util.List<float[]> frames = new java.util.ArrayList<>();
        float afterOne;
        float afterAll;
        float velocityAfterAll;
        float travel;

        Comparison(Model model) {
            this.model = model;
        }

        void record(float[] x) {
            frames.add(x.clone());
        }

        float lowestClearance(Collider c) {
            float least = Float.POSITIVE_INFINITY;
            for (float[] x : frames) {
                for (int i = 0; i < model.particleCount(); i++) {
                    least = Math.min(least, c.signedDistance(x[3 * i], x[3 * i + 1], x[3 * i + 2]));
                }
            }
            return least;
        }
    }
}
