package dev.weft.render.compute;

import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.contact.ParticleContacts;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.solver.DeviceRefusals;
import dev.weft.core.solver.ParticleContactSolver;
import dev.weft.core.step.Environment;
import dev.weft.render.DevicePositions;
import dev.weft.render.EglHeadlessContext;

/**
 * What the GLSL compute solvers share: an OpenGL 4.3 context of their own ({@link ComputeContext}), the
 * bound model's particles ({@link GlslParticles}) and the state ({@link GlslDeviceState}) in shader
 * storage buffers, the environment's colliders ({@link GlslColliders}), and the frame of a step: refuse
 * what the shaders do not run, bind the model when it is another one, upload what the host changed, run
 * the solver's dispatches, read the state back once. Modelled on weft-opencl's {@code OpenClSolver}.
 *
 * <p>The context is current only inside {@link #step} (and construction and {@link #close}); whatever
 * context the thread had current before (a renderer's) is current again when they return.
 *
 * <p>The renderer may draw straight from the positions' storage buffer ({@link DevicePositions}: it draws
 * in this solver's context). {@link #steps} reads the state back once after its steps, not after each;
 * {@link #holdStateOnDevice} skips even that until {@link #readBack} is called, for a caller that only
 * draws; {@link #readBacks} counts the read-backs.
 *
 * @param <S> the solver's settings
 */
public abstract sealed class GlslSolver<S> implements ParticleContactSolver, DevicePositions
        permits GlslMassSpringSolver, GlslXpbdSolver {
    // binding points of the buffers every solver's shaders share (common.glsl, colliders.glsl)
    static final int POSITIONS = 0;
    static final int VELOCITIES = 1;
    static final int INVERSE_MASSES = 2;
    static final int GRIPS = 3;
    static final int OFFSETS = 4;
    static final int COLLIDER_TYPES = 5;
    static final int COLLIDER_RECORDS = 6;

    private final S settings;
    /** "#define WEFT_RELAXED" for the relaxed build (see common.glsl), else nothing. */
    private final String rounding;
    /** The solver as its refusals name it ("the GLSL XPBD solver"). */
    private final String solverName;
    final ComputeContext gl;
    final GlslParticles particles;
    final GlslDeviceState deviceState;
    private final GlslColliders colliders;
    private Model model;
    private int n;
    private boolean closed;
    /** Whether steps leave the state on the device until {@link #readBack}. */
    private boolean hold;
    /** Whether the host's State holds what the buffers hold (false after held steps). */
    private boolean hostCurrent = true;
    private long readBacks;

    /**
     * A solver with its own OpenGL 4.3 context ({@link ComputeContext#open}); released by {@link #close}.
     * {@code cpuRounding} off builds the shaders relaxed (see {@code common.glsl}).
     */
    GlslSolver(S settings, String solverName, boolean cpuRounding) {
        this.settings = settings;
        this.rounding = cpuRounding ? "" : "#define WEFT_RELAXED\n";
        this.solverName = solverName;
        this.gl = ComputeContext.open();
        this.particles = new GlslParticles(gl);
        this.deviceState = new GlslDeviceState(gl);
        this.colliders = new GlslColliders(gl);
    }

    public S settings() {
        return settings;
    }

    /** The EGL platform, OpenGL version and renderer the shaders run on, in one line. */
    public String describeDevice() {
        return gl.description();
    }

    /** Particle contacts are not in the shaders yet: turning them on is refused; null (off) is accepted. */
    @Override
    public GlslSolver<S> withParticleContacts(ParticleContactSettings s) {
        if (s != null) {
            throw DeviceRefusals.particleContacts(solverName);
        }
        return this;
    }

    @Override
    public ParticleContacts particleContacts() {
        return null;
    }

    @Override
    public final void step(Model m, State state, Environment env, float dt) {
        steps(m, state, env, dt, 1);
    }

    /**
     * {@code count} steps of {@code dt}, the state uploaded where the host changed it and read back once,
     * after the last (not at all while {@link #holdStateOnDevice} is on). The same arithmetic as {@code
     * count} calls of {@link #step}: the read-backs between them changed nothing.
     */
    @Override
    public final void steps(Model m, State state, Environment env, float dt, int count) {
        refuseUnsupported(m, env);
        if (state.particleCount() != m.particleCount()) {
            throw new IllegalArgumentException("the state has " + state.particleCount() + " particles, the model "
                    + m.particleCount());
        }
        if (m != model && !hostCurrent) {
            // the held state belongs to the bound model's buffers, which another model's replace
            throw new IllegalStateException("the GLSL solver holds the state on the device: call readBack before "
                    + "stepping another model");
        }
        if (m.particleCount() > 0 && count > 0) {
            gl.enter();
            try {
                bind(m);
                colliders.bind(env.colliders(), particles.surface());
                // while held, the host's copy is the device's last known one: nothing uploads unless the
                // host changed it, which it must do only after readBack (see holdStateOnDevice)
                deviceState.uploadIfChanged(state);
                for (int k = 0; k < count; k++) {
                    dispatch(env, dt, colliders.count());
                }
                if (hold) {
                    hostCurrent = false;
                } else {
                    // the State holds the last step's result when steps returns
                    deviceState.readBack(state);
                    readBacks++;
                    hostCurrent = true;
                }
            } finally {
                gl.exit();
            }
        }
        for (int k = 0; k < count; k++) {
            state.advance(dt);
        }
    }

    /** Substeps without host work between them cost one read-back instead of one each. */
    @Override
    public boolean batchesSteps() {
        return true;
    }

    /**
     * On: the steps leave positions and velocities in the storage buffers (drawn from there, {@link
     * DevicePositions}) and the host's State keeps its last values, its time and step count going on, until
     * {@link #readBack}. Read back before anything reads or changes the State on the host (metrics, exports,
     * a drag): a change to a stale State would be uploaded over the device's newer state. Off (the default):
     * every {@link #step} and {@link #steps} reads back.
     */
    public void holdStateOnDevice(boolean on) {
        hold = on;
    }

    /** Brings the buffers' state into {@code state} if held steps left it on the device; else nothing. */
    public void readBack(State state) {
        if (hostCurrent) {
            return;
        }
        gl.enter();
        try {
            deviceState.readBack(state);
            readBacks++;
            hostCurrent = true;
        } finally {
            gl.exit();
        }
    }

    /** Whether the host's State holds the latest step's result (false after held steps until {@link #readBack}). */
    public boolean hostStateCurrent() {
        return hostCurrent;
    }

    /** How many times the state came back to the host since this solver was made. */
    public long readBacks() {
        return readBacks;
    }

    /** The context the state buffers live in: a renderer drawing from them draws in it. */
    @Override
    public EglHeadlessContext context() {
        return gl.egl();
    }

    /** The bound model's positions, xyz per particle packed (float x[] in std430), as of the last step. */
    @Override
    public int positionsBuffer() {
        return deviceState.positionsBuffer();
    }

    @Override
    public int heldParticles() {
        return deviceState.holdsState() ? n : 0;
    }

    /** The bound model's particle count. */
    final int particleCount() {
        return n;
    }

    /** Throws {@code UnsupportedOnDeviceException} for what the solver does not run in its shaders. */
    abstract void refuseUnsupported(Model m, Environment env);

    /** Throws for a model the solver cannot bind, before the bound one is released; by default none. */
    void requireBindable(Model m) {
    }

    /** The solver's own buffers and uniforms for {@code m}, after its particles and state buffers are bound. */
    abstract void bindModel(Model m);

    /** One step of {@code dt}'s dispatches, the buffers holding the host's state; {@code colliderCount} colliders. */
    abstract void dispatch(Environment env, float dt, int colliderCount);

    /** Deletes the buffers {@link #bindModel} made. */
    abstract void releaseModelBuffers();

    /**
     * Binds {@code m} (its data uploaded, the state buffers made) unless it is the bound model; the
     * context must be entered. Returns the bound model's particle count.
     */
    final int bind(Model m) {
        if (m != model) {
            requireBindable(m);
            releaseModelBuffers();
            model = m;
            n = m.particleCount();
            particles.bind(m);
            deviceState.bind(n);
            bindModel(m);
        }
        return n;
    }

    /** {@link #bind} with the context entered and left around it (for queries outside a step). */
    final void bindOutsideStep(Model m) {
        gl.enter();
        try {
            bind(m);
        } finally {
            gl.exit();
        }
    }

    /**
     * A compute program of {@code common.glsl}, {@code colliders.glsl} and these sources, released with the
     * context; called between {@link #enterForSetup} and {@link #exitSetup}.
     */
    final int program(String defines, String... sources) {
        String[] all = new String[sources.length + 2];
        all[0] = "common.glsl";
        all[1] = "colliders.glsl";
        System.arraycopy(sources, 0, all, 2, sources.length);
        return gl.program(rounding + defines, all);
    }

    /** The context current for a subclass's constructor to build its programs and find its uniforms. */
    final void enterForSetup() {
        gl.enter();
    }

    /** After the setup: the context released; when {@code failure} is not null, everything closed and it rethrown. */
    final void exitSetup(RuntimeException failure) {
        if (failure != null) {
            close();
            throw failure;
        }
        gl.exit();
    }

    @Override
    public final void close() {
        if (closed) {
            return;
        }
        closed = true;
        // the context's close deletes every buffer and program it made
        model = null;
        gl.close();
    }
}
