package dev.weft.render.compute;

import dev.weft.core.model.MaterialParameters;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.solver.DeviceRefusals;
import dev.weft.core.solver.massspring.MassSpringDeviceLayout;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.massspring.MassSpringSolver;
import dev.weft.core.solver.massspring.StableStep;
import dev.weft.core.springs.SpringSet;
import dev.weft.core.step.Environment;
import java.util.Arrays;

/**
 * Seed 004's explicit mass-spring cloth in OpenGL 4.3 compute shaders (seed 004's GLSL column):
 * {@link MassSpringSolver}'s algorithm (spring forces per spring, gathered per particle in the springs'
 * incidence order, gravity, seed 002's damped Verlet step, the colliders by projection, the velocity
 * from what they moved), the same number of stable Verlet steps per step ({@link StableStep}), in the
 * same float operations ({@code mass_spring_forces.comp}, {@code mass_spring_step.comp}: ports of
 * weft-opencl's {@code mass_spring.cl}).
 *
 * <p>The model's tethers are projected after each Verlet step's prediction, as the CPU's frame does: with
 * them a Verlet step's particle half is three kinds of dispatch ({@code mass_spring_predict.comp}, one
 * {@code tethers.comp} per tether color, {@code mass_spring_finish.comp}), without them one fused
 * {@code mass_spring_step.comp}; both give the CPU's float operations.
 *
 * <p>Buffers: the model's springs, masses and materials are uploaded when the model changes (an edit
 * makes a new model); positions and velocities stay in storage buffers between steps and Verlet steps.
 * A step uploads the {@link State}'s positions or velocities only when they differ from what the last
 * step left there, runs all its Verlet steps (two dispatches each without tethers), and reads positions
 * and velocities back once, when it returns.
 *
 * <p>Not in the shaders yet, refused by name with an {@code UnsupportedOnDeviceException}: air and wind,
 * particle contacts, and colliders other than still planes and spheres.
 */
public final class GlslMassSpringSolver extends GlslSolver<MassSpringSettings> {
    private static final String NAME = "the GLSL mass-spring solver";
    // binding points of this solver's buffers (mass_spring.glsl, mass_spring_forces.comp, mass_spring_step.comp)
    private static final int PAIRS = 7;
    private static final int REST = 8;
    private static final int STIFFNESS = 9;
    private static final int DAMPING = 10;
    private static final int FORCES = 11;
    private static final int INCIDENCE_START = 12;
    private static final int INCIDENCE_SPRING = 13;
    private static final int KEEP = 14;
    // with tethers: the prediction and the tethers' corrections (verlet_split.glsl)
    private static final int PREDICTIONS = 15;
    private static final int CORRECTIONS = 16;

    private final int forceProgram;
    private final int stepProgram;
    private final int springCountAt;
    private final int nAt;
    private final int hAt;
    private final int invHAt;
    private final int gravityAt;
    private final int colliderCountAt;
    /** With tethers, the Verlet step's particle half in three: prediction, the tethers, the finish. */
    private final int predictProgram;
    private final int finishProgram;
    private final int predictNAt;
    private final int predictHAt;
    private final int predictGravityAt;
    private final int finishNAt;
    private final int finishInvHAt;
    private final int finishColliderCountAt;
    private final GlslTethers tethers;

    // bound model: its springs, stable step and damping (shared with the OpenCL backend)
    private MassSpringDeviceLayout layout;
    private int springCount;
    private int[] buffers = new int[0];
    private int keepBuffer;

    /** A solver with its own OpenGL 4.3 context (released by {@link #close}). */
    public GlslMassSpringSolver(MassSpringSettings settings) {
        this(settings, true);
    }

    /**
     * With {@code cpuRounding} off the shaders are built as a GPU compiler may treat them (contraction and
     * reassociation allowed, division and square root through reciprocals): how far such a driver may
     * drift from the CPU, which the tests measure to justify their tolerance.
     */
    GlslMassSpringSolver(MassSpringSettings settings, boolean cpuRounding) {
        super(settings, NAME, cpuRounding);
        enterForSetup();
        try {
            forceProgram = program("", "mass_spring.glsl", "mass_spring_forces.comp");
            stepProgram = program("", "mass_spring.glsl", "verlet.glsl", "mass_spring_step.comp");
            predictProgram = program("", "mass_spring.glsl", "verlet.glsl", "verlet_split.glsl",
                    "mass_spring_predict.comp");
            finishProgram = program("", "verlet_split.glsl", "position_step.glsl", "mass_spring_finish.comp");
            tethers = new GlslTethers(gl, program("", "verlet_split.glsl", "tethers.comp"));
            springCountAt = ComputeContext.uniform(forceProgram, "springCount");
            nAt = ComputeContext.uniform(stepProgram, "n");
            hAt = ComputeContext.uniform(stepProgram, "h");
            invHAt = ComputeContext.uniform(stepProgram, "invH");
            gravityAt = ComputeContext.uniform(stepProgram, "gravity");
            colliderCountAt = ComputeContext.uniform(stepProgram, "colliderCount");
            predictNAt = ComputeContext.uniform(predictProgram, "n");
            predictHAt = ComputeContext.uniform(predictProgram, "h");
            predictGravityAt = ComputeContext.uniform(predictProgram, "gravity");
            finishNAt = ComputeContext.uniform(finishProgram, "n");
            finishInvHAt = ComputeContext.uniform(finishProgram, "invH");
            finishColliderCountAt = ComputeContext.uniform(finishProgram, "colliderCount");
        } catch (RuntimeException e) {
            exitSetup(e);
            throw e;
        }
        exitSetup(null);
    }

    @Override
    public String name() {
        return "mass-spring";
    }

    /** The longest stable Verlet step of {@code m}'s springs, in s (as {@link MassSpringSolver#stableStep}). */
    public double stableStep(Model m) {
        bindOutsideStep(m);
        return layout.stableStep();
    }

    /** Verlet steps one {@link #step} of {@code dt} takes (as {@link MassSpringSolver#verletStepsPer}). */
    public int verletStepsPer(Model m, float dt) {
        bindOutsideStep(m);
        return verletSteps(dt);
    }

    private int verletSteps(float dt) {
        return layout.verletSteps(settings(), dt);
    }

    /**
     * Throws {@code UnsupportedOnDeviceException} when this solver with {@code settings} would refuse
     * {@code m} in {@code env} (air, colliders other than still planes and spheres); needs no OpenGL, so a
     * caller can refuse before it opens a context.
     */
    public static void requireSupported(MassSpringSettings settings, Model m, Environment env) {
        DeviceRefusals.requireNoAir(NAME, env);
        DeviceRefusals.requireSupportedColliders(GlslColliders.SOLVERS, env);
    }

    @Override
    void refuseUnsupported(Model m, Environment env) {
        requireSupported(settings(), m, env);
    }

    @Override
    void requireBindable(Model m) {
        MaterialParameters.requireFinite(m, "mass-spring");
        MaterialParameters.requireNoElasticTetsOnDevice(m, "GLSL compute", "mass-spring");
    }

    /** The model's springs and materials uploaded; the uniforms that stay set. */
    @Override
    void bindModel(Model m) {
        int n = particleCount();
        layout = new MassSpringDeviceLayout(m);
        SpringSet springs = layout.springs();
        springCount = springs.count();
        keepBuffer = gl.buffer(4L * n, KEEP);
        buffers = new int[] {
            gl.upload(springs.pairs(), PAIRS),
            gl.upload(springs.restLength(), REST),
            gl.upload(springs.stiffness(), STIFFNESS),
            gl.upload(springs.damping(), DAMPING),
            gl.buffer(12L * springCount, FORCES),
            gl.upload(springs.incidenceStart(), INCIDENCE_START),
            gl.upload(springs.incidenceSpring(), INCIDENCE_SPRING),
            keepBuffer,
        };
        ComputeContext.setInt(forceProgram, springCountAt, springCount);
        ComputeContext.setInt(stepProgram, nAt, n);
        tethers.bind(m, settings().tethers());
        if (tethers.any()) {
            int[] split = {gl.buffer(12L * n, PREDICTIONS), gl.buffer(12L * n, CORRECTIONS)};
            int[] all = Arrays.copyOf(buffers, buffers.length + split.length);
            System.arraycopy(split, 0, all, buffers.length, split.length);
            buffers = all;
            ComputeContext.setInt(predictProgram, predictNAt, n);
            ComputeContext.setInt(finishProgram, finishNAt, n);
        }
    }

    /**
     * {@link #verletStepsPer} Verlet steps of dt over that many, each a spring and a particle dispatch, or
     * with tethers a spring dispatch, the prediction, a dispatch per tether color and the finish.
     */
    @Override
    void dispatch(Environment env, float dt, int colliderCount) {
        int count = verletSteps(dt);
        float h = dt / count;
        prepareKeep(h);
        ComputeContext.setFloat(stepProgram, hAt, h);
        ComputeContext.setFloat(stepProgram, invHAt, 1f / h);
        ComputeContext.setVec3(stepProgram, gravityAt, env.gravityX(), env.gravityY(), env.gravityZ());
        ComputeContext.setInt(stepProgram, colliderCountAt, colliderCount);
        boolean tethered = tethers.any();
        if (tethered) {
            ComputeContext.setFloat(predictProgram, predictHAt, h);
            ComputeContext.setVec3(predictProgram, predictGravityAt, env.gravityX(), env.gravityY(),
                    env.gravityZ());
            ComputeContext.setFloat(finishProgram, finishInvHAt, 1f / h);
            ComputeContext.setInt(finishProgram, finishColliderCountAt, colliderCount);
        }
        int n = particleCount();
        for (int k = 0; k < count; k++) {
            ComputeContext.dispatch(forceProgram, springCount);
            if (tethered) {
                // as MassSpringSolver's frame: the tethers between the prediction and the finish
                ComputeContext.dispatch(predictProgram, n);
                tethers.project();
                ComputeContext.dispatch(finishProgram, n);
            } else {
                ComputeContext.dispatch(stepProgram, n);
            }
        }
    }

    /** Each particle's Verlet share kept over a step of h (PositionStep's factor), uploaded when h changed. */
    private void prepareKeep(float h) {
        if (layout.prepare(h)) {
            ComputeContext.write(keepBuffer, layout.keep());
        }
    }

    @Override
    void releaseModelBuffers() {
        gl.delete(buffers);
        buffers = new int[0];
        keepBuffer = 0;
        if (tethers != null) { // null when the constructor failed before making it
            tethers.release();
        }
    }
}
