package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.collide.AnimatedMeshCollider;
import dev.weft.core.collide.Icosphere;
import dev.weft.core.collide.MeshCollider;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.Solver;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.DeviceTestScenes;
import dev.weft.core.testing.StepComparison;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What a triangle-mesh collider (and an animated one: {@link
 * #theAnimatedMeshColliderOfAHundredByHundredDrapeOnTheDeviceAndOnTheCpu}) costs per step on the device and on the CPU (1 and 2 threads), on a 100 × 100
 * cloth (0.6 m) draped over a low-poly ball on the floor: an icosphere of 0.2 m, 1,280 triangles (a
 * MeshCollider, its hierarchy 9 levels deep). The ms of an XPBD step with the mesh and the floor less the ms of
 * one with the floor only, from the same draped state, each the least of {@link #ROUNDS} interleaved rounds of
 * {@link #TIMED} steps (printed; the machine is shared, so only the least of the rounds means anything). Slow
 * (10⁴ particles): run with {@code -DexcludedTestGroups=none}.
 *
 * <p>What it asserts: the drape gives the CPU's bits on PoCL at this size too, and the cloth lies on the mesh
 * (its nearest particle within 2 cm, none inside its thickness).
 */
@Tag("slow")
class OpenClMeshTimingTest {
    private static final float DT = 1f / 480f;
    /** 0.5 s: the cloth has landed on the ball and folds around it. */
    private static final int DRAPE = 240;
    private static final int TIMED = 30;
    private static final int ROUNDS = 3;

    @Test
    void theMeshColliderOfAHundredByHundredDrapeOnTheDeviceAndOnTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model m = DeviceTestScenes.droppedCloth(new ModelBuilder(), 100, 0.45f);
        MeshCollider ball = new MeshCollider("meshBall", Icosphere.of(0.2f, 3), 0.005f, 0.3f);
        ball.withPosition(new float[] {0f, 0.2f, 0f});
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of(ball, DeviceTestScenes.floor()));
        Environment floorOnly = new Environment(new float[] {0f, -9.81f, 0f}, List.of(DeviceTestScenes.floor()));
        XpbdSettings settings = XpbdSettings.defaults();
        State cpu = State.atRest(m);
        State dev = State.atRest(m);
        try (WorkerPool one = new WorkerPool(1);
             WorkerPool two = new WorkerPool(2);
             XpbdSolver cpuOne = new XpbdSolver(settings, one);
             XpbdSolver cpuTwo = new XpbdSolver(settings, two);
             OpenClXpbdSolver devWith = new OpenClXpbdSolver(settings, device);
             OpenClXpbdSolver devWithout = new OpenClXpbdSolver(settings, device)) {
            for (int k = 0; k < DRAPE; k++) {
                cpuTwo.step(m, cpu, env, DT);
                devWith.step(m, dev, env, DT);
            }
            if (OpenClAvailable.isPocl(device)) {
                StepComparison.assertSameBits(cpu, dev);
            }
            float nearest = Float.POSITIVE_INFINITY;
            float[] x = dev.positions();
            for (int i = 0; i < x.length; i += 3) {
                nearest = Math.min(nearest, ball.signedDistance(x[i], x[i + 1], x[i + 2]));
            }
            assertThat(nearest).as("the nearest particle to the mesh, m").isGreaterThanOrEqualTo(0.005f - 1e-5f)
                    .isLessThan(0.02f);
            Solver[] solvers = {cpuOne, cpuOne, cpuTwo, cpuTwo, devWith, devWithout};
            Environment[] envs = {env, floorOnly, env, floorOnly, env, floorOnly};
            State[] from = {cpu, cpu, cpu, cpu, dev, dev};
            double[] ms = new double[solvers.length];
            Arrays.fill(ms, Double.POSITIVE_INFINITY);
            // interleaved rounds, the least of each: the machine is shared, and what others run only adds time
            for (int round = 0; round < ROUNDS; round++) {
                for (int k = 0; k < solvers.length; k++) {
                    ms[k] = Math.min(ms[k], msPerStep(solvers[k], m, from[k], envs[k]));
                }
            }
            System.out.printf("100 x 100 cloth draped on a 1,280-triangle mesh ball, least of %d rounds of %d "
                    + "steps:%n  %s: step %.3f ms with the mesh, %.3f without: mesh %.3f ms%n"
                    + "  CPU, 1 thread: step %.3f ms with the mesh, %.3f without: mesh %.3f ms%n"
                    + "  CPU, 2 threads: step %.3f ms with the mesh, %.3f without: mesh %.3f ms%n", ROUNDS, TIMED,
                    device.deviceName(), ms[4], ms[5], ms[4] - ms[5], ms[0], ms[1], ms[0] - ms[1], ms[2], ms[3],
                    ms[2] - ms[3]);
            assertThat(ms[4]).isPositive();
        }
    }

    /**
     * The same for an AnimatedMeshCollider of the same ball breathing (two frames, the second 2 % larger, looping
     * at 2 fps, so every vertex moves every step): each step the host interpolates the frames and refits both
     * hierarchies ({@code Environment.advanceColliders}, timed on both backends, as {@code Simulation} runs it)
     * and the device uploads both meshes. The drape gives the CPU's bits on PoCL too.
     */
    @Test
    void theAnimatedMeshColliderOfAHundredByHundredDrapeOnTheDeviceAndOnTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model m = DeviceTestScenes.droppedCloth(new ModelBuilder(), 100, 0.45f);
        TriangleMesh ball = Icosphere.of(0.2f, 3);
        float[] small = ball.positions().clone();
        float[] large = ball.positions().clone();
        for (int k = 0; k < small.length; k += 3) {
            small[k + 1] += 0.2f;
            large[k] *= 1.02f;
            large[k + 1] = 1.02f * large[k + 1] + 0.2f;
            large[k + 2] *= 1.02f;
        }
        AnimatedMeshCollider breathing = new AnimatedMeshCollider("breathingBall", List.of(
                new TriangleMesh(small, null, ball.triangles()), new TriangleMesh(large, null, ball.triangles())), 2f,
                true, 0.005f, 0.3f);
        Environment env = new Environment(new float[] {0f, -9.81f, 0f},
                List.of(breathing, DeviceTestScenes.floor()));
        Environment floorOnly = new Environment(new float[] {0f, -9.81f, 0f}, List.of(DeviceTestScenes.floor()));
        XpbdSettings settings = XpbdSettings.defaults();
        State cpu = State.atRest(m);
        State dev = State.atRest(m);
        try (WorkerPool one = new WorkerPool(1);
             XpbdSolver cpuOne = new XpbdSolver(settings, one);
             OpenClXpbdSolver devWith = new OpenClXpbdSolver(settings, device);
             OpenClXpbdSolver devWithout = new OpenClXpbdSolver(settings, device)) {
            for (int k = 0; k < DRAPE; k++) {
                env.advanceColliders(cpu.time(), DT);
                cpuOne.step(m, cpu, env, DT);
                devWith.step(m, dev, env, DT);
            }
            if (OpenClAvailable.isPocl(device)) {
                StepComparison.assertSameBits(cpu, dev);
            }
            Solver[] solvers = {cpuOne, cpuOne, devWith, devWithout};
            Environment[] envs = {env, floorOnly, env, floorOnly};
            State[] from = {cpu, cpu, dev, dev};
            double[] ms = new double[solvers.length];
            Arrays.fill(ms, Double.POSITIVE_INFINITY);
            for (int round = 0; round < ROUNDS; round++) {
                for (int k = 0; k < solvers.length; k++) {
                    ms[k] = Math.min(ms[k], msPerAdvancedStep(solvers[k], m, from[k], envs[k]));
                }
            }
            System.out.printf("100 x 100 cloth draped on a breathing 1,280-triangle animated mesh ball, least of %d "
                    + "rounds of %d steps (the host's advance included):%n  %s: step %.3f ms with the animated "
                    + "mesh, %.3f without: animated mesh %.3f ms%n  CPU, 1 thread: step %.3f ms with the animated "
                    + "mesh, %.3f without: animated mesh %.3f ms%n", ROUNDS, TIMED, device.deviceName(), ms[2], ms[3],
                    ms[2] - ms[3], ms[0], ms[1], ms[0] - ms[1]);
            assertThat(ms[2]).isPositive();
        }
    }

    /** As {@link #msPerStep}, one step at a time with the colliders advanced before each, as Simulation does. */
    private static double msPerAdvancedStep(Solver solver, Model m, State from, Environment env) {
        State s = from.copy();
        for (int k = 0; k < 5; k++) {
            env.advanceColliders(s.time(), DT);
            solver.step(m, s, env, DT);
        }
        long t0 = System.nanoTime();
        for (int k = 0; k < TIMED; k++) {
            env.advanceColliders(s.time(), DT);
            solver.step(m, s, env, DT);
        }
        return (System.nanoTime() - t0) / 1e6 / TIMED;
    }

    /**
     * ms per step of {@link #TIMED} steps from a copy of {@code from}, after 5 untimed ones; the steps handed
     * over at once, as a frame's substeps (the device reads back once).
     */
    private static double msPerStep(Solver solver, Model m, State from, Environment env) {
        State s = from.copy();
        solver.steps(m, s, env, DT, 5);
        long t0 = System.nanoTime();
        solver.steps(m, s, env, DT, TIMED);
        return (System.nanoTime() - t0) / 1e6 / TIMED;
    }
}
