package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.DistanceConstraints;
import dev.weft.core.model.DistanceKind;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.DeviceFeature;
import dev.weft.core.solver.UnsupportedOnDeviceException;
import dev.weft.core.solver.xpbd.IterationMode;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.DeviceTestScenes;
import dev.weft.core.testing.StepComparison;
import dev.weft.core.testing.TetherReach;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The OpenCL XPBD solver (colored mode, distance constraints) against the CPU's {@link XpbdSolver} on
 * one thread, on the same scenes.
 *
 * <p>Tolerance: as for the mass-spring kernels, the XPBD kernels do the CPU's float operations in its
 * order (no contraction, correctly rounded division and square root where the device has them), so on
 * PoCL the runs agree bit for bit (measured: 0 m and 0 m/s after 1 step and after all steps of every
 * scene here, checked exactly there). Built "relaxed" ({@code WEFT_RELAXED}: contraction and mad
 * allowed, OpenCL's default division and square root), the kernels measured on PoCL 0 m after one step
 * and 1.2e-7 m after 100 steps of the 32 × 32 hanging cloth (velocities 1.6e-4 m/s), 9.3e-10 m after
 * one step and 7.5e-9 m (5.2e-5 m/s) on the cloth landed on the floor after 360 steps (the tests print
 * them). {@link #TOLERANCE}, 2e-6 m (1/16000 of the 3.2 cm spacing), is 17 times the largest position
 * difference; {@link #VELOCITY_TOLERANCE}, 2e-3 m/s, 13 times the largest velocity difference (a
 * projection's rounding δ becomes a velocity δ/h, h = 1/1800 s). What the relaxed build on PoCL mostly
 * measures is contraction: a GPU's 2.5 and 3 ulp division and square root are not in it, which is what
 * the margin is for.
 */
class OpenClXpbdSolverTest {
    /** Positions within this (m) of the CPU's on any device (see the class comment). */
    private static final float TOLERANCE = 2e-6f;
    /** Velocities within this (m/s) of the CPU's on any device. */
    private static final float VELOCITY_TOLERANCE = 2e-3f;
    /** One substep of the default scene's 30 at 60 fps. */
    private static final float DT = 1f / 1800f;
    /** The default settings: colored, one iteration, two stretch passes. */
    private static final XpbdSettings DEFAULTS = XpbdSettings.defaults();

    @Test
    void aHangingClothAgreesWithTheCpuAfterOneAndAfterAHundredSteps() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        StepComparison c = compare(device, true, DEFAULTS, hangingCloth(32), Environment.earth(), 100);
        assertThat(c.afterOne).isLessThanOrEqualTo(TOLERANCE);
        assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
        assertThat(c.travel).as("a falling, stretching cloth, not a still one").isGreaterThan(0.001f);
        c.assertPositionsAgree(TOLERANCE, OpenClAvailable.isPocl(device));
        if (OpenClAvailable.isPocl(device)) {
            assertThat(c.velocityAfterAll).as("PoCL: the CPU's bits").isZero();
        }
    }

    @Test
    void moreIterationsOnePassAndRigidColorsAgreeToo() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = hangingCloth(24);
        // ten iterations carry the multipliers from one to the next; one stretch pass is plain XPBD
        StepComparison iterated = compare(device, true, DEFAULTS.withIterations(10).withStretchPasses(1), model,
                Environment.earth(), 100);
        // rigid stretch and shear: those colors take the multiplier-free pass, the bending colors do not
        StepComparison rigid = compare(device, true, DEFAULTS.withRigid(true).withStretchPasses(3), model,
                Environment.earth(), 100);
        for (StepComparison c : List.of(iterated, rigid)) {
            c.assertPositionsAgree(TOLERANCE, OpenClAvailable.isPocl(device));
        }
    }

    @Test
    void twoMeshClothsWhoseStretchColorsAreScatteredAgreeToo() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = DeviceTestScenes.hangingMeshes(
                new ModelBuilder().tethers(false).bendingModel(BendingModel.DISTANCE), 16);
        assertThat(hasScatteredStretchColor(model)).as("the extra passes take the listed kernel").isTrue();
        compare(device, true, DEFAULTS.withStretchPasses(2), model, Environment.earth(), 100)
                .assertPositionsAgree(TOLERANCE, OpenClAvailable.isPocl(device));
    }

    @Test
    void aClothDroppedOnTheFloorStaysAboveItAndAgreesWithTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        PlaneCollider floor = DeviceTestScenes.floor();
        // 360 steps of 1/1800 s: it falls the 0.085 m to the floor's thickness in 0.13 s, lands and slides
        StepComparison c = compare(device, true, DEFAULTS, droppedCloth(24, 0.1f), DeviceTestScenes.earthWith(floor),
                360);
        assertThat(c.lowestClearance(floor)).isGreaterThanOrEqualTo(0.005f - 1e-6f);
        assertThat(c.travel).isGreaterThan(0.08f);
        assertThat(c.afterOne).isLessThanOrEqualTo(TOLERANCE);
        c.assertPositionsAgree(TOLERANCE, OpenClAvailable.isPocl(device));
    }

    @Test
    void aClothDroppedOnASphereStaysOutsideItAndAgreesWithTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        SphereCollider ball = DeviceTestScenes.ball();
        StepComparison c = compare(device, true, DEFAULTS, droppedCloth(24, 0.45f), DeviceTestScenes.earthWith(ball),
                240);
        assertThat(c.lowestClearance(ball)).isGreaterThanOrEqualTo(0.005f - 1e-6f);
        c.assertPositionsAgree(TOLERANCE, OpenClAvailable.isPocl(device));
    }

    @Test
    void aClothDroppedOnABoxACapsuleAndACylinderAgreesWithTheCpu() {
        // the convex solids colliders.cl runs besides spheres, each turned 30° about a tilted axis so every
        // face, edge and cap meets the cloth obliquely: the CPU's bits on PoCL, never inside the thickness,
        // and the cloth lying on the solid at the end
        OpenClDevice device = OpenClAvailable.firstDevice();
        float s = (float) Math.sin(Math.toRadians(15));
        float[] turn = {(float) Math.cos(Math.toRadians(15)), 0.3f * s, 0.9f * s, 0.3f * s};
        java.util.List<dev.weft.core.collide.RigidCollider> solids = java.util.List.of(
                new dev.weft.core.collide.BoxCollider("box", new float[] {0f, 0.2f, 0f},
                        new float[] {0.12f, 0.2f, 0.1f}, 0.005f, 0.3f).withOrientation(turn),
                new dev.weft.core.collide.CapsuleCollider("capsule", new float[] {0f, 0.25f, 0f}, 0.1f, 0.15f,
                        0.005f, 0.3f).withOrientation(turn),
                new dev.weft.core.collide.CylinderCollider("cylinder", new float[] {0f, 0.2f, 0f}, 0.15f, 0.2f,
                        0.005f, 0.3f).withOrientation(turn));
        for (dev.weft.core.collide.RigidCollider solid : solids) {
            StepComparison c = compare(device, true, DEFAULTS, droppedCloth(24, 0.55f),
                    DeviceTestScenes.earthWith(solid), 500);
            assertThat(c.lowestClearance(solid)).as(solid.name()).isGreaterThanOrEqualTo(0.005f - 1e-5f);
            float[] x = c.device.positions();
            float nearest = Float.POSITIVE_INFINITY;
            for (int i = 0; i < x.length; i += 3) {
                nearest = Math.min(nearest, solid.signedDistance(x[i], x[i + 1], x[i + 2]));
            }
            assertThat(nearest).as("%s: the cloth lies on it", solid.name()).isLessThan(0.01f);
            c.assertPositionsAgree(TOLERANCE, OpenClAvailable.isPocl(device));
        }
    }

    @Test
    void withoutTheCpusRoundingTheDifferenceStaysWithinTheTolerance() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        StepComparison hanging = compare(device, false, DEFAULTS, hangingCloth(32), Environment.earth(), 100);
        StepComparison landed = compare(device, false, DEFAULTS, droppedCloth(24, 0.1f),
                DeviceTestScenes.earthWith(DeviceTestScenes.floor()), 360);
        for (StepComparison c : List.of(hanging, landed)) {
            assertThat(c.afterAll).isLessThanOrEqualTo(TOLERANCE);
            assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
        }
    }

    @Test
    void pinnedParticlesKeepTheirBitsAndAHostEditIsUploaded() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = hangingCloth(16);
        StepComparison c = StepComparison.run("OpenCL XPBD vs CPU, a drag at step 50,", pool -> new XpbdSolver(DEFAULTS,
                pool), () -> new OpenClXpbdSolver(DEFAULTS, device), model, Environment.earth(), DT, 100, 50);
        assertThat(c.afterAll).isLessThanOrEqualTo(TOLERANCE);
        assertThat(StepComparison.assertPinnedKept(model, c.start.positions(), c.device)).isEqualTo(2);
        assertThat(c.device.steps()).isEqualTo(100);
    }

    @Test
    void whatIsNotOnTheDeviceYetIsRefusedByName() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        assertThatThrownBy(() -> new OpenClXpbdSolver(DEFAULTS.withMode(IterationMode.GAUSS_SEIDEL), device))
                .isInstanceOf(UnsupportedOnDeviceException.class)
                .hasMessageContaining("runs the colored and jacobi modes only so far, not gauss-seidel")
                .extracting(e -> ((UnsupportedOnDeviceException) e).feature()).isEqualTo(DeviceFeature.ITERATION_MODE);
        Model plain = hangingCloth(8); // (tetrahedra run, in both modes: OpenClXpbdTetTest)
        try (OpenClXpbdSolver solver = new OpenClXpbdSolver(DEFAULTS, device)) {
            // a projectile runs, with particle contacts too (OpenClInteractTest)
            // after the refusals it still runs what it supports
            State s = State.atRest(plain);
            solver.step(plain, s, Environment.earth(), DT);
            assertThat(s.steps()).isEqualTo(1);
        }
    }

    @Test
    void tethersHoldTheClothAsOnTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        // tethers on, as by default; one iteration a substep leaves the corners' neighbourhood stretched, which
        // is what the long-range attachments bound
        Model tethered = DeviceTestScenes.hangingCloth(new ModelBuilder().bendingModel(BendingModel.DISTANCE), 24);
        assertThat(tethered.tethers().count()).isPositive();
        StepComparison c = compare(device, true, DEFAULTS, tethered, Environment.earth(), 200);
        c.assertPositionsAgree(TOLERANCE, OpenClAvailable.isPocl(device));
        // what the tethers are for: they bound how far a particle gets from its pins. A particle tied to both
        // corners is put onto one sphere and then the other, so it holds both only as iterations converge
        // (README, "Every solver on the default scene"); measured here on PoCL: 0.10 mm beyond a tether with
        // them, 3.6 mm without
        StepComparison free = compare(device, true, DEFAULTS.withTethers(false), tethered, Environment.earth(), 200);
        float with = TetherReach.beyond(tethered, c.device.positions());
        float without = TetherReach.beyond(tethered, free.device.positions());
        System.out.printf("beyond a tether after 200 steps: %.2e m with tethers, %.2e m without%n", with, without);
        assertThat(with).as("beyond a tether with tethers, m").isLessThan(1e-3f);
        assertThat(without).as("beyond a tether without them, m").isGreaterThan(10 * with);
    }


    /** The hanging grid cloth with distance bending, no tethers. */
    static Model hangingCloth(int n) {
        return DeviceTestScenes.hangingCloth(new ModelBuilder().tethers(false).bendingModel(BendingModel.DISTANCE), n);
    }

    @Test
    void aFrameOfSubstepsOnTheDeviceIsTheSameAsItsSubstepsOneByOne() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = droppedCloth(24, 0.3f);
        Environment env = DeviceTestScenes.earthWith(DeviceTestScenes.floor());
        int frames = 20;
        int substeps = 6;
        State oneByOne = State.atRest(model);
        State batched = State.atRest(model);
        try (OpenClXpbdSolver single = new OpenClXpbdSolver(DEFAULTS, device);
             OpenClXpbdSolver frame = new OpenClXpbdSolver(DEFAULTS, device)) {
            assertThat(frame.batchesSteps()).isTrue();
            Simulation sim = new Simulation(model, batched, frame, env, substeps);
            for (int f = 0; f < frames; f++) {
                for (int s = 0; s < substeps; s++) {
                    single.step(model, oneByOne, env, DT);
                }
                // the Simulation hands the device the whole frame: one upload, one read-back
                sim.advance(DT * substeps);
            }
        }
        assertThat(batched.steps()).isEqualTo(oneByOne.steps()).isEqualTo((long) frames * substeps);
        assertThat(batched.positions()).as("the same kernels in the same order: the same bits")
                .isEqualTo(oneByOne.positions());
        assertThat(batched.velocities()).isEqualTo(oneByOne.velocities());
        assertThat(StepComparison.maxDifference(batched.positions(), State.atRest(model).positions()))
                .as("the cloth fell (2 cm in these 120 steps), it did not stand still").isGreaterThan(0.01f);
    }

    /** Whether some color's stretch constraints are not one run of the storage. */
    private static boolean hasScatteredStretchColor(Model m) {
        DistanceConstraints d = m.distances();
        int[] start = d.colorStart();
        byte[] kind = d.kind();
        for (int color = 0; color + 1 < start.length; color++) {
            int last = -2;
            for (int c = start[color]; c < start[color + 1]; c++) {
                if (kind[c] == DistanceKind.STRETCH.code()) {
                    if (last >= 0 && c != last + 1) {
                        return true;
                    }
                    last = c;
                }
            }
        }
        return false;
    }

    /** The dropped cloth with distance bending, no tethers. */
    private static Model droppedCloth(int n, float height) {
        return DeviceTestScenes.droppedCloth(new ModelBuilder().tethers(false).bendingModel(BendingModel.DISTANCE),
                n, height);
    }

    /** Both solvers from rest, step by step. */
    private static StepComparison compare(OpenClDevice device, boolean cpuRounding, XpbdSettings settings, Model model,
                                          Environment env, int steps) {
        String label = String.format("%sOpenCL XPBD (%d iterations, %d stretch passes%s) vs CPU", cpuRounding ? ""
                : "relaxed ", settings.iterations(), settings.stretchPasses(), settings.rigid() ? ", rigid" : "");
        return StepComparison.run(label, pool -> new XpbdSolver(settings, pool),
                () -> new OpenClXpbdSolver(settings, device, cpuRounding), model, env, DT, steps);
    }
}
