package dev.weft.opencl;

import static org.lwjgl.opencl.CL10.clEnqueueNDRangeKernel;
import static org.lwjgl.opencl.CL10.clEnqueueReadBuffer;
import static org.lwjgl.opencl.CL10.clEnqueueWriteBuffer;
import static org.lwjgl.opencl.CL10.clSetKernelArg1f;
import static org.lwjgl.opencl.CL10.clSetKernelArg1i;
import static org.lwjgl.opencl.CL10.clSetKernelArg1p;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.ParticleSurface;
import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.contact.ParticleContacts;
import dev.weft.core.model.MaterialParameters;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.solver.ParticleContactSolver;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.massspring.MassSpringSolver;
import dev.weft.core.solver.massspring.StableStep;
import dev.weft.core.springs.SpringSet;
import dev.weft.core.step.Environment;
import dev.weft.core.step.VerletDamping;
import java.util.Arrays;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryUtil;

/**
 * Seed 004's explicit mass-spring cloth on an OpenCL device: {@link MassSpringSolver}'s algorithm
 * (spring forces per spring, gathered per particle in the springs' incidence order, gravity, seed 002's
 * damped Verlet step, the colliders by projection, the velocity from what they moved), the same number
 * of stable Verlet steps per step ({@link StableStep}), in the same float operations (see
 * {@code mass_spring.cl}).
 *
 * <p>Device memory: the model's springs, masses and materials are uploaded when the model changes (an
 * edit makes a new model); positions and velocities live on the device between steps. A step uploads
 * the {@link State}'s positions or velocities only when they differ from what the last step left there
 * (something on the host moved a particle, or another solver ran), runs all its Verlet steps on the
 * device, and reads positions and velocities back once, when it returns.
 *
 * <p>Not yet on the device, refused by name with an {@link UnsupportedOnDeviceException}: tethers (unless
 * {@link MassSpringSettings#tethers()} is off or the model has none), air and wind, particle contacts,
 * and colliders other than still planes and spheres.
 */
public final class OpenClMassSpringSolver implements ParticleContactSolver {
    private final MassSpringSettings settings;
    private final OpenClContext cl;
    private final long springKernel;
    private final long stepKernel;
    /** Work sizes, one entry each, made once (no allocation in a step). */
    private final PointerBuffer springWork = MemoryUtil.memAllocPointer(1);
    private final PointerBuffer particleWork = MemoryUtil.memAllocPointer(1);

    // bound model
    private Model model;
    private int n;
    private int springCount;
    private SpringSet springs;
    private double stableStep;
    private ParticleSurface surface;
    private float[] rate;
    private float[] keep;
    private float keepStep = Float.NaN;
    /** What the device's x and v hold (after the last upload or read-back). */
    private float[] deviceX;
    private float[] deviceV;
    private boolean deviceStateKnown;
    private boolean closed;

    /** The environment's still planes and spheres on the device. */
    private final DeviceColliders deviceColliders;

    // device buffers (0: none)
    private long pairsMem;
    private long restMem;
    private long ksMem;
    private long kdMem;
    private long incidenceStartMem;
    private long incidenceSpringMem;
    private long invMassMem;
    private long keepMem;
    private long gripMem;
    private long offsetMem;
    private long springForceMem;
    private long xMem;
    private long vMem;

    /** A solver on {@code device}, with its own context and queue (released by {@link #close}). */
    public OpenClMassSpringSolver(MassSpringSettings settings, OpenClDevice device) {
        this(settings, device, true);
    }

    /**
     * With {@code cpuRounding} off the kernels are built as a device without the CPU's guarantees would
     * run them (a float gather, fused multiply-adds, OpenCL's default division and square root): how far
     * such a device may drift from the CPU, which the tests measure to justify their tolerance.
     */
    OpenClMassSpringSolver(MassSpringSettings settings, OpenClDevice device, boolean cpuRounding) {
        this.settings = settings;
        this.cl = new OpenClContext(device);
        this.deviceColliders = new DeviceColliders(cl);
        try {
            long program = cpuRounding
                    ? cl.buildSolver("mass_spring.cl", device.fp64() ? "-D WEFT_FP64" : "")
                    : cl.buildSolverRelaxed("mass_spring.cl", "-D WEFT_RELAXED -cl-mad-enable");
            springKernel = cl.kernel(program, "spring_forces");
            stepKernel = cl.kernel(program, "verlet_step");
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    public String name() {
        return "mass-spring";
    }

    public MassSpringSettings settings() {
        return settings;
    }

    public OpenClDevice device() {
        return cl.device();
    }

    /** Particle contacts are not on the device yet: turning them on is refused; null (off) is accepted. */
    @Override
    public OpenClMassSpringSolver withParticleContacts(ParticleContactSettings s) {
        if (s != null) {
            throw new UnsupportedOnDeviceException(DeviceFeature.PARTICLE_CONTACTS, "the OpenCL mass-spring solver "
                    + "does not run self- or inter-cloth contact yet; turn it off or use the cpu backend");
        }
        return this;
    }

    @Override
    public ParticleContacts particleContacts() {
        return null;
    }

    /** The longest stable Verlet step of {@code m}'s springs, in s (as {@link MassSpringSolver#stableStep}). */
    public double stableStep(Model m) {
        bind(m);
        return stableStep;
    }

    /** Verlet steps one {@link #step} of {@code dt} takes (as {@link MassSpringSolver#verletStepsPer}). */
    public int verletStepsPer(Model m, float dt) {
        bind(m);
        return settings.stableSteps() ? StableStep.count(dt, stableStep) : 1;
    }

    /**
     * Throws {@link UnsupportedOnDeviceException} when this solver with {@code settings} would refuse
     * {@code m} in {@code env} (tethers, air, colliders other than still planes and spheres); needs no
     * device, so a caller can refuse before it opens one.
     */
    public static void requireSupported(MassSpringSettings settings, Model m, Environment env) {
        if (settings.tethers() && m.tethers().count() > 0) {
            throw new UnsupportedOnDeviceException(DeviceFeature.TETHERS, "the model has " + m.tethers().count()
                    + " tethers (long-range attachments), which the OpenCL mass-spring solver does not project yet; "
                    + "build the model without them (ModelBuilder.tethers(false)), turn them off "
                    + "(MassSpringSettings.withTethers(false)) or use the cpu backend");
        }
        if (env.hasAir()) {
            throw new UnsupportedOnDeviceException(DeviceFeature.AIR, "air", "the OpenCL mass-spring solver does not "
                    + "compute wind and air drag yet; run without them or use the cpu backend");
        }
        for (Collider c : env.colliders()) {
            OpenClColliders.requireSupported(c);
        }
    }

    @Override
    public void step(Model m, State state, Environment env, float dt) {
        requireSupported(settings, m, env);
        bind(m);
        bindColliders(env.colliders());
        if (state.particleCount() != n) {
            throw new IllegalArgumentException("the state has " + state.particleCount() + " particles, the model " + n);
        }
        int count = verletStepsPer(m, dt);
        float h = dt / count;
        if (n > 0) {
            prepareKeep(h);
            uploadStateIfChanged(state);
            clSetKernelArg1i(stepKernel, 9, deviceColliders.count());
            clSetKernelArg1f(stepKernel, 12, h);
            clSetKernelArg1f(stepKernel, 13, 1f / h);
            clSetKernelArg1f(stepKernel, 14, env.gravityX());
            clSetKernelArg1f(stepKernel, 15, env.gravityY());
            clSetKernelArg1f(stepKernel, 16, env.gravityZ());
            long queue = cl.queue();
            for (int k = 0; k < count; k++) {
                if (springCount > 0) {
                    ClCheck.ok(clEnqueueNDRangeKernel(queue, springKernel, 1, null, springWork, null, null, null),
                            "spring_forces");
                }
                ClCheck.ok(clEnqueueNDRangeKernel(queue, stepKernel, 1, null, particleWork, null, null, null),
                        "verlet_step");
            }
            // blocking reads: the State holds the step's result when step returns
            ClCheck.ok(clEnqueueReadBuffer(queue, xMem, true, 0L, state.positions(), null, null), "read positions");
            ClCheck.ok(clEnqueueReadBuffer(queue, vMem, true, 0L, state.velocities(), null, null), "read velocities");
            System.arraycopy(state.positions(), 0, deviceX, 0, deviceX.length);
            System.arraycopy(state.velocities(), 0, deviceV, 0, deviceV.length);
            deviceStateKnown = true;
        }
        state.advance(dt);
    }

    /** Uploads the model's springs, masses and materials and makes the state buffers, when the model changed. */
    private void bind(Model m) {
        if (m == model) {
            return;
        }
        MaterialParameters.requireFinite(m, "mass-spring");
        MaterialParameters.requireNoElasticTets(m, "mass-spring");
        releaseModelBuffers();
        model = m;
        n = m.particleCount();
        springs = SpringSet.build(m);
        springCount = springs.count();
        float[] w = m.invMass();
        stableStep = StableStep.of(springs, w);
        surface = ParticleSurface.of(m);
        rate = MaterialParameters.particleDamping(m);
        keep = new float[n];
        keepStep = Float.NaN;
        deviceX = new float[3 * n];
        deviceV = new float[3 * n];
        deviceStateKnown = false;
        if (n == 0) {
            return;
        }
        float[] grip = new float[n];
        float[] offset = new float[n];
        for (int i = 0; i < n; i++) {
            grip[i] = surface.grip(i);
            offset[i] = surface.offset(i);
        }
        pairsMem = cl.upload(springs.pairs());
        restMem = cl.upload(springs.restLength());
        ksMem = cl.upload(springs.stiffness());
        kdMem = cl.upload(springs.damping());
        incidenceStartMem = cl.upload(springs.incidenceStart());
        incidenceSpringMem = cl.upload(springs.incidenceSpring());
        invMassMem = cl.upload(w);
        gripMem = cl.upload(grip);
        offsetMem = cl.upload(offset);
        keepMem = cl.buffer(4L * n);
        springForceMem = cl.buffer(12L * Math.max(1, springCount));
        xMem = cl.buffer(12L * n);
        vMem = cl.buffer(12L * n);
        springWork.put(0, springCount);
        particleWork.put(0, n);

        long[] springArgs = {pairsMem, restMem, ksMem, kdMem, xMem, vMem, springForceMem};
        clSetKernelArg1i(springKernel, 0, springCount);
        for (int a = 0; a < springArgs.length; a++) {
            ClCheck.ok(clSetKernelArg1p(springKernel, a + 1, springArgs[a]), "spring_forces argument " + (a + 1));
        }
        clSetKernelArg1i(stepKernel, 0, n);
        long[] stepArgs = {incidenceStartMem, incidenceSpringMem, pairsMem, springForceMem, invMassMem, keepMem, gripMem,
            offsetMem};
        for (int a = 0; a < stepArgs.length; a++) {
            ClCheck.ok(clSetKernelArg1p(stepKernel, a + 1, stepArgs[a]), "verlet_step argument " + (a + 1));
        }
        ClCheck.ok(clSetKernelArg1p(stepKernel, 17, xMem), "verlet_step argument 17");
        ClCheck.ok(clSetKernelArg1p(stepKernel, 18, vMem), "verlet_step argument 18");
    }

    /** The environment's colliders into the device buffers, when they are not what those hold. */
    private void bindColliders(Collider[] colliders) {
        if (n == 0 || !deviceColliders.bind(colliders, surface)) {
            return;
        }
        ClCheck.ok(clSetKernelArg1p(stepKernel, 10, deviceColliders.typeMem()), "verlet_step argument 10");
        ClCheck.ok(clSetKernelArg1p(stepKernel, 11, deviceColliders.dataMem()), "verlet_step argument 11");
    }

    /** Each particle's Verlet share kept over a step of h (PositionStep's factor), uploaded when h changed. */
    private void prepareKeep(float h) {
        if (h == keepStep) {
            return;
        }
        for (int i = 0; i < n; i++) {
            keep[i] = VerletDamping.perStep(MaterialParameters.verletKeepPerFrame(rate[i]), h);
        }
        ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), keepMem, true, 0L, keep, null, null), "write damping");
        keepStep = h;
    }

    /** Uploads positions and velocities that are not what the device already holds. */
    private void uploadStateIfChanged(State state) {
        float[] x = state.positions();
        float[] v = state.velocities();
        if (!deviceStateKnown || !Arrays.equals(x, deviceX)) {
            ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), xMem, true, 0L, x, null, null), "write positions");
            System.arraycopy(x, 0, deviceX, 0, x.length);
        }
        if (!deviceStateKnown || !Arrays.equals(v, deviceV)) {
            ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), vMem, true, 0L, v, null, null), "write velocities");
            System.arraycopy(v, 0, deviceV, 0, v.length);
        }
        deviceStateKnown = true;
    }

    private void releaseModelBuffers() {
        long[] all = {pairsMem, restMem, ksMem, kdMem, incidenceStartMem, incidenceSpringMem, invMassMem, keepMem,
            gripMem, offsetMem, springForceMem, xMem, vMem};
        for (long mem : all) {
            OpenClContext.release(mem);
        }
        pairsMem = restMem = ksMem = kdMem = incidenceStartMem = incidenceSpringMem = invMassMem = keepMem = 0L;
        gripMem = offsetMem = springForceMem = xMem = vMem = 0L;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        releaseModelBuffers();
        deviceColliders.close();
        model = null;
        cl.close();
        MemoryUtil.memFree(springWork);
        MemoryUtil.memFree(particleWork);
    }
}
