package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.model.Elasticity;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.Solvers;
import dev.weft.core.solver.xpbd.IterationMode;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.DeviceTestScenes;
import dev.weft.core.testing.DeviceTetScenes;
import dev.weft.core.testing.StepComparison;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Soft bodies' tetrahedra on the OpenCL XPBD solver (colored and Jacobi modes) against the CPU's
 * {@link XpbdSolver} on one thread: the coupled volume–shape step of each tetrahedron (TetProjection) in the
 * CPU's float operations and order, one launch per tetrahedron color after the bending colors, and in the
 * Jacobi mode (pbd) TetProjection's slots and gather, so on PoCL positions and velocities are the CPU's bits
 * after one step and after hundreds, through a landing on the floor, with a pinned cloth (dihedral bending,
 * tethers) in the same model, and across tears.
 *
 * <p>Tolerance elsewhere (a GPU's 2.5 and 3 ulp division and square root, contraction): {@link #TOLERANCE},
 * 2e-5 m, and {@link #VELOCITY_TOLERANCE}, 2e-3 m/s. Built relaxed ({@code WEFT_RELAXED}: contraction and mad
 * allowed, OpenCL's default division and square root), the kernels measured on PoCL, on the block and cloth of
 * {@link #blockBesideACloth} (the block landed and rocking after 300 steps of 1/600 s), 7.5e-8 m after one
 * step in both modes; after 300, 5.4e-7 m and 5.6e-5 m/s colored, 1.2e-6 m and 9.1e-5 m/s as pbd (Jacobi,
 * rigid distances) ({@link #withoutTheCpusRoundingTheDifferenceStaysWithinTheTolerance} prints them): the
 * tolerances are 16 and 22 times the larger, 1/1500 of the block's 3 cm cells. A tetrahedron's step has more
 * operations in a row than a distance constraint's (F, Green's strain, the 2 × 2 solve) and a landing body is
 * chaotic (friction's stick or slip flips on a rounding), so the margin is wider than OpenClXpbdSolverTest's
 * 2e-6 m; what the relaxed build on PoCL mostly measures is contraction, not a GPU's division and square root,
 * which is what the margin is for.
 */
class OpenClXpbdTetTest {
    /** Positions within this (m) of the CPU's on any device (see the class comment). */
    private static final float TOLERANCE = 2e-5f;
    /** Velocities within this (m/s) of the CPU's on any device (a position's δ over h = 1/600 s, and more). */
    private static final float VELOCITY_TOLERANCE = 2e-3f;
    /** One substep of 10 at 60 frames/s (the rubber scenes' substeps). */
    private static final float DT = 1f / 600f;
    private static final XpbdSettings DEFAULTS = XpbdSettings.defaults();

    @Test
    void aSoftBlockLandingBesideAHangingClothKeepsTheCpusBits() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        boolean pocl = OpenClAvailable.isPocl(device);
        Model model = DeviceTetScenes.blockBesideACloth(new Elasticity(1e5f, 0.3f));
        assertThat(model.tets().count()).isPositive();
        assertThat(model.tethers().count()).as("the cloth's tethers run after the tetrahedra").isPositive();
        assertThat(model.bending().count()).as("dihedral stencils run before them").isPositive();
        Environment env = DeviceTetScenes.floorEnvironment();
        // 300 steps = 0.5 s: it falls the 2 cm to the floor in 0.064 s, lands, squashes and rocks
        for (XpbdSettings s : List.of(DEFAULTS, DEFAULTS.withIterations(4))) {
            StepComparison c = compare(device, true, s, model, env, 300);
            assertThat(c.afterOne).isLessThanOrEqualTo(TOLERANCE);
            if (pocl) {
                assertThat(c.afterOne).as("PoCL: the CPU's bits after one step").isZero();
                StepComparison.assertSameBits(c.cpu, c.device);
            }
            c.assertPositionsAgree(TOLERANCE, pocl);
            assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
            assertThat(c.lowestClearance(DeviceTestScenes.floor())).as("landed, above the floor's thickness")
                    .isBetween(0.005f - 1e-4f, 0.006f);
        }
    }

    @Test
    void volumeOnlyAndShapeOnlyTetrahedraKeepTheCpusBitsToo() {
        // the coupled step's other branches: ν = 0 has no volume term (shape alone), ν = 0.5 an incompressible
        // one (α̃ 0), and a voxel body's volume tetrahedra have no shape term (μ = 0: volume alone)
        OpenClDevice device = OpenClAvailable.firstDevice();
        boolean pocl = OpenClAvailable.isPocl(device);
        for (Elasticity e : List.of(new Elasticity(1e5f, 0f), new Elasticity(1e5f, 0.5f))) {
            StepComparison c = compare(device, true, DEFAULTS, DeviceTetScenes.block(new ModelBuilder(), e, 4),
                    DeviceTetScenes.floorEnvironment(), 200);
            c.assertPositionsAgree(TOLERANCE, pocl);
            if (pocl) {
                StepComparison.assertSameBits(c.cpu, c.device);
            }
        }
        Model jelly = DeviceTetScenes.voxelJelly();
        assertThat(jelly.tets().count()).isPositive();
        assertThat(jelly.tets().elastic()).as("volume only").isFalse();
        StepComparison c = compare(device, true, DEFAULTS, jelly, DeviceTetScenes.floorEnvironment(), 200);
        c.assertPositionsAgree(TOLERANCE, pocl);
        if (pocl) {
            StepComparison.assertSameBits(c.cpu, c.device);
        }
    }

    @Test
    void withoutTheCpusRoundingTheDifferenceStaysWithinTheTolerance() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = DeviceTetScenes.blockBesideACloth(new Elasticity(1e5f, 0.3f));
        for (XpbdSettings s : List.of(DEFAULTS, Solvers.jacobiPbd(DEFAULTS))) {
            StepComparison c = compare(device, false, s, model, DeviceTetScenes.floorEnvironment(), 300);
            assertThat(c.afterOne).isLessThanOrEqualTo(TOLERANCE);
            assertThat(c.afterAll).isLessThanOrEqualTo(TOLERANCE);
            assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
        }
    }

    /**
     * A free notched rubber bar (no gravity) stretched at 5 /s (v = 5 x, the ends at ±1 m/s, and 1 m/s up) tears
     * at its notch within the first frame, node after node over its substeps (TetTearing splits its nodes
     * and divides their tetrahedra, TetSplitter): each edit is a new model, bound again, its tetrahedra synced
     * into the buffers the device kept ({@link MirroredBuffer}). The device tears where and when the CPU does
     * (the splits are decided on the host from the positions it read back) and keeps the CPU's bits, frame
     * after frame, through the tears and after them.
     */
    @Test
    void aBarFlyingApartTearsAsOnTheCpuAndKeepsItsBits() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model bar = DeviceTetScenes.notchedBar();
        State start = State.atRest(bar);
        float[] x = start.positions();
        float[] v = start.velocities();
        for (int i = 0; i < bar.particleCount(); i++) {
            v[3 * i] = 5f * x[3 * i]; // stretched at 5 /s: past 10 % at the notch within the first frame
            v[3 * i + 1] = 1f;
        }
        Environment space = new Environment(new float[3], List.of());
        int frames = 30;
        for (XpbdSettings settings : List.of(DEFAULTS, Solvers.jacobiPbd(DEFAULTS))) {
            tearInLockstep(device, settings, bar, start, space, frames);
        }
    }

    private static void tearInLockstep(OpenClDevice device, XpbdSettings settings, Model bar, State start,
                                       Environment space, int frames) {
        boolean pocl = OpenClAvailable.isPocl(device);
        try (WorkerPool pool = new WorkerPool(1);
             Simulation cpu = new Simulation(bar, start.copy(), new XpbdSolver(settings, pool), space, 10);
             Simulation gpu = new Simulation(bar, start.copy(), new OpenClXpbdSolver(settings, device), space, 10)) {
            int firstTear = -1;
            for (int f = 0; f < frames; f++) {
                cpu.advance(1f / 60f);
                gpu.advance(1f / 60f);
                assertThat(gpu.model().edits()).as("frame %d: the same splits", f).isEqualTo(cpu.model().edits());
                assertThat(gpu.model().tets().count()).isEqualTo(cpu.model().tets().count());
                if (firstTear < 0 && !cpu.model().edits().isEmpty()) {
                    firstTear = f;
                }
                float diff = StepComparison.maxDifference(cpu.state().positions(), gpu.state().positions());
                assertThat(diff).as("frame %d", f).isLessThanOrEqualTo(TOLERANCE);
                if (pocl) {
                    StepComparison.assertSameBits(cpu.state(), gpu.state());
                }
            }
            System.out.printf("a bar flying apart, %s: first tear in frame %d, %d -> %d particles, %d edits%n",
                    settings.mode().label(), firstTear, bar.particleCount(), cpu.model().particleCount(),
                    cpu.model().edits().size());
            assertThat(firstTear).as("it tore, and ran on after").isBetween(0, frames - 10);
            assertThat(cpu.model().edits().size()).as("several splits, several rebinds").isGreaterThan(2);
            assertThat(cpu.model().particleCount()).as("nodes split").isGreaterThan(bar.particleCount());
        }
    }

    /**
     * TetProjection's Jacobi sweep (the pbd solver's, and xpbd's {@code --mode jacobi}): each tetrahedron's volume
     * and then shape correction from the same positions, scaled by its shared weight, into its 12 slots
     * ({@code xpbd_jacobi_tets}), then per particle their sum over the tetrahedron incidence in the CPU's order
     * ({@code xpbd_jacobi_gather}). The CPU's bits on PoCL, for an elastic block beside the cloth and for a
     * voxel body's volume-only tetrahedra.
     */
    @Test
    void inTheJacobiModeAndAsPbdTheyKeepTheCpusBitsToo() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        boolean pocl = OpenClAvailable.isPocl(device);
        Model model = DeviceTetScenes.blockBesideACloth(new Elasticity(1e5f, 0.3f));
        for (XpbdSettings s : List.of(DEFAULTS.withMode(IterationMode.JACOBI), Solvers.jacobiPbd(DEFAULTS))) {
            StepComparison c = compare(device, true, s, model, DeviceTetScenes.floorEnvironment(), 300);
            c.assertPositionsAgree(TOLERANCE, pocl);
            assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
            if (pocl) {
                assertThat(c.afterOne).as("PoCL: the CPU's bits after one step").isZero();
                StepComparison.assertSameBits(c.cpu, c.device);
            }
            assertThat(c.lowestClearance(DeviceTestScenes.floor())).as("landed, above the floor's thickness")
                    .isBetween(0.005f - 1e-4f, 0.006f);
        }
        StepComparison c = compare(device, true, Solvers.jacobiPbd(DEFAULTS), DeviceTetScenes.voxelJelly(),
                DeviceTetScenes.floorEnvironment(), 200);
        c.assertPositionsAgree(TOLERANCE, pocl);
        if (pocl) {
            StepComparison.assertSameBits(c.cpu, c.device);
        }
    }







    /** Both solvers from rest, step by step. */
    private static StepComparison compare(OpenClDevice device, boolean cpuRounding, XpbdSettings settings,
                                          Model model, Environment env, int steps) {
        String label = String.format("%sOpenCL XPBD %s (%d iterations%s) vs CPU, %d tetrahedra,", cpuRounding ? ""
                : "relaxed ", settings.mode().label(), settings.iterations(), settings.rigid() ? ", rigid" : "",
                model.tets().count());
        return StepComparison.run(label, pool -> new XpbdSolver(settings, pool),
                () -> new OpenClXpbdSolver(settings, device, cpuRounding), model, env, DT, steps);
    }
}
