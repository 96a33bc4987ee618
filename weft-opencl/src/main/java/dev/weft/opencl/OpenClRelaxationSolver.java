package dev.weft.opencl;

import static org.lwjgl.opencl.CL10.clSetKernelArg1f;
import static org.lwjgl.opencl.CL10.clSetKernelArg1i;
import static org.lwjgl.opencl.CL10.clSetKernelArg1p;

import dev.weft.core.model.MaterialParameters;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.solver.UnsupportedOnDeviceException;
import dev.weft.core.solver.relaxation.RelaxationDeviceLayout;
import dev.weft.core.solver.relaxation.RelaxationSettings;
import dev.weft.core.solver.relaxation.RelaxationSolver;
import dev.weft.core.step.Environment;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryUtil;

/**
 * Seed 002's Jakobsen relaxation ({@link RelaxationSolver}) on an OpenCL device: the damped Verlet
 * prediction, then per relaxation step every structural and shear constraint as a rigid, mass-weighted
 * distance constraint (one kernel launch per color of the model's distance constraints), the tethers
 * (one launch per tether color, where {@link RelaxationSettings#tethers()} is on) and the colliders
 * on the current positions, then the settle and the velocity, in the CPU solver's float
 * operations and order (see {@code relaxation.cl}), so PoCL gives its bits.
 *
 * <p>Device memory: the model's constraints, masses and tethers are uploaded when the model changes (into
 * buffers kept from model to model, {@link MirroredBuffer}: an edit uploads only what differs); the
 * Verlet damping factors when the step length changes; positions and velocities live on the device and
 * are uploaded only when the {@link State}'s differ from what the last step read back. A step reads
 * positions and velocities back once, when it returns.
 *
 * <p>As on the CPU, distance constraints of kind BEND and bending stencils are not relaxed (seed 002 has
 * no bending), tetrahedra are not simulated, and isometric bending and elastic tetrahedra are refused with
 * the CPU solver's message. Wind and air drag as on the CPU ({@link DeviceAir}'s forces in the prediction).
 * Particle contacts ({@link #withParticleContacts}) run on the device after the relaxation, then the
 * colliders once more, as RelaxationSolver runs them ({@link DeviceContacts}). Not yet on the device, refused
 * by name with an {@link UnsupportedOnDeviceException}: vertex–triangle contacts, and a projectile with particle
 * contacts (every rigid shape, triangle meshes included, still or moving, animated meshes, grips, projectiles and
 * blades run: {@code colliders.cl}, {@link DeviceColliders}).
 */
public final class OpenClRelaxationSolver extends OpenClSolver<RelaxationSettings> {
    private static final String NAME = "the OpenCL relaxation solver";
    private final long predictKernel;
    private final long distanceKernel;
    private final DeviceTethers tethers;
    private final long collideKernel;
    private final long finishKernel;

    // bound model: its relaxed constraints, colors and damping (host side shared with other device backends)
    private RelaxationDeviceLayout layout;
    /** Per color: its first distance constraint and its size (one launch's global offset and size). */
    private PointerBuffer colorOffset;
    private PointerBuffer colorSize;
    private int colors;
    /** The environment's colliders: none skips the inner collider pass, as PositionStep.collideInside does. */
    private int colliderCount;

    // device buffers, kept from model to model: an edit uploads only what changed (MirroredBuffer)
    private final MirroredBuffer pairs = mirrored("distance pairs");
    private final MirroredBuffer rest = mirrored("rest lengths");
    private final MirroredBuffer relaxed = mirrored("relaxed flags");
    private final MirroredBuffer keep = mirrored("Verlet keep factors");
    private final MirroredBuffer y = mirrored("predictions");
    private final MirroredBuffer d = mirrored("corrections");

    /** A solver on {@code device}, with its own context and queue (released by {@link #close}). */
    public OpenClRelaxationSolver(RelaxationSettings settings, OpenClDevice device) {
        this(settings, device, true);
    }

    /**
     * With {@code cpuRounding} off the kernels are built as a device without the CPU's guarantees would
     * run them (fused multiply-adds, OpenCL's default division and square root): how far such a device
     * may drift from the CPU, which the tests measure to justify their tolerance.
     */
    OpenClRelaxationSolver(RelaxationSettings settings, OpenClDevice device, boolean cpuRounding) {
        super(settings, device, NAME);
        long program = program("tethers.cl+relaxation.cl", cpuRounding, "");
        useAir(cpuRounding, cpuRounding && device.fp64(), true);
        predictKernel = kernel(program, "relax_predict");
        distanceKernel = kernel(program, "relax_distances");
        tethers = new DeviceTethers(cl, kernel(program, "relax_tethers"), "relax_tethers", mirrored("tether pairs"),
                mirrored("tether lengths"));
        collideKernel = kernel(program, "relax_collide");
        finishKernel = kernel(program, "relax_finish");
    }

    @Override
    public String name() {
        return "relaxation";
    }

    /**
     * Throws {@link UnsupportedOnDeviceException} when this solver would refuse {@code env} (a collider
     * it does not know); needs no device, so a caller can refuse before it opens one.
     * The model needs nothing the CPU solver would not take.
     */
    public static void requireSupported(RelaxationSettings settings, Model m, Environment env) {
        DeviceColliders.requireSupported(env);
    }

    @Override
    void refuseUnsupported(Model m, Environment env) {
        requireSupported(settings(), m, env);
    }

    /** What RelaxationSolver refuses when it binds a model, with its messages. */
    @Override
    void requireBindable(Model m) {
        MaterialParameters.requireNoIsometricBending(m, "relaxation");
        MaterialParameters.requireNoElasticTetsOnDevice(m, "OpenCL", "relaxation");
    }

    /** The prediction, the relaxation steps (colors, tethers, colliders), the finish. */
    @Override
    void enqueue(Environment env, float dt) {
        prepare(dt);
        clSetKernelArg1f(predictKernel, 3, dt);
        clSetKernelArg1f(predictKernel, 4, env.gravityX());
        clSetKernelArg1f(predictKernel, 5, env.gravityY());
        clSetKernelArg1f(predictKernel, 6, env.gravityZ());
        ClCheck.ok(clSetKernelArg1p(predictKernel, 11, airForces(env)), "relax_predict argument 11");
        launchPerParticle(predictKernel, "relax_predict");
        for (int it = 0; it < settings().iterations(); it++) {
            for (int c = 0; c < colors; c++) {
                if (colorSize.get(c) > 0) {
                    launchColor(distanceKernel, colorOffset, colorSize, c);
                }
            }
            tethers.project();
            if (colliderCount > 0) {
                launchPerParticle(collideKernel, "relax_collide");
            }
        }
        if (contactsOn()) {
            // RelaxationSolver: with contacts the colliders run once more after them; no damping factor after
            finishWithContacts(1f / dt, 0L);
        } else {
            clSetKernelArg1f(finishKernel, 4, 1f / dt);
            launchPerParticle(finishKernel, "relax_finish");
        }
    }

    private void launchColor(long kernel, PointerBuffer offsets, PointerBuffer sizes, int c) {
        offsets.position(c);
        sizes.position(c);
        launch(kernel, offsets, sizes, "relaxation color launch");
    }

    /** The model's constraints and tethers uploaded, the launches' offsets and sizes made; arguments set. */
    @Override
    void bindModel(Model m) {
        int n = particleCount();
        layout = new RelaxationDeviceLayout(m);
        if (n == 0) {
            return;
        }
        int[] colorStart = layout.colorStart();
        colors = colorStart.length - 1;
        colorOffset = MemoryUtil.memAllocPointer(Math.max(1, colors));
        colorSize = MemoryUtil.memAllocPointer(Math.max(1, colors));
        for (int c = 0; c < colors; c++) {
            colorOffset.put(c, colorStart[c]);
            colorSize.put(c, colorStart[c + 1] - colorStart[c]);
        }
        int count = layout.relaxed().length;
        if (count > 0) {
            pairs.sync(m.distances().particles());
            rest.sync(m.distances().restLength());
            relaxed.sync(layout.relaxed());
        } else {
            pairs.reserve(2);
            rest.reserve(1);
            relaxed.reserve(1);
        }
        keep.reserve(n); // written by prepare
        y.reserve(3 * n);
        d.reserve(3 * n);
        long pairsMem = pairs.mem();
        long restMem = rest.mem();
        long relaxedMem = relaxed.mem();
        long keepMem = keep.mem();
        long yMem = y.mem();
        long dMem = d.mem();

        long invMassMem = particles.invMassMem();
        long xMem = deviceState.xMem();
        long vMem = deviceState.vMem();
        clSetKernelArg1i(predictKernel, 0, n);
        bufferArgs(predictKernel, "relax_predict", 1, invMassMem, keepMem);
        bufferArgs(predictKernel, "relax_predict", 7, xMem, vMem, yMem, dMem);
        bufferArgs(distanceKernel, "relax_distances", 0, pairsMem, restMem, relaxedMem, invMassMem, yMem, dMem);
        clSetKernelArg1i(collideKernel, 0, n);
        bufferArgs(collideKernel, "relax_collide", 1, invMassMem, particles.gripMem(), particles.offsetMem());
        bufferArgs(collideKernel, "relax_collide", 7, xMem, yMem, dMem);
        clSetKernelArg1i(finishKernel, 0, n);
        bufferArgs(finishKernel, "relax_finish", 1, invMassMem, particles.gripMem(), particles.offsetMem());
        bufferArgs(finishKernel, "relax_finish", 5, xMem, vMem, yMem, dMem);
        tethers.bind(m, settings().tethers(), yMem, dMem);
        if (contactsOn()) {
            bindContacts(m, yMem, dMem);
        }
    }

    /** Particle contacts run on the device (DeviceContacts), after the solver's own phase as on the CPU. */
    @Override
    boolean runsParticleContacts() {
        return true;
    }

    @Override
    void collidersChanged(DeviceColliders c) {
        colliderCount = c.count();
        clSetKernelArg1i(collideKernel, 4, colliderCount);
        bufferArgs(collideKernel, "relax_collide", 5, c.typeMem(), c.dataMem());
    }

    /** When the step length changed: each particle's Verlet share kept, uploaded. */
    private void prepare(float dt) {
        if (layout.prepare(dt)) {
            keep.sync(layout.keep());
        }
    }

    /** The launch sizes let go; the device buffers are kept for the next model (closed with the solver). */
    @Override
    void releaseModelBuffers() {
        if (tethers != null) { // null when the constructor failed before making it
            tethers.release();
        }
        for (PointerBuffer p : new PointerBuffer[] {colorOffset, colorSize}) {
            if (p != null) {
                MemoryUtil.memFree(p);
            }
        }
        colorOffset = colorSize = null;
        colors = 0;
    }
}
