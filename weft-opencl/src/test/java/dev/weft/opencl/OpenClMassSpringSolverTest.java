package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.SpringLayout;
import dev.weft.core.model.State;
import dev.weft.core.solver.UnsupportedOnDeviceException;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.massspring.MassSpringSolver;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.DeviceTestScenes;
import dev.weft.core.testing.StepComparison;
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
        StepComparison c = compare(device, true, hangingCloth(32, SpringLayout.PATTERN_12), Environment.earth(), 100);
        assertThat(c.afterOne).isLessThanOrEqualTo(TOLERANCE);
        assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
        // it moved: the comparison is of a falling, stretching cloth, not of two still ones
        assertThat(c.travel).isGreaterThan(0.01f);
        c.assertPositionsAgree(TOLERANCE, device.fp64() && OpenClAvailable.isPocl(device));
    }

    @Test
    void withoutTheCpusRoundingTheDifferenceStaysWithinTheTolerance() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        StepComparison hanging = compare(device, false, hangingCloth(32, SpringLayout.PATTERN_12), Environment.earth(),
                100);
        assertThat(hanging.afterAll).isLessThanOrEqualTo(TOLERANCE);
        assertThat(hanging.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
        StepComparison landed = compare(device, false, droppedCloth(24, 0.2f),
                DeviceTestScenes.earthWith(DeviceTestScenes.floor()),
                240);
        assertThat(landed.afterAll).isLessThanOrEqualTo(TOLERANCE);
    }

    @Test
    void theDefaultSpringLayoutAgreesToo() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        compare(device, true, hangingCloth(24, SpringLayout.STENCIL_24), Environment.earth(), 100)
                .assertPositionsAgree(TOLERANCE, false);
    }

    @Test
    void aClothDroppedOnTheFloorStaysAboveItAndAgreesWithTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        PlaneCollider floor = DeviceTestScenes.floor();
        // 0.25 s: it falls 0.2 m in 0.2 s and lands
        StepComparison c = compare(device, true, droppedCloth(24, 0.2f), DeviceTestScenes.earthWith(floor), 240);
        assertThat(c.lowestClearance(floor)).isGreaterThanOrEqualTo(0.005f - 1e-6f);
        assertThat(c.travel).isGreaterThan(0.15f);
        c.assertPositionsAgree(TOLERANCE, false);
    }

    @Test
    void aClothDroppedOnASphereStaysOutsideItAndAgreesWithTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        SphereCollider ball = DeviceTestScenes.ball();
        StepComparison c = compare(device, true, droppedCloth(24, 0.5f), DeviceTestScenes.earthWith(ball), 240);
        assertThat(c.lowestClearance(ball)).isGreaterThanOrEqualTo(0.005f - 1e-6f);
        c.assertPositionsAgree(TOLERANCE, false);
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
        assertThat(StepComparison.assertPinnedKept(model, start, state)).isEqualTo(2);
        assertThat(state.steps()).isEqualTo(100);
    }

    @Test
    void aParticleMovedOnTheHostBetweenStepsIsUploaded() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        StepComparison c = StepComparison.run("OpenCL vs CPU, a drag at step 10,",
                pool -> new MassSpringSolver(settings(), pool), () -> new OpenClMassSpringSolver(settings(), device),
                hangingCloth(16, SpringLayout.PATTERN_12),
                Environment.earth(), DT, 20, 10);
        assertThat(c.afterAll).isLessThanOrEqualTo(TOLERANCE);
    }

    @Test
    void whatIsNotOnTheDeviceYetIsRefusedByName() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model plain = hangingCloth(8, SpringLayout.PATTERN_12);
        try (OpenClMassSpringSolver solver = new OpenClMassSpringSolver(MassSpringSettings.defaults(), device)) {
            // a projectile runs, with particle contacts too (OpenClInteractTest)
            // after the refusals it still runs what it supports
            State s = State.atRest(plain);
            solver.step(plain, s, Environment.earth(), DT);
            assertThat(s.steps()).isEqualTo(1);
        }
    }

    @Test
    void tethersAreProjectedAfterEveryVerletStepAsOnTheCpu() {
        // tethers on (the default): each Verlet step is then prediction, tethers, finish on the device
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model tethered = DeviceTestScenes.hangingCloth(new ModelBuilder().springLayout(SpringLayout.PATTERN_12), 24);
        assertThat(tethered.tethers().count()).isGreaterThan(0);
        MassSpringSettings on = MassSpringSettings.defaults();
        StepComparison c = StepComparison.run("OpenCL vs CPU, tethers", pool -> new MassSpringSolver(on, pool),
                () -> new OpenClMassSpringSolver(on, device), tethered, Environment.earth(), DT, 150);
        assertThat(c.travel).isGreaterThan(0.01f);
        assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
        c.assertPositionsAgree(TOLERANCE, device.fp64() && OpenClAvailable.isPocl(device));
        // with a collider too (the finish's colliders after the tethers): the cloth falls onto a ball under it
        SphereCollider under = new SphereCollider("ball", new float[] {0f, 0.8f, 0.1f}, 0.15f, 0.005f, 0.3f);
        StepComparison ball = StepComparison.run("OpenCL vs CPU, tethers, ball",
                pool -> new MassSpringSolver(on, pool), () -> new OpenClMassSpringSolver(on, device), tethered,
                DeviceTestScenes.earthWith(under), DT, 240);
        ball.assertPositionsAgree(TOLERANCE, device.fp64() && OpenClAvailable.isPocl(device));
        float[] x = ball.device.positions();
        float nearest = Float.MAX_VALUE;
        for (int i = 0; i < x.length; i += 3) {
            float dx = x[i];
            float dy = x[i + 1] - 0.8f;
            float dz = x[i + 2] - 0.1f;
            nearest = Math.min(nearest, (float) Math.sqrt(dx * dx + dy * dy + dz * dz));
        }
        assertThat(nearest).as("the cloth lies on the ball, outside it").isBetween(0.15f, 0.16f);
        // the tethers act on the device: the same cloth without them ends elsewhere
        StepComparison off = compare(device, true, tethered, Environment.earth(), 150);
        assertThat(StepComparison.maxDifference(off.device.positions(), c.device.positions())).isGreaterThan(1e-4f);
    }

    /** Seed 004's settings of Weft's mass-spring (stable steps), its models without tethers. */
    private static MassSpringSettings settings() {
        return MassSpringSettings.defaults().withTethers(false);
    }

    /** The hanging cloth with these springs, default material, no tethers. */
    static Model hangingCloth(int n, SpringLayout layout) {
        return DeviceTestScenes.hangingCloth(new ModelBuilder().tethers(false).springLayout(layout), n);
    }

    /** The dropped cloth with seed 004's 12 springs, no tethers. */
    private static Model droppedCloth(int n, float height) {
        return DeviceTestScenes.droppedCloth(new ModelBuilder().tethers(false).springLayout(SpringLayout.PATTERN_12),
                n, height);
    }

    /** Both solvers from rest, step by step. */
    private static StepComparison compare(OpenClDevice device, boolean cpuRounding, Model model, Environment env,
                                          int steps) {
        return StepComparison.run((cpuRounding ? "" : "relaxed ") + "OpenCL vs CPU",
                pool -> new MassSpringSolver(settings(), pool),
                () -> new OpenClMassSpringSolver(settings(), device, cpuRounding), model, env, DT, steps);
    }
}
