package dev.weft.render.compute;

import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.contact.ParticleContacts;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.solver.DeviceRefusals;
import dev.weft.core.solver.ParticleContactSolver;
import dev.weft.core.step.Environment;

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
 * @param <S> the solver's settings
 */
public abstract sealed class GlslSolver<S> implements ParticleContactSolver
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
        refuseUnsupported(m, env);
        if (state.particleCount() != m.particleCount()) {
            throw new IllegalArgumentException("the state has " + state.particleCount() + " particles, the model "
                    + m.particleCount());
        }
        if (m.particleCount() > 0) {
            gl.enter();
            try {
                bind(m);
                colliders.bind(env.colliders(), particles.surface());
                deviceState.uploadIfChanged(state);
                dispatch(env, dt, colliders.count());
                // the State holds the step's result when step returns
                deviceState.readBack(state);
            } finally {
                gl.exit();
            }
        }
        state.advance(dt);
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

    /** The bound model's particle count. */
    final int particleCount() {
        return n;
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
