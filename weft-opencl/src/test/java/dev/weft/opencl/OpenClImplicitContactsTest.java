package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.contact.ParticleContacts;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.implicit.ImplicitSettings;
import dev.weft.core.solver.implicit.ImplicitSolver;
import dev.weft.core.solver.implicit.LinearMethod;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.StepComparison;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The OpenCL implicit solver's particle contacts (the CPU's cloth contacts through the filter S, their
 * release test and friction after the solve, then the projection of pairs after the step on {@link
 * DeviceContacts}' grid and Jacobi sweeps) against {@link ImplicitSolver} with the same contacts on one thread:
 * an 8 × 8 cloth dropped 5 cm onto a 10 × 10 cloth lying on the floor (weft-core's {@code
 * SelfCollisionAcrossSolversTest} scene), and the same cloth dropped onto a cloth pinned at its corners, in 480 Hz
 * steps (the step at which that CPU test shows the contacts held through S settle).
 *
 * <p>Tolerance: the cloth-contact kernel does ParticleContacts.normalConstraint's double operations in its order
 * (over the same candidate lists: DeviceContacts' grid sorts each bucket by particle index as the CPU's), the
 * friction after the solve ImplicitContacts.afterSolve's, and the projection is contacts.cl's, which gives the
 * CPU's bits on PoCL; so with fp64 on PoCL both runs agree bit for bit, positions and velocities, after 1 step
 * and after all (asserted exactly). Built relaxed (every real in float, the PCG too; fused multiply-adds;
 * OpenCL's default division and square root) see {@link #RELAXED_TOLERANCE}.
 */
class OpenClImplicitContactsTest {
    /** 8 steps of a 60 Hz frame. */
    private static final float DT = 1f / 480f;
    /** 0.3 s: the upper cloth lands (after about 0.1 s) and rests on the lower one. */
    private static final int STEPS = 144;
    /**
     * Positions within this (m) of the CPU's after {@link #STEPS} steps where the device does not give its bits.
     * Measured with the kernels built relaxed on PoCL (every real in float, the PCG too; fused multiply-adds;
     * OpenCL's default division and square root): 6.3e-6 m (velocities 2.7e-6 m/s) after the 144 steps of the
     * cloth dropped on a cloth on the floor, the same contacts held through S in both runs. 2e-5 m is three
     * times that; a device on which a contact falls on the other side of its reach in one step would part from
     * the CPU by more (a contact distance is 3.1 cm), which this test is there to catch.
     */
    private static final float RELAXED_TOLERANCE = 2e-5f;

    private static boolean cpuBits(OpenClDevice device) {
        return device.fp64() && OpenClAvailable.isPocl(device);
    }

    private static ImplicitSettings settings() {
        return ImplicitSettings.defaults();
    }

    /** The CPU's bits on PoCL with fp64 (after 1 step and after all), else within the relaxed tolerance. */
    private static void agree(StepComparison c, OpenClDevice device) {
        if (cpuBits(device)) {
            assertThat(c.afterOne).as("after one step").isZero();
            c.assertAgrees(0f, true);
        } else {
            c.assertAgrees(RELAXED_TOLERANCE, false);
        }
    }

    private static StepComparison compare(String label, OpenClDevice device, ParticleContactSettings contacts,
                                          Model m, Environment env, int steps) {
        return compare(label, device, settings(), contacts, m, env, steps);
    }

    private static StepComparison compare(String label, OpenClDevice device, ImplicitSettings settings,
                                          ParticleContactSettings contacts, Model m, Environment env, int steps) {
        return StepComparison.run(label, pool -> new ImplicitSolver(settings, pool).withParticleContacts(contacts),
                () -> new OpenClImplicitSolver(settings, device).withParticleContacts(contacts), m, env, DT, steps);
    }

    @Test
    void aClothDroppedOnAClothOnTheFloorHasTheCpusBitsAndStaysAbove() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model m = clothOverCloth(false);
        ParticleContactSettings contacts = ParticleContactSettings.defaults();
        StepComparison one = compare("OpenCL implicit with contacts vs CPU, cloth on cloth,", device, contacts, m,
                floor(), 1);
        agree(one, device);
        StepComparison c = compare("OpenCL implicit with contacts vs CPU, cloth on cloth,", device, contacts, m,
                floor(), STEPS);
        agree(c, device);
        assertUpperStaysAbove(m, c.device.positions());
        assertApart(m, c.device.positions(), contacts);
    }

    @Test
    void aClothDroppedOnAPinnedClothHasTheCpusBitsAndStaysAbove() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model m = clothOverCloth(true);
        ParticleContactSettings contacts = ParticleContactSettings.defaults();
        Environment air = new Environment(new float[] {0f, -9.81f, 0f}, List.of());
        StepComparison c = compare("OpenCL implicit with contacts vs CPU, onto a pinned cloth,", device, contacts, m,
                air, STEPS);
        agree(c, device);
        assertUpperStaysAbove(m, c.device.positions());
        // the check can fail: without contacts the upper cloth falls through the pinned one
        StepComparison without = StepComparison.run("OpenCL implicit without contacts, onto a pinned cloth,",
                pool -> new ImplicitSolver(settings(), pool), () -> new OpenClImplicitSolver(settings(), device), m,
                air, DT, STEPS);
        assertThat(lowestAboveLower(m, without.device.positions())).as("without contacts").isNegative();
    }

    /**
     * Frictionless contacts (the projection's support levels skipped), vertex–triangle contacts, which the
     * CPU's projection runs after the particle sweeps, and the filtered block Jacobi method (the contacts' rows
     * reduced as a plane's): the CPU's bits on PoCL too.
     */
    @Test
    void frictionlessAndVertexTriangleContactsAgreeToo() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model m = clothOverCloth(false);
        agree(compare("OpenCL implicit, frictionless contacts, vs CPU,", device,
                ParticleContactSettings.defaults().withFriction(0f, 0f), m, floor(), STEPS), device);
        ParticleContactSettings faces = ParticleContactSettings.defaults().withVertexTriangle(true);
        StepComparison c = compare("OpenCL implicit, vertex-triangle contacts, vs CPU,", device, faces, m, floor(),
                STEPS);
        agree(c, device);
        assertUpperStaysAbove(m, c.device.positions());
        StepComparison jacobi = compare("OpenCL implicit Jacobi with contacts vs CPU,", device,
                settings().withMethod(LinearMethod.JACOBI), ParticleContactSettings.defaults(), m, floor(), STEPS);
        agree(jacobi, device);
        assertUpperStaysAbove(m, jacobi.device.positions());
    }

    /**
     * The contacts through S are what holds the upper cloth: the device counts as many particles constrained by
     * a cloth contact in S as the CPU, step by step, once it lands (most of the upper cloth's 64 particles).
     */
    @Test
    void asManyParticlesAreHeldThroughTheFilterAsOnTheCpu() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model m = clothOverCloth(false);
        ParticleContactSettings contacts = ParticleContactSettings.defaults();
        State cpu = State.atRest(m);
        State dev = cpu.copy();
        int most = 0;
        try (WorkerPool pool = new WorkerPool(1);
             ImplicitSolver reference = new ImplicitSolver(settings(), pool).withParticleContacts(contacts);
             OpenClImplicitSolver solver = new OpenClImplicitSolver(settings(), device)) {
            solver.withParticleContacts(contacts);
            Environment env = floor();
            for (int k = 0; k < STEPS; k++) {
                reference.step(m, cpu, env, DT);
                solver.step(m, dev, env, DT);
                int expected = reference.lastParticleContactCount();
                if (cpuBits(device)) {
                    assertThat(solver.lastParticleContactCount()).as("in S at step %d", k + 1).isEqualTo(expected);
                }
                most = Math.max(most, solver.lastParticleContactCount());
            }
        }
        assertThat(most).as("upper particles held through S at most").isGreaterThanOrEqualTo(32);
    }

    /**
     * The contact settings changed (three sweeps) right after the first step (from the 41st) in which a pull
     * released contacts, contacts off 10 steps later and on again after 10 more: the device binds the model
     * again each time, with the released-contact flags carried over as the CPU solver keeps them (the step after
     * the change reads them); the CPU's bits throughout on PoCL with fp64, and the contacts' effect shows (the run
     * with the pause ends elsewhere than one without it).
     */
    @Test
    void contactSettingsChangedAndContactsOffAndOnKeepTheCpusBits() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model m = clothOverCloth(false);
        ParticleContactSettings contacts = ParticleContactSettings.defaults();
        Environment env = floor();
        State cpu = State.atRest(m);
        State dev = cpu.copy();
        try (WorkerPool pool = new WorkerPool(1);
             ImplicitSolver reference = new ImplicitSolver(settings(), pool).withParticleContacts(contacts);
             OpenClImplicitSolver solver = new OpenClImplicitSolver(settings(), device).withParticleContacts(contacts)) {
            int changedAt = -1;
            int releasedThen = 0;
            for (int k = 0; k < STEPS; k++) {
                reference.step(m, cpu, env, DT);
                solver.step(m, dev, env, DT);
                if (changedAt < 0 && k >= 40 && released(reference.saveState()) > 0) {
                    // a pull released contacts in this step: they must survive the rebind
                    assertThat(solver.saveState()).as("released flags").isEqualTo(reference.saveState());
                    ParticleContactSettings more = contacts.withIterations(3);
                    reference.withParticleContacts(more);
                    solver.withParticleContacts(more);
                    changedAt = k;
                    releasedThen = released(reference.saveState());
                } else if (changedAt >= 0 && (k == changedAt + 10 || k == changedAt + 20)) {
                    ParticleContactSettings now = k == changedAt + 10 ? null : contacts;
                    reference.withParticleContacts(now);
                    solver.withParticleContacts(now);
                }
            }
            System.out.printf("three sweeps after step %d (%d released), contacts off after step %d, on after %d%n",
                    changedAt + 1, releasedThen, changedAt + 11, changedAt + 21);
            assertThat(changedAt).as("a step that released contacts").isNotNegative();
        }
        float moved = StepComparison.maxDifference(cpu.positions(), dev.positions());
        System.out.printf("settings changed, contacts off and on: max |dx| %.3g m%n", moved);
        if (cpuBits(device)) {
            StepComparison.assertSameBits(cpu, dev);
        } else {
            assertThat(moved).isLessThanOrEqualTo(RELAXED_TOLERANCE);
        }
        assertThat(contactsThroughout(m, env)).as("without the pause the run ends elsewhere")
                .isNotEqualTo(cpu.positions());
    }

    private static int released(byte[] flags) {
        int count = 0;
        if (flags != null) {
            for (byte f : flags) {
                count += f;
            }
        }
        return count;
    }

    /** The CPU run with contacts throughout: its final positions. */
    private static float[] contactsThroughout(Model m, Environment env) {
        State s = State.atRest(m);
        try (WorkerPool pool = new WorkerPool(1);
             ImplicitSolver reference = new ImplicitSolver(settings(), pool)
                     .withParticleContacts(ParticleContactSettings.defaults())) {
            for (int k = 0; k < STEPS; k++) {
                reference.step(m, s, env, DT);
            }
        }
        return s.positions();
    }

    /**
     * The kernels built as a device without the CPU's rounding and without fp64 would run them (see the class
     * comment): within {@link #RELAXED_TOLERANCE}, the statistics within 1 %, the upper cloth still above.
     */
    @Test
    void aRelaxedBuildStaysWithinTheTolerance() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model m = clothOverCloth(false);
        ParticleContactSettings contacts = ParticleContactSettings.defaults();
        StepComparison c = StepComparison.run("relaxed OpenCL implicit with contacts vs CPU, cloth on cloth,",
                pool -> new ImplicitSolver(settings(), pool).withParticleContacts(contacts),
                () -> new OpenClImplicitSolver(settings(), device, OpenClImplicitSolver.DEFAULT_ITERATIONS_PER_CHECK,
                        false).withParticleContacts(contacts), m, floor(), DT, STEPS);
        c.assertAgrees(RELAXED_TOLERANCE, false);
        assertUpperStaysAbove(m, c.device.positions());
    }

    /**
     * An 8 × 8 cloth (0.2 m) laid 5.5 cm above a 10 × 10 one (0.3 m) at 5 mm, which lies on the floor or, where
     * {@code pinned}, hangs from its four corners (at 0.1 m, no floor).
     */
    private static Model clothOverCloth(boolean pinned) {
        ModelBuilder b = new ModelBuilder();
        float y = pinned ? 0.1f : 0.005f;
        ModelObject lower = b.addGridCloth(GridClothSpec.of("lower", 10, 10, 0.3f, 0.3f).withOrigin(-0.15f, y, -0.15f));
        b.addGridCloth(GridClothSpec.of("upper", 8, 8, 0.2f, 0.2f).withOrigin(-0.1f, y + 0.055f, -0.1f));
        if (pinned) {
            b.pinIndices(lower, 0, 9, 90, 99);
        }
        return b.build();
    }

    private static Environment floor() {
        return new Environment(new float[] {0f, -9.81f, 0f}, List.of(PlaneCollider.floor(0f, 0.005f, 0.5f)));
    }

    /**
     * The least height of an upper particle over the lower cloth's particle nearest to it in plan (the lower
     * cloth's 3.3 cm lattice is finer than the contact distance's reach, so that particle stands for the surface
     * under it), m: negative where an upper particle passed below the lower cloth.
     */
    private static float lowestAboveLower(Model m, float[] x) {
        ModelObject lower = m.objects().get(0);
        ModelObject upper = m.objects().get(1);
        float lowest = Float.MAX_VALUE;
        for (int i = upper.firstParticle(); i < upper.firstParticle() + upper.particleCount(); i++) {
            int nearest = -1;
            float best = Float.MAX_VALUE;
            for (int j = lower.firstParticle(); j < lower.firstParticle() + lower.particleCount(); j++) {
                float dx = x[3 * i] - x[3 * j];
                float dz = x[3 * i + 2] - x[3 * j + 2];
                float d2 = dx * dx + dz * dz;
                if (d2 < best) {
                    best = d2;
                    nearest = j;
                }
            }
            lowest = Math.min(lowest, x[3 * i + 1] - x[3 * nearest + 1]);
        }
        return lowest;
    }

    /** No upper particle below the lower cloth: each stands at least a tenth of a contact distance above it. */
    private static void assertUpperStaysAbove(Model m, float[] x) {
        float d = new ParticleContacts(m, ParticleContactSettings.defaults()).contactDistance();
        float lowest = lowestAboveLower(m, x);
        System.out.printf("lowest upper particle over the lower cloth: %.4f m (%.2f contact distances)%n", lowest,
                lowest / d);
        assertThat(lowest).as("lowest upper particle over the lower cloth, m").isGreaterThan(0.1f * d);
    }

    /** No non-excluded pair closer than half the contact distance (weft-core's contact tests' bound). */
    private static void assertApart(Model m, float[] x, ParticleContactSettings s) {
        ParticleContacts pairs = new ParticleContacts(m, s);
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
        assertThat((float) Math.sqrt(best)).as("closest non-excluded pair, m")
                .isGreaterThanOrEqualTo(0.5f * pairs.contactDistance());
    }
}
