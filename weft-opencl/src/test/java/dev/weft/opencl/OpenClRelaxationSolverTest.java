package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.DistanceKind;
import dev.weft.core.model.Elasticity;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.State;
import dev.weft.core.model.TetBodySpec;
import dev.weft.core.solver.UnsupportedOnDeviceException;
import dev.weft.core.solver.relaxation.RelaxationSettings;
import dev.weft.core.solver.relaxation.RelaxationSolver;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.DeviceTestScenes;
import dev.weft.core.testing.StepComparison;
import dev.weft.core.testing.TetherReach;
import org.junit.jupiter.api.Test;

/**
 * The OpenCL relaxation solver against the CPU's {@link RelaxationSolver} on one thread, on the same
 * scenes, with the default scene's relaxation settings (48 steps of 3 relaxation steps per 1/60 s frame)
 * and with 16 relaxation steps.
 *
 * <p>Tolerance: the kernels do the CPU's float operations in its order (no contraction, correctly rounded
 * division and square root where the device has them), so on PoCL the runs agree bit for bit, positions
 * and velocities (measured: 0 m and 0 m/s after 1 step and after all steps of every scene here, checked
 * exactly there; the tests print the differences). Built "relaxed" ({@code WEFT_RELAXED}: contraction and
 * mad allowed, OpenCL's default division and square root) the kernels measured on PoCL 1.5e-7 m after one
 * step and 1.4e-6 m after 150 steps of the 32 × 32 hanging cloth (velocities 4.8e-4 m/s: three passes
 * leave the constraints far from converged, so a rounding moves the cloth more than under XPBD), 1.9e-9 m
 * after one step and 8.9e-8 m (8.4e-5 m/s) on the cloth landed on the floor after 720 steps. {@link
 * #TOLERANCE}, 2e-5 m (1/1600 of the 3.2 cm spacing), is 14 times the largest position difference; {@link
 * #VELOCITY_TOLERANCE}, 5e-3 m/s, 10 times the largest velocity difference. A cloth draping over the
 * sphere is not held to it: there one float's rounding grows to millimetres within 720 steps (a
 * reciprocal-times instead of a division in the distance kernel, tried once, gave 6 mm), as it does
 * between two CPUs' roundings of any chaotic fold.
 */
class OpenClRelaxationSolverTest {
    /** Positions within this (m) of the CPU's on any device (see the class comment). */
    private static final float TOLERANCE = 2e-5f;
    /** Velocities within this (m/s) of the CPU's on any device. */
    private static final float VELOCITY_TOLERANCE = 5e-3f;
    /** One step of the default scene's 48 relaxation steps per frame at 60 fps. */
    private static final float DT = 1f / 2880f;
    /** The default scene's relaxation settings: 3 relaxation steps, tethers on. */
    private static final RelaxationSettings SCENE = new RelaxationSettings(3);

    @Test
    void aHangingTetheredClothHasTheCpusBitsAfterOneAndAfterManySteps() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = DeviceTestScenes.hangingCloth(new ModelBuilder(), 32);
        assertThat(model.tethers().count()).as("tethers, as by default").isPositive();
        StepComparison c = compare(device, true, SCENE, model, Environment.earth(), 150);
        assertThat(c.afterOne).isLessThanOrEqualTo(TOLERANCE);
        assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
        // it moved: a falling, swinging cloth, not two still ones (150 steps are 52 ms: g t²/2 = 1.3 cm)
        assertThat(c.travel).isGreaterThan(0.005f);
        c.assertAgrees(TOLERANCE, OpenClAvailable.isPocl(device));
        assertThat(StepComparison.assertPinnedKept(model, c.start.positions(), c.device)).isEqualTo(2);
    }

    @Test
    void theDevicesTethersHoldTheClothAsTheCpusDo() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        boolean pocl = OpenClAvailable.isPocl(device);
        Model tethered = DeviceTestScenes.hangingCloth(new ModelBuilder(), 24);
        StepComparison with = compare(device, true, SCENE, tethered, Environment.earth(), 400);
        StepComparison without = compare(device, true, SCENE.withTethers(false), tethered, Environment.earth(), 400);
        with.assertAgrees(TOLERANCE, pocl);
        without.assertAgrees(TOLERANCE, pocl);
        // what the tethers are for: three relaxation steps leave the cloth stretched beyond its pins' geodesic
        // distances, which the tethers bound; measured on PoCL: 0.048 mm beyond a tether with them, 0.74 mm
        // without (a particle tied to both corners holds both spheres only as the passes converge)
        float beyondWith = TetherReach.beyond(tethered, with.device.positions());
        float beyondWithout = TetherReach.beyond(tethered, without.device.positions());
        System.out.printf("relaxation, beyond a tether after 400 steps: %.2e m with tethers, %.2e m without%n",
                beyondWith, beyondWithout);
        assertThat(beyondWith).as("beyond a tether with tethers, m").isLessThan(2e-4f);
        assertThat(beyondWithout).as("beyond a tether without them, m").isGreaterThan(5 * beyondWith);
    }


    @Test
    void sixteenRelaxationStepsDistanceBendingAndNoTethersAgreeToo() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        boolean pocl = OpenClAvailable.isPocl(device);
        RelaxationSettings sixteen = RelaxationSettings.defaults();
        assertThat(sixteen.iterations()).isEqualTo(16);
        // distance bending: constraints of kind BEND, which relaxation leaves alone on both
        Model bent = DeviceTestScenes.hangingCloth(new ModelBuilder().bendingModel(BendingModel.DISTANCE), 24);
        assertThat(hasKind(bent, DistanceKind.BEND)).isTrue();
        compare(device, true, sixteen, bent, Environment.earth(), 120).assertAgrees(TOLERANCE, pocl);
        compare(device, true, sixteen.withTethers(false), bent, Environment.earth(), 120)
                .assertAgrees(TOLERANCE, pocl);
        // 16 relaxation steps at the mass-spring scene's 1/960 s
        StepComparison coarse = StepComparison.run("OpenCL vs CPU, 16 passes at 1/960 s,",
                pool -> new RelaxationSolver(sixteen, pool), () -> new OpenClRelaxationSolver(sixteen, device),
                DeviceTestScenes.hangingCloth(new ModelBuilder(), 32), Environment.earth(), 1f / 960f, 100);
        coarse.assertAgrees(TOLERANCE, pocl);
    }

    @Test
    void aClothDroppedOnTheFloorStaysAboveItAndHasTheCpusBits() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        PlaneCollider floor = DeviceTestScenes.floor();
        // 0.25 s: it falls 0.2 m in 0.2 s and lands
        StepComparison c = compare(device, true, SCENE, droppedCloth(24, 0.2f), DeviceTestScenes.earthWith(floor),
                720);
        // it reached the floor (within a millimetre of its 5 mm thickness) and never went through
        assertThat(c.lowestClearance(floor)).isBetween(0.005f - 1e-6f, 0.006f);
        assertThat(c.travel).isGreaterThan(0.15f);
        c.assertAgrees(TOLERANCE, OpenClAvailable.isPocl(device));
    }

    @Test
    void aClothDroppedOnASphereStaysOutsideItAndHasTheCpusBits() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        SphereCollider ball = DeviceTestScenes.ball();
        // from 0.5 m it reaches the ball's top (0.4 m) after 0.14 s and drapes over it until 0.25 s
        StepComparison c = compare(device, true, SCENE, droppedCloth(24, 0.5f), DeviceTestScenes.earthWith(ball),
                720);
        assertThat(c.lowestClearance(ball)).isBetween(0.005f - 1e-6f, 0.006f);
        assertThat(c.travel).isGreaterThan(0.1f);
        if (OpenClAvailable.isPocl(device)) { // elsewhere the fold's roundings diverge (class comment)
            c.assertAgrees(TOLERANCE, true);
        }
    }

    @Test
    void withoutTheCpusRoundingTheDifferenceStaysWithinTheTolerance() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        StepComparison hanging = compare(device, false, SCENE, DeviceTestScenes.hangingCloth(new ModelBuilder(), 32),
                Environment.earth(), 150);
        assertThat(hanging.afterAll).isLessThanOrEqualTo(TOLERANCE);
        assertThat(hanging.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
        StepComparison landed = compare(device, false, SCENE, droppedCloth(24, 0.2f),
                DeviceTestScenes.earthWith(DeviceTestScenes.floor()), 720);
        assertThat(landed.afterAll).isLessThanOrEqualTo(TOLERANCE);
        assertThat(landed.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
    }

    @Test
    void aParticleMovedOnTheHostBetweenStepsIsUploaded() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        StepComparison c = StepComparison.run("OpenCL vs CPU, a drag at step 10,",
                pool -> new RelaxationSolver(SCENE, pool), () -> new OpenClRelaxationSolver(SCENE, device),
                DeviceTestScenes.hangingCloth(new ModelBuilder(), 16), Environment.earth(), DT, 20, 10);
        c.assertAgrees(TOLERANCE, OpenClAvailable.isPocl(device));
    }

    @Test
    void whatIsNotOnTheDeviceYetIsRefusedByName() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model plain = DeviceTestScenes.hangingCloth(new ModelBuilder(), 8);
        Model isometric = DeviceTestScenes.hangingCloth(new ModelBuilder().bendingModel(BendingModel.ISOMETRIC), 8);
        try (OpenClRelaxationSolver solver = new OpenClRelaxationSolver(SCENE, device)) {
            // a projectile runs, with particle contacts too (OpenClInteractTest)
            // what the CPU solver refuses, the device refuses in the same words
            assertThatThrownBy(() -> solver.step(isometric, State.atRest(isometric), Environment.earth(), DT))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("isometric")
                    .hasMessageContaining("relaxation solver");
            // elastic tetrahedra, which the CPU's relaxation projects and the device's does not yet
            ModelBuilder soft = new ModelBuilder();
            soft.addTetBody(TetBodySpec.box("jelly", new float[] {0f, 0.5f, 0f}, new float[] {0.2f, 0.7f, 0.2f}, 2,
                    2, 2, 1000f, new Elasticity(1e4f, 0.4f)));
            Model rubber = soft.build();
            assertThatThrownBy(() -> solver.step(rubber, State.atRest(rubber), Environment.earth(), DT))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("jelly")
                    .hasMessageContaining("OpenCL relaxation").hasMessageContaining("cpu backend");
            // after the refusals it still runs what it supports
            State s = State.atRest(plain);
            solver.step(plain, s, Environment.earth(), DT);
            assertThat(s.steps()).isEqualTo(1);
        }
    }

    private static boolean hasKind(Model m, DistanceKind kind) {
        for (byte k : m.distances().kind()) {
            if (k == kind.code()) {
                return true;
            }
        }
        return false;
    }

    /** An n × n, 0.6 m cloth held horizontally at {@code height}, free (no pins, so no tethers). */
    private static Model droppedCloth(int n, float height) {
        return DeviceTestScenes.droppedCloth(new ModelBuilder(), n, height);
    }

    /** Both solvers from rest, step by step, at the default scene's step. */
    private static StepComparison compare(OpenClDevice device, boolean cpuRounding, RelaxationSettings settings,
                                          Model model, Environment env, int steps) {
        return StepComparison.run((cpuRounding ? "" : "relaxed ") + "OpenCL vs CPU, " + settings.iterations()
                        + " passes" + (settings.tethers() ? "" : ", no tethers") + ",",
                pool -> new RelaxationSolver(settings, pool),
                () -> new OpenClRelaxationSolver(settings, device, cpuRounding), model, env, DT, steps);
    }
}
