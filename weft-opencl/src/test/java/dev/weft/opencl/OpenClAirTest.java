package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
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
import dev.weft.core.solver.xpbd.IterationMode;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.DeviceTestScenes;
import dev.weft.core.testing.StepComparison;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Wind and air drag ({@link DeviceAir}, {@code air.cl}) on every OpenCL solver against its CPU solver (one
 * thread): a flag pinned along one edge in a side wind, and a horizontal cloth falling in still air (drag
 * only), one step and 120 steps at each family's usual step.
 *
 * <p>Tolerance: with fp64 the air kernels do AeroForces's double operations in its order and the predictions
 * add the force as PositionStep and ImplicitSolver do, so on PoCL with fp64 the runs are the CPU's bits,
 * positions and velocities (measured: 0 m and 0 m/s after 1 and after 120 steps of every family, wind and
 * still air; checked exactly). Another device is held to each family's tolerances, about ten times what the
 * kernels built as a device without fp64 and the CPU's rounding would run them (the air in float, contraction,
 * OpenCL's default division and square root) measured on PoCL after 120 steps of the flag in the wind
 * ({@link #relaxedBuildsWithTheAirInFloatStayWithinTheTolerances} prints and checks them): XPBD 2.6e-7 m
 * (3.2e-4 m/s), pbd 4.3e-7 m (2.0e-4 m/s), PD 2.8e-5 m (3.2e-3 m/s), relaxation 2.0e-7 m (4.6e-4 m/s),
 * mass-spring 1.6e-6 m (1.6e-3 m/s) and with tethers 5.2e-6 m (2.5e-3 m/s); falling in still air 0 m
 * (velocities at most 2.8e-7 m/s). The implicit solver's float PCG, as its own tests say, is compared after one step only (8.0e-5 m
 * measured; 1e-3 m allowed): over 120 steps of 1/30 s in the wind its iterations part from the CPU's (0.16 m).
 */
class OpenClAirTest {
    private static final int STEPS = 120;
    /** The flag scene's wind (m/s): mostly away from the pole (+x), partly across the flag (+z). */
    private static final float[] WIND = {6f, 0f, 3f};

    /** Earth, sea-level air (1.2 kg/m³, pressure drag 1, friction drag 0.02) and the flag's wind. */
    static Environment windy() {
        return Environment.earth().withWind(WIND).withAir(1.2f, 1f, 0.02f);
    }

    /** The same air, no wind: drag on the cloth's own motion only. */
    static Environment stillAir() {
        return Environment.earth().withAir(1.2f, 1f, 0.02f);
    }

    /** An 18 × 12 flag (0.6 × 0.4 m) hanging in the XY plane, its left edge pinned to a pole. */
    static Model flag(ModelBuilder b) {
        ModelObject flag = b.addGridCloth(new GridClothSpec("flag", 18, 12, 0.6f, 0.4f, new float[] {0f, 2f, 0f},
                GridClothSpec.VERTICAL[0], GridClothSpec.VERTICAL[1], true));
        b.pinEdge(flag, "left");
        return b.build();
    }

    /** A solver family: its CPU solver, its OpenCL solver built with or without the CPU's rounding. */
    private record Family(String label, Function<WorkerPool, Solver> cpu, Function<Boolean, Solver> opencl,
                          boolean tethers, float dt, float tolerance, float velocityTolerance) {
        /** Whether runs of many steps are compared where the device does not give the CPU's bits. */
        boolean comparesLongRuns() {
            return velocityTolerance > 0f;
        }

        Model flag() {
            return OpenClAirTest.flag(new ModelBuilder().tethers(tethers));
        }

        /** A horizontal cloth falling from 1 m: still air's drag acts against its fall. */
        Model falling() {
            return DeviceTestScenes.droppedCloth(new ModelBuilder().tethers(tethers), 12, 1f);
        }
    }

    private static Family xpbd(OpenClDevice device, String label, XpbdSettings s) {
        return new Family(label, pool -> new XpbdSolver(s, pool), r -> new OpenClXpbdSolver(s, device, r), true,
                1f / 1800f, 5e-6f, 3e-3f);
    }

    private static Family pd(OpenClDevice device) {
        PdSettings s = PdSettings.defaults();
        return new Family("PD", pool -> new PdSolver(s, pool), r -> new OpenClPdSolver(s, device, r), true,
                1f / 480f, 3e-4f, 3e-2f);
    }

    private static Family relaxation(OpenClDevice device) {
        RelaxationSettings s = new RelaxationSettings(3);
        return new Family("relaxation", pool -> new RelaxationSolver(s, pool),
                r -> new OpenClRelaxationSolver(s, device, r), true, 1f / 2880f, 2e-5f, 5e-3f);
    }

    /** Without tethers one fused kernel per Verlet step (verlet_step); with them the prediction apart. */
    private static Family massSpring(OpenClDevice device, boolean tethers) {
        MassSpringSettings s = MassSpringSettings.defaults().withTethers(tethers);
        return new Family("mass-spring" + (tethers ? ", tethers" : ""), pool -> new MassSpringSolver(s, pool),
                r -> new OpenClMassSpringSolver(s, device, r), tethers, 1f / 960f, 5e-5f, 2.5e-2f);
    }

    private static Family implicit(OpenClDevice device) {
        ImplicitSettings s = ImplicitSettings.defaults();
        return new Family("implicit", pool -> new ImplicitSolver(s, pool),
                r -> new OpenClImplicitSolver(s, device, OpenClImplicitSolver.DEFAULT_ITERATIONS_PER_CHECK, r), true,
                1f / 30f, 1e-3f, 0f);
    }

    @Test
    void xpbdColoredJacobiAndPbdInWindAndStillAirHaveTheCpusBits() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        agree(device, xpbd(device, "XPBD", XpbdSettings.defaults()));
        agree(device, xpbd(device, "XPBD jacobi", XpbdSettings.defaults().withMode(IterationMode.JACOBI)));
        agree(device, xpbd(device, "pbd", Solvers.jacobiPbd(XpbdSettings.defaults())));
    }

    @Test
    void pdInWindAndStillAirHasTheCpusBits() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        agree(device, pd(device));
    }

    @Test
    void relaxationInWindAndStillAirHasTheCpusBits() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        agree(device, relaxation(device));
    }

    @Test
    void massSpringWithAndWithoutTethersInWindAndStillAirHasTheCpusBits() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        assertThat(massSpring(device, true).flag().tethers().count()).isPositive();
        agree(device, massSpring(device, false));
        agree(device, massSpring(device, true));
    }

    @Test
    void implicitInWindAndStillAirHasTheCpusBits() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        agree(device, implicit(device));
    }

    /**
     * The wind changes between steps (a gust turning, as the viewer's wind slider or {@code
     * Simulation.setEnvironment} does): the device reads it at every step, as the CPU does, and a batch of
     * steps in one environment is the same as those steps one by one.
     */
    @Test
    void aWindThatChangesEveryStepIsFollowedStepByStep() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        boolean bits = OpenClAvailable.isPocl(device) && device.fp64();
        for (Family f : new Family[] {xpbd(device, "XPBD", XpbdSettings.defaults()), massSpring(device, false),
                implicit(device)}) {
            Model flag = f.flag();
            State cpu = State.atRest(flag);
            State opencl = State.atRest(flag);
            int steps = f.comparesLongRuns() ? 60 : 10;
            try (WorkerPool pool = new WorkerPool(1); Solver reference = f.cpu().apply(pool);
                 Solver solver = f.opencl().apply(true)) {
                for (int k = 0; k < steps; k++) {
                    double angle = 0.2 * k;
                    Environment gust = Environment.earth()
                            .withWind(new float[] {(float) (6 * Math.cos(angle)), 0f, (float) (6 * Math.sin(angle))})
                            .withAir(1.2f, 1f + 0.01f * k, 0.02f);
                    reference.step(flag, cpu, gust, f.dt());
                    solver.step(flag, opencl, gust, f.dt());
                }
            }
            float dx = StepComparison.maxDifference(cpu.positions(), opencl.positions());
            System.out.printf("OpenCL %s vs CPU, wind turning every step, %d steps: max |dx| %.3g m%n", f.label(),
                    steps, dx);
            if (bits) {
                StepComparison.assertSameBits(cpu, opencl);
            } else {
                assertThat(dx).isLessThanOrEqualTo(f.tolerance());
            }
            // the gusts moved it: the same steps in the first gust's wind alone end elsewhere
            State steady = State.atRest(flag);
            try (Solver solver = f.opencl().apply(true)) {
                solver.steps(flag, steady, Environment.earth().withWind(new float[] {6f, 0f, 0f})
                        .withAir(1.2f, 1f, 0.02f), f.dt(), steps);
            }
            assertThat(StepComparison.maxDifference(steady.positions(), opencl.positions())).isGreaterThan(1e-6f);
        }
    }

    /**
     * What a device without fp64 and the CPU's rounding gives (the kernels built relaxed, the air in float), on
     * PoCL: how far from the CPU the tolerances must allow.
     */
    @Test
    void relaxedBuildsWithTheAirInFloatStayWithinTheTolerances() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        for (Family f : new Family[] {xpbd(device, "XPBD", XpbdSettings.defaults()),
                xpbd(device, "pbd", Solvers.jacobiPbd(XpbdSettings.defaults())), pd(device), relaxation(device),
                massSpring(device, false), massSpring(device, true), implicit(device)}) {
            for (boolean wind : new boolean[] {true, false}) {
                StepComparison c = StepComparison.run("relaxed OpenCL " + f.label() + " vs CPU, "
                                + (wind ? "flag in wind," : "falling in still air,"), f.cpu(),
                        () -> f.opencl().apply(false), wind ? f.flag() : f.falling(), wind ? windy() : stillAir(),
                        f.dt(), f.comparesLongRuns() ? STEPS : 1);
                assertThat(c.afterAll).as(f.label()).isLessThanOrEqualTo(f.tolerance());
                if (f.comparesLongRuns()) {
                    assertThat(c.velocityAfterAll).as(f.label()).isLessThanOrEqualTo(f.velocityTolerance());
                }
            }
        }
    }

    /**
     * The physics on the device, not only its agreement: in the wind the flag's free particles move downwind
     * (their mean displacement along the wind is positive, and across the flag's plane, +z, where only the
     * wind's 3 m/s can push them); in still air, drag alone, they stay in the flag's plane (a face moving in
     * its own plane gets no pressure, and friction acts in the plane), and a horizontal cloth falls slower
     * than without air.
     */
    @Test
    void onTheDeviceTheFlagBlowsDownwindAndStillAirOnlySlowsIt() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        XpbdSettings s = XpbdSettings.defaults();
        float dt = 1f / 600f;
        Model flag = flag(new ModelBuilder());
        State start = State.atRest(flag);
        State windy = run(new OpenClXpbdSolver(s, device), flag, windy(), dt, 300);
        State still = run(new OpenClXpbdSolver(s, device), flag, stillAir(), dt, 300);
        double[] blown = meanFreeDisplacement(flag, start, windy);
        double[] hanging = meanFreeDisplacement(flag, start, still);
        double along = (blown[0] * WIND[0] + blown[2] * WIND[2]) / Math.hypot(WIND[0], WIND[2]);
        System.out.printf("flag after 0.5 s on the device: mean displacement in wind (%.3f, %.3f, %.3f) m, "
                + "along the wind %.3f m; in still air (%.3g, %.3f, %.3g) m%n", blown[0], blown[1], blown[2], along,
                hanging[0], hanging[1], hanging[2]);
        assertThat(along).as("downwind, m").isGreaterThan(0.01);
        assertThat(blown[2]).as("across the flag's plane, with the wind, m").isGreaterThan(0.05);
        float most = 0f;
        for (int i = 0; i < flag.particleCount(); i++) {
            most = Math.max(most, Math.abs(still.positions()[3 * i + 2]));
        }
        assertThat(most).as("still air: no particle leaves the flag's plane, m").isZero();
        // a horizontal cloth dropped 0.5 s: still air's drag against its fall holds it back
        Model dropped = DeviceTestScenes.droppedCloth(new ModelBuilder(), 16, 2f);
        State fallStart = State.atRest(dropped);
        State inAir = run(new OpenClXpbdSolver(s, device), dropped, stillAir(), dt, 300);
        State inVacuum = run(new OpenClXpbdSolver(s, device), dropped, Environment.earth(), dt, 300);
        double fallAir = -meanFreeDisplacement(dropped, fallStart, inAir)[1];
        double fallVacuum = -meanFreeDisplacement(dropped, fallStart, inVacuum)[1];
        System.out.printf("a horizontal cloth falls %.4f m in 0.5 s in still air, %.4f m without air%n", fallAir,
                fallVacuum);
        // Quadratic drag on a plate falling along its normal: terminal speed v_t = sqrt(2 ρ_A g / (ρ C_p)) =
        // 1.81 m/s (cotton's 0.2 kg/m²), fall (v_t²/g) ln cosh(g t / v_t) = 0.675 m in 0.5 s where nothing else
        // slows it; the material's damping, which alone keeps the vacuum fall (measured 1.05 m) 15 % short of
        // g t²/2 = 1.23 m, slows it further. Measured 0.627 m.
        assertThat(fallVacuum).isBetween(1.0, 1.23);
        assertThat(fallAir).isBetween(0.85 * 0.675, 0.68);
    }

    /**
     * The CPU's bits (PoCL with fp64) or the tolerances, after 1 and after {@link #STEPS} steps: the flag in the
     * wind, and a falling cloth in still air.
     */
    private static void agree(OpenClDevice device, Family f) {
        boolean bits = OpenClAvailable.isPocl(device) && device.fp64();
        for (boolean wind : new boolean[] {true, false}) {
            Model model = wind ? f.flag() : f.falling();
            Environment env = wind ? windy() : stillAir();
            String what = "OpenCL " + f.label() + " vs CPU, " + (wind ? "flag in wind," : "falling in still air,");
            StepComparison one = StepComparison.run(what, f.cpu(), () -> f.opencl().apply(true), model, env, f.dt(),
                    1);
            StepComparison many = StepComparison.run(what, f.cpu(), () -> f.opencl().apply(true), model, env,
                    f.dt(), STEPS);
            assertThat(many.travel).as("it moved").isGreaterThan(1e-4f);
            one.assertAgrees(f.tolerance(), bits);
            if (bits || f.comparesLongRuns()) {
                many.assertAgrees(bits ? 0f : f.tolerance(), bits);
                assertThat(many.velocityAfterAll).isLessThanOrEqualTo(bits ? 0f : f.velocityTolerance());
            }
        }
    }

    private static State run(Solver solver, Model model, Environment env, float dt, int steps) {
        State s = State.atRest(model);
        try (solver) {
            solver.steps(model, s, env, dt, steps);
        }
        return s;
    }

    /** The mean displacement (m, xyz) of the model's free particles from {@code from} to {@code to}. */
    private static double[] meanFreeDisplacement(Model model, State from, State to) {
        double[] sum = new double[3];
        int free = 0;
        for (int i = 0; i < model.particleCount(); i++) {
            if (model.isPinned(i)) {
                continue;
            }
            free++;
            for (int a = 0; a < 3; a++) {
                sum[a] += to.positions()[3 * i + a] - from.positions()[3 * i + a];
            }
        }
        for (int a = 0; a < 3; a++) {
            sum[a] /= free;
        }
        return sum;
    }
}
