package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.lab.ConvergenceExperiment;
import dev.weft.core.model.Elasticity;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.pd.InnerSolver;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.pd.PdSolver;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.DeviceTetScenes;
import dev.weft.core.testing.StepComparison;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The OpenCL PD solver taken apart as the convergence laboratory takes it ({@code beginStep} / {@code
 * beginRelax}, {@code iterateOnce} × k, {@code endStep}) against the CPU's {@link PdSolver} taken apart the
 * same way, after every iteration, with the laboratory's settings (one alternation of one sweep per
 * iteration) for each solver the device runs.
 *
 * <p>Tolerance: on PoCL the kernels do PdSolver's float operations in its order (OpenClPdSolverTest), so
 * every iterate must be the CPU's bits, checked exactly; on another device within OpenClPdSolverTest's
 * 5e-6 m, which it justifies from measurements of the relaxed build.
 */
class OpenClPdIterationsTest {
    private static final float TOLERANCE = 5e-6f;
    private static final float DT = ConvergenceExperiment.STEP;

    /** LabSolver's settings for the solvers the device runs (one alternation, one sweep per iteration). */
    private static Map<String, PdSettings> labSettings() {
        PdSettings plain = PdSettings.defaults().withIterations(1, 1).withOmega(1f).withChebyshev(false, 0f);
        Map<String, PdSettings> s = new LinkedHashMap<>();
        s.put("rbgs", plain.withInner(InnerSolver.RED_BLACK_GAUSS_SEIDEL));
        s.put("rbgs+sor", plain.withInner(InnerSolver.RED_BLACK_GAUSS_SEIDEL).withOmega(1.7f));
        s.put("jacobi", plain.withInner(InnerSolver.JACOBI));
        s.put("jacobi+chebyshev", plain.withInner(InnerSolver.JACOBI).withChebyshev(true, 0f));
        s.put("jacobi-seed", plain.withInner(InnerSolver.SEED_JACOBI));
        return s;
    }

    @Test
    void hangingStepsAgreeWithTheCpuAfterEveryIteration() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        boolean exact = OpenClAvailable.isPocl(device);
        // seed 001's lattice (rbgs takes the lattice kernels on both) and a cloth with shear and bend springs
        // (the slot-list path)
        for (Model model : new Model[] {ConvergenceExperiment.HANGING.model(16, 1000f),
                OpenClPdSolverTest.hangingCloth(12)}) {
            for (Map.Entry<String, PdSettings> e : labSettings().entrySet()) {
                compareSteps(device, exact, e.getKey(), e.getValue(), model, Environment.earth(), 4, 6);
            }
        }
    }

    /**
     * Elastic tetrahedra taken apart the same way (OpenClPdTetTest's landing block beside the pinned cloth): each
     * iteration's local step projects the tetrahedra too, so every iterate is the CPU's, for every inner solver.
     */
    @Test
    void aSoftBlocksStepsAgreeWithTheCpuAfterEveryIteration() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        boolean exact = OpenClAvailable.isPocl(device);
        Model model = DeviceTetScenes.blockBesideACloth(new Elasticity(1e5f, 0.3f));
        for (Map.Entry<String, PdSettings> e : labSettings().entrySet()) {
            compareSteps(device, exact, e.getKey(), e.getValue(), model, DeviceTetScenes.floorEnvironment(), 4, 6);
        }
    }

    @Test
    void relaxationAgreesWithTheCpuAfterEveryIteration() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        boolean exact = OpenClAvailable.isPocl(device);
        ConvergenceExperiment exp = ConvergenceExperiment.ENLARGED;
        Model model = exp.model(16, 1000f);
        for (Map.Entry<String, PdSettings> e : labSettings().entrySet()) {
            String label = e.getKey() + " relaxing";
            State cpuState = exp.initialState(model);
            State deviceState = exp.initialState(model);
            float[] start = cpuState.positions().clone();
            try (WorkerPool pool = new WorkerPool(1);
                 PdSolver cpu = new PdSolver(e.getValue(), pool);
                 OpenClPdSolver gpu = new OpenClPdSolver(e.getValue(), device)) {
                for (int call = 0; call < 3; call++) {
                    cpu.beginRelax(model, cpuState, DT);
                    gpu.beginRelax(model, deviceState, DT);
                    for (int it = 0; it < 8; it++) {
                        cpu.iterateOnce();
                        gpu.iterateOnce();
                        assertAgrees(label + " call " + call + " iteration " + (it + 1), exact,
                                cpu.iteratePositions(), gpu.iteratePositions());
                    }
                    cpu.endStep(cpuState);
                    gpu.endStep(deviceState);
                    assertAgrees(label + " call " + call + " state", exact, cpuState.positions(),
                            deviceState.positions());
                    assertThat(deviceState.velocities()).as("a relaxation moves no velocity").containsOnly(0f);
                    assertThat(deviceState.time()).as("nor the clock").isZero();
                }
            }
            assertThat(StepComparison.maxDifference(start, deviceState.positions())).as(label + ": the cloth contracts")
                    .isGreaterThan(0.01f);
        }
    }

    /**
     * {@code steps} steps of {@code iterations} iterations each, compared after every iteration and every step,
     * and the device's taken-apart steps against its own {@code step} with that many alternations.
     */
    private static void compareSteps(OpenClDevice device, boolean exact, String name, PdSettings settings, Model model,
                                     Environment env, int steps, int iterations) {
        String label = name + " on " + model.particleCount() + " particles";
        State start = State.atRest(model);
        State cpuState = start.copy();
        State deviceState = start.copy();
        State wholeSteps = start.copy();
        try (WorkerPool pool = new WorkerPool(1);
             PdSolver cpu = new PdSolver(settings, pool);
             OpenClPdSolver gpu = new OpenClPdSolver(settings, device);
             OpenClPdSolver whole = new OpenClPdSolver(settings.withIterations(iterations, 1), device)) {
            for (int st = 0; st < steps; st++) {
                cpu.beginStep(model, cpuState, env, DT);
                gpu.beginStep(model, deviceState, env, DT);
                assertAgrees(label + " step " + st + " prediction", exact, cpu.iteratePositions(),
                        gpu.iteratePositions());
                for (int it = 0; it < iterations; it++) {
                    cpu.iterateOnce();
                    gpu.iterateOnce();
                    assertAgrees(label + " step " + st + " iteration " + (it + 1), exact, cpu.iteratePositions(),
                            gpu.iteratePositions());
                }
                cpu.endStep(cpuState);
                gpu.endStep(deviceState);
                assertAgrees(label + " step " + st + " positions", exact, cpuState.positions(), deviceState.positions());
                assertAgrees(label + " step " + st + " velocities", exact, cpuState.velocities(),
                        deviceState.velocities());
                whole.step(model, wholeSteps, env, DT);
                // the same device, the same kernels in the same order: its own step's bits on any device
                assertThat(deviceState.positions()).as(label + " step " + st + ": its own step()")
                        .containsExactly(wholeSteps.positions());
                assertThat(deviceState.velocities()).as(label + " step " + st + ": its own step()")
                        .containsExactly(wholeSteps.velocities());
            }
        }
        assertThat(deviceState.time()).isEqualTo(cpuState.time());
        assertThat(StepComparison.maxDifference(start.positions(), deviceState.positions()))
                .as(label + ": a falling cloth, not a still one").isGreaterThan(1e-4f);
    }

    private static void assertAgrees(String what, boolean exact, float[] cpu, float[] device) {
        if (exact) {
            assertThat(device).as(what + " (PoCL: the CPU's bits)").containsExactly(cpu);
        } else {
            assertThat(StepComparison.maxDifference(cpu, device)).as(what).isLessThanOrEqualTo(TOLERANCE);
        }
    }
}
