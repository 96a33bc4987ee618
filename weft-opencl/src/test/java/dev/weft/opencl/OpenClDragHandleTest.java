package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.DragHandle;
import dev.weft.core.collide.TriangleHit;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.Solver;
import dev.weft.core.solver.Solvers;
import dev.weft.core.solver.implicit.ImplicitSettings;
import dev.weft.core.solver.implicit.ImplicitSolver;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.massspring.MassSpringSolver;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.pd.PdSolver;
import dev.weft.core.solver.relaxation.RelaxationSettings;
import dev.weft.core.solver.relaxation.RelaxationSolver;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.DeviceTestScenes;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The viewer's hand ({@link DragHandle}, seed 001 §5.3.8's picking and dragging) on the device: it is a
 * collider record of colliders.cl ({@code COLLIDER_HAND}) that pulls its three particles towards the target
 * in the collider pass, as the CPU's collide does, and a pinned corner it holds is moved on the host before the
 * step ({@code driveParticles}), which the device solver uploads. The hand grabs a triangle of the hanging
 * cloth, moves its target 0.3 m sideways and 0.2 m up over 60 steps, holds, and lets go at step 90.
 */
class OpenClDragHandleTest {
    private static final float DT = 1f / 240f;
    private static final int STEPS = 120;
    private static final int RELEASE = 90;
    private static final int N = 16;

    @ParameterizedTest(name = "{0}, compliance {1}, corner {2}")
    @CsvSource({
        "xpbd, 0, false", "xpbd, 0.001, false", "xpbd, 0, true", "pbd, 0, false", "pd, 0, false",
        "relaxation, 0, true", "mass-spring, 0.001, false", "implicit, 0, false"})
    void aHandDraggingTheClothGivesTheCpusBitsAndHoldsThePickedPointOnItsTarget(String name, float compliance,
                                                                                 boolean corner) {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model m = DeviceTestScenes.hangingCloth(new ModelBuilder(), N);
        // a triangle in the middle, or the first one (the pinned top-left corner is one of its particles)
        int triangle = corner ? 0 : m.triangles().length / 6 + N;
        float[] end = new float[3];
        State cpu = State.atRest(m);
        State dev = State.atRest(m);
        DragHandle cpuHand = new DragHandle("hand", compliance);
        DragHandle devHand = new DragHandle("hand", compliance);
        Environment still = DeviceTestScenes.earthWith(DeviceTestScenes.ball());
        Environment cpuEnv = still.withColliders(withHand(still, cpuHand));
        Environment devEnv = still.withColliders(withHand(still, devHand));
        TriangleHit hit = new TriangleHit(triangle, 1f, 0.2f, 0.3f, 0.5f);
        float maxOffTarget = 0f;
        try (WorkerPool pool = new WorkerPool(1);
             Solver reference = cpuSolver(name, pool);
             Solver solver = deviceSolver(name, device)) {
            cpuHand.grab(m, cpu.positions(), hit);
            devHand.grab(m, dev.positions(), hit);
            float[] start = cpuHand.target();
            for (int k = 0; k < STEPS; k++) {
                float s = Math.min(1f, k / 60f);
                for (DragHandle hand : List.of(cpuHand, devHand)) {
                    if (k == RELEASE) {
                        hand.release();
                    } else {
                        hand.moveTo(start[0] + 0.3f * s, start[1] + 0.2f * s, start[2]);
                    }
                }
                // as Simulation: the colliders' step, then the particles they drive (a held pinned corner)
                cpuEnv.advanceColliders(cpu.time(), DT, cpu.positions());
                devEnv.advanceColliders(dev.time(), DT, dev.positions());
                reference.step(m, cpu, cpuEnv, DT);
                solver.step(m, dev, devEnv, DT);
                if (k == RELEASE - 1) {
                    end = devHand.target();
                    maxOffTarget = offTarget(m, dev.positions(), hit, end);
                }
            }
        }
        System.out.printf("drag %s %s %s: max |dx| %.3g, off target %.3g%n", name, compliance, corner,
                maxDifference(dev.positions(), cpu.positions()), maxOffTarget);
        if (OpenClAvailable.isPocl(device)) {
            assertThat(dev.positions()).as("positions: the CPU's bits").containsExactly(cpu.positions());
            assertThat(dev.velocities()).as("velocities: the CPU's bits").containsExactly(cpu.velocities());
        } else {
            assertThat(maxDifference(dev.positions(), cpu.positions())).isLessThan(1e-3f);
        }
        // the picked point followed the hand: at compliance 0 the collider pass puts it on the target (a solver
        // whose springs act after the colliders, implicit, or a soft hand leaves it within a few cm)
        assertThat(maxOffTarget).as("picked point to target before the release, m").isLessThan(
                compliance == 0f ? 1e-5f : 0.05f);
        // released: the cloth fell back away from the hand's last target
        assertThat(offTarget(m, dev.positions(), hit, end)).isGreaterThan(0.01f);
    }

    private static Collider[] withHand(Environment env, DragHandle hand) {
        Collider[] own = env.colliders();
        Collider[] with = java.util.Arrays.copyOf(own, own.length + 1);
        with[own.length] = hand;
        return with;
    }

    /** Distance from the picked point (the hit's barycentric point of x) to {@code target}. */
    private static float offTarget(Model m, float[] x, TriangleHit hit, float[] target) {
        float[] p = new float[3];
        for (int k = 0; k < 3; k++) {
            int i = m.triangles()[3 * hit.triangle() + k];
            for (int d = 0; d < 3; d++) {
                p[d] += hit.weight(k) * x[3 * i + d];
            }
        }
        float dx = p[0] - target[0];
        float dy = p[1] - target[1];
        float dz = p[2] - target[2];
        return (float) Math.sqrt(dx * dx + dy * dy + dz * dz);
    }

    private static float maxDifference(float[] a, float[] b) {
        float most = 0f;
        for (int i = 0; i < a.length; i++) {
            most = Math.max(most, Math.abs(a[i] - b[i]));
        }
        return most;
    }

    private static Solver cpuSolver(String name, WorkerPool pool) {
        switch (name) {
            case "xpbd":
                return new XpbdSolver(XpbdSettings.defaults(), pool);
            case "pbd":
                return new XpbdSolver(Solvers.pbd(XpbdSettings.defaults()), pool);
            case "pd":
                return new PdSolver(PdSettings.defaults(), pool);
            case "relaxation":
                return new RelaxationSolver(RelaxationSettings.defaults(), pool);
            case "mass-spring":
                return new MassSpringSolver(MassSpringSettings.defaults(), pool);
            default:
                return new ImplicitSolver(ImplicitSettings.defaults(), pool);
        }
    }

    private static Solver deviceSolver(String name, OpenClDevice device) {
        switch (name) {
            case "xpbd":
                return new OpenClXpbdSolver(XpbdSettings.defaults(), device);
            case "pbd":
                return new OpenClXpbdSolver(Solvers.pbd(XpbdSettings.defaults()), device);
            case "pd":
                return new OpenClPdSolver(PdSettings.defaults(), device);
            case "relaxation":
                return new OpenClRelaxationSolver(RelaxationSettings.defaults(), device);
            case "mass-spring":
                return new OpenClMassSpringSolver(MassSpringSettings.defaults(), device);
            default:
                return new OpenClImplicitSolver(ImplicitSettings.defaults(), device);
        }
    }
}
