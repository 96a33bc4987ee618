package dev.weft.opencl;

import static org.lwjgl.opencl.CL10.clSetKernelArg1f;
import static org.lwjgl.opencl.CL10.clSetKernelArg1i;
import static org.lwjgl.opencl.CL10.clSetKernelArg1p;

import dev.weft.core.model.MaterialParameters;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.solver.UnsupportedOnDeviceException;
import dev.weft.core.solver.massspring.MassSpringDeviceLayout;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.massspring.MassSpringSolver;
import dev.weft.core.solver.massspring.StableStep;
import dev.weft.core.springs.SpringSet;
import dev.weft.core.step.Environment;
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
 * edit makes a new model), into buffers kept from model to model ({@link MirroredBuffer}: an edit uploads
 * only what differs); positions and velocities live on the device between steps. A step uploads
 * the {@link State}'s positions or velocities only when they differ from what the last step left there
 * (something on the host moved a particle, or another solver ran), runs all its Verlet steps on the
 * device, and reads positions and velocities back once, when it returns.
 *
 * <p>The model's tethers are projected after each Verlet step's prediction, as the CPU's frame does: with
 * them a Verlet step is three launches (prediction, a launch per tether color, the finish), without them
 * one fused kernel; both give the CPU's float operations.
 *
 * <p>Wind and air drag ({@code Environment.hasAir()}) as on the CPU: {@link DeviceAir}'s forces from the
 * start of each Verlet step enter its prediction (PositionStep's F_air / m).
 *
 * <p>Particle contacts ({@link #withParticleContacts}) run on the device after each Verlet step's prediction
 * and tethers, as the CPU's frame runs them ({@link DeviceContacts}); such a step is the three launches too.
 *
 * <p>Not yet on the device, refused by name with an {@link UnsupportedOnDeviceException}: vertex–triangle
 * contacts, and a projectile with particle contacts (every rigid shape, triangle meshes included, still or
 * moving, animated meshes, grips, projectiles and blades run: {@code colliders.cl}, {@link DeviceColliders}).
 */
public final class OpenClMassSpringSolver extends OpenClSolver<MassSpringSettings> {
    private static final String NAME = "the OpenCL mass-spring solver";
    private final long springKernel;
    private final long stepKernel;
    /** With tethers, the Verlet step in three: prediction, the tethers, the finish (as the CPU's frame). */
    private final long predictKernel;
    private final long finishKernel;
    private final DeviceTethers tethers;
    /** The spring kernel's work size, made once (no allocation in a step). */
    private final PointerBuffer springWork = MemoryUtil.memAllocPointer(1);

    // bound model: its springs, stable step and damping (shared with the GLSL backend)
    private MassSpringDeviceLayout layout;
    private int springCount;

    // device buffers, kept from model to model: an edit uploads only what changed (MirroredBuffer)
    private final MirroredBuffer pairs = mirrored("spring pairs");
    private final MirroredBuffer rest = mirrored("spring rest lengths");
    private final MirroredBuffer ks = mirrored("spring stiffnesses");
    private final MirroredBuffer kd = mirrored("spring dampings");
    private final MirroredBuffer incidenceStart = mirrored("spring incidence starts");
    private final MirroredBuffer incidenceSpring = mirrored("spring incidences");
    private final MirroredBuffer keep = mirrored("Verlet keep factors");
    private final MirroredBuffer springForce = mirrored("spring forces");
    /** The prediction and the tethers' corrections (unused without tethers: one fused kernel per Verlet step). */
    private final MirroredBuffer y = mirrored("predictions");
    private final MirroredBuffer d = mirrored("corrections");

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
        super(settings, device, NAME);
        long program = program("tethers.cl+mass_spring.cl", cpuRounding, device.fp64() ? "-D WEFT_FP64" : "");
        useAir(cpuRounding, cpuRounding && device.fp64(), true);
        springKernel = kernel(program, "spring_forces");
        stepKernel = kernel(program, "verlet_step");
        predictKernel = kernel(program, "verlet_predict");
        finishKernel = kernel(program, "verlet_finish");
        tethers = new DeviceTethers(cl, kernel(program, "spring_tethers"), "spring_tethers", mirrored("tether pairs"),
                mirrored("tether lengths"));
    }

    @Override
    public String name() {
        return "mass-spring";
    }

    /** The longest stable Verlet step of {@code m}'s springs, in s (as {@link MassSpringSolver#stableStep}). */
    public double stableStep(Model m) {
        bind(m);
        return layout.stableStep();
    }

    /** Verlet steps one {@link #step} of {@code dt} takes (as {@link MassSpringSolver#verletStepsPer}). */
    public int verletStepsPer(Model m, float dt) {
        bind(m);
        return verletSteps(dt);
    }

    private int verletSteps(float dt) {
        return layout.verletSteps(settings(), dt);
    }

    /**
     * Throws {@link UnsupportedOnDeviceException} when this solver with {@code settings} would refuse
     * {@code m} in {@code env} (a collider it does not know); needs no device, so a
     * caller can refuse before it opens one.
     */
    public static void requireSupported(MassSpringSettings settings, Model m, Environment env) {
        DeviceColliders.requireSupported(env);
    }

    @Override
    void refuseUnsupported(Model m, Environment env) {
        requireSupported(settings(), m, env);
    }

    @Override
    void requireBindable(Model m) {
        MaterialParameters.requireFinite(m, "mass-spring");
        MaterialParameters.requireNoElasticTetsOnDevice(m, "OpenCL", "mass-spring");
    }

    /** The model's springs and materials uploaded; the kernels' arguments set. */
    @Override
    void bindModel(Model m) {
        int n = particleCount();
        layout = new MassSpringDeviceLayout(m);
        SpringSet springs = layout.springs();
        springCount = springs.count();
        if (n == 0) {
            return;
        }
        pairs.sync(springs.pairs());
        rest.sync(springs.restLength());
        ks.sync(springs.stiffness());
        kd.sync(springs.damping());
        incidenceStart.sync(springs.incidenceStart());
        incidenceSpring.sync(springs.incidenceSpring());
        keep.reserve(n); // written by prepareKeep
        springForce.reserve(3 * springCount);
        long pairsMem = pairs.mem();
        long restMem = rest.mem();
        long ksMem = ks.mem();
        long kdMem = kd.mem();
        long incidenceStartMem = incidenceStart.mem();
        long incidenceSpringMem = incidenceSpring.mem();
        long keepMem = keep.mem();
        long springForceMem = springForce.mem();
        long yMem = 0L;
        long dMem = 0L;
        springWork.put(0, springCount);

        long xMem = deviceState.xMem();
        long vMem = deviceState.vMem();
        clSetKernelArg1i(springKernel, 0, springCount);
        bufferArgs(springKernel, "spring_forces", 1, pairsMem, restMem, ksMem, kdMem, xMem, vMem, springForceMem);
        clSetKernelArg1i(stepKernel, 0, n);
        bufferArgs(stepKernel, "verlet_step", 1, incidenceStartMem, incidenceSpringMem, pairsMem, springForceMem,
                particles.invMassMem(), keepMem, particles.gripMem(), particles.offsetMem());
        bufferArgs(stepKernel, "verlet_step", 17, xMem, vMem);
        if (positionsKept(m)) {
            y.reserve(3 * n);
            d.reserve(3 * n);
            yMem = y.mem();
            dMem = d.mem();
            clSetKernelArg1i(predictKernel, 0, n);
            bufferArgs(predictKernel, "verlet_predict", 1, incidenceStartMem, incidenceSpringMem, pairsMem,
                    springForceMem, particles.invMassMem(), keepMem);
            bufferArgs(predictKernel, "verlet_predict", 11, xMem, vMem, yMem, dMem);
            clSetKernelArg1i(finishKernel, 0, n);
            bufferArgs(finishKernel, "verlet_finish", 1, particles.invMassMem(), particles.gripMem(),
                    particles.offsetMem());
            bufferArgs(finishKernel, "verlet_finish", 8, xMem, vMem, yMem, dMem);
        }
        tethers.bind(m, settings().tethers(), yMem, dMem);
        if (contactsOn()) {
            bindContacts(m, yMem, dMem);
        }
    }

    /**
     * Whether a Verlet step keeps y and d (prediction, then the finish) rather than one fused kernel: where
     * tethers or particle contacts act between them.
     */
    private boolean positionsKept(Model m) {
        return settings().tethers() && m.tethers().count() > 0 || contactsOn();
    }

    /** Particle contacts run on the device (DeviceContacts), after the solver's own phase as on the CPU. */
    @Override
    boolean runsParticleContacts() {
        return true;
    }

    @Override
    void collidersChanged(DeviceColliders c) {
        clSetKernelArg1i(stepKernel, 9, c.count());
        bufferArgs(stepKernel, "verlet_step", 10, c.typeMem(), c.dataMem());
        clSetKernelArg1i(finishKernel, 4, c.count());
        bufferArgs(finishKernel, "verlet_finish", 5, c.typeMem(), c.dataMem());
    }

    /** {@link #verletStepsPer} Verlet steps of dt over that many, each a spring and a particle launch. */
    @Override
    void enqueue(Environment env, float dt) {
        int count = verletSteps(dt);
        float h = dt / count;
        prepareKeep(h);
        clSetKernelArg1f(stepKernel, 12, h);
        clSetKernelArg1f(stepKernel, 13, 1f / h);
        clSetKernelArg1f(stepKernel, 14, env.gravityX());
        clSetKernelArg1f(stepKernel, 15, env.gravityY());
        clSetKernelArg1f(stepKernel, 16, env.gravityZ());
        boolean split = tethers.any() || contactsOn();
        if (split) {
            clSetKernelArg1f(predictKernel, 7, h);
            clSetKernelArg1f(predictKernel, 8, env.gravityX());
            clSetKernelArg1f(predictKernel, 9, env.gravityY());
            clSetKernelArg1f(predictKernel, 10, env.gravityZ());
            clSetKernelArg1f(finishKernel, 7, 1f / h);
        }
        for (int k = 0; k < count; k++) {
            if (springCount > 0) {
                launch(springKernel, null, springWork, "spring_forces");
            }
            // as PositionStep.predict: each Verlet step's air from its start
            long air = airForces(env);
            if (split) {
                ClCheck.ok(clSetKernelArg1p(predictKernel, 15, air), "verlet_predict argument 15");
                launchPerParticle(predictKernel, "verlet_predict");
                tethers.project();
                if (contactsOn()) {
                    finishWithContacts(1f / h, 0L); // the damping is in the Verlet prediction
                } else {
                    launchPerParticle(finishKernel, "verlet_finish");
                }
            } else {
                ClCheck.ok(clSetKernelArg1p(stepKernel, 19, air), "verlet_step argument 19");
                launchPerParticle(stepKernel, "verlet_step");
            }
        }
    }

    /** Each particle's Verlet share kept over a step of h (PositionStep's factor), uploaded when h changed. */
    private void prepareKeep(float h) {
        if (layout.prepare(h)) {
            keep.sync(layout.keep());
        }
    }

    /** The tethers' launch sizes let go; the device buffers are kept for the next model (closed with the solver). */
    @Override
    void releaseModelBuffers() {
        if (tethers != null) { // null when the constructor failed before making it
            tethers.release();
        }
    }

    @Override
    void freeSolverMemory() {
        MemoryUtil.memFree(springWork);
    }
}
