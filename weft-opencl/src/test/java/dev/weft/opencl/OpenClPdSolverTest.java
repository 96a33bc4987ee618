package dev.weft.opencl;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.PlaneCollider;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.collide.SphereCollider;
import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.lab.ConvergenceExperiment;
import dev.weft.core.metrics.ClothMetrics;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.Elasticity;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.QuadLatticeSpec;
import dev.weft.core.model.State;
import dev.weft.core.model.TetBodySpec;
import dev.weft.core.solver.DeviceFeature;
import dev.weft.core.solver.UnsupportedOnDeviceException;
import dev.weft.core.solver.pd.InnerSolver;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.pd.PdSolver;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.DeviceTestScenes;
import dev.weft.core.testing.StepComparison;
import dev.weft.core.testing.TetherReach;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The OpenCL PD solver (rbgs, jacobi, jacobi-seed, SOR and Chebyshev; distance constraints, tethers) against the
 * CPU's {@link PdSolver} on one thread, on the same scenes.
 *
 * <p>Tolerance: the PD kernels do PdSolver's float operations in its order, on its slot-list path and,
 * where it takes them, on its lattice kernels (no contraction, correctly rounded division and square
 * root where the device has them), so on PoCL the runs agree bit for bit (measured: 0 m and 0 m/s after
 * 1 step and after all steps of every scene and inner solver here), checked exactly there. Built
 * "relaxed" ({@code WEFT_RELAXED}: contraction and mad allowed, OpenCL's default division and square
 * root), the kernels measured on PoCL 3.0e-7 m (rbgs) and 2.4e-7 m (jacobi) after 100 steps of the 32 ×
 * 32 hanging cloth, 4.8e-7 m on seed 001's 32 × 32 hanging lattice, 1.9e-9 m on the cloth landed on the
 * floor after 360 steps, velocities at most 3.1e-5 m/s (the tests print them). {@link #TOLERANCE}, 5e-6
 * m (1/6000 of the 3.2 cm spacing), is 10 times the largest position difference; {@link
 * #VELOCITY_TOLERANCE}, 5e-4 m/s, 16 times the largest velocity difference (a position rounding δ
 * becomes δ/h in velocity, h = 1/480 s). What the relaxed build on PoCL mostly measures is contraction:
 * a GPU's 2.5 and 3 ulp division and square root are not in it, which is what the margin is for.
 */
class OpenClPdSolverTest {
    /** Positions within this (m) of the CPU's on any device (see the class comment). */
    private static final float TOLERANCE = 5e-6f;
    /** Velocities within this (m/s) of the CPU's on any device. */
    private static final float VELOCITY_TOLERANCE = 5e-4f;
    /** Seed 001's step: 8 per 60 Hz frame. */
    private static final float DT = ConvergenceExperiment.STEP;
    /** Red-black Gauss–Seidel, 4 alternations of 4 sweeps. */
    private static final PdSettings DEFAULTS = PdSettings.defaults();

    @Test
    void aHangingClothAgreesWithTheCpuAfterOneAndAfterAHundredSteps() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        StepComparison c = compare(device, true, DEFAULTS, hangingCloth(32), Environment.earth(), 100);
        assertThat(c.afterOne).isLessThanOrEqualTo(TOLERANCE);
        assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
        assertThat(c.travel).as("a falling, stretching cloth, not a still one").isGreaterThan(0.05f);
        c.assertPositionsAgree(TOLERANCE, OpenClAvailable.isPocl(device));
        if (OpenClAvailable.isPocl(device)) {
            assertThat(c.velocityAfterAll).as("PoCL: the CPU's bits").isZero();
        }
    }

    @Test
    void everyInnerSolverTheDeviceRunsAgreesWithTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = hangingCloth(24);
        List<PdSettings> variants = List.of(
                DEFAULTS.withIterations(10, 1), // the bench's "RBGS, 10 iterations"
                DEFAULTS.withOmega(1.5f), // SOR
                DEFAULTS.withInner(InnerSolver.JACOBI).withOmega(0.8f),
                DEFAULTS.withInner(InnerSolver.SEED_JACOBI),
                // Chebyshev across the step (one sweep per local step), after 3 plain sweeps
                DEFAULTS.withInner(InnerSolver.JACOBI).withIterations(10, 1).withChebyshev(true, 0f)
                        .withChebyshevDelay(3),
                // restarted with each local step (several sweeps), a given ρ
                DEFAULTS.withInner(InnerSolver.JACOBI).withIterations(3, 6).withChebyshev(true, 0.9f)
                        .withChebyshevDelay(2));
        for (PdSettings s : variants) {
            StepComparison c = compare(device, true, s, model, Environment.earth(), 100);
            assertThat(c.travel).as(s.label()).isGreaterThan(0.05f);
            assertThat(c.velocityAfterAll).as(s.label()).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
            c.assertPositionsAgree(TOLERANCE, OpenClAvailable.isPocl(device));
        }
    }

    @Test
    void residualAndStrainAgreeWithinOnePercent() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = hangingCloth(32);
        for (PdSettings s : List.of(DEFAULTS, DEFAULTS.withInner(InnerSolver.JACOBI))) {
            StepComparison c = compare(device, true, s, model, Environment.earth(), 100);
            double cpuResidual = ClothMetrics.residual(model, c.cpu.positions());
            double cpuStrain = ClothMetrics.maxStrain(model, c.cpu.positions());
            assertThat(cpuResidual).as("a stretched cloth").isGreaterThan(0.0);
            assertThat(cpuStrain).isGreaterThan(0.0);
            assertThat(ClothMetrics.residual(model, c.device.positions())).as(s.label())
                    .isCloseTo(cpuResidual, within(0.01 * cpuResidual));
            assertThat(ClothMetrics.maxStrain(model, c.device.positions())).as(s.label())
                    .isCloseTo(cpuStrain, within(0.01 * cpuStrain));
        }
    }

    @Test
    void seedOnesLatticeRunsOnTheLatticeKernelsAsOnTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model lattice = ConvergenceExperiment.HANGING.model(32, 1000f);
        for (PdSettings s : List.of(DEFAULTS, DEFAULTS.withOmega(1.5f).withIterations(10, 1))) {
            StepComparison c = compare(device, true, s, lattice, Environment.earth(), 100);
            assertThat(c.travel).isGreaterThan(0.05f);
            assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
            c.assertPositionsAgree(TOLERANCE, OpenClAvailable.isPocl(device));
        }
        try (OpenClPdSolver solver = new OpenClPdSolver(DEFAULTS, device)) {
            solver.step(lattice, State.atRest(lattice), Environment.earth(), DT);
            assertThat(solver.usesLatticeKernels()).isTrue();
            Model cloth = hangingCloth(8); // shear and bending springs: not a lattice
            solver.step(cloth, State.atRest(cloth), Environment.earth(), DT);
            assertThat(solver.usesLatticeKernels()).isFalse();
        }
        try (OpenClPdSolver jacobi = new OpenClPdSolver(DEFAULTS.withInner(InnerSolver.JACOBI), device)) {
            jacobi.step(lattice, State.atRest(lattice), Environment.earth(), DT);
            assertThat(jacobi.usesLatticeKernels()).as("the lattice kernels are red-black only").isFalse();
        }
    }

    @Test
    void aClothDroppedOnTheFloorStaysAboveItAndAgreesWithTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        PlaneCollider floor = DeviceTestScenes.floor();
        // 360 steps of 1/480 s: it falls the 0.095 m to the floor's thickness in 0.14 s, lands and lies there
        StepComparison c = compare(device, true, DEFAULTS, droppedCloth(24, 0.1f), DeviceTestScenes.earthWith(floor),
                360);
        assertThat(c.lowestClearance(floor)).isGreaterThanOrEqualTo(0.005f - 1e-6f);
        assertThat(c.travel).isGreaterThan(0.09f);
        c.assertPositionsAgree(TOLERANCE, OpenClAvailable.isPocl(device));
    }

    @Test
    void aClothDroppedOnASphereStaysOutsideItAndAgreesWithTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        SphereCollider ball = DeviceTestScenes.ball();
        StepComparison c = compare(device, true, DEFAULTS.withInner(InnerSolver.JACOBI), droppedCloth(24, 0.45f),
                DeviceTestScenes.earthWith(ball), 240);
        assertThat(c.lowestClearance(ball)).isGreaterThanOrEqualTo(0.005f - 1e-6f);
        c.assertPositionsAgree(TOLERANCE, OpenClAvailable.isPocl(device));
    }

    @Test
    void withoutTheCpusRoundingTheDifferenceStaysWithinTheTolerance() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        StepComparison hanging = compare(device, false, DEFAULTS, hangingCloth(32), Environment.earth(), 100);
        StepComparison jacobi = compare(device, false, DEFAULTS.withInner(InnerSolver.JACOBI), hangingCloth(32),
                Environment.earth(), 100);
        StepComparison landed = compare(device, false, DEFAULTS, droppedCloth(24, 0.1f),
                DeviceTestScenes.earthWith(DeviceTestScenes.floor()), 360);
        StepComparison lattice = compare(device, false, DEFAULTS, ConvergenceExperiment.HANGING.model(32, 1000f),
                Environment.earth(), 100);
        for (StepComparison c : List.of(hanging, jacobi, landed, lattice)) {
            assertThat(c.afterAll).isLessThanOrEqualTo(TOLERANCE);
            assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
        }
    }

    @Test
    void jacobiAndColoredRunsAreTheSameRunToRun() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = hangingCloth(32);
        for (PdSettings s : List.of(DEFAULTS.withInner(InnerSolver.JACOBI),
                DEFAULTS.withInner(InnerSolver.JACOBI).withIterations(10, 1).withChebyshev(true, 0f)
                        .withChebyshevDelay(3), DEFAULTS)) {
            State first = run(device, s, model, 50);
            State second = run(device, s, model, 50);
            assertThat(first.positions()).as(s.label()).isEqualTo(second.positions());
            assertThat(first.velocities()).as(s.label()).isEqualTo(second.velocities());
        }
    }

    @Test
    void pinnedParticlesKeepTheirBitsAndAHostEditIsUploaded() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = hangingCloth(16);
        for (PdSettings s : List.of(DEFAULTS, DEFAULTS.withInner(InnerSolver.JACOBI))) {
            StepComparison c = StepComparison.run("OpenCL PD " + s.label() + " vs CPU, a drag at step 50,",
                    pool -> new PdSolver(s, pool), () -> new OpenClPdSolver(s, device), model, Environment.earth(), DT,
                    100, 50);
            assertThat(c.afterAll).isLessThanOrEqualTo(TOLERANCE);
            assertThat(StepComparison.assertPinnedKept(model, c.start.positions(), c.device)).isEqualTo(2);
            assertThat(c.device.steps()).isEqualTo(100);
        }
    }

    @Test
    void whatIsNotOnTheDeviceYetIsRefusedByName() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        assertThatThrownBy(() -> new OpenClPdSolver(DEFAULTS.withInner(InnerSolver.GAUSS_SEIDEL), device))
                .isInstanceOf(UnsupportedOnDeviceException.class).hasMessageContaining("not gs")
                .hasMessageContaining("rbgs").extracting(e -> ((UnsupportedOnDeviceException) e).feature())
                .isEqualTo(DeviceFeature.INNER_SOLVER);
        assertThatThrownBy(() -> new OpenClPdSolver(DEFAULTS.withInner(InnerSolver.CHOLESKY), device))
                .isInstanceOf(UnsupportedOnDeviceException.class).hasMessageContaining("not cholesky")
                .hasMessageContaining("cpu backend");
        ModelBuilder soft = new ModelBuilder();
        soft.addTetBody(TetBodySpec.box("jelly", new float[] {0f, 0.5f, 0f}, new float[] {0.2f, 0.7f, 0.2f}, 2, 2, 2,
                100f, new Elasticity(1e5f, 0.3f)));
        Model jelly = soft.build();
        Model plain = hangingCloth(8);
        // elastic tetrahedra run (OpenClPdTetTest); only a device without double precision refuses them
        OpenClDevice noFp64 = new OpenClDevice(device.index(), device.platformName(), device.deviceName(),
                device.type(), device.version(), device.globalMemory(), device.computeUnits(), false,
                device.platformId(), device.deviceId());
        assertThatThrownBy(() -> OpenClPdSolver.requireRunsOn(noFp64, jelly))
                .isInstanceOf(UnsupportedOnDeviceException.class).hasMessageContaining("elastic tetrahedra")
                .hasMessageContaining("no double precision").extracting(e -> ((UnsupportedOnDeviceException) e)
                        .feature()).isEqualTo(DeviceFeature.TETRAHEDRA);
        try (OpenClPdSolver solver = new OpenClPdSolver(DEFAULTS, device)) {
            State stepped = State.atRest(jelly);
            solver.step(jelly, stepped, Environment.earth(), DT);
            assertThat(stepped.steps()).isEqualTo(1);
            // a projectile runs, with particle contacts too (OpenClInteractTest)
            Model isometric = isometricCloth();
            assertThatThrownBy(() -> solver.step(isometric, State.atRest(isometric), Environment.earth(), DT))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("isometric");
            // after the refusals it still runs what it supports
            State s = State.atRest(plain);
            solver.step(plain, s, Environment.earth(), DT);
            assertThat(s.steps()).isEqualTo(1);
        }
    }

    @Test
    void tethersAreProjectedAsOnTheCpuAndHoldTheCloth() {
        // the model's long-range attachments after every local/global alternation (PdSolver.projectTethers),
        // on the slot-list path (grid cloth with shear and distance bending) and on seed 001's lattice kernels
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model grid = DeviceTestScenes.hangingCloth(new ModelBuilder().bendingModel(BendingModel.DISTANCE), 24);
        ModelBuilder lb = new ModelBuilder().material(Material.cloth().withStretch(1000f).withShear(1000f));
        ModelObject cloth = lb.addQuadLattice(QuadLatticeSpec.of("cloth", 24, 24, 1f).withOrigin(-0.5f, 1f, -0.5f));
        lb.pinCorners(cloth, "top-left", "top-right");
        Model lattice = lb.build();
        assertThat(grid.tethers().count()).isGreaterThan(0);
        assertThat(lattice.tethers().count()).isGreaterThan(0);
        List<PdSettings> variants = List.of(DEFAULTS, DEFAULTS.withInner(InnerSolver.JACOBI).withIterations(6, 2)
                .withChebyshev(true, 0f).withChebyshevDelay(2));
        for (Model m : List.of(grid, lattice)) {
            for (PdSettings s : variants) {
                StepComparison c = compare(device, true, s, m, Environment.earth(), 150);
                assertThat(c.travel).as(s.label()).isGreaterThan(0.05f);
                assertThat(c.velocityAfterAll).as(s.label()).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
                c.assertPositionsAgree(TOLERANCE, OpenClAvailable.isPocl(device));
                // the tethers hold on the device: no particle beyond its rest geodesic distance from its pin
                // by more than the last alternation's sweeps moved it (the same bound the CPU keeps)
                assertThat(TetherReach.beyond(m, c.device.positions())).as(s.label())
                        .isLessThanOrEqualTo(TetherReach.beyond(m, c.cpu.positions()) + TOLERANCE);
            }
        }
        // and they matter: without them the same cloth hangs further beyond its tethers
        StepComparison untethered = compare(device, true, DEFAULTS.withTethers(false), grid, Environment.earth(), 150);
        StepComparison tethered = compare(device, true, DEFAULTS, grid, Environment.earth(), 150);
        assertThat(TetherReach.beyond(grid, untethered.device.positions()))
                .isGreaterThan(2 * TetherReach.beyond(grid, tethered.device.positions()) + 1e-4f);
    }


    /** The hanging grid cloth with distance bending, no tethers. */
    static Model hangingCloth(int n) {
        return DeviceTestScenes.hangingCloth(new ModelBuilder().tethers(false).bendingModel(BendingModel.DISTANCE), n);
    }

    /** The dropped cloth with distance bending, no tethers. */
    private static Model droppedCloth(int n, float height) {
        return DeviceTestScenes.droppedCloth(new ModelBuilder().tethers(false).bendingModel(BendingModel.DISTANCE),
                n, height);
    }

    /** A small cloth with isometric bending, which PdSolver refuses. */
    private static Model isometricCloth() {
        ModelBuilder b = new ModelBuilder().tethers(false).bendingModel(BendingModel.ISOMETRIC);
        b.addGridCloth(GridClothSpec.of("cloth", 8, 8, 0.4f, 0.4f));
        return b.build();
    }

    /** {@code steps} device steps from rest. */
    private static State run(OpenClDevice device, PdSettings settings, Model model, int steps) {
        State s = State.atRest(model);
        try (OpenClPdSolver solver = new OpenClPdSolver(settings, device)) {
            for (int k = 0; k < steps; k++) {
                solver.step(model, s, Environment.earth(), DT);
            }
        }
        return s;
    }

    /** Both solvers from rest, step by step. */
    private static StepComparison compare(OpenClDevice device, boolean cpuRounding, PdSettings settings, Model model,
                                          Environment env, int steps) {
        String label = String.format("%sOpenCL PD (%s, %d x %d iterations) vs CPU", cpuRounding ? "" : "relaxed ",
                settings.label(), settings.outerIterations(), settings.innerIterations());
        return StepComparison.run(label, pool -> new PdSolver(settings, pool),
                () -> new OpenClPdSolver(settings, device, cpuRounding), model, env, DT, steps);
    }
}
