package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.collide.ConstantVelocityMotion;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.Projectile;
import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.interact.Blade;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.ParticleContactSolver;
import dev.weft.core.solver.Solver;
import dev.weft.core.solver.SolverSettings;
import dev.weft.core.solver.Solvers;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.StepComparison;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The viewer's interactions on the OpenCL solvers, side by side with the CPU solver in a {@link Simulation}: a
 * {@link Blade} (the cut scene's knife) is the host's: it pushes nothing, the host cuts after each frame from the
 * positions the device read back and the device binds the edited model; a {@link Projectile} (the tear scene's
 * cannonball) is a record of the device's collider pass, its reaction slots read back after each step and summed
 * on the host in particle order as on the CPU.
 */
class OpenClInteractTest {
    private static final int FRAMES = 30;

    /**
     * The cut scene on a 21 × 21 cloth, the knife at 3 m/s: the same edits on both (particle counts equal after
     * every frame, and the cut went through: at least one particle split per row crossed, 20), and on PoCL the
     * CPU's bits after the last frame (mass-spring and implicit with fp64, their own tests' condition), else 1 mm.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"xpbd", "pbd", "pd", "relaxation", "mass-spring", "implicit"})
    void aBladeCutsTheClothAsOnTheCpu(String name) {
        OpenClDevice device = OpenClAvailable.firstDevice();
        SolverSettings settings = SolverSettings.defaults();
        ModelBuilder b = new ModelBuilder().bendingModel(BendingModel.DISTANCE);
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", 21, 21, 1.0f, 1.0f).withOrigin(-0.5f, 1.8f, 0f)
                .withAxes(GridClothSpec.VERTICAL[0], GridClothSpec.VERTICAL[1]));
        b.pinCorners(cloth, "top-left", "top-right");
        Model model = b.build();
        int before = model.particleCount();
        try (WorkerPool pool = new WorkerPool(1);
             Simulation cpu = new Simulation(model, State.atRest(model), Solvers.create(name, settings, pool),
                     knife(), 8);
             Simulation gpu = new Simulation(model, State.atRest(model),
                     OpenClGripTest.deviceSolver(name, settings, device), knife(), 8)) {
            for (int f = 0; f < FRAMES; f++) {
                cpu.advance(1f / 60f);
                gpu.advance(1f / 60f);
                assertThat(gpu.model().particleCount()).as("frame %d", f).isEqualTo(cpu.model().particleCount());
            }
            float diff = StepComparison.maxDifference(cpu.state().positions(), gpu.state().positions());
            System.out.printf("a blade cuts the cloth, %s: %d particles (from %d), max |dx| %.3g m after %d frames%n",
                    name, gpu.model().particleCount(), before, diff, FRAMES);
            assertThat(gpu.model().particleCount()).isGreaterThanOrEqualTo(before + 20);
            boolean fp64Needed = name.equals("mass-spring") || name.equals("implicit");
            if (OpenClAvailable.isPocl(device) && (!fp64Needed || device.fp64())) {
                StepComparison.assertSameBits(cpu.state(), gpu.state());
            } else {
                assertThat(diff).isLessThanOrEqualTo(1e-3f);
            }
        }
    }

    /**
     * The tear scene's cannonball (0.1 m, 1 kg, 14 m/s, friction 0.3, the floor its obstacle) through its curtain
     * (here 24 × 24, pinned along its top edge at 1.8 m, tearing at 20 % stretch), 16 substeps a frame for 12
     * frames: at 1.2 m the ball passes through (it meets the curtain after ~4 frames); at 1.75 m it also strikes
     * the pinned rail, whose particles push the ball with the whole push (the device's pinned branches). The
     * ball's centre and velocity ({@code Projectile.center()}, {@code velocity()}: its state plus the cloth's
     * pending reaction), its saved state and the cloth have the CPU's bits on PoCL (mass-spring and implicit with
     * fp64), else 1 mm; equal particle counts after every frame (the same tears). Physics that fails without the
     * reaction's read-back: the ball's velocity differs from free flight's by more than 0.05 m/s, and at 1.2 m the
     * cloth slowed it (v_z below 13.95 m/s, 14 in flight).
     */
    @ParameterizedTest(name = "{0}, ball at {1} m")
    @CsvSource({"xpbd, 1.2", "pbd, 1.2", "pd, 1.2", "relaxation, 1.2", "mass-spring, 1.2", "implicit, 1.2",
        "xpbd, 1.75", "pd, 1.75", "relaxation, 1.75", "mass-spring, 1.75", "implicit, 1.75"})
    void aCannonballThroughACurtainMovesAsOnTheCpu(String name, float height) {
        cannonballThroughACurtain(name, height, null);
    }

    /**
     * The same with particle contacts on (the viewer's self-collision): the contacts' own collider pass (before
     * their support levels) and the pass after them run the ball on every particle, a pinned one included, as the
     * CPU's do; the contacts ask the ball for its distance and thickness. At 1.75 m the pinned rail pushes the ball
     * in both passes. The CPU's bits on PoCL, as above. The implicit solver's 1.75 m case also needs the contacts'
     * released flags carried over each tear to the split copies, as ImplicitContacts.bind does (without it: 0.18 m
     * off after 12 frames, the ball 3·10⁻⁴ m/s).
     */
    @ParameterizedTest(name = "{0}, ball at {1} m, contacts")
    @CsvSource({"xpbd, 1.2", "pbd, 1.2", "pd, 1.2", "relaxation, 1.2", "mass-spring, 1.2", "implicit, 1.2",
        "xpbd, 1.75", "pd, 1.75", "relaxation, 1.75", "mass-spring, 1.75", "implicit, 1.75"})
    void withParticleContactsACannonballThroughACurtainMovesAsOnTheCpu(String name, float height) {
        cannonballThroughACurtain(name, height, ParticleContactSettings.defaults());
    }

    private static void cannonballThroughACurtain(String name, float height, ParticleContactSettings contacts) {
        OpenClDevice device = OpenClAvailable.firstDevice();
        SolverSettings settings = SolverSettings.defaults();
        ModelBuilder b = new ModelBuilder().bendingModel(BendingModel.DISTANCE).tethers(false);
        ModelObject curtain = b.addGridCloth(GridClothSpec.of("curtain", 24, 24, 1.0f, 1.0f)
                .withOrigin(-1.3f, 1.8f, 0f).withAxes(GridClothSpec.VERTICAL[0], GridClothSpec.VERTICAL[1]));
        b.pinEdge(curtain, "top");
        b.tearStrain(curtain, 0.2f);
        Model model = b.build();
        Projectile cpuBall = cannonball(height);
        Projectile gpuBall = cannonball(height);
        try (WorkerPool pool = new WorkerPool(1);
             Simulation cpu = new Simulation(model, State.atRest(model),
                     withContacts(Solvers.create(name, settings, pool), contacts), withFloor(cpuBall), 16);
             Simulation gpu = new Simulation(model, State.atRest(model),
                     OpenClGripTest.deviceSolver(name, settings, device).withParticleContacts(contacts),
                     withFloor(gpuBall), 16)) {
            cpu.setTearing(true);
            gpu.setTearing(true);
            for (int f = 0; f < 12; f++) {
                cpu.advance(1f / 60f);
                gpu.advance(1f / 60f);
                assertThat(gpu.model().particleCount()).as("frame %d", f).isEqualTo(cpu.model().particleCount());
            }
            float diff = StepComparison.maxDifference(cpu.state().positions(), gpu.state().positions());
            float ballDiff = Math.max(StepComparison.maxDifference(cpuBall.center(), gpuBall.center()),
                    StepComparison.maxDifference(cpuBall.velocity(), gpuBall.velocity()));
            System.out.printf("a cannonball through a curtain, %s%s: ball at z %.4f m, %.4f m/s (cpu %.4f m/s), "
                    + "%d particles (from %d), max |dx| %.3g m, ball |d| %.3g%n", name,
                    contacts == null ? "" : " with contacts", gpuBall.center()[2],
                    gpuBall.velocity()[2], cpuBall.velocity()[2], gpu.model().particleCount(), model.particleCount(),
                    diff, ballDiff);
            boolean fp64Needed = name.equals("mass-spring") || name.equals("implicit");
            if (OpenClAvailable.isPocl(device) && (!fp64Needed || device.fp64())) {
                StepComparison.assertSameBits(cpu.state(), gpu.state());
                for (int k = 0; k < 3; k++) {
                    assertThat(Float.floatToRawIntBits(gpuBall.center()[k])).as("centre %d", k)
                            .isEqualTo(Float.floatToRawIntBits(cpuBall.center()[k]));
                    assertThat(Float.floatToRawIntBits(gpuBall.velocity()[k])).as("velocity %d", k)
                            .isEqualTo(Float.floatToRawIntBits(cpuBall.velocity()[k]));
                }
                assertThat(gpuBall.saveState()).isEqualTo(cpuBall.saveState());
            } else {
                assertThat(diff).isLessThanOrEqualTo(1e-3f);
                assertThat(ballDiff).isLessThanOrEqualTo(1e-3f);
            }
            // in flight alone (gravity along y only) its velocity after 0.2 s would be (0, -1.962, 14) m/s
            float[] v = gpuBall.velocity();
            float change = (float) Math.sqrt(v[0] * v[0] + (v[1] + 9.81f * 0.2f) * (v[1] + 9.81f * 0.2f)
                    + (v[2] - 14f) * (v[2] - 14f));
            assertThat(change).as("what the cloth did to the ball, m/s").isGreaterThan(0.05f);
            if (height < 1.5f) {
                assertThat(gpuBall.center()[2]).as("the ball went through the curtain").isGreaterThan(0.5f);
                assertThat(v[2]).as("the cloth slowed the ball").isLessThan(13.95f);
            }
        }
    }

    /**
     * Two balls (the viewer shoots one per key press) through the same curtain under XPBD: each has its own run of
     * reaction slots on the device; both balls' state and the cloth have the CPU's bits on PoCL, else 1 mm, and
     * each ball was slowed.
     */
    @Test
    void twoCannonballsEachKeepTheirOwnReaction() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        SolverSettings settings = SolverSettings.defaults();
        ModelBuilder b = new ModelBuilder().bendingModel(BendingModel.DISTANCE).tethers(false);
        ModelObject curtain = b.addGridCloth(GridClothSpec.of("curtain", 24, 24, 1.0f, 1.0f)
                .withOrigin(-1.3f, 1.8f, 0f).withAxes(GridClothSpec.VERTICAL[0], GridClothSpec.VERTICAL[1]));
        b.pinEdge(curtain, "top");
        Model model = b.build();
        Projectile[] cpuBalls = {cannonball(1.2f), secondBall()};
        Projectile[] gpuBalls = {cannonball(1.2f), secondBall()};
        PlaneCollider floor = PlaneCollider.floor(0f, 0.005f, 0.5f);
        float[] g = {0f, -9.81f, 0f};
        try (WorkerPool pool = new WorkerPool(1);
             Simulation cpu = new Simulation(model, State.atRest(model), Solvers.create("xpbd", settings, pool),
                     new Environment(g, List.of(cpuBalls[0], floor, cpuBalls[1])), 16);
             Simulation gpu = new Simulation(model, State.atRest(model),
                     OpenClGripTest.deviceSolver("xpbd", settings, device),
                     new Environment(g, List.of(gpuBalls[0], floor, gpuBalls[1])), 16)) {
            for (int f = 0; f < 12; f++) {
                cpu.advance(1f / 60f);
                gpu.advance(1f / 60f);
            }
            float diff = StepComparison.maxDifference(cpu.state().positions(), gpu.state().positions());
            System.out.printf("two cannonballs through a curtain, xpbd: v_z %.4f and %.4f m/s, max |dx| %.3g m%n",
                    gpuBalls[0].velocity()[2], gpuBalls[1].velocity()[2], diff);
            for (int k = 0; k < 2; k++) {
                if (OpenClAvailable.isPocl(device)) {
                    assertThat(gpuBalls[k].saveState()).as("ball %d", k).isEqualTo(cpuBalls[k].saveState());
                } else {
                    assertThat(StepComparison.maxDifference(cpuBalls[k].center(), gpuBalls[k].center()))
                            .isLessThanOrEqualTo(1e-3f);
                }
                assertThat(gpuBalls[k].velocity()[2]).as("ball %d slowed (14 m/s in flight alone)", k)
                        .isLessThan(13.99f);
            }
            if (OpenClAvailable.isPocl(device)) {
                StepComparison.assertSameBits(cpu.state(), gpu.state());
            } else {
                assertThat(diff).isLessThanOrEqualTo(1e-3f);
            }
        }
    }

    /** A second ball, 0.5 m to the side of and 0.2 m above the first, a little later. */
    private static Projectile secondBall() {
        return new Projectile("second", new float[] {-0.3f, 1.4f, -1.2f}, 0.08f, 0.5f, new float[] {0f, 0f, 14f},
                new float[] {0f, -9.81f, 0f}, 0.005f, 0.3f);
    }

    /** {@code solver} with particle contacts {@code contacts} (null: as it is). */
    private static Solver withContacts(Solver solver, ParticleContactSettings contacts) {
        return contacts == null ? solver : ((ParticleContactSolver) solver).withParticleContacts(contacts);
    }

    /** The tear scene's cannonball, aimed at the curtain {@code height} m up (its pinned rail is at 1.8 m). */
    private static Projectile cannonball(float height) {
        return new Projectile("cannonball", new float[] {-0.8f, height, -1f}, 0.1f, 1.0f, new float[] {0f, 0f, 14f},
                new float[] {0f, -9.81f, 0f}, 0.005f, 0.3f);
    }

    /** {@code ball} and a floor, which is also the ball's obstacle; gravity. */
    private static Environment withFloor(Projectile ball) {
        PlaneCollider floor = PlaneCollider.floor(0f, 0.005f, 0.5f);
        return new Environment(new float[] {0f, -9.81f, 0f}, List.of(ball.withObstacles(floor), floor));
    }

    /** The cut scene's knife (along z, 0.2 m above the cloth) coming down at 3 m/s, and its floor. */
    private static Environment knife() {
        float[] still = {0f, 0f, 0f};
        Blade blade = new Blade("blade", new float[] {0.013f, 2.0f, -0.3f}, new float[] {0.013f, 2.0f, 0.3f},
                new ConstantVelocityMotion(still, new float[] {1f, 0f, 0f, 0f}, new float[] {0f, -3f, 0f}, still));
        return new Environment(new float[] {0f, -9.81f, 0f}, List.of(blade, PlaneCollider.floor(0f, 0.005f, 0.5f)));
    }
}
