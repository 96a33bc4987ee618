package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.collide.ConstantVelocityMotion;
import dev.weft.core.collide.Grip;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.SolverSettings;
import dev.weft.core.solver.Solvers;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.DeviceTestScenes;
import dev.weft.core.testing.StepComparison;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Grip}s that hold pinned particles only (the rubber-tear scene's, on its pinned end layers) on the OpenCL
 * solvers: the host puts the pinned particles where the grip is before each step ({@code Grip.driveParticles},
 * through {@code Environment.advanceColliders}, as for the CPU solvers), the device uploads the state the host
 * changed, and its collider pass leaves the grip out ({@link DeviceColliders}): on the CPU its {@code collide}
 * skips pinned particles, so it moves nothing there either. The CPU's bits on PoCL, for the solvers whose
 * collider passes differ (XPBD's finish, mass-spring's, PD's). A grip holding free particles runs in the device's
 * collider pass (colliders.cl's {@code collide_grip}), for every solver family.
 */
class OpenClGripTest {
    private static final int FRAMES = 20;

    @Test
    void aClothCarriedByGripsOnItsPinnedCornersKeepsTheCpusBits() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        boolean pocl = OpenClAvailable.isPocl(device);
        SolverSettings settings = SolverSettings.defaults();
        List<Supplier<OpenClSolver<?>>> devices = List.of(
                () -> new OpenClXpbdSolver(settings.xpbd(), device),
                () -> new OpenClMassSpringSolver(settings.massSpring(), device),
                () -> new OpenClPdSolver(settings.pd(), device));
        List<String> names = List.of("xpbd", "mass-spring", "pd");
        for (int k = 0; k < names.size(); k++) {
            Model cloth = DeviceTestScenes.hangingCloth(new ModelBuilder().bendingModel(BendingModel.DISTANCE), 16);
            int[] corners = pinned(cloth);
            assertThat(corners).hasSize(2);
            Environment env = grips(cloth, corners);
            try (WorkerPool pool = new WorkerPool(1);
                 Simulation cpu = new Simulation(cloth, State.atRest(cloth), Solvers.create(names.get(k), settings,
                         pool), env, 8);
                 Simulation gpu = new Simulation(cloth, State.atRest(cloth), devices.get(k).get(),
                         grips(cloth, corners), 8)) {
                for (int f = 0; f < FRAMES; f++) {
                    cpu.advance(1f / 60f);
                    gpu.advance(1f / 60f);
                }
                float diff = StepComparison.maxDifference(cpu.state().positions(), gpu.state().positions());
                System.out.printf("a cloth carried by grips, %s: max |dx| %.3g m after %d frames%n", names.get(k), diff,
                        FRAMES);
                assertThat(diff).as(names.get(k)).isLessThanOrEqualTo(2e-5f);
                if (pocl) {
                    StepComparison.assertSameBits(cpu.state(), gpu.state());
                }
                // the grips carried the corners: 0.2 m/s apart along x for 1/3 s, each exactly where its grip is
                float[] x = gpu.state().positions();
                float[] rest = cloth.restPositions();
                float t = FRAMES / 60f;
                assertThat(x[3 * corners[0]] - rest[3 * corners[0]]).as(names.get(k)).isCloseTo(-0.2f * t,
                        within(1e-5f));
                assertThat(x[3 * corners[1]] - rest[3 * corners[1]]).as(names.get(k)).isCloseTo(0.2f * t,
                        within(1e-5f));
            }
        }
    }

    /**
     * A grip on free particles (the far edge's middle, with a pinned corner: the host drives that one) carries
     * them up and back at (0, 0.5, 0.2) m/s: a {@code COLLIDER_GRIP} record each step (the targets the host
     * computed, as for the CPU). Every solver family: the CPU's bits on PoCL (mass-spring and implicit with fp64,
     * their own tests' condition), else within 1 mm; and physics that fails without the grip's pass (the held
     * particles would fall under gravity): each held free particle ends on its target (rest + 1/3 s of the
     * motion) within 1e-5 m, the float rounding of positions near 1 m after the solver's own additions.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"xpbd", "pbd", "pd", "relaxation", "mass-spring", "implicit"})
    void aClothCarriedByAGripOnFreeParticlesKeepsTheCpusBits(String name) {
        OpenClDevice device = OpenClAvailable.firstDevice();
        SolverSettings settings = SolverSettings.defaults();
        Model cloth = DeviceTestScenes.hangingCloth(new ModelBuilder().bendingModel(BendingModel.DISTANCE), 16);
        int[] held = {pinned(cloth)[0], 15 * 16 + 5, 15 * 16 + 6, 15 * 16 + 7, 15 * 16 + 8, 15 * 16 + 9, 15 * 16 + 10};
        for (int k = 1; k < held.length; k++) {
            assertThat(cloth.isPinned(held[k])).isFalse();
        }
        float[] velocity = {0f, 0.5f, 0.2f};
        try (WorkerPool pool = new WorkerPool(1);
             Simulation cpu = new Simulation(cloth, State.atRest(cloth), Solvers.create(name, settings, pool),
                     carried(cloth, held, velocity), 8);
             Simulation gpu = new Simulation(cloth, State.atRest(cloth), deviceSolver(name, settings, device),
                     carried(cloth, held, velocity), 8)) {
            for (int f = 0; f < FRAMES; f++) {
                cpu.advance(1f / 60f);
                gpu.advance(1f / 60f);
            }
            float diff = StepComparison.maxDifference(cpu.state().positions(), gpu.state().positions());
            float dv = StepComparison.maxDifference(cpu.state().velocities(), gpu.state().velocities());
            System.out.printf("a cloth carried by a grip on free particles, %s: max |dx| %.3g m, |dv| %.3g m/s "
                    + "after %d frames%n", name, diff, dv, FRAMES);
            boolean fp64Needed = name.equals("mass-spring") || name.equals("implicit");
            if (OpenClAvailable.isPocl(device) && (!fp64Needed || device.fp64())) {
                StepComparison.assertSameBits(cpu.state(), gpu.state());
            } else {
                assertThat(diff).isLessThanOrEqualTo(1e-3f);
            }
            float[] x = gpu.state().positions();
            float[] rest = cloth.restPositions();
            float t = FRAMES / 60f;
            for (int p : held) {
                for (int a = 0; a < 3; a++) {
                    assertThat(x[3 * p + a] - rest[3 * p + a]).as("particle %d axis %d", p, a)
                            .isCloseTo(velocity[a] * t, within(1e-5f));
                }
            }
        }
    }

    /** The OpenCL solver of the family {@code name} with {@code settings}. */
    static OpenClSolver<?> deviceSolver(String name, SolverSettings settings, OpenClDevice device) {
        switch (name) {
            case "xpbd":
                return new OpenClXpbdSolver(settings.xpbd(), device);
            case "pbd":
                return new OpenClXpbdSolver(Solvers.pbd(settings.xpbd()), device);
            case "pd":
                return new OpenClPdSolver(settings.pd(), device);
            case "relaxation":
                return new OpenClRelaxationSolver(settings.relaxation(), device);
            case "mass-spring":
                return new OpenClMassSpringSolver(settings.massSpring(), device);
            default:
                return new OpenClImplicitSolver(settings.implicit(), device);
        }
    }

    /** One grip holding {@code held} (its pose at time 0 the identity), moving at {@code velocity}; gravity. */
    private static Environment carried(Model m, int[] held, float[] velocity) {
        float[] still = {0f, 0f, 0f};
        return new Environment(new float[] {0f, -9.81f, 0f}, List.of(new Grip("hand", m, held,
                new ConstantVelocityMotion(still, new float[] {1f, 0f, 0f, 0f}, velocity, still))));
    }

    /** The model's pinned particles. */
    private static int[] pinned(Model m) {
        int[] out = new int[m.particleCount()];
        int k = 0;
        for (int i = 0; i < m.particleCount(); i++) {
            if (m.isPinned(i)) {
                out[k++] = i;
            }
        }
        return java.util.Arrays.copyOf(out, k);
    }

    /** A grip on each pinned corner, the two moving apart along x at 0.2 m/s each; gravity. */
    private static Environment grips(Model m, int[] corners) {
        float[] still = {0f, 0f, 0f};
        float[] q = {1f, 0f, 0f, 0f};
        return new Environment(new float[] {0f, -9.81f, 0f}, List.of(
                new Grip("left", m, new int[] {corners[0]}, new ConstantVelocityMotion(still, q,
                        new float[] {-0.2f, 0f, 0f}, still)),
                new Grip("right", m, new int[] {corners[1]}, new ConstantVelocityMotion(still, q,
                        new float[] {0.2f, 0f, 0f}, still))));
    }
}
