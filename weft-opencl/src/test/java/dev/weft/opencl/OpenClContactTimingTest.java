package dev.weft.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.contact.ParticleContactSettings;
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
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What the contact pass costs per step on the device and on the CPU (2 threads), on a 100 × 100 cloth (0.6 m,
 * 6 mm spacing) draped over a ball on the floor: the ms of a step with contacts less the ms of one without,
 * from the same draped state, each the least of {@link #ROUNDS} interleaved rounds of {@link #TIMED} steps (one
 * run; printed). Slow (10⁴ particles): run
 * with {@code -DexcludedTestGroups=none}.
 *
 * <p>What it asserts: the drape with contacts gives the CPU's bits on PoCL at this size too (10⁴ particles in
 * 16384 buckets: hash collisions between cells are common, and the buckets' order must still be the CPU's),
 * and contacts were found.
 */
@Tag("slow")
class OpenClContactTimingTest {
    private static final float DT = 1f / 480f;
    /** 0.5 s: the cloth has landed on the ball and folds around it. */
    private static final int DRAPE = 240;
    private static final int TIMED = 30;
    private static final int ROUNDS = 5;

    @Test
    void theContactPassOfAHundredByHundredClothOnTheDeviceAndOnTwoCpuThreads() {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model m = DeviceTestScenes.droppedCloth(new ModelBuilder(), 100, 0.45f);
        Environment env = new Environment(new float[] {0f, -9.81f, 0f},
                List.of(DeviceTestScenes.ball(), DeviceTestScenes.floor()));
        ParticleContactSettings contacts = ParticleContactSettings.defaults();
        XpbdSettings settings = XpbdSettings.defaults();
        State cpu = State.atRest(m);
        State dev = State.atRest(m);
        try (WorkerPool pool = new WorkerPool(2);
             XpbdSolver cpuWith = new XpbdSolver(settings, pool).withParticleContacts(contacts);
             XpbdSolver cpuWithout = new XpbdSolver(settings, pool);
             OpenClXpbdSolver devWith = new OpenClXpbdSolver(settings, device);
             OpenClXpbdSolver devWithout = new OpenClXpbdSolver(settings, device)) {
            devWith.withParticleContacts(contacts);
            for (int k = 0; k < DRAPE; k++) {
                cpuWith.step(m, cpu, env, DT);
                devWith.step(m, dev, env, DT);
            }
            int found = devWith.lastContactCount();
            assertThat(found).as("contacts in the draped cloth").isEqualTo(cpuWith.particleContacts().lastContactCount())
                    .isPositive();
            if (OpenClAvailable.isPocl(device)) {
                StepComparison.assertSameBits(cpu, dev);
            }
            // the same without friction: no collider pass and no support levels in the contact pass
            ParticleContactSettings slippery = contacts.withFriction(0f, 0f);
            try (XpbdSolver cpuSlippery = new XpbdSolver(settings, pool).withParticleContacts(slippery);
                 OpenClXpbdSolver devSlippery = new OpenClXpbdSolver(settings, device)) {
                devSlippery.withParticleContacts(slippery);
                Solver[] solvers = {cpuWith, cpuWithout, cpuSlippery, devWith, devWithout, devSlippery};
                State[] from = {cpu, cpu, cpu, dev, dev, dev};
                double[] ms = new double[solvers.length];
                java.util.Arrays.fill(ms, Double.POSITIVE_INFINITY);
                // interleaved rounds, the least of each: the machine is shared, and what others run only adds time
                for (int round = 0; round < ROUNDS; round++) {
                    for (int k = 0; k < solvers.length; k++) {
                        ms[k] = Math.min(ms[k], msPerStep(solvers[k], m, from[k], env));
                    }
                }
                System.out.printf("100 x 100 cloth draped (%d contacts, %d overflowing), least of %d rounds of %d steps:%n"
                        + "  %s: step %.3f ms with contacts, %.3f without: contact pass %.3f ms (frictionless %.3f)%n"
                        + "  CPU, 2 threads: step %.3f ms with contacts, %.3f without: contact pass %.3f ms "
                        + "(frictionless %.3f)%n", found, devWith.contactOverflowCount(), ROUNDS, TIMED,
                        device.deviceName(), ms[3], ms[4], ms[3] - ms[4], ms[5] - ms[4], ms[0], ms[1], ms[0] - ms[1],
                        ms[2] - ms[1]);
                assertThat(ms[3]).isPositive();
            }
        }
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
