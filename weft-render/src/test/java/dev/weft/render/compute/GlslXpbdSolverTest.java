package dev.weft.render.compute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.DistanceConstraints;
import dev.weft.core.model.DistanceKind;
import dev.weft.core.model.Elasticity;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.model.TetBodySpec;
import dev.weft.core.solver.UnsupportedOnDeviceException;
import dev.weft.core.solver.xpbd.IterationMode;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.DeviceTestScenes;
import dev.weft.core.testing.StepComparison;
import dev.weft.core.testing.TetherReach;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The GLSL compute XPBD solver (colored mode, distance constraints) against the CPU's {@link
 * XpbdSolver} on one thread, on the same scenes.
 *
 * <p>Tolerance: as for the mass-spring shaders, the XPBD shaders do the CPU's float operations in its
 * order ('precise' on every result), so on Mesa's llvmpipe, which rounds division and square root
 * correctly, the runs agree bit for bit (measured: 0 m and 0 m/s after 1 step and after all steps of
 * every scene here, checked bit for bit there). Built relaxed ({@code WEFT_RELAXED}: no 'precise',
 * a/b as a·(1/b), sqrt as x·inversesqrt(x), as a GPU compiler may), the shaders measured on llvmpipe
 * 7.5e-9 m after one step and 1.2e-7 m after 100 steps of the 32 × 32 hanging cloth (1.8e-7 m with rigid
 * stretch and three passes; velocities up to 1.9e-4 m/s), 9.3e-10 m after one step and 1.5e-8 m
 * (4.7e-5 m/s) on the cloth landed on the floor after 360 steps, 3.3e-7 m on the cloth dropped on the
 * sphere after 240 steps (the tests print them). {@link #TOLERANCE}, 2e-6 m (1/16000 of the 3.2 cm
 * spacing), is 6 times the largest position difference;
 * {@link #VELOCITY_TOLERANCE}, 2e-3 m/s, 10 times the largest velocity difference (a projection's
 * rounding δ becomes a velocity δ/h, h = 1/1800 s). These are weft-opencl's tolerances, which its
 * relaxed build on PoCL measured alike.
 *
 * <p>With tethers (the default scene's long-range attachments, projected after each iteration's distance
 * passes): bit for bit on llvmpipe (0 m, 0 m/s after 200 steps of the tethered 24 × 24 hanging cloth and 240
 * steps of it falling onto a ball). Relaxed, 1.1e-6 m (2.8e-4 m/s) after the 200 hanging steps, within
 * {@link #TOLERANCE} with less room than above; on the ball, 1.6e-6 m after 240 steps, where a rounding may
 * flip a stick/slip decision of the ball's friction, so off llvmpipe that scene is held to the statistics
 * (strain, residual, energy within 1 %), as the mass-spring tests hold their sphere.
 */
class GlslXpbdSolverTest {
    /** Positions within this (m) of the CPU's on any device (see the class comment). */
    private static final float TOLERANCE = 2e-6f;
    /** Velocities within this (m/s) of the CPU's on any device. */
    private static final float VELOCITY_TOLERANCE = 2e-3f;
    /** One substep of the default scene's 30 at 60 fps. */
    private static final float DT = 1f / 1800f;
    /** The default settings: colored, one iteration, two stretch passes. */
    private static final XpbdSettings DEFAULTS = XpbdSettings.defaults();

    @Test
    void aHangingClothAgreesWithTheCpuAfterOneAndAfterAHundredSteps() {
        StepComparison c = compare(true, DEFAULTS, hangingCloth(32), Environment.earth(), 100);
        assertThat(c.afterOne).isLessThanOrEqualTo(TOLERANCE);
        assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
        assertThat(c.travel).as("a falling, stretching cloth, not a still one").isGreaterThan(0.001f);
        c.assertAgrees(TOLERANCE, GlslDriver.cpuBits());
        if (GlslDriver.cpuBits()) {
            assertThat(c.velocityAfterAll).as("llvmpipe: the CPU's bits").isZero();
        }
    }

    @Test
    void moreIterationsOnePassAndRigidColorsAgreeToo() {
        Model model = hangingCloth(24);
        // ten iterations carry the multipliers from one to the next; one stretch pass is plain XPBD
        StepComparison iterated = compare(true, DEFAULTS.withIterations(10).withStretchPasses(1), model,
                Environment.earth(), 100);
        // rigid stretch and shear: those colors take the multiplier-free pass, the bending colors do not
        StepComparison rigid = compare(true, DEFAULTS.withRigid(true).withStretchPasses(3), model,
                Environment.earth(), 100);
        for (StepComparison c : List.of(iterated, rigid)) {
            c.assertAgrees(TOLERANCE, GlslDriver.cpuBits());
        }
    }

    @Test
    void twoMeshClothsWhoseStretchColorsAreScatteredAgreeToo() {
        Model model = DeviceTestScenes.hangingMeshes(
                new ModelBuilder().tethers(false).bendingModel(BendingModel.DISTANCE), 16);
        assertThat(hasScatteredStretchColor(model)).as("the extra passes take the listed kernel").isTrue();
        compare(true, DEFAULTS.withStretchPasses(2), model, Environment.earth(), 100)
                .assertAgrees(TOLERANCE, GlslDriver.cpuBits());
    }

    @Test
    void aClothDroppedOnTheFloorStaysAboveItAndAgreesWithTheCpu() {
        PlaneCollider floor = DeviceTestScenes.floor();
        // 360 steps of 1/1800 s: it falls the 0.085 m to the floor's thickness in 0.13 s, lands and slides
        StepComparison c = compare(true, DEFAULTS, droppedCloth(24, 0.1f), DeviceTestScenes.earthWith(floor), 360);
        assertThat(c.lowestClearance(floor)).isGreaterThanOrEqualTo(0.005f - 1e-6f);
        assertThat(c.travel).isGreaterThan(0.08f);
        assertThat(c.afterOne).isLessThanOrEqualTo(TOLERANCE);
        c.assertAgrees(TOLERANCE, GlslDriver.cpuBits());
    }

    @Test
    void aClothDroppedOnASphereStaysOutsideItAndAgreesWithTheCpu() {
        SphereCollider ball = DeviceTestScenes.ball();
        StepComparison c = compare(true, DEFAULTS, droppedCloth(24, 0.45f), DeviceTestScenes.earthWith(ball), 240);
        assertThat(c.lowestClearance(ball)).isGreaterThanOrEqualTo(0.005f - 1e-6f);
        c.assertAgrees(TOLERANCE, GlslDriver.cpuBits());
    }

    @Test
    void twoRunsGiveTheSameBits() {
        Model model = droppedCloth(24, 0.45f);
        Environment env = DeviceTestScenes.earthWith(DeviceTestScenes.ball());
        XpbdSettings settings = DEFAULTS.withIterations(4);
        StepComparison first = compare(true, settings, model, env, 120);
        StepComparison second = compare(true, settings, model, env, 120);
        assertThat(first.travel).isGreaterThan(0.01f);
        StepComparison.assertSameBits(first.device, second.device);
    }

    @Test
    void withoutTheCpusRoundingTheDifferenceStaysWithinTheTolerance() {
        StepComparison hanging = compare(false, DEFAULTS, hangingCloth(32), Environment.earth(), 100);
        StepComparison landed = compare(false, DEFAULTS, droppedCloth(24, 0.1f),
                DeviceTestScenes.earthWith(DeviceTestScenes.floor()), 360);
        for (StepComparison c : List.of(hanging, landed)) {
            assertThat(c.afterAll).isLessThanOrEqualTo(TOLERANCE);
            assertThat(c.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
            c.assertStatisticsAgree();
        }
        compare(false, DEFAULTS, droppedCloth(24, 0.45f), DeviceTestScenes.earthWith(DeviceTestScenes.ball()), 240)
                .assertStatisticsAgree();
    }

    @Test
    void pinnedParticlesKeepTheirBitsAndAHostEditIsUploaded() {
        Model model = hangingCloth(16);
        StepComparison c = StepComparison.run("GLSL XPBD vs CPU, a drag at step 50,", pool -> new XpbdSolver(DEFAULTS,
                pool), () -> new GlslXpbdSolver(DEFAULTS), model, Environment.earth(), DT, 100, 50);
        assertThat(c.afterAll).isLessThanOrEqualTo(TOLERANCE);
        assertThat(StepComparison.assertPinnedKept(model, c.start.positions(), c.device)).isEqualTo(2);
        assertThat(c.device.steps()).isEqualTo(100);
    }

    @Test
    void whatIsNotInTheShadersYetIsRefusedByName() {
        assertThatThrownBy(() -> new GlslXpbdSolver(DEFAULTS.withMode(IterationMode.JACOBI)))
                .isInstanceOf(UnsupportedOnDeviceException.class).hasMessageContaining("colored")
                .hasMessageContaining("jacobi");
        ModelBuilder b = new ModelBuilder().tethers(false); // dihedral bending, as by default: runs (GlslBendingTest)
        b.addGridCloth(GridClothSpec.of("cloth", 8, 8, 0.4f, 0.4f));
        Model dihedral = b.build();
        ModelBuilder soft = new ModelBuilder();
        soft.addTetBody(TetBodySpec.box("jelly", new float[] {0f, 0f, 0f}, new float[] {0.1f, 0.1f, 0.1f}, 1, 1, 1,
                1000f, new Elasticity(1e4f, 0.4f)));
        Model jelly = soft.build();
        ModelBuilder t = new ModelBuilder().bendingModel(BendingModel.DISTANCE); // tethers on, as by default
        ModelObject cloth = t.addGridCloth(GridClothSpec.of("cloth", 8, 8, 0.4f, 0.4f));
        t.pinCorners(cloth, "top-left", "top-right");
        Model tethered = t.build();
        assertThat(tethered.tethers().count()).isPositive();
        Model plain = hangingCloth(8);
        try (GlslXpbdSolver solver = new GlslXpbdSolver(DEFAULTS)) {
            assertThatThrownBy(() -> solver.step(plain, State.atRest(plain), DeviceTestScenes.windy(), DT))
                    .isInstanceOf(UnsupportedOnDeviceException.class).hasMessageContaining("air");
            assertThatThrownBy(() -> solver.step(plain, State.atRest(plain),
                    DeviceTestScenes.earthWith(DeviceTestScenes.crate()),
                    DT)).isInstanceOf(UnsupportedOnDeviceException.class).hasMessageContaining("crate")
                    .hasMessageContaining("BoxCollider");
            // a triangle mesh, which the OpenCL solvers run: the shaders refuse it naming what they do run
            assertThatThrownBy(() -> solver.step(plain, State.atRest(plain),
                    DeviceTestScenes.earthWith(DeviceTestScenes.rock()), DT))
                    .isInstanceOf(UnsupportedOnDeviceException.class).hasMessageContaining("rock")
                    .hasMessageContaining("is a MeshCollider, which the GLSL compute solvers do not support yet")
                    .hasMessageContaining("still planes and spheres").hasMessageContaining("use the cpu backend");
            assertThatThrownBy(() -> solver.withParticleContacts(ParticleContactSettings.defaults()))
                    .isInstanceOf(UnsupportedOnDeviceException.class).hasMessageContaining("particle contacts");
            // after the refusals it still runs what it supports, tethers included
            State s = State.atRest(plain);
            solver.step(plain, s, Environment.earth(), DT);
            assertThat(s.steps()).isEqualTo(1);
            State t1 = State.atRest(tethered);
            solver.step(tethered, t1, Environment.earth(), DT);
            assertThat(t1.steps()).isEqualTo(1);
            State bent = State.atRest(dihedral);
            solver.step(dihedral, bent, Environment.earth(), DT);
            assertThat(bent.steps()).isEqualTo(1);
            State squashed = State.atRest(jelly); // tetrahedra run too (GlslTetTest)
            solver.step(jelly, squashed, Environment.earth(), DT);
            assertThat(squashed.steps()).isEqualTo(1);
        }
        GlslXpbdSolver.requireSupported(DEFAULTS, tethered, Environment.earth());
        GlslXpbdSolver.requireSupported(DEFAULTS, dihedral, Environment.earth());
        GlslXpbdSolver.requireSupported(DEFAULTS, jelly, Environment.earth());
    }

    @Test
    void tethersHoldTheClothAsOnTheCpu() {
        // tethers on, as by default; one iteration a substep leaves the corners' neighbourhood stretched, which
        // is what the long-range attachments bound
        Model tethered = tetheredCloth(24);
        assertThat(tethered.tethers().count()).isPositive();
        StepComparison c = compare(true, DEFAULTS, tethered, Environment.earth(), 200);
        assertThat(c.travel).isGreaterThan(0.01f);
        c.assertAgrees(TOLERANCE, GlslDriver.cpuBits());
        // three iterations: the tethers after each iteration's distance passes, not once a step
        compare(true, DEFAULTS.withIterations(3), tethered, Environment.earth(), 100)
                .assertAgrees(TOLERANCE, GlslDriver.cpuBits());
        // what the tethers are for: they bound how far a particle gets from its pins (measured on llvmpipe:
        // 0.10 mm beyond a tether with them, 3.6 mm without, as weft-opencl on PoCL); the same cloth without
        // them ends elsewhere
        StepComparison free = compare(true, DEFAULTS.withTethers(false), tethered, Environment.earth(), 200);
        float with = TetherReach.beyond(tethered, c.device.positions());
        float without = TetherReach.beyond(tethered, free.device.positions());
        System.out.printf("GLSL XPBD, beyond a tether after 200 steps: %.2e m with tethers, %.2e m without%n",
                with, without);
        assertThat(with).as("beyond a tether with tethers, m").isLessThan(1e-3f);
        assertThat(without).as("beyond a tether without them, m").isGreaterThan(10 * with);
        assertThat(StepComparison.maxDifference(free.device.positions(), c.device.positions())).isGreaterThan(1e-4f);
    }

    @Test
    void aTetheredClothFallsOntoASphereAsOnTheCpu() {
        // the hanging cloth swings down onto a ball under it: the finish's colliders after the tethers
        SphereCollider under = new SphereCollider("ball", new float[] {0f, 0.8f, 0.1f}, 0.15f, 0.005f, 0.3f);
        Model tethered = tetheredCloth(24);
        StepComparison c = compare(true, DEFAULTS, tethered, DeviceTestScenes.earthWith(under), 240);
        if (GlslDriver.cpuBits()) {
            c.assertAgrees(TOLERANCE, true);
        } else {
            c.assertStatisticsAgree(); // friction on the ball (see the class comment)
        }
        assertThat(c.lowestClearance(under)).as("outside the ball's thickness").isGreaterThanOrEqualTo(0.005f - 1e-6f);
        assertThat(c.lowestClearance(under)).as("the cloth lies on the ball").isLessThan(0.01f);
    }

    @Test
    void withoutTheCpusRoundingTetheredClothsStayWithinTheTolerance() {
        SphereCollider under = new SphereCollider("ball", new float[] {0f, 0.8f, 0.1f}, 0.15f, 0.005f, 0.3f);
        Model tethered = tetheredCloth(24);
        StepComparison hanging = compare(false, DEFAULTS, tethered, Environment.earth(), 200);
        assertThat(hanging.afterAll).isLessThanOrEqualTo(TOLERANCE);
        assertThat(hanging.velocityAfterAll).isLessThanOrEqualTo(VELOCITY_TOLERANCE);
        hanging.assertStatisticsAgree();
        compare(false, DEFAULTS, tethered, DeviceTestScenes.earthWith(under), 240).assertStatisticsAgree();
    }


    /** The hanging grid cloth with distance bending and tethers, as by default. */
    private static Model tetheredCloth(int n) {
        return DeviceTestScenes.hangingCloth(new ModelBuilder().bendingModel(BendingModel.DISTANCE), n);
    }

    /** The hanging grid cloth with distance bending, no tethers. */
    static Model hangingCloth(int n) {
        return DeviceTestScenes.hangingCloth(new ModelBuilder().tethers(false).bendingModel(BendingModel.DISTANCE), n);
    }

    /** Whether some color's stretch constraints are not one run of the storage. */
    private static boolean hasScatteredStretchColor(Model m) {
        DistanceConstraints d = m.distances();
        int[] start = d.colorStart();
        byte[] kind = d.kind();
        for (int color = 0; color + 1 < start.length; color++) {
            int last = -2;
            for (int c = start[color]; c < start[color + 1]; c++) {
                if (kind[c] == DistanceKind.STRETCH.code()) {
                    if (last >= 0 && c != last + 1) {
                        return true;
                    }
                    last = c;
                }
            }
        }
        return false;
    }

    /** The dropped cloth with distance bending, no tethers. */
    private static Model droppedCloth(int n, float height) {
        return DeviceTestScenes.droppedCloth(new ModelBuilder().tethers(false).bendingModel(BendingModel.DISTANCE),
                n, height);
    }

    /** Both solvers from rest, step by step. */
    private static StepComparison compare(boolean cpuRounding, XpbdSettings settings, Model model,
                                          Environment env, int steps) {
        String label = String.format("%sGLSL XPBD (%d iterations, %d stretch passes%s%s) vs CPU", cpuRounding ? ""
                : "relaxed ", settings.iterations(), settings.stretchPasses(), settings.rigid() ? ", rigid" : "",
                settings.tethers() && model.tethers().count() > 0 ? ", tethers" : "");
        return StepComparison.run(label, pool -> new XpbdSolver(settings, pool),
                () -> new GlslXpbdSolver(settings, cpuRounding), model, env, DT, steps);
    }
}
