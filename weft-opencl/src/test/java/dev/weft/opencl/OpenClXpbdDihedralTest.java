package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.Solvers;
import dev.weft.core.solver.xpbd.IterationMode;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.DeviceTestScenes;
import dev.weft.core.testing.StepComparison;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Dihedral bending (the meshes' default, {@link BendingModel#DIHEDRAL}) on the device, in the colored mode
 * (one launch per stencil color, the correction written at once, as XpbdSolver.projectStencil) and the
 * Jacobi mode (corrections into the stencil's 12 slots, gathered per particle), against the CPU's
 * {@link XpbdSolver} on one thread.
 *
 * <p>Tolerance: the angle is not OpenCL's {@code atan2} or {@code acos} (not correctly rounded) but the CPU's
 * own {@code FastAtan} polynomial, and the gradient DihedralAngle's products, quotients and one square root,
 * all of which the kernel does in the CPU's order with correctly rounded division and square root, so on
 * PoCL the runs agree bit for bit (measured 0 m and 0 m/s after 1 step and after every run here, checked
 * exactly there, signed zeros included). Built relaxed (contraction and mad allowed), the kernels measured on
 * PoCL 0 m after one step, 1.8e-7 m after 100 steps of the hanging cloth, colored (velocities 1.4e-4 m/s), and
 * 4.8e-7 m after 240 steps folding over the sphere in Jacobi mode (1.1e-4 m/s); the tests print them.
 * {@link #TOLERANCE} and {@link #VELOCITY_TOLERANCE} are the distance-bending tests' (2e-6 m, 1/13000 of the
 * 2.6 cm spacing; 2e-3 m/s): 4.2 and 15 times the largest of these. A 4e-8 relative change of FastAtan's
 * last coefficient already shows (8.9e-8 m/s after 100 steps), which is why PoCL is held to exact bits.
 */
class OpenClXpbdDihedralTest {
    /** Positions within this (m) of the CPU's on any device (see the class comment). */
    private static final float TOLERANCE = 2e-6f;
    /** Velocities within this (m/s) of the CPU's on any device. */
    private static final float VELOCITY_TOLERANCE = 2e-3f;
    /** One substep of the default scene's 30 at 60 fps. */
    private static final float DT = 1f / 1800f;
    private static final XpbdSettings COLORED = XpbdSettings.defaults();
    private static final XpbdSettings JACOBI = XpbdSettings.defaults().withMode(IterationMode.JACOBI);
    private static final XpbdSettings PBD = Solvers.jacobiPbd(XpbdSettings.defaults());

    @Test
    void aHangingClothWithDihedralBendingIsTheCpusBitsInBothModes() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = hangingCloth(24);
        assertThat(model.bending().count()).as("dihedral stencils, no distance bending").isPositive();
        for (XpbdSettings settings : List.of(COLORED, JACOBI, PBD, COLORED.withIterations(10))) {
            StepComparison c = compare(device, true, settings, model, Environment.earth(), 100);
            assertThat(c.afterOne).isLessThanOrEqualTo(TOLERANCE);
            assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
            assertThat(c.travel).isGreaterThan(0.001f);
            c.assertAgrees(TOLERANCE, OpenClAvailable.isPocl(device));
            if (OpenClAvailable.isPocl(device)) {
                assertThat(c.afterOne).as("PoCL: the CPU's bits after one step").isZero();
            }
        }
    }

    @Test
    void theBendingIsWhatMovesTheCloth() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        // the same cloth without bending, on the CPU, ends elsewhere: the stencils the device projects matter here
        Model bent = droppedCloth(new ModelBuilder().tethers(false), 24, 0.45f);
        Model limp = droppedCloth(new ModelBuilder().tethers(false).bending(false), 24, 0.45f);
        assertThat(limp.bending().count()).isZero();
        Environment env = DeviceTestScenes.earthWith(DeviceTestScenes.ball());
        StepComparison c = compare(device, true, COLORED, bent, env, 240);
        State without = State.atRest(limp);
        try (WorkerPool pool = new WorkerPool(1); XpbdSolver cpu = new XpbdSolver(COLORED, pool)) {
            for (int k = 0; k < 240; k++) {
                cpu.step(limp, without, env, DT);
            }
        }
        float apart = StepComparison.maxDifference(without.positions(), c.device.positions());
        System.out.printf("dihedral bending vs none after 240 steps on the sphere: %.3g m apart%n", apart);
        assertThat(apart).as("bending changes the drape by far more than the tolerance").isGreaterThan(100 * TOLERANCE);
        c.assertAgrees(TOLERANCE, OpenClAvailable.isPocl(device));
    }

    @Test
    void twoMeshClothsWithGreedyColoredStencilsAgreeInBothModes() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = DeviceTestScenes.hangingMeshes(new ModelBuilder().tethers(false), 16);
        for (XpbdSettings settings : List.of(COLORED, JACOBI)) {
            compare(device, true, settings, model, Environment.earth(), 100)
                    .assertAgrees(TOLERANCE, OpenClAvailable.isPocl(device));
        }
    }

    @Test
    void aClothFoldingOverASphereStaysOutsideItAndAgreesInBothModes() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        SphereCollider ball = DeviceTestScenes.ball();
        for (XpbdSettings settings : List.of(COLORED, JACOBI)) {
            // 240 steps: it lands on the ball at step ~100 and its sides fold down over it
            StepComparison c = compare(device, true, settings, droppedCloth(new ModelBuilder().tethers(false), 24,
                    0.45f), DeviceTestScenes.earthWith(ball), 240);
            assertThat(c.lowestClearance(ball)).isGreaterThanOrEqualTo(0.005f - 1e-6f);
            c.assertAgrees(TOLERANCE, OpenClAvailable.isPocl(device));
        }
    }

    @Test
    void aClothDroppedOnTheFloorStaysAboveItAndAgreesInBothModes() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        PlaneCollider floor = DeviceTestScenes.floor();
        for (XpbdSettings settings : List.of(COLORED, PBD)) {
            StepComparison c = compare(device, true, settings, droppedCloth(new ModelBuilder().tethers(false), 24,
                    0.1f), DeviceTestScenes.earthWith(floor), 360);
            assertThat(c.lowestClearance(floor)).isGreaterThanOrEqualTo(0.005f - 1e-6f);
            assertThat(c.travel).isGreaterThan(0.08f);
            c.assertAgrees(TOLERANCE, OpenClAvailable.isPocl(device));
        }
    }

    @Test
    void theHangingScenesModelWithTethersAgreesInBothModes() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        // as the built-in scenes build a cloth: dihedral bending and tethers, both on by default
        Model model = DeviceTestScenes.hangingCloth(new ModelBuilder(), 24);
        assertThat(model.tethers().count()).isPositive();
        assertThat(model.bending().count()).isPositive();
        for (XpbdSettings settings : List.of(COLORED, PBD)) {
            compare(device, true, settings, model, Environment.earth(), 200)
                    .assertAgrees(TOLERANCE, OpenClAvailable.isPocl(device));
        }
    }

    @Test
    void withoutTheCpusRoundingTheDifferenceStaysWithinTheTolerance() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        StepComparison hanging = compare(device, false, COLORED, hangingCloth(24), Environment.earth(), 100);
        StepComparison folded = compare(device, false, JACOBI, droppedCloth(new ModelBuilder().tethers(false), 24,
                0.45f), DeviceTestScenes.earthWith(DeviceTestScenes.ball()), 240);
        for (StepComparison c : List.of(hanging, folded)) {
            assertThat(c.afterAll).isLessThanOrEqualTo(TOLERANCE);
            assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
        }
    }

    /** The hanging grid cloth with dihedral bending (the builder's default), no tethers. */
    private static Model hangingCloth(int n) {
        return DeviceTestScenes.hangingCloth(new ModelBuilder().tethers(false).bendingModel(BendingModel.DIHEDRAL), n);
    }

    private static Model droppedCloth(ModelBuilder b, int n, float height) {
        return DeviceTestScenes.droppedCloth(b, n, height);
    }

    /** Both solvers from rest, step by step. */
    private static StepComparison compare(OpenClDevice device, boolean cpuRounding, XpbdSettings settings, Model model,
                                          Environment env, int steps) {
        String label = String.format("%sOpenCL XPBD %s, dihedral (%d iterations, %d stretch passes%s) vs CPU",
                cpuRounding ? "" : "relaxed ", settings.mode().label(), settings.iterations(),
                settings.stretchPasses(), settings.rigid() ? ", rigid" : "");
        return StepComparison.run(label, pool -> new XpbdSolver(settings, pool),
                () -> new OpenClXpbdSolver(settings, device, cpuRounding), model, env, DT, steps);
    }
}
