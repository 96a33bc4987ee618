package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.collide.SphereCollider;
import dev.weft.core.model.BendingConstraints;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
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
 * Isometric bending ({@link BendingModel#ISOMETRIC}, Bergou et al. 2006) on the device, against the CPU's
 * {@link XpbdSolver} on one thread: in colored mode a model whose stencils are all isometric takes the CPU's
 * inlined pass ({@code projectIsometricRange}, kernel {@code xpbd_isometric}), a model with both kinds the
 * per-stencil choice ({@code projectStencil}: {@code isometricMultiplierStep} or the dihedral step, kernel
 * {@code xpbd_bending}); in Jacobi mode every stencil's corrections by its own kind into its slots.
 *
 * <p>Tolerance: as for dihedral bending, the kernels are the CPU's float operations (here products, sums, one
 * square root and a division per stencil), so PoCL gives its bits (measured 0 m and 0 m/s after 1 step and
 * after every run here, checked exactly there). Built relaxed, the kernels measured on PoCL 1.2e-7 m after 100
 * steps of the hanging isometric cloth, colored (1.1e-4 m/s), and 5.7e-7 m after 240 steps folding over the
 * sphere in Jacobi mode (1.0e-4 m/s); the tests print them. {@link #TOLERANCE} and {@link #VELOCITY_TOLERANCE}
 * are the other XPBD tests' (2e-6 m, 2e-3 m/s): 3.5 and 18 times the largest of these. Adding the compliance
 * first instead of last in the inlined pass's denominator already shows (7.5e-9 m/s after 100 steps).
 */
class OpenClXpbdIsometricTest {
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
    void aHangingIsometricClothIsTheCpusBitsInBothModes() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = DeviceTestScenes.hangingCloth(isometric(), 24);
        assertThat(model.bending().allIsometric()).as("every stencil isometric: the inlined colored pass").isTrue();
        assertThat(model.bending().count()).isPositive();
        for (XpbdSettings settings : List.of(COLORED, JACOBI, PBD, COLORED.withIterations(10))) {
            StepComparison c = compare(device, true, settings, model, Environment.earth(), 100);
            assertThat(c.afterOne).isLessThanOrEqualTo(TOLERANCE);
            assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
            assertThat(c.travel).isGreaterThan(0.001f);
            c.assertAgrees(TOLERANCE, OpenClAvailable.isPocl(device));
        }
    }

    @Test
    void aModelWithBothKindsOfStencilsAgreesInBothModes() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        // two hanging cloths side by side, the first isometric, the second dihedral (a builder's bending model
        // applies to the bodies added after it is set)
        ModelBuilder b = isometric();
        ModelObject left = b.addGridCloth(GridClothSpec.of("left", 16, 16, 1f, 1f).withOrigin(-1.25f, 1f, -0.5f));
        b.pinCorners(left, "top-left", "top-right");
        b.bendingModel(BendingModel.DIHEDRAL);
        ModelObject right = b.addGridCloth(GridClothSpec.of("right", 16, 16, 1f, 1f).withOrigin(0.25f, 1f, -0.5f));
        b.pinCorners(right, "top-left", "top-right");
        Model model = b.build();
        assertThat(model.bending().anyIsometric()).isTrue();
        assertThat(model.bending().allIsometric()).as("both kinds: the per-stencil choice").isFalse();
        assertThat(countIsometric(model)).isPositive().isLessThan(model.bending().count());
        for (XpbdSettings settings : List.of(COLORED, JACOBI)) {
            compare(device, true, settings, model, Environment.earth(), 100)
                    .assertAgrees(TOLERANCE, OpenClAvailable.isPocl(device));
        }
    }

    @Test
    void anIsometricClothFoldingOverASphereStaysOutsideItAndAgreesInBothModes() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        SphereCollider ball = DeviceTestScenes.ball();
        for (XpbdSettings settings : List.of(COLORED, JACOBI)) {
            StepComparison c = compare(device, true, settings, DeviceTestScenes.droppedCloth(isometric(), 24, 0.45f),
                    DeviceTestScenes.earthWith(ball), 240);
            assertThat(c.lowestClearance(ball)).isGreaterThanOrEqualTo(0.005f - 1e-6f);
            c.assertAgrees(TOLERANCE, OpenClAvailable.isPocl(device));
        }
    }

    @Test
    void withoutTheCpusRoundingTheDifferenceStaysWithinTheTolerance() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        StepComparison hanging = compare(device, false, COLORED, DeviceTestScenes.hangingCloth(isometric(), 24),
                Environment.earth(), 100);
        StepComparison folded = compare(device, false, JACOBI, DeviceTestScenes.droppedCloth(isometric(), 24, 0.45f),
                DeviceTestScenes.earthWith(DeviceTestScenes.ball()), 240);
        for (StepComparison c : List.of(hanging, folded)) {
            assertThat(c.afterAll).isLessThanOrEqualTo(TOLERANCE);
            assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
        }
    }

    /** A builder for isometric cloths without tethers. */
    private static ModelBuilder isometric() {
        return new ModelBuilder().tethers(false).bendingModel(BendingModel.ISOMETRIC);
    }

    private static int countIsometric(Model m) {
        int n = 0;
        for (byte k : m.bending().models()) {
            n += k == BendingConstraints.ISOMETRIC ? 1 : 0;
        }
        return n;
    }

    /** Both solvers from rest, step by step. */
    private static StepComparison compare(OpenClDevice device, boolean cpuRounding, XpbdSettings settings, Model model,
                                          Environment env, int steps) {
        String label = String.format("%sOpenCL XPBD %s, isometric (%d iterations, %d stretch passes%s) vs CPU",
                cpuRounding ? "" : "relaxed ", settings.mode().label(), settings.iterations(),
                settings.stretchPasses(), settings.rigid() ? ", rigid" : "");
        return StepComparison.run(label, pool -> new XpbdSolver(settings, pool),
                () -> new OpenClXpbdSolver(settings, device, cpuRounding), model, env, DT, steps);
    }
}
