package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.ConstantVelocityMotion;
import dev.weft.core.collide.Grip;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.DeviceFeature;
import dev.weft.core.solver.SolverSettings;
import dev.weft.core.solver.Solvers;
import dev.weft.core.solver.UnsupportedOnDeviceException;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.DeviceTestScenes;
import dev.weft.core.testing.StepComparison;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * {@link Grip}s that hold pinned particles only (the rubber-tear scene's, on its pinned end layers) on the OpenCL
 * solvers: the host puts the pinned particles where the grip is before each step ({@code Grip.driveParticles},
 * through {@code Environment.advanceColliders}, as for the CPU solvers), the device uploads the state the host
 * changed, and its collider pass leaves the grip out ({@link DeviceColliders}): on the CPU its {@code collide}
 * skips pinned particles, so it moves nothing there either. The CPU's bits on PoCL, for the solvers whose
 * collider passes differ (XPBD's finish, mass-spring's, PD's); a grip holding a free particle is still refused.
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

    @Test
    void aGripHoldingAFreeParticleIsStillRefusedByName() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model cloth = DeviceTestScenes.hangingCloth(new ModelBuilder().bendingModel(BendingModel.DISTANCE), 8);
        int[] corners = pinned(cloth);
        float[] still = {0f, 0f, 0f};
        Collider free = new Grip("hand", cloth, new int[] {corners[0], 20}, new ConstantVelocityMotion(still,
                new float[] {1f, 0f, 0f, 0f}, still, still));
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of(free));
        assertThatThrownBy(() -> OpenClXpbdSolver.requireSupported(SolverSettings.defaults().xpbd(), cloth, env))
                .isInstanceOf(UnsupportedOnDeviceException.class)
                .hasMessageContaining("hand: is a Grip holding free particles")
                .extracting(e -> ((UnsupportedOnDeviceException) e).feature()).isEqualTo(DeviceFeature.COLLIDER);
        try (OpenClXpbdSolver solver = new OpenClXpbdSolver(SolverSettings.defaults().xpbd(), device)) {
            assertThatThrownBy(() -> solver.step(cloth, State.atRest(cloth), env, 1f / 480f))
                    .isInstanceOf(UnsupportedOnDeviceException.class).hasMessageContaining("Grip");
        }
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
