package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.interact.Cutting;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelEdit;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.SpringLayout;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.Solver;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.massspring.MassSpringSolver;
import dev.weft.core.solver.relaxation.RelaxationSettings;
import dev.weft.core.solver.relaxation.RelaxationSolver;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.DeviceTestScenes;
import dev.weft.core.testing.StepComparison;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Model edits mid-run (tears, cuts) on the OpenCL XPBD solver (and the mass-spring and relaxation solvers)
 * against the CPU's {@link XpbdSolver} (and theirs) on one thread, stepping the same edited models side by
 * side: the device keeps its buffers across an edit and uploads only what changed ({@link MirroredBuffer}),
 * which must not change a bit of the result. On PoCL the kernels give the CPU's bits before an edit
 * (OpenClXpbdSolverTest), so they must after it, one step and a hundred steps later; elsewhere (a GPU's
 * division and square root) they agree within OpenClXpbdSolverTest's 2e-6 m.
 */
class OpenClEditTest {
    private static final float DT = 1f / 1800f;
    private static final float TOLERANCE = 2e-6f;
    private static final XpbdSettings DEFAULTS = XpbdSettings.defaults();

    @Test
    void aClothTornMidRunKeepsTheCpusBitsAfterTheTearAndAHundredStepsLater() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = cloth(32);
        try (Lockstep run = new Lockstep(device, model, DEFAULTS)) {
            run.steps(50);
            int before = run.model.particleCount();
            run.edit(m -> rowSplits(m, 16));
            assertThat(run.model.particleCount()).as("a row of 32 split").isEqualTo(before + 32);
            run.steps(1);
            run.assertAgree(device);
            run.steps(100);
            run.assertAgree(device);
            assertThat(lowestY(run.device.positions()) - lowestY(run.cpu.positions()))
                    .as("both halves fall alike").isEqualTo(0f);
        }
    }

    @Test
    void aClothCutByABladeKeepsTheCpusBits() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = cloth(32);
        try (Lockstep run = new Lockstep(device, model, DEFAULTS)) {
            run.steps(40);
            int before = run.model.particleCount();
            // a blade swept down through the plane x = 0.05 over half the cloth's depth
            run.edit(m -> Cutting.across(m, run.cpu.positions(), new float[] {0.05f, 1.2f, -0.6f},
                    new float[] {0f, -0.4f, 0f}, new float[] {0f, 0f, 0.6f}));
            assertThat(run.model.particleCount()).as("the cut split particles").isGreaterThan(before);
            run.steps(1);
            run.assertAgree(device);
            run.steps(100);
            run.assertAgree(device);
        }
    }

    @Test
    void tearsOneAfterAnotherPastTheFirstCapacityStayBitwiseEqual() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = cloth(24);
        int first = model.particleCount();
        try (Lockstep run = new Lockstep(device, model, DEFAULTS)) {
            run.steps(10);
            // seven rows torn, ten steps apart: 7 × 24 new particles, past the first bind's capacity (576: exact)
            for (int row = 2; row < 22; row += 2 + row % 3) {
                int r = row;
                run.edit(m -> rowSplits(m, r));
                run.steps(1);
                run.assertAgree(device);
                run.steps(9);
                run.assertAgree(device);
            }
            assertThat(run.model.particleCount()).isEqualTo(first + 7 * 24);
            run.steps(100);
            run.assertAgree(device);
        }
    }

    /**
     * The mass-spring solver keeps its springs across tears the same way: the CPU's bits on PoCL with fp64
     * (OpenClMassSpringSolverTest's condition; else its 1e-5 m), after each of three tears and 100 steps on.
     */
    @Test
    void aMassSpringClothTornThreeTimesKeepsTheCpusBits() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = DeviceTestScenes.hangingCloth(new ModelBuilder().tethers(false)
                .springLayout(SpringLayout.PATTERN_12), 24);
        try (Lockstep run = new Lockstep(model, pool -> new MassSpringSolver(MassSpringSettings.defaults(), pool),
                new OpenClMassSpringSolver(MassSpringSettings.defaults(), device), 1f / 960f,
                device.fp64() && OpenClAvailable.isPocl(device), 1e-5f)) {
            run.steps(20);
            for (int row : new int[] {6, 12, 18}) {
                run.edit(m -> rowSplits(m, row));
                run.steps(1);
                run.assertAgree(device);
                run.steps(20);
                run.assertAgree(device);
            }
            assertThat(run.model.particleCount()).isEqualTo(24 * 24 + 3 * 24);
            run.steps(100);
            run.assertAgree(device);
        }
    }

    /**
     * The relaxation solver too, on a tethered cloth (the default builder's): an edit re-aims tethers, whose
     * buffers are kept (DeviceTethers) and re-synced. The CPU's bits on PoCL (OpenClRelaxationSolverTest's
     * condition; else its 2e-5 m).
     */
    @Test
    void aTetheredRelaxationClothTornTwiceKeepsTheCpusBits() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = DeviceTestScenes.hangingCloth(new ModelBuilder(), 24);
        assertThat(model.tethers().count()).isPositive();
        RelaxationSettings settings = new RelaxationSettings(3);
        try (Lockstep run = new Lockstep(model, pool -> new RelaxationSolver(settings, pool),
                new OpenClRelaxationSolver(settings, device), 1f / 2880f, OpenClAvailable.isPocl(device), 2e-5f)) {
            run.steps(30);
            for (int row : new int[] {8, 16}) {
                run.edit(m -> rowSplits(m, row));
                run.steps(1);
                run.assertAgree(device);
                run.steps(30);
                run.assertAgree(device);
            }
            run.steps(100);
            run.assertAgree(device);
        }
    }

    /**
     * The bench's edit (100 particles of the 100 × 100 cloth's middle row split, {@code weft bench --table tear})
     * writes under a tenth of what a full bind of the edited model writes. The bytes are the host's logic, the
     * same on every device: the full bind is 2.05 MB (before MirroredBuffer an edit wrote all of it: 100 %); the
     * edit itself changes about 1 % of the particles and constraints, and measured 4.1 % (85 KB) with the
     * coalescing padding and the tethers, which the edit re-aims wholesale. A tenth leaves room for the layout to
     * change a little without letting an edit fall back to re-uploading arrays whole (a quarter or more).
     */
    @Test
    void tearingARowOfTheHundredByHundredClothWritesUnderATenthOfAFullBind() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model model = DeviceTestScenes.hangingCloth(new ModelBuilder(), 100);
        Environment env = Environment.earth();
        Model edited = model.edit(rowSplits(model, 50));
        long editBytes;
        try (OpenClXpbdSolver solver = new OpenClXpbdSolver(DEFAULTS, device)) {
            State state = State.atRest(model);
            solver.step(model, state, env, DT);
            solver.step(model, state, env, DT);
            state = state.resizedFor(edited);
            long before = solver.cl.bytesWritten();
            solver.step(edited, state, env, DT);
            editBytes = solver.cl.bytesWritten() - before;
        }
        long fullBytes;
        try (OpenClXpbdSolver fresh = new OpenClXpbdSolver(DEFAULTS, device)) {
            fresh.step(edited, State.atRest(edited), env, DT);
            fullBytes = fresh.cl.bytesWritten();
        }
        System.out.printf("edit: %d bytes written, a full bind %d (%.1f %%)%n", editBytes, fullBytes,
                100.0 * editBytes / fullBytes);
        assertThat(fullBytes).as("a full bind writes every array: 10⁴ particles, 4·10⁴ constraints")
                .isGreaterThan(1_000_000L);
        assertThat(editBytes).as("the new particles' state at least").isGreaterThanOrEqualTo(100L * 24);
        assertThat(editBytes).isLessThan(fullBytes / 10);
    }

    /** The 100 × 100 case's cloth made small: the hanging scene's cloth, distance bending, no tethers. */
    static Model cloth(int n) {
        return DeviceTestScenes.hangingCloth(new ModelBuilder().tethers(false).bendingModel(BendingModel.DISTANCE), n);
    }

    /**
     * Row {@code row}'s particles of the first grid cloth, each split across its edge to the row below (as
     * {@code weft bench --table tear}): the cloth cut in two along that row.
     */
    static List<ModelEdit> rowSplits(Model model, int row) {
        ModelObject cloth = model.objects().get(0);
        float[] r = model.restPositions();
        List<ModelEdit> splits = new ArrayList<>();
        for (int c = 0; c < cloth.gridCols(); c++) {
            int p = cloth.gridParticle(row, c);
            int below = cloth.gridParticle(row + 1, c);
            splits.add(new ModelEdit.Split(p, r[3 * below] - r[3 * p], r[3 * below + 1] - r[3 * p + 1],
                    r[3 * below + 2] - r[3 * p + 2]));
        }
        return splits;
    }

    private static float lowestY(float[] x) {
        float low = Float.POSITIVE_INFINITY;
        for (int i = 1; i < x.length; i += 3) {
            low = Math.min(low, x[i]);
        }
        return low;
    }

    /** The CPU solver and the device solver stepping one model, edited between steps for both alike. */
    static final class Lockstep implements AutoCloseable {
        final WorkerPool pool = new WorkerPool(1);
        final Solver cpuSolver;
        final OpenClSolver<?> deviceSolver;
        final Environment env = Environment.earth();
        final float dt;
        /** Where the device must give the CPU's bits (PoCL; for mass-spring also fp64). */
        final boolean bits;
        final float tolerance;
        Model model;
        State cpu;
        State device;

        /** The XPBD solvers at {@code settings}. */
        Lockstep(OpenClDevice d, Model model, XpbdSettings settings) {
            this(model, pool -> new XpbdSolver(settings, pool), new OpenClXpbdSolver(settings, d), DT,
                    OpenClAvailable.isPocl(d), TOLERANCE);
        }

        /** {@code cpuSolver} on one thread beside {@code deviceSolver}, steps of {@code dt}. */
        Lockstep(Model model, Function<WorkerPool, Solver> cpuSolver, OpenClSolver<?> deviceSolver, float dt,
                 boolean bits, float tolerance) {
            this.model = model;
            this.cpuSolver = cpuSolver.apply(pool);
            this.deviceSolver = deviceSolver;
            this.dt = dt;
            this.bits = bits;
            this.tolerance = tolerance;
            this.cpu = State.atRest(model);
            this.device = State.atRest(model);
        }

        void steps(int count) {
            for (int k = 0; k < count; k++) {
                cpuSolver.step(model, cpu, env, dt);
                deviceSolver.step(model, device, env, dt);
            }
        }

        /** The edits {@code make} finds on the CPU's state, applied to the model and both states. */
        void edit(Function<Model, List<ModelEdit>> make) {
            Model edited = model.edit(make.apply(model));
            cpu = cpu.resizedFor(edited);
            device = device.resizedFor(edited);
            model = edited;
        }

        void assertAgree(OpenClDevice d) {
            if (bits) {
                StepComparison.assertSameBits(cpu, device);
            } else {
                assertThat(StepComparison.maxDifference(cpu.positions(), device.positions()))
                        .isLessThanOrEqualTo(tolerance);
            }
        }

        @Override
        public void close() {
            deviceSolver.close();
            cpuSolver.close();
            pool.close();
        }
    }
}
