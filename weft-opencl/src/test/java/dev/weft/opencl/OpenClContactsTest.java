package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.collide.BoxCollider;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.contact.ParticleContacts;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.ParticleContactSolver;
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
import dev.weft.core.testing.StepComparison;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Particle contacts (self- and inter-cloth) on the device ({@link DeviceContacts}) against the CPU's
 * {@link ParticleContacts} inside the same solver on one thread: the drop of weft-core's {@code
 * SelfCollisionAcrossSolversTest} (three 12 × 12 cloths, each turned 17° more, dropped onto a box on the floor,
 * 8 substeps of 1/60 s: the last lands after 0.23 s) and a long strip that folds onto itself on the floor.
 *
 * <p>Tolerance: the contact kernels do the CPU's float operations in its order, the grid's bucket lists and so
 * the candidate lists are the CPU's (each bucket sorted by particle index after the atomic scatter), and the
 * support levels are run to the same fixed point, so on PoCL the runs agree bit for bit, positions and
 * velocities, after 1 and after all steps (asserted exactly there). On another device the square roots and
 * divisions may round differently (OpenCL allows 3 and 2.5 ulp without the correctly-rounded flag) and
 * products may fuse; a contact found on one side of the contact distance in one run and not the other then
 * parts the runs more than a smooth solve would. Built relaxed (contraction and OpenCL's default division and
 * square root, {@link #aRelaxedBuildStaysWithinTheTolerance}) the drop measured 7.5e-9 m after one step and
 * 1.2e-4 m (0.031 m/s) after 320 on PoCL, 3.7e-9 m and 8.1e-4 m (0.055 m/s) on an NVIDIA H100 (2026-11-27).
 * {@link #TOLERANCE}, 1.2e-3 m (a thirtieth of the 3.6 cm contact distance, 1.5 times the H100's: a contact
 * missed for good, not for a substep, parts the runs by centimetres), and the statistics (max strain, residual,
 * energy) must agree within 1 %.
 */
class OpenClContactsTest {
    private static final int CLOTHS = 3;
    private static final int SIDE = 12;
    /** 8 substeps of a 60 Hz frame. */
    private static final float DT = 1f / 480f;
    /** 40 frames: the stack has landed and settled (the CPU test's drop). */
    private static final int STEPS = 320;
    /** Positions within this (m) of the CPU's on a device without the CPU's rounding (see the class comment). */
    private static final float TOLERANCE = 1.2e-3f;
    /**
     * Contact distances no two particles that may touch come closer than at the end: the stack's weight squeezes
     * its contacts by what two Jacobi sweeps a step, averaged over each particle's contacts, leave (measured on
     * PoCL 2.0–2.9 %: 0.979 d for XPBD, 0.980 PD, 0.979 relaxation, 1.000 mass-spring, 0.971 the folded strip);
     * a tenth is allowed. weft-core's own contact tests allow half.
     */
    private static final float APART = 0.9f;

    @Test
    void threeClothsDroppedOnABoxAgreeWithTheCpuAndStayApart() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model m = threeCloths();
        StepComparison c = compare(device, XpbdSettings.defaults(), ParticleContactSettings.defaults(), m, STEPS);
        assertAgreement(device, c);
        ParticleContacts pairs = new ParticleContacts(m, ParticleContactSettings.defaults());
        assertApart("XPBD drop", c.device.positions(), pairs);
        assertStackedInOrder(m, c.device.positions(), pairs.contactDistance());
        // the check can fail: without contacts the same drop ends with the cloths through each other
        StepComparison without = compare(device, XpbdSettings.defaults(), null, m, STEPS);
        assertThat(closestPair(without.device.positions(), pairs)).isLessThan(APART * pairs.contactDistance());
    }

    /**
     * What a device without the CPU's rounding gives (the kernels built relaxed: contraction, OpenCL's
     * default division and square root; see the class comment): within {@link #TOLERANCE} and the
     * statistics within 1 %, the cloths still apart.
     */
    @Test
    void aRelaxedBuildStaysWithinTheTolerance() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model m = threeCloths();
        ParticleContactSettings contacts = ParticleContactSettings.defaults();
        StepComparison c = StepComparison.run("relaxed OpenCL XPBD with contacts vs CPU",
                pool -> new XpbdSolver(XpbdSettings.defaults(), pool).withParticleContacts(contacts),
                () -> new OpenClXpbdSolver(XpbdSettings.defaults(), device, false).withParticleContacts(contacts), m,
                threeClothEnvironment(), DT, STEPS);
        c.assertAgrees(TOLERANCE, false);
        ParticleContacts pairs = new ParticleContacts(m, contacts);
        assertApart("relaxed XPBD drop", c.device.positions(), pairs);
    }

    @Test
    void theJacobiModeAndFrictionlessContactsAgreeToo() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model m = threeCloths();
        XpbdSettings jacobi = XpbdSettings.defaults().withMode(IterationMode.JACOBI);
        assertAgreement(device, compare(device, jacobi, ParticleContactSettings.defaults(), m, STEPS));
        // no friction: the levels are not computed (every particle unsupported); three sweeps
        ParticleContactSettings slippery = ParticleContactSettings.defaults().withFriction(0f, 0f).withIterations(3);
        assertAgreement(device, compare(device, XpbdSettings.defaults(), slippery, m, STEPS));
    }

    /**
     * The contacts' support test asks every collider for its distance (ParticleContacts.collide): a two-sided
     * shell (a tilted board, RectangleCollider, whose signed distance is the magnitude of its side distance)
     * and an ellipsoid beside it, under the three cloths; the CPU's bits on PoCL, the cloths kept apart.
     */
    @Test
    void clothsPiledOnATiltedBoardBesideAnEllipsoidAgreeWithTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model m = threeCloths();
        ParticleContactSettings contacts = ParticleContactSettings.defaults();
        float[] tilt = dev.weft.core.testing.DeviceTestScenes.tilt();
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of(
                new dev.weft.core.collide.RectangleCollider("board", new float[] {0.05f, 0.15f, 0f}, 0.2f, 0.2f,
                        0.005f, 0.5f).withOrientation(tilt),
                new dev.weft.core.collide.EllipsoidCollider("egg", new float[] {-0.2f, 0.1f, 0f},
                        new float[] {0.1f, 0.08f, 0.12f}, 0.005f, 0.5f),
                PlaneCollider.floor(0f, 0.005f, 0.5f)));
        StepComparison c = StepComparison.run("OpenCL XPBD with contacts on a board and an egg vs CPU",
                pool -> new XpbdSolver(XpbdSettings.defaults(), pool).withParticleContacts(contacts),
                () -> new OpenClXpbdSolver(XpbdSettings.defaults(), device).withParticleContacts(contacts), m, env, DT,
                STEPS);
        assertAgreement(device, c);
        assertApart("board and egg drop", c.device.positions(), new ParticleContacts(m, contacts));
    }

    /**
     * The support test asks triangle meshes too: a still mesh ball (a MeshCollider shell, whose signed distance is
     * the magnitude of its side distance) and beside it an animated ball rising and widening (an
     * AnimatedMeshCollider, whose distance is the unsigned distance to its current mesh and whose thickness sits
     * elsewhere in its record), under the three cloths; the CPU's bits on PoCL, the cloths kept apart.
     */
    @Test
    void clothsPiledOnAMeshBallBesideAnAnimatedBallAgreeWithTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model m = threeCloths();
        ParticleContactSettings contacts = ParticleContactSettings.defaults();
        dev.weft.core.mesh.TriangleMesh ball = dev.weft.core.collide.Icosphere.of(0.1f, 2);
        float[] low = ball.positions().clone();
        float[] high = ball.positions().clone();
        for (int k = 0; k < low.length; k += 3) {
            low[k] -= 0.2f;
            high[k] = 1.3f * high[k] - 0.2f;
            high[k + 1] += 0.12f;
        }
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of(
                new dev.weft.core.collide.MeshCollider("meshBall", ball, 0.005f, 0.5f)
                        .withPosition(new float[] {0.08f, 0.1f, 0f}),
                new dev.weft.core.collide.AnimatedMeshCollider("risingBall", List.of(
                        new dev.weft.core.mesh.TriangleMesh(low, null, ball.triangles()),
                        new dev.weft.core.mesh.TriangleMesh(high, null, ball.triangles())), 2f, false, 0.005f, 0.5f),
                PlaneCollider.floor(0f, 0.005f, 0.5f)));
        StepComparison c = StepComparison.run("OpenCL XPBD with contacts on a mesh ball and an animated ball vs CPU",
                pool -> new XpbdSolver(XpbdSettings.defaults(), pool).withParticleContacts(contacts),
                () -> new OpenClXpbdSolver(XpbdSettings.defaults(), device).withParticleContacts(contacts), m, env, DT,
                STEPS);
        assertAgreement(device, c);
        assertApart("mesh and animated ball drop", c.device.positions(), new ParticleContacts(m, contacts));
    }

    /**
     * The other solvers that take the contacts after their own phase, as their CPU solvers do: Projective
     * Dynamics (red-black inner sweeps), Jakobsen relaxation (colliders inside its passes, and once more after
     * the contacts) and explicit mass-spring (contacts after each stable Verlet step).
     */
    @ParameterizedTest
    @ValueSource(strings = {"pd", "relaxation", "mass-spring"})
    void theOtherPositionBasedSolversAgreeWithTheirCpuSolversAndKeepTheClothsApart(String name) {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model m = threeCloths();
        ParticleContactSettings contacts = ParticleContactSettings.defaults();
        StepComparison c = StepComparison.run("OpenCL " + name + " with contacts vs CPU",
                pool -> cpuSolver(name, pool).withParticleContacts(contacts),
                () -> deviceSolver(name, device).withParticleContacts(contacts), m, threeClothEnvironment(), DT, STEPS);
        assertAgreement(device, c);
        ParticleContacts pairs = new ParticleContacts(m, contacts);
        assertApart(name + " drop", c.device.positions(), pairs);
    }

    private static ParticleContactSolver cpuSolver(String name, WorkerPool pool) {
        switch (name) {
            case "pd":
                return new PdSolver(PdSettings.defaults(), pool);
            case "relaxation":
                return new RelaxationSolver(RelaxationSettings.defaults(), pool);
            default:
                return new MassSpringSolver(MassSpringSettings.defaults(), pool);
        }
    }

    private static OpenClSolver<?> deviceSolver(String name, OpenClDevice device) {
        switch (name) {
            case "pd":
                return new OpenClPdSolver(PdSettings.defaults(), device);
            case "relaxation":
                return new OpenClRelaxationSolver(RelaxationSettings.defaults(), device);
            default:
                return new OpenClMassSpringSolver(MassSpringSettings.defaults(), device);
        }
    }

    @Test
    void aStripFoldingOntoItselfOnTheFloorAgreesWithTheCpuAndCountsTheSameContacts() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        // 6 × 40 particles, 1.2 m long, standing at 85° on the floor, let go: its lower end stops on the floor
        // and the rest comes down onto it
        ModelBuilder b = new ModelBuilder();
        float c = (float) Math.cos(Math.toRadians(85));
        float s = (float) Math.sin(Math.toRadians(85));
        b.addGridCloth(GridClothSpec.of("strip", 6, 40, 0.15f, 1.2f).withOrigin(-0.075f, 0.02f, 0f)
                .withAxes(new float[] {1f, 0f, 0f}, new float[] {0f, s, c}));
        Model m = b.build();
        Environment floor = new Environment(new float[] {0f, -9.81f, 0f},
                List.of(PlaneCollider.floor(0f, 0.005f, 0.5f)));
        ParticleContactSettings settings = ParticleContactSettings.defaults();
        int steps = 800;
        State cpu = State.atRest(m);
        State dev = State.atRest(m);
        int cpuContacts;
        int cpuOverflow;
        int devContacts;
        int devOverflow;
        try (WorkerPool pool = new WorkerPool(1);
             XpbdSolver reference = new XpbdSolver(XpbdSettings.defaults(), pool).withParticleContacts(settings);
             OpenClXpbdSolver solver = new OpenClXpbdSolver(XpbdSettings.defaults(), device)) {
            solver.withParticleContacts(settings);
            for (int k = 0; k < steps; k++) {
                reference.step(m, cpu, floor, DT);
                solver.step(m, dev, floor, DT);
            }
            cpuContacts = reference.particleContacts().lastContactCount();
            cpuOverflow = reference.particleContacts().overflowCount();
            devContacts = solver.lastContactCount();
            devOverflow = solver.contactOverflowCount();
            assertThat(solver.contactDistance()).isEqualTo(reference.particleContacts().contactDistance());
        }
        float dx = StepComparison.maxDifference(cpu.positions(), dev.positions());
        System.out.printf("folding strip, %d steps: max |dx| %.3g m, contacts %d (CPU %d), overflow %d (CPU %d)%n",
                steps, dx, devContacts, cpuContacts, devOverflow, cpuOverflow);
        assertThat(cpuContacts).as("the strip lies folded on itself").isPositive();
        ParticleContacts pairs = new ParticleContacts(m, settings);
        assertApart("folded strip", dev.positions(), pairs);
        assertThat(devOverflow).isEqualTo(cpuOverflow);
        assertThat(dx).isLessThanOrEqualTo(TOLERANCE);
        if (OpenClAvailable.isPocl(device)) {
            assertThat(devContacts).isEqualTo(cpuContacts);
            StepComparison.assertSameBits(cpu, dev);
        }
    }

    /**
     * Bodies whose materials differ (weft-core's ContactThicknessTest and ContactGripTest: a thick sheet keeps
     * its offset, 2.5 cm, from others, more than the contact distance where two meet; grips 0.6 and 1.5 scale
     * the pair's friction as a product): the per-particle offsets and grips on the device give the CPU's bits.
     */
    @Test
    void bodiesWithTheirOwnThicknessAndGripAgreeWithTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model plain = threeCloths();
        Material base = plain.material(0);
        Model m = plain.withMaterials(new Material[] {base.withThickness(0.05f).withFriction(0.6f),
            base.withFriction(1.5f), base});
        StepComparison c = compare(device, XpbdSettings.defaults(), ParticleContactSettings.defaults(), m, STEPS);
        assertAgreement(device, c);
    }

    /**
     * A cloth pinned along two edges (a hammock) with a smaller cloth dropped onto it, no colliders: pinned
     * particles are the support (level 0) without a collider pass, and they never move. Every solver mode
     * that runs contacts gives the CPU's bits; the dropped cloth rests on the hammock, not through it.
     */
    @Test
    void aClothDroppedIntoAPinnedHammockWithoutCollidersAgreesWithTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        ModelBuilder b = new ModelBuilder();
        ModelObject hammock = b.addGridCloth(GridClothSpec.of("hammock", 16, 16, 0.5f, 0.5f)
                .withOrigin(-0.25f, 0.5f, -0.25f));
        b.pinEdge(hammock, "left").pinEdge(hammock, "right");
        ModelObject falling = b.addGridCloth(GridClothSpec.of("falling", 10, 10, 0.25f, 0.25f)
                .withOrigin(-0.12f, 0.6f, -0.11f));
        Model m = b.build();
        Environment earth = Environment.earth();
        for (XpbdSettings settings : List.of(XpbdSettings.defaults(), XpbdSettings.defaults()
                .withMode(IterationMode.JACOBI))) {
            StepComparison c = StepComparison.run("OpenCL XPBD " + settings.mode().label()
                    + " with contacts, hammock vs CPU",
                    pool -> new XpbdSolver(settings, pool).withParticleContacts(ParticleContactSettings.defaults()),
                    () -> new OpenClXpbdSolver(settings, device)
                            .withParticleContacts(ParticleContactSettings.defaults()), m, earth, DT, STEPS);
            assertAgreement(device, c);
            assertThat(StepComparison.assertPinnedKept(m, c.start.positions(), c.device)).isEqualTo(32);
            // the dropped cloth's middle above the hammock's middle
            float[] x = c.device.positions();
            assertThat(x[3 * falling.gridParticle(5, 5) + 1]).isGreaterThan(x[3 * hammock.gridParticle(8, 8) + 1]);
        }
    }

    /**
     * Twelve 3 × 3 cloths laid 0.1 contact distances apart, one above the other: each particle has up to 5
     * candidates in each other cloth, far more than {@link ParticleContacts#MAX_NEIGHBOURS}. The device keeps
     * the CPU's first 32 in the CPU's order and counts the same overflowing particles; the pile is pushed
     * apart in the same bits.
     */
    @Test
    void overflowingCandidateListsKeepTheCpusFirstCandidatesAndCountTheSame() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        ModelBuilder b = new ModelBuilder();
        float spacing = 0.02f;
        for (int k = 0; k < 12; k++) {
            b.addGridCloth(GridClothSpec.of("layer" + k, 3, 3, 2 * spacing, 2 * spacing)
                    .withOrigin(0f, 0.5f + 0.1f * spacing * k, 0f));
        }
        Model m = b.build();
        ParticleContactSettings settings = ParticleContactSettings.defaults();
        State cpu = State.atRest(m);
        State dev = State.atRest(m);
        try (WorkerPool pool = new WorkerPool(1);
             XpbdSolver reference = new XpbdSolver(XpbdSettings.defaults(), pool).withParticleContacts(settings);
             OpenClXpbdSolver solver = new OpenClXpbdSolver(XpbdSettings.defaults(), device)) {
            solver.withParticleContacts(settings);
            for (int step = 1; step <= 3; step++) {
                reference.step(m, cpu, Environment.earth(), DT);
                solver.step(m, dev, Environment.earth(), DT);
                int overflow = reference.particleContacts().overflowCount();
                System.out.printf("pile, step %d: %d of %d particles overflow (device %d), contacts %d (device %d)%n",
                        step, overflow, m.particleCount(), solver.contactOverflowCount(),
                        reference.particleContacts().lastContactCount(), solver.lastContactCount());
                if (step == 1) {
                    assertThat(overflow).as("the pile overflows the lists").isPositive();
                }
                assertThat(solver.contactOverflowCount()).isEqualTo(overflow);
                if (OpenClAvailable.isPocl(device)) {
                    assertThat(solver.lastContactCount()).isEqualTo(reference.particleContacts().lastContactCount());
                    StepComparison.assertSameBits(cpu, dev);
                }
            }
        }
    }

    /**
     * Contacts turned off and on again between steps (the model is bound again each time, the state uploaded
     * from the host): the CPU solver given the same sequence gives the same bits.
     */
    @Test
    void contactsTurnedOffAndOnBetweenStepsAgreeWithTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model m = threeCloths();
        Environment env = threeClothEnvironment();
        ParticleContactSettings[] phases = {ParticleContactSettings.defaults(), null,
            ParticleContactSettings.defaults().withIterations(3)};
        State cpu = State.atRest(m);
        State dev = State.atRest(m);
        try (WorkerPool pool = new WorkerPool(1);
             XpbdSolver reference = new XpbdSolver(XpbdSettings.defaults(), pool);
             OpenClXpbdSolver solver = new OpenClXpbdSolver(XpbdSettings.defaults(), device)) {
            for (ParticleContactSettings phase : phases) {
                reference.withParticleContacts(phase);
                solver.withParticleContacts(phase);
                assertThat(solver.contactsOn()).isEqualTo(phase != null);
                for (int k = 0; k < 110; k++) {
                    reference.step(m, cpu, env, DT);
                    solver.step(m, dev, env, DT);
                }
            }
        }
        assertThat(StepComparison.maxDifference(cpu.positions(), dev.positions())).isLessThanOrEqualTo(TOLERANCE);
        if (OpenClAvailable.isPocl(device)) {
            StepComparison.assertSameBits(cpu, dev);
        }
    }

    private static void assertAgreement(OpenClDevice device, StepComparison c) {
        assertThat(c.travel).as("the cloths fell").isGreaterThan(0.1f);
        c.assertAgrees(TOLERANCE, OpenClAvailable.isPocl(device));
        if (OpenClAvailable.isPocl(device)) {
            assertThat(c.afterOne).as("PoCL: the CPU's bits after one step").isZero();
        }
    }

    /** Each cloth's middle above the one that fell before it, by at least half a contact distance. */
    private static void assertStackedInOrder(Model m, float[] x, float contact) {
        List<ModelObject> cloths = m.objects();
        float below = Float.NEGATIVE_INFINITY;
        for (int k = 0; k < CLOTHS; k++) {
            float y = x[3 * cloths.get(k).gridParticle(SIDE / 2, SIDE / 2) + 1];
            assertThat(y).as("cloth %d middle height", k).isGreaterThan(below + 0.5f * contact);
            below = y;
        }
    }

    private static StepComparison compare(OpenClDevice device, XpbdSettings settings, ParticleContactSettings contacts,
                                          Model m, int steps) {
        String label = "OpenCL XPBD " + settings.mode().label() + (contacts == null ? " without contacts"
                : " with contacts (μ " + contacts.staticFriction() + ", " + contacts.iterations() + " sweeps)")
                + " vs CPU";
        return StepComparison.run(label, pool -> new XpbdSolver(settings, pool).withParticleContacts(contacts),
                () -> new OpenClXpbdSolver(settings, device).withParticleContacts(contacts), m, threeClothEnvironment(),
                DT, steps);
    }

    /** weft-core's SelfCollisionAcrossSolversTest cloths: three 12 × 12 cloths 8 cm apart, each turned 17° more. */
    private static Model threeCloths() {
        ModelBuilder b = new ModelBuilder();
        for (int k = 0; k < CLOTHS; k++) {
            double a = Math.toRadians(17 * k);
            float c = (float) Math.cos(a);
            float s = (float) Math.sin(a);
            float half = 0.2f;
            b.addGridCloth(GridClothSpec.of("cloth" + k, SIDE, SIDE, 2 * half, 2 * half)
                    .withOrigin(-half * c - half * s, 0.3f + 0.08f * k, half * s - half * c)
                    .withAxes(new float[] {c, 0f, -s}, new float[] {s, 0f, c}));
        }
        return b.build();
    }

    private static Environment threeClothEnvironment() {
        return new Environment(new float[] {0f, -9.81f, 0f}, List.of(
                new BoxCollider("box", new float[] {0f, 0.1f, 0f}, new float[] {0.15f, 0.1f, 0.15f}, 0.005f, 0.5f),
                PlaneCollider.floor(0f, 0.005f, 0.5f)));
    }

    /**
     * No two particles that may touch (not excluded) closer than {@link #APART} contact distances at the end,
     * m; printed as a share of the contact distance.
     */
    private static void assertApart(String what, float[] x, ParticleContacts pairs) {
        float closest = closestPair(x, pairs);
        System.out.printf("%s: closest non-excluded pair %.4f m, %.3f contact distances%n", what, closest,
                closest / pairs.contactDistance());
        assertThat(closest).as(what + ": closest non-excluded pair, m")
                .isGreaterThanOrEqualTo(APART * pairs.contactDistance());
    }

    /** The closest pair of particles not excluded from contact (brute force). */
    private static float closestPair(float[] x, ParticleContacts pairs) {
        int n = x.length / 3;
        float best = Float.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                float dx = x[3 * i] - x[3 * j];
                float dy = x[3 * i + 1] - x[3 * j + 1];
                float dz = x[3 * i + 2] - x[3 * j + 2];
                float d2 = dx * dx + dy * dy + dz * dz;
                if (d2 < best && !pairs.excluded(i, j)) {
                    best = d2;
                }
            }
        }
        return (float) Math.sqrt(best);
    }
}
