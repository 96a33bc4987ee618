package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.model.Elasticity;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.State;
import dev.weft.core.model.TetBodySpec;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.implicit.ImplicitSettings;
import dev.weft.core.solver.implicit.ImplicitSolver;
import dev.weft.core.solver.implicit.LinearMethod;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.DeviceTestScenes;
import dev.weft.core.testing.StepComparison;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The OpenCL implicit solver against the CPU's {@link ImplicitSolver} (filtered PCG) on the same scenes, at
 * the implicit solver's usual step of 1/30 s.
 *
 * <p>Tolerance: the kernels do the CPU's float and double operations in its order, and reduce the PCG's dot
 * products in {@code RowChunks}' order (row terms, 64-row chunks in row order, chunks in order), so on PoCL
 * with fp64 the two agree bit for bit, positions and velocities, and so do the PCG's iteration counts and
 * residuals of every step (checked exactly below). A device without those guarantees (no fp64: the PCG in
 * float; fused multiply-adds; OpenCL's default division and square root) is measured here by the kernels
 * built that way ({@code cpuRounding} off) on PoCL: see {@link #ONE_STEP_TOLERANCE} and what follows.
 */
class OpenClImplicitSolverTest {
    /** Seed 000's usual implicit step. */
    private static final float DT = 1f / 30f;
    /**
     * Positions within this (m) of the CPU's after one step where the device does not give its bits.
     * Measured with the relaxed float build on PoCL (everything in float, the PCG too; fused multiply-adds;
     * default division and square root): 8.3e-7 m after one step of the 32 × 32 hanging cloth; 1e-5 m is 12
     * times that.
     */
    private static final float ONE_STEP_TOLERANCE = 1e-5f;
    /**
     * Positions within this (m) of the CPU's after ten steps where the device does not give its bits: the
     * relaxed float build measured 3.9e-3 m (velocities 0.083 m/s). The PCG stops at a relative residual of
     * 1e-4, so each step's Δv is only that close to the exact solve, and a float PCG rounds near that floor:
     * the two runs take different iterations and the difference grows with the cloth's swing (1.9 cm after
     * 30 steps, 8 cm after 100, measured), so longer runs on such a device are not compared position by
     * position. 1 cm is 2.6 times the ten-step measure.
     */
    private static final float TEN_STEP_TOLERANCE = 1e-2f;
    /**
     * Positions within this (m) of the CPU's after a long run (20 to 100 steps) where the device does not
     * give its bits: the relaxed float build measured 8.0e-2 m after 100 steps of the hanging cloth (see
     * above), so this bounds only gross errors there (a wrong force, a lost constraint); on PoCL with fp64 the
     * tests ask for the CPU's bits instead.
     */
    private static final float LONG_RUN_TOLERANCE = 0.1f;

    private static ImplicitSettings settings() {
        return ImplicitSettings.defaults();
    }

    private static boolean cpuBits(OpenClDevice device) {
        return device.fp64() && OpenClAvailable.isPocl(device);
    }

    /** The CPU's bits (positions, velocities) on PoCL with fp64, else within {@link #LONG_RUN_TOLERANCE}. */
    private static void agree(StepComparison c, OpenClDevice device) {
        if (cpuBits(device)) {
            c.assertAgrees(0f, true);
        } else {
            c.assertPositionsAgree(LONG_RUN_TOLERANCE, false);
        }
    }

    @Test
    void aHangingClothHasTheCpusBitsAfterOneStepAndAfterAHundred() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = DeviceTestScenes.hangingCloth(new ModelBuilder(), 32); // tethers on, as by default
        StepComparison c = StepComparison.run("OpenCL implicit vs CPU, hanging,", pool -> new ImplicitSolver(settings(),
                pool), () -> new OpenClImplicitSolver(settings(), device), model, Environment.earth(), DT, 100);
        // it moved: a falling, swinging cloth, not two still ones
        assertThat(c.travel).isGreaterThan(0.3f);
        assertThat(c.afterOne).isLessThanOrEqualTo(ONE_STEP_TOLERANCE);
        agree(c, device);
    }

    @Test
    void thePcgTakesTheCpusIterationsToTheCpusResidualEveryStep() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = DeviceTestScenes.hangingCloth(new ModelBuilder(), 24);
        State cpu = State.atRest(model);
        State gpu = cpu.copy();
        int moreThanOne = 0;
        try (WorkerPool pool = new WorkerPool(1);
             ImplicitSolver reference = new ImplicitSolver(settings(), pool);
             OpenClImplicitSolver solver = new OpenClImplicitSolver(settings(), device)) {
            for (int k = 0; k < 60; k++) {
                reference.step(model, cpu, Environment.earth(), DT);
                solver.step(model, gpu, Environment.earth(), DT);
                // converged, or stopped at the most iterations
                assertThat(solver.lastRelativeResidual() <= 1e-4
                        || solver.lastIterations() == settings().maxIterations()).as("step " + k).isTrue();
                if (cpuBits(device)) {
                    assertThat(solver.lastIterations()).as("step " + k).isEqualTo(reference.lastIterations());
                    assertThat(solver.lastRelativeResidual()).as("step " + k)
                            .isEqualTo(reference.lastRelativeResidual());
                } else {
                    assertThat(Math.abs(solver.lastIterations() - reference.lastIterations())).as("step " + k)
                            .isLessThanOrEqualTo(2);
                }
                moreThanOne += reference.lastIterations() > 1 ? 1 : 0;
            }
        }
        // the comparison is of real solves: the PCG iterated in every step
        assertThat(moreThanOne).isEqualTo(60);
    }

    @Test
    void howOftenTheHostReadsTheConvergenceTestDoesNotChangeABit() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = DeviceTestScenes.hangingCloth(new ModelBuilder(), 16);
        StepComparison every = StepComparison.run("reads after every iteration vs every 4,",
                pool -> new OpenClImplicitSolver(settings(), device, 1),
                () -> new OpenClImplicitSolver(settings(), device, 4), model, Environment.earth(), DT, 30);
        StepComparison.assertSameBits(every.cpu, every.device);
        StepComparison once = StepComparison.run("reads after every iteration vs once per step,",
                pool -> new OpenClImplicitSolver(settings(), device, 1),
                () -> new OpenClImplicitSolver(settings(), device, settings().maxIterations()), model,
                Environment.earth(), DT, 30);
        StepComparison.assertSameBits(once.cpu, once.device);
    }

    @Test
    void aClothDroppedOnTheFloorLandsAndRestsAsOnTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        PlaneCollider floor = DeviceTestScenes.floor();
        Model model = DeviceTestScenes.droppedCloth(new ModelBuilder(), 24, 0.2f);
        // 2 s: it falls 0.2 m in 0.2 s, lands, is held through S, releases and slides to rest
        StepComparison c = StepComparison.run("OpenCL implicit vs CPU, dropped on the floor,",
                pool -> new ImplicitSolver(settings(), pool), () -> new OpenClImplicitSolver(settings(), device), model,
                DeviceTestScenes.earthWith(floor), DT, 60);
        assertThat(c.travel).isGreaterThan(0.15f);
        // a particle meets the plane during a step and is put back on its 5 mm surface at the next one (at
        // most one step's fall inside, 2 m/s · h = 6.7 cm); at rest the plane holds every particle there
        assertThat(c.lowestClearance(floor)).isGreaterThan(-0.07f);
        float[] x = c.device.positions();
        for (int i = 0; i < model.particleCount(); i++) {
            assertThat(floor.signedDistance(x[3 * i], x[3 * i + 1], x[3 * i + 2])).as("particle " + i)
                    .isBetween(0.005f - 1e-5f, 0.006f);
        }
        agree(c, device);
    }

    @Test
    void theReleasedContactsAreTheCpusAndACheckpointOfThemCarriesOver() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        // the hanging cloth swings down onto a floor 0.4 m up, slides over it and swings up off it again
        Model model = DeviceTestScenes.hangingCloth(new ModelBuilder(), 16);
        Environment env = DeviceTestScenes.earthWith(PlaneCollider.floor(0.4f, 0.005f, 0.4f));
        State cpu = State.atRest(model);
        State gpu = cpu.copy();
        try (WorkerPool pool = new WorkerPool(1);
             ImplicitSolver reference = new ImplicitSolver(settings(), pool);
             OpenClImplicitSolver solver = new OpenClImplicitSolver(settings(), device)) {
            int released = 0;
            for (int k = 0; k < 60; k++) {
                reference.step(model, cpu, env, DT);
                solver.step(model, gpu, env, DT);
                byte[] flags = reference.saveState();
                for (byte f : flags) {
                    released += f;
                }
                if (cpuBits(device)) {
                    assertThat(solver.saveState()).as("step " + k).isEqualTo(flags);
                }
            }
            // contacts the swing pulled off the floor: the pull test released them
            assertThat(released).isPositive();
            // a checkpoint of the CPU's run continues on the device as on the CPU
            State resumed = cpu.copy();
            try (OpenClImplicitSolver fresh = new OpenClImplicitSolver(settings(), device)) {
                fresh.loadState(reference.saveState());
                for (int k = 0; k < 10; k++) {
                    reference.step(model, cpu, env, DT);
                    fresh.step(model, resumed, env, DT);
                }
            }
            if (cpuBits(device)) {
                StepComparison.assertSameBits(cpu, resumed);
            } else {
                assertThat(StepComparison.maxDifference(cpu.positions(), resumed.positions()))
                        .isLessThanOrEqualTo(LONG_RUN_TOLERANCE);
            }
        }
    }

    @Test
    void aClothDroppedOnASphereAndTheFloorAgreesWithTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        SphereCollider ball = DeviceTestScenes.ball();
        PlaneCollider floor = DeviceTestScenes.floor();
        Model model = DeviceTestScenes.droppedCloth(new ModelBuilder(), 24, 0.5f);
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of(ball, floor));
        StepComparison c = StepComparison.run("OpenCL implicit vs CPU, dropped on a sphere,",
                pool -> new ImplicitSolver(settings(), pool), () -> new OpenClImplicitSolver(settings(), device), model,
                env, DT, 45);
        assertThat(c.lowestClearance(ball)).isGreaterThanOrEqualTo(0.005f - 1e-5f);
        agree(c, device);
    }

    @Test
    void withoutTheCpusRoundingAndDoublesTheDifferenceStaysWithinTheTolerance() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = DeviceTestScenes.hangingCloth(new ModelBuilder(), 32);
        StepComparison c = StepComparison.run("OpenCL implicit relaxed float vs CPU, hanging,",
                pool -> new ImplicitSolver(settings(), pool),
                () -> new OpenClImplicitSolver(settings(), device, 4, false), model, Environment.earth(), DT, 10);
        assertThat(c.afterOne).isLessThanOrEqualTo(ONE_STEP_TOLERANCE);
        c.assertPositionsAgree(TEN_STEP_TOLERANCE, false);
    }

    @Test
    void pinnedParticlesKeepTheirBitsAndAHostDragIsUploaded() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = DeviceTestScenes.hangingCloth(new ModelBuilder(), 16);
        State state = State.atRest(model);
        float[] start = state.positions().clone();
        try (OpenClImplicitSolver solver = new OpenClImplicitSolver(settings(), device)) {
            solver.steps(model, state, Environment.earth(), DT, 40);
        }
        assertThat(StepComparison.assertPinnedKept(model, start, state)).isEqualTo(2);
        assertThat(state.steps()).isEqualTo(40);
        StepComparison dragged = StepComparison.run("OpenCL implicit vs CPU, a drag at step 10,",
                pool -> new ImplicitSolver(settings(), pool), () -> new OpenClImplicitSolver(settings(), device),
                model, Environment.earth(), DT, 20, 10);
        agree(dragged, device);
    }

    @Test
    void theJacobiMethodHasTheCpusBitsHangingAndOnTheFloor() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        ImplicitSettings jacobi = settings().withMethod(LinearMethod.JACOBI);
        Model hanging = DeviceTestScenes.hangingCloth(new ModelBuilder(), 24);
        StepComparison c = StepComparison.run("OpenCL implicit Jacobi vs CPU, hanging,",
                pool -> new ImplicitSolver(jacobi, pool), () -> new OpenClImplicitSolver(jacobi, device), hanging,
                Environment.earth(), DT, 60);
        assertThat(c.travel).isGreaterThan(0.3f);
        assertThat(c.afterOne).isLessThanOrEqualTo(ONE_STEP_TOLERANCE);
        agree(c, device);
        // plane-constrained rows take Jacobi's reduced block inverse (S A_ii S + I − S)⁻¹
        Model dropped = DeviceTestScenes.droppedCloth(new ModelBuilder(), 16, 0.2f);
        StepComparison landed = StepComparison.run("OpenCL implicit Jacobi vs CPU, dropped on the floor,",
                pool -> new ImplicitSolver(jacobi, pool), () -> new OpenClImplicitSolver(jacobi, device), dropped,
                DeviceTestScenes.earthWith(DeviceTestScenes.floor()), DT, 40);
        agree(landed, device);
    }

    @Test
    void whatIsNotOnTheDeviceIsRefusedByName() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model plain = DeviceTestScenes.hangingCloth(new ModelBuilder(), 8);
        try (OpenClImplicitSolver solver = new OpenClImplicitSolver(settings(), device)) {
            // an elastic tetrahedral body, as the CPU's implicit solver refuses it (naming the body and the way out)
            ModelBuilder b = new ModelBuilder();
            b.addTetBody(TetBodySpec.box("jelly", new float[] {0f, 0f, 0f}, new float[] {0.1f, 0.1f, 0.1f}, 1, 1, 1,
                    1000f, new Elasticity(1e4f, 0.4f)));
            Model jelly = b.build();
            assertThatThrownBy(() -> solver.step(jelly, State.atRest(jelly), Environment.earth(), DT))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("jelly")
                    .hasMessageContaining("implicit").hasMessageContaining("xpbd");
            // still usable after the refusals
            State state = State.atRest(plain);
            solver.step(plain, state, Environment.earth(), DT);
            assertThat(state.steps()).isEqualTo(1);
        }
    }
}
