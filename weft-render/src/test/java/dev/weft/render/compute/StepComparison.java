package dev.weft.render.compute;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.collide.Collider;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.Solver;
import dev.weft.core.step.Environment;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A CPU solver (one thread) and a device solver stepped side by side from the model at rest, and what
 * that measured; every position of the device run is kept for the collider checks.
 */
final class StepComparison {
    /** The particle a host drag moves. */
    private static final int DRAGGED = 100;

    final Model model;
    final State start;
    final State cpu;
    final State device;
    private final List<float[]> frames = new ArrayList<>();
    float afterOne;
    float afterAll;
    float velocityAfterAll;
    float travel;

    private StepComparison(Model model) {
        this.model = model;
        this.start = State.atRest(model);
        this.cpu = start.copy();
        this.device = start.copy();
    }

    /** {@code steps} steps of {@code dt}; printed as "{@code label} on N particles, …". */
    static StepComparison run(String label, Function<WorkerPool, Solver> cpuSolver, Supplier<Solver> deviceSolver,
                              Model model, Environment env, float dt, int steps) {
        return run(label, cpuSolver, deviceSolver, model, env, dt, steps, -1);
    }

    /**
     * As above; before step {@code dragAt} (-1: none) the host moves one particle and gives it a
     * velocity in both states, as a drag does, which the device solver must upload.
     */
    static StepComparison run(String label, Function<WorkerPool, Solver> cpuSolver, Supplier<Solver> deviceSolver,
                              Model model, Environment env, float dt, int steps, int dragAt) {
        StepComparison c = new StepComparison(model);
        try (WorkerPool pool = new WorkerPool(1);
             Solver reference = cpuSolver.apply(pool);
             Solver solver = deviceSolver.get()) {
            for (int k = 0; k < steps; k++) {
                if (k == dragAt) {
                    for (State s : List.of(c.cpu, c.device)) {
                        s.positions()[3 * DRAGGED + 2] += 0.05f;
                        s.velocities()[3 * DRAGGED + 1] = 1f;
                    }
                }
                reference.step(model, c.cpu, env, dt);
                solver.step(model, c.device, env, dt);
                c.frames.add(c.device.positions().clone());
                if (k == 0) {
                    c.afterOne = maxDifference(c.cpu.positions(), c.device.positions());
                }
            }
        }
        c.afterAll = maxDifference(c.cpu.positions(), c.device.positions());
        c.velocityAfterAll = maxDifference(c.cpu.velocities(), c.device.velocities());
        c.travel = maxDifference(c.start.positions(), c.device.positions());
        System.out.printf("%s on %d particles, %d steps: max |dx| after 1 step %.3g m, after all %.3g m, "
                + "max |dv| %.3g m/s%n", label, model.particleCount(), steps, c.afterOne, c.afterAll, c.velocityAfterAll);
        return c;
    }

    /** Positions within {@code tolerance} after all steps, and exactly the CPU's where {@code cpuBits}. */
    void assertAgrees(float tolerance, boolean cpuBits) {
        assertThat(afterAll).isLessThanOrEqualTo(tolerance);
        if (cpuBits) {
            assertThat(afterAll).as("PoCL: the CPU's bits").isZero();
        }
    }

    /** The smallest signed distance to {@code c} of any particle in any step of the device run. */
    float lowestClearance(Collider c) {
        float least = Float.POSITIVE_INFINITY;
        for (float[] x : frames) {
            for (int i = 0; i < model.particleCount(); i++) {
                least = Math.min(least, c.signedDistance(x[3 * i], x[3 * i + 1], x[3 * i + 2]));
            }
        }
        return least;
    }

    static float maxDifference(float[] a, float[] b) {
        float most = 0f;
        for (int k = 0; k < a.length; k++) {
            most = Math.max(most, Math.abs(a[k] - b[k]));
        }
        return most;
    }

    /** Asserts each pinned particle kept its bits from {@code start} and has zero velocity; returns how many. */
    static int assertPinnedKept(Model model, float[] start, State state) {
        int pinned = 0;
        for (int i = 0; i < model.particleCount(); i++) {
            if (model.isPinned(i)) {
                pinned++;
                for (int a = 0; a < 3; a++) {
                    assertThat(Float.floatToRawIntBits(state.positions()[3 * i + a]))
                            .isEqualTo(Float.floatToRawIntBits(start[3 * i + a]));
                    assertThat(state.velocities()[3 * i + a]).isZero();
                }
            }
        }
        return pinned;
    }
}
