package dev.weft.render.compute;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.collide.SphereCollider;
import dev.weft.core.model.BendingConstraints;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.DeviceTestScenes;
import dev.weft.core.testing.StepComparison;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Dihedral and isometric bending stencils in the GLSL XPBD solver's colored mode ({@code xpbd_bending.comp}:
 * one dispatch per stencil color after the distance colors), against the CPU's {@link XpbdSolver} on one
 * thread.
 *
 * <p>Tolerance: the dihedral angle is not GLSL's {@code atan} or {@code acos} but the CPU's own {@code
 * FastAtan} polynomial (its constants as float literals, π and π/2 and 2π as their float bits, the sign
 * copied as a bit), and the gradient is DihedralAngle's products, quotients and one square root; the
 * isometric step is products, sums, a square root and divisions. The shader does them in the CPU's order,
 * every result {@code precise}, so on llvmpipe (correctly rounded division and square root) the runs give
 * the CPU's bits: measured 0 m and 0 m/s after one step and after every run here, checked bit for bit there
 * (signed zeros included). Off llvmpipe the runs are held to {@link #TOLERANCE} and {@link
 * #VELOCITY_TOLERANCE}, the other XPBD tests' (2e-6 m, 2e-3 m/s), which the relaxed build (no 'precise',
 * a/b as a·(1/b), sqrt as x·inversesqrt(x), as a GPU compiler may) must keep: it measured on llvmpipe what
 * {@link #withoutTheCpusRoundingTheDifferenceStaysWithinTheTolerance} prints (see docs/glsl-bending.md).
 */
class GlslBendingTest {
    /** Positions within this (m) of the CPU's on any device (see the class comment). */
    private static final float TOLERANCE = 2e-6f;
    /** Velocities within this (m/s) of the CPU's on any device. */
    private static final float VELOCITY_TOLERANCE = 2e-3f;
    /** One substep of the default scene's 30 at 60 fps. */
    private static final float DT = 1f / 1800f;
    private static final XpbdSettings COLORED = XpbdSettings.defaults();

    @Test
    void aHangingClothWithDihedralBendingIsTheCpusBits() {
        Model model = hangingCloth(dihedral(), 24);
        assertThat(model.bending().count()).as("dihedral stencils").isPositive();
        assertThat(model.bending().anyIsometric()).isFalse();
        for (XpbdSettings settings : List.of(COLORED, COLORED.withIterations(10))) {
            StepComparison c = compare(true, settings, model, Environment.earth(), 100);
            assertAgreesFromTheFirstStep(c);
        }
    }

    @Test
    void aHangingIsometricClothIsTheCpusBits() {
        Model model = hangingCloth(isometric(), 24);
        assertThat(model.bending().allIsometric()).as("every stencil isometric: the inlined pass").isTrue();
        assertThat(model.bending().count()).isPositive();
        for (XpbdSettings settings : List.of(COLORED, COLORED.withIterations(10))) {
            StepComparison c = compare(true, settings, model, Environment.earth(), 100);
            assertAgreesFromTheFirstStep(c);
        }
    }

    @Test
    void aModelWithBothKindsOfStencilsIsTheCpusBits() {
        // two hanging cloths side by side, the first isometric, the second dihedral: the per-stencil choice
        ModelBuilder b = isometric();
        ModelObject left = b.addGridCloth(GridClothSpec.of("left", 16, 16, 1f, 1f).withOrigin(-1.25f, 1f, -0.5f));
        b.pinCorners(left, "top-left", "top-right");
        b.bendingModel(BendingModel.DIHEDRAL);
        ModelObject right = b.addGridCloth(GridClothSpec.of("right", 16, 16, 1f, 1f).withOrigin(0.25f, 1f, -0.5f));
        b.pinCorners(right, "top-left", "top-right");
        Model model = b.build();
        assertThat(model.bending().allIsometric()).as("both kinds").isFalse();
        assertThat(countIsometric(model)).isPositive().isLessThan(model.bending().count());
        assertAgreesFromTheFirstStep(compare(true, COLORED, model, Environment.earth(), 100));
    }

    @Test
    void clothsFoldingOverASphereStayOutsideItAndAreTheCpusBits() {
        SphereCollider ball = DeviceTestScenes.ball();
        for (ModelBuilder b : List.of(dihedral(), isometric())) {
            // 240 steps: it lands on the ball at step ~100 and its sides fold down over it
            StepComparison c = compare(true, COLORED, DeviceTestScenes.droppedCloth(b, 24, 0.45f),
                    DeviceTestScenes.earthWith(ball), 240);
            assertThat(c.lowestClearance(ball)).isGreaterThanOrEqualTo(0.005f - 1e-6f);
            c.assertAgrees(TOLERANCE, GlslDriver.cpuBits());
        }
    }

    @Test
    void theHangingScenesModelWithTethersIsTheCpusBits() {
        // as the built-in scenes build a cloth: dihedral bending and tethers, both on by default
        Model model = DeviceTestScenes.hangingCloth(new ModelBuilder(), 24);
        assertThat(model.tethers().count()).isPositive();
        assertThat(model.bending().count()).isPositive();
        compare(true, COLORED, model, Environment.earth(), 200).assertAgrees(TOLERANCE, GlslDriver.cpuBits());
    }

    @Test
    void theBendingIsWhatMovesTheCloth() {
        // the same cloth without bending ends elsewhere: the stencils the shaders project matter here
        Environment env = DeviceTestScenes.earthWith(DeviceTestScenes.ball());
        Model limp = DeviceTestScenes.droppedCloth(new ModelBuilder().tethers(false).bending(false), 24, 0.45f);
        assertThat(limp.bending().count()).isZero();
        State without = State.atRest(limp);
        try (WorkerPool pool = new WorkerPool(1); XpbdSolver cpu = new XpbdSolver(COLORED, pool)) {
            for (int k = 0; k < 240; k++) {
                cpu.step(limp, without, env, DT);
            }
        }
        for (ModelBuilder b : List.of(dihedral(), isometric())) {
            StepComparison c = compare(true, COLORED, DeviceTestScenes.droppedCloth(b, 24, 0.45f), env, 240);
            float apart = StepComparison.maxDifference(without.positions(), c.device.positions());
            System.out.printf("GLSL bending vs none after 240 steps on the sphere: %.3g m apart%n", apart);
            assertThat(apart).as("bending changes the drape by far more than the tolerance")
                    .isGreaterThan(100 * TOLERANCE);
        }
    }

    @Test
    void withoutTheCpusRoundingTheDifferenceStaysWithinTheTolerance() {
        SphereCollider ball = DeviceTestScenes.ball();
        for (Supplier<ModelBuilder> b : List.<Supplier<ModelBuilder>>of(GlslBendingTest::dihedral,
                GlslBendingTest::isometric)) {
            StepComparison hanging = compare(false, COLORED, hangingCloth(b.get(), 24), Environment.earth(), 100);
            assertThat(hanging.afterAll).isLessThanOrEqualTo(TOLERANCE);
            assertThat(hanging.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
            hanging.assertStatisticsAgree();
            StepComparison folded = compare(false, COLORED, DeviceTestScenes.droppedCloth(b.get(), 24, 0.45f),
                    DeviceTestScenes.earthWith(ball), 240);
            assertThat(folded.afterAll).isLessThanOrEqualTo(TOLERANCE);
            assertThat(folded.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
            folded.assertStatisticsAgree();
        }
    }

    /** After one step and after all: within the tolerance anywhere, the CPU's bits on llvmpipe. */
    private static void assertAgreesFromTheFirstStep(StepComparison c) {
        assertThat(c.afterOne).isLessThanOrEqualTo(TOLERANCE);
        assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
        assertThat(c.travel).as("a falling, bending cloth, not a still one").isGreaterThan(0.001f);
        c.assertAgrees(TOLERANCE, GlslDriver.cpuBits());
        if (GlslDriver.cpuBits()) {
            assertThat(c.afterOne).as("llvmpipe: the CPU's bits after one step").isZero();
        }
    }

    /** A builder for dihedral cloths (the builder's default) without tethers. */
    private static ModelBuilder dihedral() {
        return new ModelBuilder().tethers(false).bendingModel(BendingModel.DIHEDRAL);
    }

    /** A builder for isometric cloths without tethers. */
    private static ModelBuilder isometric() {
        return new ModelBuilder().tethers(false).bendingModel(BendingModel.ISOMETRIC);
    }

    private static Model hangingCloth(ModelBuilder b, int n) {
        return DeviceTestScenes.hangingCloth(b, n);
    }

    private static int countIsometric(Model m) {
        int n = 0;
        for (byte k : m.bending().models()) {
            n += k == BendingConstraints.ISOMETRIC ? 1 : 0;
        }
        return n;
    }

    /** Both solvers from rest, step by step. */
    private static StepComparison compare(boolean cpuRounding, XpbdSettings settings, Model model, Environment env,
                                          int steps) {
        String label = String.format("%sGLSL XPBD, %s bending (%d iterations%s) vs CPU", cpuRounding ? "" : "relaxed ",
                model.bending().allIsometric() ? "isometric" : model.bending().anyIsometric() ? "mixed" : "dihedral",
                settings.iterations(), settings.tethers() && model.tethers().count() > 0 ? ", tethers" : "");
        return StepComparison.run(label, pool -> new XpbdSolver(settings, pool),
                () -> new GlslXpbdSolver(settings, cpuRounding), model, env, DT, steps);
    }
}
