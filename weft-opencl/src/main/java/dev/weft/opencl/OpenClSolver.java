package dev.weft.opencl;

import static org.lwjgl.opencl.CL10.clEnqueueNDRangeKernel;
import static org.lwjgl.opencl.CL10.clSetKernelArg1p;

import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.contact.ParticleContacts;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.solver.DeviceRefusals;
import dev.weft.core.solver.ParticleContactSolver;
import dev.weft.core.solver.UnsupportedOnDeviceException;
import dev.weft.core.step.Environment;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryUtil;

/**
 * What the device solvers share: a context and queue of their own on one device, the bound model's
 * particles ({@link DeviceParticles}) and the state ({@link DeviceState}) on the device, the
 * environment's colliders ({@link DeviceColliders}) and air ({@link DeviceAir}), and the frame of a step: refuse what the device
 * does not run, bind the model when it is another one, upload what the host changed, run the solver's
 * kernels, read the state back once. A solver says what it refuses, what it uploads for a model and
 * what a step enqueues.
 *
 * @param <S> the solver's settings
 */
public abstract sealed class OpenClSolver<S> implements ParticleContactSolver
        permits OpenClImplicitSolver, OpenClMassSpringSolver, OpenClPdSolver, OpenClRelaxationSolver,
        OpenClXpbdSolver {
    /** The relaxed build (see the solvers' package-private constructors): contraction and mad allowed. */
    static final String RELAXED = "-D WEFT_RELAXED -cl-mad-enable";

    private final S settings;
    /** The solver as its refusals name it ("the OpenCL XPBD solver"). */
    private final String solverName;
    final OpenClContext cl;
    final DeviceParticles particles;
    final DeviceState deviceState;
    private final DeviceColliders colliders;
    /** Wind and drag, set by the solver's constructor ({@link #useAir}). */
    private DeviceAir air;
    /** The particle contacts, made when first turned on (null: never) and kept, with their kernels, when off. */
    private DeviceContacts contacts;
    private boolean contactsOn;
    /** Whether the solver's kernels were built relaxed (its contacts are built the same way). */
    private boolean relaxed;
    /** The per-particle kernels' work size, made once (no allocation in a step). */
    private final PointerBuffer particleWork;
    /** The buffers kept across models ({@link #mirrored}), closed with the solver. */
    private final List<MirroredBuffer> kept = new ArrayList<>();
    private Model model;
    private int n;
    private boolean closed;

    /** A solver on {@code device}, with its own context and queue (released by {@link #close}). */
    OpenClSolver(S settings, OpenClDevice device, String solverName) {
        this.settings = settings;
        this.solverName = solverName;
        this.cl = new OpenClContext(device);
        this.particleWork = MemoryUtil.memAllocPointer(1);
        this.particles = new DeviceParticles(cl);
        this.deviceState = new DeviceState(cl);
        this.colliders = new DeviceColliders(cl);
    }

    /**
     * The solver's air forces, built as its own kernels ({@code cpuRounding}), in double where {@code fp64}
     * (the solvers ask for it only with cpuRounding: relaxed stands for a device without fp64), as floats
     * where {@code floatForces} (what PositionStep's prediction adds), else in the kernels' real precision.
     */
    final void useAir(boolean cpuRounding, boolean fp64, boolean floatForces) {
        air = new DeviceAir(cl, cpuRounding, fp64, floatForces);
    }

    /**
     * The air's force on each particle from the device's positions and velocities now (the step's start),
     * enqueued; the buffer for the prediction's air argument, or 0 (a null buffer: no air) in still air.
     */
    final long airForces(Environment env) {
        return air.compute(env, deviceState.xMem(), deviceState.vMem());
    }

    /**
     * Throws {@link UnsupportedOnDeviceException} when {@code env} has a collider {@code device} cannot run (an
     * ellipsoid or a funnel, computed in double, on a device without double precision); every OpenCL solver
     * refuses it at its first step, a caller can refuse it before anything runs.
     */
    public static void requireCollidersRunOn(OpenClDevice device, Environment env) {
        DeviceColliders.requireDoubles(device, env.colliders());
    }

    public S settings() {
        return settings;
    }

    public OpenClDevice device() {
        return cl.device();
    }

    /**
     * Turns particle contacts on with {@code s} (null: off) where the solver runs them on the device
     * ({@link #runsParticleContacts()}, {@link DeviceContacts}); elsewhere turning them on is refused by name.
     * The model is bound again at the next step: the contacts are built for it.
     */
    @Override
    public OpenClSolver<S> withParticleContacts(ParticleContactSettings s) {
        if (s != null && !runsParticleContacts()) {
            throw DeviceRefusals.particleContacts(solverName);
        }
        if (s == null) {
            if (!contactsOn) {
                return this;
            }
            contactsOn = false;
            contacts.release();
        } else {
            if (contacts == null) {
                // built as the solver's own kernels were: with the CPU's rounding, or relaxed
                boolean cpuRounding = !relaxed;
                contacts = new DeviceContacts(cl, program("contacts.cl", cpuRounding, ""),
                        () -> program("vertex_triangle.cl", cpuRounding, ""));
                if (!contactsPassColliders()) {
                    contacts.withoutColliderPass();
                }
            }
            contacts.use(s);
            contactsOn = true;
        }
        model = null; // bound again (with or without contacts) at the next step
        return this;
    }


    /**
     * Whether the contacts' support levels start from a pass of the step's colliders (PositionStep's contacts,
     * the default); the implicit solver's projection runs none.
     */
    boolean contactsPassColliders() {
        return true;
    }

    /** The device's contacts (null before they were first turned on). */
    final DeviceContacts deviceContacts() {
        return contacts;
    }

    /** Whether this solver runs particle contacts on the device; by default not. */
    boolean runsParticleContacts() {
        return false;
    }

    /** The device's contacts have no CPU {@link ParticleContacts} object: null (see {@link #contactDistance()}). */
    @Override
    public ParticleContacts particleContacts() {
        return null;
    }

    /** Whether particle contacts are on. */
    public boolean contactsOn() {
        return contactsOn;
    }

    /** The contact distance of the bound model, m (NaN when contacts are off or no model is bound yet). */
    public float contactDistance() {
        return contactsOn ? contacts.contactDistance() : Float.NaN;
    }

    /**
     * Particles whose contact candidates overflowed the list in the last step, as the CPU's {@code
     * ParticleContacts.overflowCount()} (reads the device; 0 when contacts are off).
     */
    public int contactOverflowCount() {
        return contactsOn ? contacts.overflowCount() : 0;
    }

    /** Contacts in the last sweep of the last step, as {@code ParticleContacts.lastContactCount()} (reads the device). */
    public int lastContactCount() {
        return contactsOn ? contacts.lastContactCount() : 0;
    }

    /**
     * Particles held off a triangle face in the last step, as {@code ParticleContacts.lastVertexTriangleCount()}
     * (reads the device; 0 when vertex–triangle contacts are off).
     */
    public int lastVertexTriangleCount() {
        return contactsOn ? contacts.lastVertexTriangleCount() : 0;
    }

    /** Entries the vertex–triangle grid's buffers hold (0 when off; for tests: they grow with the positions). */
    int faceGridCapacity() {
        return contactsOn ? contacts.faceGridCapacity() : 0;
    }

    /** The contacts of {@code m} on the solver's step buffers y and d (a solver's bindModel; contacts on, particles). */
    final void bindContacts(Model m, long yMem, long dMem) {
        contacts.bind(m, particles, deviceState, yMem, dMem);
        contacts.collidersChanged(colliders);
    }

    /**
     * PositionStep.finish with the contacts ({@link DeviceContacts#finish}): the velocity scaled by {@code
     * scaleMem}'s factors, or not where it is 0.
     */
    final void finishWithContacts(float invH, long scaleMem) {
        contacts.finish(invH, scaleMem);
    }

    @Override
    public final void step(Model m, State state, Environment env, float dt) {
        steps(m, state, env, dt, 1);
    }

    /** {@code count} steps on the device, the state uploaded (where the host changed it) and read back once. */
    @Override
    public final void steps(Model m, State state, Environment env, float dt, int count) {
        if (toDevice(m, state, env) && count > 0) {
            for (int k = 0; k < count; k++) {
                enqueue(env, dt);
            }
            // the State holds the last step's result when this returns
            readBack(state);
        }
        for (int k = 0; k < count; k++) {
            state.advance(dt);
        }
    }

    /**
     * What a step does before its kernels (also the start of a step taken apart, OpenClPdSolver's
     * iterations): refuses what the device does not run, binds {@code m}, and where it has particles
     * binds the colliders and uploads what the host changed in {@code state}. Returns whether it has any.
     */
    final boolean toDevice(Model m, State state, Environment env) {
        refuseUnsupported(m, env);
        bind(m);
        if (state.particleCount() != n) {
            throw new IllegalArgumentException("the state has " + state.particleCount() + " particles, the model " + n);
        }
        if (n == 0) {
            return false;
        }
        if (colliders.bind(env.colliders(), particles.surface(), n)) {
            collidersChanged(colliders);
            if (contacts != null) {
                contacts.collidersChanged(colliders);
            }
        }
        deviceState.uploadIfChanged(state);
        stepsFrom(state);
        return true;
    }

    /** Reads the state back (blocking), and a projectile's reaction slots into the projectile. */
    final void readBack(State state) {
        deviceState.readBack(state);
        colliders.readReactions(model.invMass());
    }

    /** The state the next steps start from (its step count and time, for a solver's messages); by default unused. */
    void stepsFrom(State state) {
    }

    @Override
    public boolean batchesSteps() {
        return true;
    }

    /** Throws {@link UnsupportedOnDeviceException} for what the solver does not run on the device. */
    abstract void refuseUnsupported(Model m, Environment env);

    /** Throws for a model the solver cannot bind, before the bound one is released; by default none. */
    void requireBindable(Model m) {
    }

    /** Before {@code next} replaces the bound model (its buffers still there): what must carry over; by default none. */
    void beforeRebind(Model next) {
    }

    /**
     * The solver's own data for {@code m}, after its particles and state buffers are bound: host
     * arrays always, device buffers and kernel arguments where it has particles.
     */
    abstract void bindModel(Model m);

    /** The collider buffers are new ones: the kernels' collider arguments are set again. */
    abstract void collidersChanged(DeviceColliders c);

    /** One step of {@code dt}'s kernels, the state on the device being the host's. */
    abstract void enqueue(Environment env, float dt);

    /** Releases the device buffers {@link #bindModel} made (also what it allocated off the heap). */
    abstract void releaseModelBuffers();

    /** Frees what the solver allocated off the heap at construction; by default nothing. */
    void freeSolverMemory() {
    }

    /** Binds {@code m} (its data uploaded, the state buffers made) unless it is the bound model. */
    final void bind(Model m) {
        if (m == model) {
            return;
        }
        requireBindable(m);
        if (model != null) {
            beforeRebind(m);
        }
        releaseModelBuffers();
        model = m;
        n = m.particleCount();
        particles.bind(m);
        deviceState.bind(n);
        particleWork.put(0, n);
        if (air != null) {
            air.bind(m);
        }
        bindModel(m);
    }

    /**
     * A device buffer the solver keeps from model to model (an edit uploads only what changed in it, runs of
     * constraints an edit shifted moved on the device), released when the solver closes.
     */
    final MirroredBuffer mirrored(String name) {
        MirroredBuffer b = new MirroredBuffer(cl, name, true);
        kept.add(b);
        return b;
    }

    /** The bound model's particle count. */
    final int particleCount() {
        return n;
    }

    /** Builds {@code source} after the shared sources, with the CPU's rounding or relaxed; releases all on failure. */
    final long program(String source, boolean cpuRounding, String defines) {
        relaxed |= !cpuRounding;
        return orClose(() -> cpuRounding ? cl.buildSolver(source, defines) : cl.buildSolverRelaxed(source, RELAXED));
    }

    /** The kernel {@code name} of {@code program}; releases all on failure. */
    final long kernel(long program, String name) {
        return orClose(() -> cl.kernel(program, name));
    }

    private long orClose(LongSupplier make) {
        try {
            return make.getAsLong();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Kernel arguments {@code first}, {@code first + 1}, … set to these buffers. */
    static void bufferArgs(long kernel, String name, int first, long... buffers) {
        for (int a = 0; a < buffers.length; a++) {
            ClCheck.ok(clSetKernelArg1p(kernel, first + a, buffers[a]), name + " argument " + (first + a));
        }
    }

    /** One launch of a per-particle kernel over the bound model's particles. */
    final void launchPerParticle(long kernel, String name) {
        launch(kernel, null, particleWork, name);
    }

    /** One launch of {@code kernel} (1-D): {@code offset} null or its global offset, {@code size} its size. */
    final void launch(long kernel, PointerBuffer offset, PointerBuffer size, String name) {
        ClCheck.ok(clEnqueueNDRangeKernel(cl.queue(), kernel, 1, offset, size, null, null, null), name);
    }

    @Override
    public final void close() {
        if (closed) {
            return;
        }
        closed = true;
        releaseModelBuffers();
        if (contacts != null) {
            contacts.close();
        }
        deviceState.close();
        particles.close();
        for (MirroredBuffer b : kept) {
            b.close();
        }
        colliders.close();
        if (air != null) {
            air.close();
        }
        model = null;
        cl.close();
        MemoryUtil.memFree(particleWork);
        freeSolverMemory();
    }
}
