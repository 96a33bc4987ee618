package dev.weft.render.compute;

import dev.weft.core.model.DistanceConstraints;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.solver.DeviceRefusals;
import dev.weft.core.solver.UnsupportedOnDeviceException;
import dev.weft.core.solver.xpbd.XpbdDeviceLayout;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;

/**
 * {@link XpbdSolver}'s colored mode in OpenGL 4.3 compute shaders, for distance constraints (stretch,
 * shear and distance bending, compliance α = 1/k from the bodies' materials, rigid where the material
 * or {@link XpbdSettings#rigid()} says) and dihedral and isometric bending stencils: the prediction, per
 * iteration one dispatch per color of the distance constraints and, for {@link XpbdSettings#stretchPasses()}
 * beyond the first, one per color of the stretch constraints, then one per color of the bending stencils
 * ({@link GlslBending}), then one per color of the soft bodies' tetrahedra ({@link GlslTets}: volume and
 * shape by TetProjection's coupled step), then one per color of the model's tethers, then the settle, still planes and
 * spheres, velocities and damping, in the CPU solver's float operations and order ({@code xpbd_*.comp},
 * {@code tethers.comp}, {@code position_step.glsl}: ports of weft-opencl's {@code xpbd.cl} and
 * {@code tethers.cl}).
 *
 * <p>The model's tethers (long-range attachments) are projected after each iteration's distance passes,
 * a tether color per dispatch, as {@code XpbdSolver.sweep} does, where {@link XpbdSettings#tethers()} is
 * on ({@link GlslTethers}).
 *
 * <p>Buffers: the model's constraints, masses and materials are uploaded when the model changes; the
 * compliances over h² and the damping factors when h changes; positions and velocities stay in storage
 * buffers and are uploaded only when the {@link State}'s differ from what the last step read back. A
 * step reads positions and velocities back once, when it returns.
 *
 * <p>Not in the shaders yet, refused by name with an {@link UnsupportedOnDeviceException}: the Jacobi and
 * Gauss–Seidel modes, air and wind, particle contacts, and colliders
 * other than still planes and spheres.
 */
public final class GlslXpbdSolver extends GlslSolver<XpbdSettings> {
    private static final String NAME = "the GLSL XPBD solver";
    // binding points of this solver's buffers (xpbd.glsl and the xpbd_*.comp)
    private static final int PAIRS = 7;
    private static final int REST = 8;
    private static final int COMPLIANCES = 9;
    private static final int MULTIPLIERS = 10;
    private static final int STRETCH_ORDER = 11;
    private static final int DAMPING = 12;
    private static final int PREDICTIONS = 13;
    private static final int CORRECTIONS = 14;

    private final int predictProgram;
    private final int distanceProgram;
    private final int rigidProgram;
    private final int listedProgram;
    private final int finishProgram;
    private final Uniforms predict;
    private final Uniforms finish;
    private final GlslTethers tethers;
    private final GlslBending bending;
    private final GlslTets tets;
    private final int[] firstAt = new int[3];
    private final int[] countAt = new int[3];

    // bound model: its colors, stretch passes, compliances and damping (shared with the OpenCL backend)
    private XpbdDeviceLayout layout;
    private int[] buffers = new int[0];
    private int alphaBuffer;
    private int lambdaBuffer;
    private int dampBuffer;

    /** A solver with its own OpenGL 4.3 context (released by {@link #close}); refuses a mode other than colored. */
    public GlslXpbdSolver(XpbdSettings settings) {
        this(settings, true);
    }

    /**
     * With {@code cpuRounding} off the shaders are built as a GPU compiler may treat them (contraction and
     * reassociation allowed, division and square root through reciprocals): how far such a driver may
     * drift from the CPU, which the tests measure to justify their tolerance.
     */
    GlslXpbdSolver(XpbdSettings settings, boolean cpuRounding) {
        super(supported(settings), NAME, cpuRounding);
        enterForSetup();
        try {
            predictProgram = program("", "xpbd.glsl", "xpbd_predict.comp");
            distanceProgram = program("", "xpbd.glsl", "xpbd_distances.comp");
            rigidProgram = program("#define RIGID\n", "xpbd.glsl", "xpbd_distances.comp");
            listedProgram = program("#define LISTED\n", "xpbd.glsl", "xpbd_distances.comp");
            finishProgram = program("", "xpbd.glsl", "position_step.glsl", "xpbd_finish.comp");
            tethers = new GlslTethers(gl, program("", "xpbd.glsl", "tethers.comp"));
            bending = new GlslBending(gl, program("", "xpbd.glsl", "xpbd_bending.comp"),
                    program("#define ISOMETRIC\n", "xpbd.glsl", "xpbd_bending.comp"));
            tets = new GlslTets(gl, program("", "xpbd.glsl", "xpbd_tets.comp"));
            predict = new Uniforms(predictProgram, "h", "gravity");
            finish = new Uniforms(finishProgram, "invH", "colliderCount");
            int[] colored = {distanceProgram, rigidProgram, listedProgram};
            for (int k = 0; k < 3; k++) {
                firstAt[k] = ComputeContext.uniform(colored[k], "first");
                countAt[k] = ComputeContext.uniform(colored[k], "count");
            }
        } catch (RuntimeException e) {
            exitSetup(e);
            throw e;
        }
        exitSetup(null);
    }

    /** A per-particle program's uniform n and two more, by name. */
    private record Uniforms(int program, int n, int a, int b) {
        Uniforms(int program, String a, String b) {
            this(program, ComputeContext.uniform(program, "n"), ComputeContext.uniform(program, a),
                    ComputeContext.uniform(program, b));
        }
    }

    /** Refused before a context is made. */
    private static XpbdSettings supported(XpbdSettings settings) {
        requireSupported(settings);
        return settings;
    }

    @Override
    public String name() {
        return "xpbd";
    }

    /** Throws {@link UnsupportedOnDeviceException} for settings the shaders do not run (a mode other than colored, limits, smoothing). */
    public static void requireSupported(XpbdSettings settings) {
        DeviceRefusals.requireColoredMode(NAME, settings.mode());
        DeviceRefusals.requireNoHostOnlyStretchPasses(NAME, settings);
    }

    /**
     * Throws {@link UnsupportedOnDeviceException} when this solver with {@code settings} would refuse
     * {@code m} in {@code env}; needs no OpenGL, so a caller can refuse before it opens a context.
     */
    public static void requireSupported(XpbdSettings settings, Model m, Environment env) {
        requireSupported(settings);
        DeviceRefusals.requireNoAir(NAME, env);
        DeviceRefusals.requireSupportedColliders(GlslColliders.SOLVERS, env);
    }

    @Override
    void refuseUnsupported(Model m, Environment env) {
        requireSupported(settings(), m, env);
    }

    /** The prediction, the multipliers cleared, the iterations' color sweeps and tethers, the finish. */
    @Override
    void dispatch(Environment env, float dt, int colliderCount) {
        prepare(dt);
        int n = particleCount();
        ComputeContext.setFloat(predictProgram, predict.a(), dt);
        ComputeContext.setVec3(predictProgram, predict.b(), env.gravityX(), env.gravityY(), env.gravityZ());
        ComputeContext.dispatch(predictProgram, n);
        if (layout.count() > 0) {
            ComputeContext.clear(lambdaBuffer, layout.count());
        }
        bending.clearMultipliers();
        tets.clearMultipliers();
        if (layout.count() > 0 || bending.any() || tets.any() || tethers.any()) {
            for (int it = 0; it < settings().iterations(); it++) {
                sweep();
                bending.project(); // XpbdSolver.sweep: the bending colors after the distance passes,
                tets.project(); // the tetrahedra with the bending pass,
                tethers.project(); // and the tethers last
            }
        }
        ComputeContext.setFloat(finishProgram, finish.a(), 1f / dt);
        ComputeContext.setInt(finishProgram, finish.b(), colliderCount);
        ComputeContext.dispatch(finishProgram, n);
    }

    /** One iteration of XpbdSolver's colored distance sweep: every color, then the extra stretch passes. */
    private void sweep() {
        int colors = layout.colors();
        int[] colorStart = layout.colorStart();
        boolean[] colorRigid = layout.colorRigid();
        for (int c = 0; c < colors; c++) {
            int size = colorStart[c + 1] - colorStart[c];
            if (size > 0) {
                launchColor(colorRigid[c] ? 1 : 0, colorStart[c], size);
            }
        }
        int[] stretchColorStart = layout.stretchColorStart();
        boolean[] stretchContiguous = layout.stretchContiguous();
        int[] stretchFirst = layout.stretchFirst();
        for (int pass = 1; pass < settings().stretchPasses(); pass++) {
            for (int c = 0; c < colors; c++) {
                int size = stretchColorStart[c + 1] - stretchColorStart[c];
                if (size > 0) {
                    // as XpbdSolver: a run in storage is swept in place by the multiplier pass, others via the order
                    launchColor(stretchContiguous[c] ? 0 : 2, stretchFirst[c], size);
                }
            }
        }
    }

    /** One dispatch of program {@code k} (plain, rigid, listed) over {@code size} constraints from {@code first}. */
    private void launchColor(int k, int first, int size) {
        int program = k == 0 ? distanceProgram : k == 1 ? rigidProgram : listedProgram;
        ComputeContext.setInt(program, firstAt[k], first);
        ComputeContext.setInt(program, countAt[k], size);
        ComputeContext.dispatch(program, size);
    }

    /** The model's constraints and materials uploaded, the colors' first constraints; uniforms set. */
    @Override
    void bindModel(Model m) {
        int n = particleCount();
        DistanceConstraints dc = m.distances();
        layout = new XpbdDeviceLayout(m, settings());
        int count = layout.count();
        alphaBuffer = gl.buffer(4L * count, COMPLIANCES);
        lambdaBuffer = gl.buffer(4L * count, MULTIPLIERS);
        dampBuffer = gl.buffer(4L * n, DAMPING);
        buffers = new int[] {
            gl.upload(dc.particles(), PAIRS),
            gl.upload(dc.restLength(), REST),
            gl.upload(layout.stretchOrder(), STRETCH_ORDER),
            gl.buffer(12L * n, PREDICTIONS),
            gl.buffer(12L * n, CORRECTIONS),
            alphaBuffer, lambdaBuffer, dampBuffer,
        };
        ComputeContext.setInt(predictProgram, predict.n(), n);
        ComputeContext.setInt(finishProgram, finish.n(), n);
        tethers.bind(m, settings().tethers()); // on the y and d above
        bending.bind(m, layout);
        tets.bind(m, layout);
    }

    /** When h changed: the layout's compliances over h² and damping factors, uploaded. */
    private void prepare(float dt) {
        if (!layout.prepare(dt)) {
            return;
        }
        if (layout.count() > 0) {
            ComputeContext.write(alphaBuffer, layout.compliances());
        }
        ComputeContext.write(dampBuffer, layout.damping());
        bending.uploadCompliances();
        tets.uploadPacked();
    }

    @Override
    void releaseModelBuffers() {
        gl.delete(buffers);
        buffers = new int[0];
        alphaBuffer = lambdaBuffer = dampBuffer = 0;
        if (tethers != null) { // null when the constructor failed before making it
            tethers.release();
        }
        if (bending != null) {
            bending.release();
        }
        if (tets != null) {
            tets.release();
        }
    }
}
