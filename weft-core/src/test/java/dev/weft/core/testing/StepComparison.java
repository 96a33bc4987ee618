package dev.weft.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.collide.Collider;
import dev.weft.core.metrics.ClothMetrics;
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
 * A CPU solver (one thread) and a device solver (OpenCL, GLSL compute) stepped side by side from the model
 * at rest, and what that measured; every position of the device run is kept for the collider checks. The
 * device backends' tests share it through weft-core's test jar.
 */
public final class StepComparison {
    /** The particle a host drag moves. */
    private static final int DRAGGED = 100;

    public final Model model;
    public final State start;
    public final State cpu;
    public final State device;
    /** Largest position difference after the first step, m. */
    public final float afterOne;
    /** Largest position difference after the last step, m. */
    public final float afterAll;
    /** Largest velocity difference after the last step, m/s. */
    public final float velocityAfterAll;
    /** Largest distance a particle of the device run moved from the start, m. */
    public final float travel;
    private final List<float[]> frames;

    private StepComparison(Model model, State start, State cpu, State device, List<float[]> frames, float afterOne) {
        this.model = model;
        this.start = start;
        this.cpu = cpu;
        this.device = device;
        this.frames = frames;
        this.afterOne = afterOne;
        this.afterAll = maxDifference(cpu.positions(), device.positions());
        this.velocityAfterAll = maxDifference(cpu.velocities(), device.velocities());
        this.travel = maxDifference(start.positions(), device.positions());
    }

    /** {@code steps} steps of {@code dt}; printed as "{@code label} on N particles, …". */
    public static StepComparison run(String label, Function<WorkerPool, Solver> cpuSolver,
                                     Supplier<Solver> deviceSolver, Model model, Environment env, float dt, int steps) {
        return run(label, cpuSolver, deviceSolver, model, env, dt, steps, -1);
    }

    /**
     * As above; before step {@code dragAt} (-1: none) the host moves one particle and gives it a
     * velocity in both states, as a drag does, which the device solver must upload.
     */
    public static StepComparison run(String label, Function<WorkerPool, Solver> cpuSolver,
                                     Supplier<Solver> deviceSolver, Model model, Environment env, float dt, int steps,
                                     int dragAt) {
        State start = State.atRest(model);
        State cpu = start.copy();
        State device = start.copy();
        List<float[]> frames = new ArrayList<>();
        float afterOne = 0f;
        try (WorkerPool pool = new WorkerPool(1);
             Solver reference = cpuSolver.apply(pool);
             Solver solver = deviceSolver.get()) {
            for (int k = 0; k < steps; k++) {
                if (k == dragAt) {
                    for (State s : List.of(cpu, device)) {
                        s.positions()[3 * DRAGGED + 2] += 0.05f;
                        s.velocities()[3 * DRAGGED + 1] = 1f;
                    }
                }
                // a moving collider's poses for this step, as Simulation sets them (both states keep one time)
                env.advanceColliders(cpu.time(), dt);
                reference.step(model, cpu, env, dt);
                solver.step(model, device, env, dt);
                frames.add(device.positions().clone());
                if (k == 0) {
                    afterOne = maxDifference(cpu.positions(), device.positions());
                }
            }
        }
        StepComparison c = new StepComparison(model, start, cpu, device, frames, afterOne);
        System.out.printf("%s on %d particles, %d steps: max |dx| after 1 step %.3g m, after all %.3g m, "
                + "max |dv| %.3g m/s%n", label, model.particleCount(), steps, c.afterOne, c.afterAll,
                c.velocityAfterAll);
        return c;
    }

    /** Positions within {@code tolerance} after all steps, and exactly the CPU's where {@code cpuBits}. */
    public void assertPositionsAgree(float tolerance, boolean cpuBits) {
        assertThat(afterAll).isLessThanOrEqualTo(tolerance);
        if (cpuBits) {
            assertThat(afterAll).as("the CPU's bits").isZero();
        }
    }

    /**
     * Positions within {@code tolerance} after all steps and the statistics within 1 %; where {@code
     * cpuBits}, positions and velocities exactly the CPU's, every bit (signed zeros included).
     */
    public void assertAgrees(float tolerance, boolean cpuBits) {
        assertThat(afterAll).isLessThanOrEqualTo(tolerance);
        assertStatisticsAgree();
        if (cpuBits) {
            assertSameBits(cpu, device);
        }
    }

    /**
     * The statistics of the last step within 1 % of the CPU's: the largest strain and the residual (seed
     * 001's Σ (|x_a − x_b| − L)²) of the distance constraints, kinetic plus gravitational energy. A
     * statistic near zero (a cloth lying slack on the floor has no strain) is held to a floor instead:
     * strain 1e-4 (the tests' 1e-5 m position tolerance over a 2.6 cm edge is 4e-4), residual 1e-8 m²,
     * energy 1e-6 J.
     */
    public void assertStatisticsAgree() {
        assertStatisticsAgree(0.01);
    }

    /**
     * As {@link #assertStatisticsAgree()} with the strain and the residual held to {@code fraction} of the CPU's
     * (the energy still to 1 %): for a scene whose contacts' stick/slip decisions a rounding can flip, where the
     * largest strain is one constraint's and moves with them (the caller says by how much, measured).
     */
    public void assertStatisticsAgree(double fraction) {
        float[] g = {0f, -9.81f, 0f};
        assertWithin("max strain", ClothMetrics.maxStrain(model, cpu.positions()),
                ClothMetrics.maxStrain(model, device.positions()), fraction, 1e-4);
        assertWithin("residual", ClothMetrics.residual(model, cpu.positions()),
                ClothMetrics.residual(model, device.positions()), fraction, 1e-8);
        assertWithin("energy", ClothMetrics.kineticEnergy(model, cpu.velocities())
                + ClothMetrics.gravitationalEnergy(model, cpu.positions(), g), ClothMetrics.kineticEnergy(model,
                device.velocities()) + ClothMetrics.gravitationalEnergy(model, device.positions(), g), 0.01, 1e-6);
    }

    private static void assertWithin(String what, double reference, double measured, double fraction, double floor) {
        assertThat(Math.abs(measured - reference)).as(what + ": device " + measured + " vs CPU " + reference)
                .isLessThanOrEqualTo(Math.max(fraction * Math.abs(reference), floor));
    }

    /** Every float of positions and velocities has the same bits in both states. */
    public static void assertSameBits(State a, State b) {
        for (float[][] pair : new float[][][] {{a.positions(), b.positions()}, {a.velocities(), b.velocities()}}) {
            for (int k = 0; k < pair[0].length; k++) {
                if (Float.floatToRawIntBits(pair[0][k]) != Float.floatToRawIntBits(pair[1][k])) {
                    assertThat(pair[1][k]).as("float " + k + " has other bits than the CPU's").isEqualTo(pair[0][k]);
                    assertThat(Float.floatToRawIntBits(pair[1][k])).as("float " + k + "'s bits (a signed zero?)")
                            .isEqualTo(Float.floatToRawIntBits(pair[0][k]));
                }
            }
        }
    }

    /** A number for a point, e.g. a collider's signed distance. */
    @FunctionalInterface
    public interface PointMeasure {
        float at(float x, float y, float z);
    }

    /** The largest {@code m} of any particle in any step of the device run. */
    public float largest(PointMeasure m) {
        float most = Float.NEGATIVE_INFINITY;
        for (float[] x : frames) {
            for (int i = 0; i < model.particleCount(); i++) {
                most = Math.max(most, m.at(x[3 * i], x[3 * i + 1], x[3 * i + 2]));
            }
        }
        return most;
    }

    /** The smallest signed distance to {@code c} of any particle in any step of the device run. */
    public float lowestClearance(Collider c) {
        float least = Float.POSITIVE_INFINITY;
        for (float[] x : frames) {
            for (int i = 0; i < model.particleCount(); i++) {
                least = Math.min(least, c.signedDistance(x[3 * i], x[3 * i + 1], x[3 * i + 2]));
            }
        }
        return least;
    }

    /** The largest |a[k] − b[k]|. */
    public static float maxDifference(float[] a, float[] b) {
        float most = 0f;
        for (int k = 0; k < a.length; k++) {
            most = Math.max(most, Math.abs(a[k] - b[k]));
        }
        return most;
    }

    /** Asserts each pinned particle kept its bits from {@code start} and has zero velocity; returns how many. */
    public static int assertPinnedKept(Model model, float[] start, State state) {
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
