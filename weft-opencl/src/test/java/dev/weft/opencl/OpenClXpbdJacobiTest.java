package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
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
 * XPBD's Jacobi mode on the device ({@link OpenClXpbdSolver} with {@link IterationMode#JACOBI}: per pass one
 * kernel writing every constraint's corrections into its own slots, one gathering them per particle in
 * JacobiGather's order) and the {@code pbd} solver's settings ({@link Solvers#pbd}: Jacobi, rigid stretch and
 * shear, one pass) against the CPU's {@link XpbdSolver} on one thread, on distance-bending cloths; dihedral
 * bending in both modes is {@link OpenClXpbdDihedralTest}.
 *
 * <p>Tolerance: the kernels do the CPU's float operations in its order, the gather included (each particle
 * sums its slots in float, in the incidence's order, from 0), so on PoCL the runs agree bit for bit, positions
 * and velocities, signed zeros included (measured 0 and 0 after 1 step and after every run here, checked
 * exactly there). Built relaxed (contraction and mad allowed, OpenCL's default division and square root) the
 * kernels measured on PoCL 0 m after one step and 1.2e-7 m after 100 steps of the 32 × 32 hanging cloth in
 * Jacobi mode (velocities 1.0e-4 m/s), 1.5e-7 m after 360 steps of the floor drop under {@code pbd} (3.8e-5
 * m/s); the tests print them. {@link #TOLERANCE} and {@link #VELOCITY_TOLERANCE} are the colored tests' (2e-6
 * m, 2e-3 m/s): 13 and 20 times the largest of these.
 */
class OpenClXpbdJacobiTest {
    /** Positions within this (m) of the CPU's on any device (see the class comment). */
    private static final float TOLERANCE = 2e-6f;
    /** Velocities within this (m/s) of the CPU's on any device. */
    private static final float VELOCITY_TOLERANCE = 2e-3f;
    /** One substep of the default scene's 30 at 60 fps. */
    private static final float DT = 1f / 1800f;
    /** XPBD's defaults in Jacobi mode: one iteration, two stretch passes. */
    private static final XpbdSettings JACOBI = XpbdSettings.defaults().withMode(IterationMode.JACOBI);
    /** The pbd solver's settings, as {@code weft run --solver pbd} makes them. */
    private static final XpbdSettings PBD = Solvers.jacobiPbd(XpbdSettings.defaults());

    @Test
    void aHangingClothInJacobiModeIsTheCpusBitsAfterOneAndAfterAHundredSteps() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        StepComparison c = compare(device, true, JACOBI, hangingCloth(32), Environment.earth(), 100);
        assertThat(c.afterOne).isLessThanOrEqualTo(TOLERANCE);
        assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
        assertThat(c.travel).as("a falling, stretching cloth, not a still one").isGreaterThan(0.001f);
        c.assertAgrees(TOLERANCE, OpenClAvailable.isPocl(device));
        if (OpenClAvailable.isPocl(device)) {
            assertThat(c.afterOne).as("PoCL: the CPU's bits after one step").isZero();
        }
    }

    @Test
    void thePbdSolversSettingsAreTheCpusBitsToo() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        assertThat(PBD.mode()).isEqualTo(IterationMode.JACOBI);
        assertThat(PBD.rigid()).isTrue();
        Model model = hangingCloth(24);
        StepComparison one = compare(device, true, PBD, model, Environment.earth(), 100);
        // ten iterations carry the bending multipliers from one to the next
        StepComparison ten = compare(device, true, PBD.withIterations(10), model, Environment.earth(), 100);
        for (StepComparison c : List.of(one, ten)) {
            assertThat(c.afterOne).isLessThanOrEqualTo(TOLERANCE);
            c.assertAgrees(TOLERANCE, OpenClAvailable.isPocl(device));
        }
    }

    @Test
    void extraStretchPassesAndManyIterationsAgreeToo() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        // three stretch passes: the stretch-only corrections (zeros in the other constraints' slots) twice a sweep
        compare(device, true, JACOBI.withIterations(10).withStretchPasses(3), hangingCloth(24), Environment.earth(),
                100).assertAgrees(TOLERANCE, OpenClAvailable.isPocl(device));
    }

    @Test
    void twoMeshClothsAgreeToo() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        // alternating diagonals: particles with 5 to 8 constraints, so the shared weights differ across a constraint
        Model model = DeviceTestScenes.hangingMeshes(
                new ModelBuilder().tethers(false).bendingModel(BendingModel.DISTANCE), 16);
        compare(device, true, JACOBI, model, Environment.earth(), 100)
                .assertAgrees(TOLERANCE, OpenClAvailable.isPocl(device));
    }

    @Test
    void aClothDroppedOnTheFloorUnderPbdStaysAboveItAndAgreesWithTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        PlaneCollider floor = DeviceTestScenes.floor();
        // 360 steps of 1/1800 s: it falls the 0.085 m to the floor's thickness in 0.13 s, lands and slides
        StepComparison c = compare(device, true, PBD, droppedCloth(24, 0.1f), DeviceTestScenes.earthWith(floor), 360);
        assertThat(c.lowestClearance(floor)).isGreaterThanOrEqualTo(0.005f - 1e-6f);
        assertThat(c.travel).isGreaterThan(0.08f);
        assertThat(c.afterOne).isLessThanOrEqualTo(TOLERANCE);
        c.assertAgrees(TOLERANCE, OpenClAvailable.isPocl(device));
    }

    @Test
    void aClothDroppedOnASphereInJacobiModeStaysOutsideItAndAgreesWithTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        SphereCollider ball = DeviceTestScenes.ball();
        StepComparison c = compare(device, true, JACOBI, droppedCloth(24, 0.45f), DeviceTestScenes.earthWith(ball),
                240);
        assertThat(c.lowestClearance(ball)).isGreaterThanOrEqualTo(0.005f - 1e-6f);
        assertThat(c.afterOne).isLessThanOrEqualTo(TOLERANCE);
        c.assertAgrees(TOLERANCE, OpenClAvailable.isPocl(device));
    }

    @Test
    void tethersInJacobiModeAreTheCpusToo() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model tethered = DeviceTestScenes.hangingCloth(new ModelBuilder().bendingModel(BendingModel.DISTANCE), 24);
        assertThat(tethered.tethers().count()).isPositive();
        // the CPU projects tethers by color after the Jacobi passes, as in colored mode
        compare(device, true, PBD, tethered, Environment.earth(), 200)
                .assertAgrees(TOLERANCE, OpenClAvailable.isPocl(device));
    }

    @Test
    void withoutTheCpusRoundingTheDifferenceStaysWithinTheTolerance() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        StepComparison hanging = compare(device, false, JACOBI, hangingCloth(32), Environment.earth(), 100);
        StepComparison landed = compare(device, false, PBD, droppedCloth(24, 0.1f),
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
        StepComparison c = StepComparison.run("OpenCL XPBD jacobi vs CPU, a drag at step 50,",
                pool -> new XpbdSolver(PBD, pool), () -> new OpenClXpbdSolver(PBD, device), model, Environment.earth(),
                DT, 100, 50);
        c.assertAgrees(TOLERANCE, OpenClAvailable.isPocl(device));
        assertThat(StepComparison.assertPinnedKept(model, c.start.positions(), c.device)).isEqualTo(2);
    }

    /** The hanging grid cloth with distance bending, no tethers. */
    private static Model hangingCloth(int n) {
        return DeviceTestScenes.hangingCloth(new ModelBuilder().tethers(false).bendingModel(BendingModel.DISTANCE), n);
    }

    /** The dropped cloth with distance bending, no tethers. */
    private static Model droppedCloth(int n, float height) {
        return DeviceTestScenes.droppedCloth(new ModelBuilder().tethers(false).bendingModel(BendingModel.DISTANCE),
                n, height);
    }

    /** Both solvers from rest, step by step. */
    private static StepComparison compare(OpenClDevice device, boolean cpuRounding, XpbdSettings settings, Model model,
                                          Environment env, int steps) {
        String label = String.format("%sOpenCL XPBD %s (%d iterations, %d stretch passes%s) vs CPU", cpuRounding ? ""
                : "relaxed ", settings.mode().label(), settings.iterations(), settings.stretchPasses(),
                settings.rigid() ? ", rigid" : "");
        return StepComparison.run(label, pool -> new XpbdSolver(settings, pool),
                () -> new OpenClXpbdSolver(settings, device, cpuRounding), model, env, DT, steps);
    }
}
