package dev.weft.opencl;

import static org.lwjgl.opencl.CL12.clEnqueueFillBuffer;
import static org.lwjgl.opencl.CL10.clEnqueueWriteBuffer;
import static org.lwjgl.opencl.CL10.clSetKernelArg1f;
import static org.lwjgl.opencl.CL10.clSetKernelArg1i;
import static org.lwjgl.opencl.CL10.clSetKernelArg1p;

import dev.weft.core.model.BendingConstraints;
import dev.weft.core.model.DistanceConstraints;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.model.TetConstraints;
import dev.weft.core.solver.DeviceRefusals;
import dev.weft.core.solver.UnsupportedOnDeviceException;
import dev.weft.core.solver.xpbd.IterationMode;
import dev.weft.core.solver.xpbd.XpbdDeviceLayout;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import java.nio.ByteBuffer;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryUtil;

/**
 * {@link XpbdSolver}'s colored and Jacobi modes on an OpenCL device, for distance constraints (stretch,
 * shear and distance bending, compliance α = 1/k from the bodies' materials, rigid where the material or
 * {@link XpbdSettings#rigid()} says), dihedral and isometric bending stencils and tethers: the prediction,
 * per iteration the distance passes (colored: one kernel launch per color and, for {@link
 * XpbdSettings#stretchPasses()} beyond the first, one per color of the stretch constraints; Jacobi: every
 * constraint's corrections into its own slots, then a per-particle gather of them in {@code JacobiGather}'s
 * order, once per pass), the bending pass (one launch per stencil color, or corrections and gather), the
 * tethers, then the settle, the colliders, velocities and damping, in the CPU solver's float
 * operations and order (see {@code xpbd.cl}), so PoCL gives its bits. The {@code pbd} solver is this in
 * Jacobi mode ({@code Solvers.pbd}).
 *
 * <p>Device memory: the model's constraints, masses and materials are uploaded when the model changes, into
 * buffers kept from model to model ({@link MirroredBuffer}): an edit (a tear, a cut) uploads only the spans
 * that differ and the particles it appended, and the kernels are built once; the compliances over h² and the
 * damping factors when h or the model changes; positions and velocities live on
 * the device and are uploaded only when the {@link State}'s differ from what the last step read back.
 * A step reads positions and velocities back once, when it returns.
 *
 * <p>The model's tethers (long-range attachments) are projected after each iteration's distance and bending
 * passes, a tether color per launch, as {@code XpbdSolver.sweep} does, where {@link XpbdSettings#tethers()}
 * is on.
 *
 * <p>Wind and air drag ({@code Environment.hasAir()}) as on the CPU: {@link DeviceAir}'s forces from the
 * step's start enter the prediction (PositionStep's F_air / m).
 *
 * <p>Particle contacts ({@link #withParticleContacts}) run on the device after the iterations, as on the CPU
 * ({@link DeviceContacts}: the grid, the candidate lists, the support levels and the Jacobi sweeps, the CPU's
 * bits on PoCL).
 *
 * <p>Soft bodies' tetrahedra ({@code TetProjection}), after each iteration's bending pass: in the colored mode
 * volume and shape of each solved together by the coupled 2 × 2 step, one launch per tetrahedron color ({@code
 * xpbd_tets}); in the Jacobi mode each constraint's correction from the same positions into the tetrahedron's
 * slots ({@code xpbd_jacobi_tets}) and their gather per particle. Both read the rest values and compliances
 * the CPU's own pass computed ({@link XpbdDeviceLayout#tetPacked()}). A model edited by a tear ({@code
 * TetTearing}: split nodes, tetrahedra renumbered) is a new model, bound again: its tetrahedra are synced into
 * the kept buffers like every constraint array.
 *
 * <p>Not yet on the device, refused by name with an {@link UnsupportedOnDeviceException}: the sequential
 * Gauss–Seidel mode, vertex–triangle contacts, and a projectile with particle contacts (every rigid shape,
 * triangle meshes included, still or moving, animated meshes, grips, projectiles and blades run: {@code
 * colliders.cl}, {@link DeviceColliders}).
 */
public final class OpenClXpbdSolver extends OpenClSolver<XpbdSettings> {
    private static final String NAME = "the OpenCL XPBD solver";
    private final long predictKernel;
    private final long distanceKernel;
    private final long rigidKernel;
    private final long listedKernel;
    private final long finishKernel;
    private final DeviceTethers tethers;
    private final long bendingKernel;
    private final long isometricKernel;
    private final long jacobiDistanceKernel;
    /** The same kernel with stretchOnly set: Jacobi's extra stretch passes. */
    private final long jacobiStretchKernel;
    private final long jacobiBendingKernel;
    /** xpbd_jacobi_gather twice, each with its own arguments: the distance slots and the bending slots. */
    private final long distanceGatherKernel;
    private final long bendingGatherKernel;
    private final long tetKernel;
    private final long jacobiTetKernel;
    /** xpbd_jacobi_gather a third time, over the tetrahedra's slots. */
    private final long tetGatherKernel;
    /** Four zero bytes: the pattern the multipliers are cleared with at each step's start. */
    private final ByteBuffer zero = MemoryUtil.memCalloc(4);
    /** Per color: its first distance constraint and its size (one launch's global offset and size). */
    private PointerBuffer colorOffset;
    private PointerBuffer colorSize;
    /** Per color: where its stretch constraints start (in storage, or in stretchOrder) and how many. */
    private PointerBuffer stretchOffset;
    private PointerBuffer stretchSize;
    /** Per bending color: its first stencil and its size. */
    private PointerBuffer bendOffset;
    private PointerBuffer bendSize;
    /** Per tetrahedron color: its first tetrahedron and its size. */
    private PointerBuffer tetOffset;
    private PointerBuffer tetSize;
    /** Jacobi: one launch over all distance constraints, one over all stencils. */
    private PointerBuffer distanceWork;
    private PointerBuffer bendingWork;
    private PointerBuffer tetWork;

    // bound model: its colors, stretch passes, compliances and damping (shared with the GLSL backend)
    private XpbdDeviceLayout layout;

    // device buffers, kept from model to model: an edit uploads only what changed (MirroredBuffer)
    private final MirroredBuffer pairs = mirrored("distance pairs");
    private final MirroredBuffer rest = mirrored("rest lengths");
    private final MirroredBuffer alpha = mirrored("compliances");
    private final MirroredBuffer lambda = mirrored("multipliers");
    private final MirroredBuffer stretchOrder = mirrored("stretch order");
    private final MirroredBuffer damp = mirrored("damping");
    private final MirroredBuffer y = mirrored("predictions");
    private final MirroredBuffer d = mirrored("corrections");
    private final MirroredBuffer bendStencils = mirrored("bending stencils");
    private final MirroredBuffer bendRest = mirrored("bending rest angles");
    private final MirroredBuffer bendAlpha = mirrored("bending compliances");
    private final MirroredBuffer bendLambda = mirrored("bending multipliers");
    private final MirroredBuffer bendModels = mirrored("bending models");
    private final MirroredBuffer isoWeights = mirrored("isometric weights");
    // Jacobi: shared weights, per-slot corrections and the particle -> slot incidences
    private final MirroredBuffer stretchFlags = mirrored("stretch flags");
    private final MirroredBuffer distWeight = mirrored("distance Jacobi weights");
    private final MirroredBuffer distCorrection = mirrored("distance slot corrections");
    private final MirroredBuffer distStart = mirrored("distance incidence starts");
    private final MirroredBuffer distSlots = mirrored("distance incidence slots");
    private final MirroredBuffer bendWeight = mirrored("bending Jacobi weights");
    private final MirroredBuffer bendCorrection = mirrored("bending slot corrections");
    private final MirroredBuffer bendStart = mirrored("bending incidence starts");
    private final MirroredBuffer bendSlots = mirrored("bending incidence slots");
    // the soft bodies' tetrahedra: corners, TetProjection's packed rest values and α̃, the two multipliers each
    private final MirroredBuffer tets = mirrored("tetrahedra");
    private final MirroredBuffer tetPacked = mirrored("tetrahedra's rest values and compliances");
    private final MirroredBuffer tetLambda = mirrored("tetrahedra's multipliers");
    private final MirroredBuffer tetWeight = mirrored("tetrahedra's Jacobi weights");
    private final MirroredBuffer tetCorrection = mirrored("tetrahedra's slot corrections");
    private final MirroredBuffer tetStart = mirrored("tetrahedron incidence starts");
    private final MirroredBuffer tetSlots = mirrored("tetrahedron incidence slots");

    /** A solver on {@code device}, with its own context and queue (released by {@link #close}). */
    public OpenClXpbdSolver(XpbdSettings settings, OpenClDevice device) {
        this(settings, device, true);
    }

    /**
     * With {@code cpuRounding} off the kernels are built as a device without the CPU's guarantees would
     * run them (fused multiply-adds, OpenCL's default division and square root): how far such a device
     * may drift from the CPU, which the tests measure to justify their tolerance.
     */
    OpenClXpbdSolver(XpbdSettings settings, OpenClDevice device, boolean cpuRounding) {
        super(supported(settings), device, NAME);
        long program = program("tethers.cl+xpbd.cl", cpuRounding, "");
        useAir(cpuRounding, cpuRounding && device.fp64(), true);
        predictKernel = kernel(program, "xpbd_predict");
        distanceKernel = kernel(program, "xpbd_distances");
        rigidKernel = kernel(program, "xpbd_rigid_distances");
        listedKernel = kernel(program, "xpbd_listed_distances");
        finishKernel = kernel(program, "xpbd_finish");
        tethers = new DeviceTethers(cl, kernel(program, "xpbd_tethers"), "xpbd_tethers", mirrored("tether pairs"),
                mirrored("tether lengths"));
        bendingKernel = kernel(program, "xpbd_bending");
        isometricKernel = kernel(program, "xpbd_isometric");
        jacobiDistanceKernel = kernel(program, "xpbd_jacobi_distances");
        jacobiStretchKernel = kernel(program, "xpbd_jacobi_distances");
        jacobiBendingKernel = kernel(program, "xpbd_jacobi_bending");
        distanceGatherKernel = kernel(program, "xpbd_jacobi_gather");
        bendingGatherKernel = kernel(program, "xpbd_jacobi_gather");
        tetKernel = kernel(program, "xpbd_tets");
        jacobiTetKernel = kernel(program, "xpbd_jacobi_tets");
        tetGatherKernel = kernel(program, "xpbd_jacobi_gather");
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

    /** Throws {@link UnsupportedOnDeviceException} for settings the device does not run (Gauss–Seidel mode, limits, smoothing). */
    public static void requireSupported(XpbdSettings settings) {
        DeviceRefusals.requireMode(NAME, settings.mode(), IterationMode.COLORED, IterationMode.JACOBI);
        DeviceRefusals.requireNoHostOnlyStretchPasses(NAME, settings);
    }

    /**
     * Throws {@link UnsupportedOnDeviceException} when this solver with {@code settings} would refuse
     * {@code m} in {@code env}; needs no device, so a caller can refuse before it opens one.
     */
    public static void requireSupported(XpbdSettings settings, Model m, Environment env) {
        requireSupported(settings);
        // tetrahedra run in both modes the solver runs (TetProjection's colored and Jacobi sweeps)
        DeviceColliders.requireSupported(env);
    }

    @Override
    void refuseUnsupported(Model m, Environment env) {
        requireSupported(settings(), m, env);
    }

    /** The prediction, the multipliers cleared, the iterations' color sweeps, the finish. */
    @Override
    void enqueue(Environment env, float dt) {
        prepare(dt);
        clSetKernelArg1f(predictKernel, 2, dt);
        clSetKernelArg1f(predictKernel, 3, env.gravityX());
        clSetKernelArg1f(predictKernel, 4, env.gravityY());
        clSetKernelArg1f(predictKernel, 5, env.gravityZ());
        ClCheck.ok(clSetKernelArg1p(predictKernel, 10, airForces(env)), "xpbd_predict argument 10");
        launchPerParticle(predictKernel, "xpbd_predict");
        if (layout.count() > 0) {
            ClCheck.ok(clEnqueueFillBuffer(cl.queue(), lambda.mem(), zero, 0L, 4L * layout.count(), null, null),
                    "clear multipliers");
        }
        if (layout.bendingCount() > 0) {
            ClCheck.ok(clEnqueueFillBuffer(cl.queue(), bendLambda.mem(), zero, 0L, 4L * layout.bendingCount(), null,
                    null), "clear bending multipliers");
        }
        if (layout.tetCount() > 0) {
            ClCheck.ok(clEnqueueFillBuffer(cl.queue(), tetLambda.mem(), zero, 0L, 8L * layout.tetCount(), null,
                    null), "clear tetrahedra's multipliers"); // TetProjection.begin
        }
        if (layout.count() > 0 || layout.bendingCount() > 0 || layout.tetCount() > 0 || tethers.any()) {
            for (int it = 0; it < settings().iterations(); it++) {
                if (jacobi()) {
                    jacobiSweep();
                } else {
                    sweep();
                }
                tethers.project(); // XpbdSolver.sweep: after the distance and bending passes
            }
        }
        if (contactsOn()) {
            finishWithContacts(1f / dt, damp.mem()); // Damping.AFTER: the velocity scaled by the damping factors
        } else {
            clSetKernelArg1f(finishKernel, 8, 1f / dt);
            launchPerParticle(finishKernel, "xpbd_finish");
        }
    }

    private boolean jacobi() {
        return settings().mode() == IterationMode.JACOBI;
    }

    /**
     * One iteration of XpbdSolver's colored sweep: every distance color, then the extra stretch passes, then
     * every bending color, then every tetrahedron color (TetProjection.sweep, in the bending pass).
     */
    private void sweep() {
        int colors = layout.colors();
        int[] colorStart = layout.colorStart();
        boolean[] colorRigid = layout.colorRigid();
        for (int c = 0; c < colors; c++) {
            if (colorStart[c + 1] == colorStart[c]) {
                continue;
            }
            launchColor(colorRigid[c] ? rigidKernel : distanceKernel, colorOffset, colorSize, c);
        }
        int[] stretchColorStart = layout.stretchColorStart();
        boolean[] stretchContiguous = layout.stretchContiguous();
        for (int pass = 1; pass < settings().stretchPasses(); pass++) {
            for (int c = 0; c < colors; c++) {
                if (stretchColorStart[c + 1] == stretchColorStart[c]) {
                    continue;
                }
                // as XpbdSolver: a run in storage is swept in place by the multiplier pass, others via the order
                launchColor(stretchContiguous[c] ? distanceKernel : listedKernel, stretchOffset, stretchSize, c);
            }
        }
        if (layout.bendingCount() > 0) {
            // as XpbdSolver.projectBendingRange: all isometric takes the inlined pass, else a choice per stencil
            long bending = layout.allIsometric() ? isometricKernel : bendingKernel;
            int[] bendStart = layout.bendingColorStart();
            for (int c = 0; c + 1 < bendStart.length; c++) {
                if (bendStart[c + 1] > bendStart[c]) {
                    launchColor(bending, bendOffset, bendSize, c);
                }
            }
        }
        if (layout.tetCount() > 0) {
            int[] tetStart = layout.tetColorStart();
            for (int c = 0; c + 1 < tetStart.length; c++) {
                if (tetStart[c + 1] > tetStart[c]) {
                    launchColor(tetKernel, tetOffset, tetSize, c);
                }
            }
        }
    }

    /**
     * One iteration of XpbdSolver's Jacobi sweep: the distance corrections and their gather, once more per
     * extra stretch pass with the stretch constraints alone, then the bending corrections and their gather,
     * then the tetrahedra's.
     */
    private void jacobiSweep() {
        if (layout.count() > 0) {
            launch(jacobiDistanceKernel, null, distanceWork, "xpbd_jacobi_distances");
            launchPerParticle(distanceGatherKernel, "xpbd_jacobi_gather");
            for (int pass = 1; pass < settings().stretchPasses(); pass++) {
                launch(jacobiStretchKernel, null, distanceWork, "xpbd_jacobi_distances (stretch)");
                launchPerParticle(distanceGatherKernel, "xpbd_jacobi_gather");
            }
        }
        if (layout.bendingCount() > 0) {
            launch(jacobiBendingKernel, null, bendingWork, "xpbd_jacobi_bending");
            launchPerParticle(bendingGatherKernel, "xpbd_jacobi_gather");
        }
        if (layout.tetCount() > 0) { // TetProjection.sweep, with the bending pass
            launch(jacobiTetKernel, null, tetWork, "xpbd_jacobi_tets");
            launchPerParticle(tetGatherKernel, "xpbd_jacobi_gather");
        }
    }

    private void launchColor(long kernel, PointerBuffer offsets, PointerBuffer sizes, int c) {
        offsets.position(c);
        sizes.position(c);
        launch(kernel, offsets, sizes, "xpbd color launch");
    }

    /** The model's constraints and materials uploaded, the launches' offsets and sizes made; arguments set. */
    @Override
    void bindModel(Model m) {
        int n = particleCount();
        DistanceConstraints dc = m.distances();
        layout = new XpbdDeviceLayout(m, settings());
        int count = layout.count();
        int colors = layout.colors();
        if (n == 0) {
            return;
        }
        colorOffset = MemoryUtil.memAllocPointer(Math.max(1, colors));
        colorSize = MemoryUtil.memAllocPointer(Math.max(1, colors));
        stretchOffset = MemoryUtil.memAllocPointer(Math.max(1, colors));
        stretchSize = MemoryUtil.memAllocPointer(Math.max(1, colors));
        int[] colorStart = layout.colorStart();
        int[] stretchColorStart = layout.stretchColorStart();
        for (int c = 0; c < colors; c++) {
            colorOffset.put(c, colorStart[c]);
            colorSize.put(c, colorStart[c + 1] - colorStart[c]);
            stretchOffset.put(c, layout.stretchFirst()[c]);
            stretchSize.put(c, stretchColorStart[c + 1] - stretchColorStart[c]);
        }
        pairs.sync(dc.particles());
        rest.sync(dc.restLength());
        alpha.reserve(count); // written by prepare, as the damping
        lambda.reserve(count);
        stretchOrder.sync(layout.stretchOrder());
        damp.reserve(n);
        y.reserve(3 * n);
        d.reserve(3 * n);
        long pairsMem = pairs.mem();
        long restMem = rest.mem();
        long alphaMem = alpha.mem();
        long lambdaMem = lambda.mem();
        long stretchOrderMem = stretchOrder.mem();
        long dampMem = damp.mem();
        long yMem = y.mem();
        long dMem = d.mem();

        long invMassMem = particles.invMassMem();
        long xMem = deviceState.xMem();
        long vMem = deviceState.vMem();
        clSetKernelArg1i(predictKernel, 0, n);
        bufferArgs(predictKernel, "xpbd_predict", 1, invMassMem);
        bufferArgs(predictKernel, "xpbd_predict", 6, xMem, vMem, yMem, dMem);
        bufferArgs(distanceKernel, "xpbd_distances", 0, pairsMem, restMem, alphaMem, lambdaMem, invMassMem, yMem, dMem);
        bufferArgs(rigidKernel, "xpbd_rigid_distances", 0, pairsMem, restMem, invMassMem, yMem, dMem);
        bufferArgs(listedKernel, "xpbd_listed_distances", 0, stretchOrderMem, pairsMem, restMem, alphaMem, lambdaMem,
                invMassMem, yMem, dMem);
        clSetKernelArg1i(finishKernel, 0, n);
        bufferArgs(finishKernel, "xpbd_finish", 1, invMassMem, dampMem, particles.gripMem(), particles.offsetMem());
        bufferArgs(finishKernel, "xpbd_finish", 9, xMem, vMem, yMem, dMem);
        tethers.bind(m, settings().tethers(), yMem, dMem); // after y and d exist: its kernel reads and writes them
        if (contactsOn()) {
            bindContacts(m, yMem, dMem);
        }
        bindBending(m);
        bindTets(m);
        if (jacobi()) {
            bindJacobi(m);
        }
    }

    /** The model's bending stencils and their color launches (colored mode) or their one launch (Jacobi). */
    private void bindBending(Model m) {
        BendingConstraints b = m.bending();
        int count = b.count();
        if (count == 0) {
            return;
        }
        int[] start = layout.bendingColorStart();
        int colors = start.length - 1;
        bendOffset = MemoryUtil.memAllocPointer(Math.max(1, colors));
        bendSize = MemoryUtil.memAllocPointer(Math.max(1, colors));
        for (int c = 0; c < colors; c++) {
            bendOffset.put(c, start[c]);
            bendSize.put(c, start[c + 1] - start[c]);
        }
        bendStencils.sync(b.particles());
        bendRest.sync(b.restAngle());
        bendAlpha.reserve(count);
        bendLambda.reserve(count);
        bendModels.sync(layout.bendingModels());
        // the isometric weights K (zero for dihedral stencils), only where some stencil needs them
        if (layout.anyIsometric()) {
            isoWeights.sync(m.isometricWeights());
        } else {
            isoWeights.reserve(1);
        }
        long bendStencilsMem = bendStencils.mem();
        long bendRestMem = bendRest.mem();
        long bendAlphaMem = bendAlpha.mem();
        long bendLambdaMem = bendLambda.mem();
        long bendModelsMem = bendModels.mem();
        long isoWeightsMem = isoWeights.mem();
        long yMem = y.mem();
        long dMem = d.mem();
        int anyIsometric = layout.anyIsometric() ? 1 : 0;
        bufferArgs(bendingKernel, "xpbd_bending", 0, bendStencilsMem, bendModelsMem, isoWeightsMem);
        clSetKernelArg1i(bendingKernel, 3, anyIsometric);
        bufferArgs(bendingKernel, "xpbd_bending", 4, bendRestMem, bendAlphaMem, bendLambdaMem, particles.invMassMem(),
                yMem, dMem);
        bufferArgs(isometricKernel, "xpbd_isometric", 0, bendStencilsMem, isoWeightsMem, bendRestMem, bendAlphaMem,
                bendLambdaMem, particles.invMassMem(), yMem, dMem);
    }

    /**
     * The model's tetrahedra: their corners, their color launches, the packed rest values (synced with the
     * compliances by {@link #prepare}) and the multipliers (the Jacobi mode's slots: {@link #bindJacobi}).
     */
    private void bindTets(Model m) {
        TetConstraints t = m.tets();
        int count = t.count();
        if (count == 0) {
            return;
        }
        int[] start = layout.tetColorStart();
        int colors = start.length - 1;
        tetOffset = MemoryUtil.memAllocPointer(Math.max(1, colors));
        tetSize = MemoryUtil.memAllocPointer(Math.max(1, colors));
        for (int c = 0; c < colors; c++) {
            tetOffset.put(c, start[c]);
            tetSize.put(c, start[c + 1] - start[c]);
        }
        tets.sync(t.particles());
        tetPacked.reserve(XpbdDeviceLayout.TET_PACKED * count); // written by prepare, with the α̃ of h
        tetLambda.reserve(2 * count);
        bufferArgs(tetKernel, "xpbd_tets", 0, tets.mem(), tetPacked.mem(), tetLambda.mem(), particles.invMassMem(),
                y.mem(), d.mem());
    }

    /**
     * Jacobi: the shared weights, the per-slot correction buffers and the particle → slot incidences
     * (the model's, whose row order is JacobiGather's), and the Jacobi kernels' arguments.
     */
    private void bindJacobi(Model m) {
        int n = particleCount();
        long invMassMem = particles.invMassMem();
        int count = layout.count();
        if (count > 0) {
            distanceWork = MemoryUtil.memAllocPointer(1);
            distanceWork.put(0, count);
            stretchFlags.sync(layout.stretchFlags());
            distWeight.sync(layout.distanceJacobiWeights());
            distCorrection.reserve(6 * count);
            distStart.sync(m.distanceIncidence().start());
            distSlots.sync(m.distanceIncidence().slots());
            long pairsMem = pairs.mem();
            long restMem = rest.mem();
            long alphaMem = alpha.mem();
            long lambdaMem = lambda.mem();
            long stretchFlagsMem = stretchFlags.mem();
            long distWeightMem = distWeight.mem();
            long distCorrectionMem = distCorrection.mem();
            long distStartMem = distStart.mem();
            long distSlotsMem = distSlots.mem();
            long yMem = y.mem();
            long dMem = d.mem();
            for (long k : new long[] {jacobiDistanceKernel, jacobiStretchKernel}) {
                clSetKernelArg1i(k, 0, count);
                bufferArgs(k, "xpbd_jacobi_distances", 1, pairsMem, restMem, alphaMem, lambdaMem, distWeightMem,
                        stretchFlagsMem);
                clSetKernelArg1i(k, 7, k == jacobiStretchKernel ? 1 : 0);
                bufferArgs(k, "xpbd_jacobi_distances", 8, invMassMem, yMem, dMem, distCorrectionMem);
            }
            clSetKernelArg1i(distanceGatherKernel, 0, n);
            bufferArgs(distanceGatherKernel, "xpbd_jacobi_gather", 1, distStartMem, distSlotsMem, distCorrectionMem,
                    invMassMem, dMem);
        }
        int stencils = layout.bendingCount();
        if (stencils > 0) {
            bendingWork = MemoryUtil.memAllocPointer(1);
            bendingWork.put(0, stencils);
            bendWeight.sync(layout.bendingJacobiWeights());
            bendCorrection.reserve(12 * stencils);
            bendStart.sync(m.bendingIncidence().start());
            bendSlots.sync(m.bendingIncidence().slots());
            long bendStencilsMem = bendStencils.mem();
            long bendModelsMem = bendModels.mem();
            long isoWeightsMem = isoWeights.mem();
            long bendRestMem = bendRest.mem();
            long bendAlphaMem = bendAlpha.mem();
            long bendLambdaMem = bendLambda.mem();
            long bendWeightMem = bendWeight.mem();
            long bendCorrectionMem = bendCorrection.mem();
            long bendStartMem = bendStart.mem();
            long bendSlotsMem = bendSlots.mem();
            long yMem = y.mem();
            long dMem = d.mem();
            clSetKernelArg1i(jacobiBendingKernel, 0, stencils);
            bufferArgs(jacobiBendingKernel, "xpbd_jacobi_bending", 1, bendStencilsMem, bendModelsMem, isoWeightsMem);
            clSetKernelArg1i(jacobiBendingKernel, 4, layout.anyIsometric() ? 1 : 0);
            bufferArgs(jacobiBendingKernel, "xpbd_jacobi_bending", 5, bendRestMem, bendAlphaMem, bendLambdaMem,
                    bendWeightMem, invMassMem, yMem, dMem, bendCorrectionMem);
            clSetKernelArg1i(bendingGatherKernel, 0, n);
            bufferArgs(bendingGatherKernel, "xpbd_jacobi_gather", 1, bendStartMem, bendSlotsMem, bendCorrectionMem,
                    invMassMem, dMem);
        }
        int tetCount = layout.tetCount();
        if (tetCount > 0) {
            tetWork = MemoryUtil.memAllocPointer(1);
            tetWork.put(0, tetCount);
            tetWeight.sync(layout.tetJacobiWeights());
            tetCorrection.reserve(12 * tetCount);
            tetStart.sync(layout.tetIncidence().start());
            tetSlots.sync(layout.tetIncidence().slots());
            clSetKernelArg1i(jacobiTetKernel, 0, tetCount);
            bufferArgs(jacobiTetKernel, "xpbd_jacobi_tets", 1, tets.mem(), tetPacked.mem(), tetLambda.mem(),
                    tetWeight.mem(), invMassMem, y.mem(), d.mem(), tetCorrection.mem());
            clSetKernelArg1i(tetGatherKernel, 0, n);
            bufferArgs(tetGatherKernel, "xpbd_jacobi_gather", 1, tetStart.mem(), tetSlots.mem(), tetCorrection.mem(),
                    invMassMem, d.mem());
        }
    }

    /** Particle contacts run on the device (DeviceContacts), after the iterations as XpbdSolver runs them. */
    @Override
    boolean runsParticleContacts() {
        return true;
    }

    @Override
    void collidersChanged(DeviceColliders c) {
        clSetKernelArg1i(finishKernel, 5, c.count());
        bufferArgs(finishKernel, "xpbd_finish", 6, c.typeMem(), c.dataMem());
    }

    /**
     * When h changed (or the model: a new layout): the layout's compliances over h² and damping factors, the
     * elements that differ from what the device holds uploaded.
     */
    private void prepare(float dt) {
        if (!layout.prepare(dt)) {
            return;
        }
        if (layout.count() > 0) {
            alpha.sync(layout.compliances());
        }
        if (layout.bendingCount() > 0) {
            bendAlpha.sync(layout.bendingCompliances());
        }
        if (layout.tetCount() > 0) {
            tetPacked.sync(layout.tetPacked());
        }
        damp.sync(layout.damping());
    }

    /** The launch sizes let go; the device buffers are kept for the next model (released when the solver closes). */
    @Override
    void releaseModelBuffers() {
        if (tethers != null) { // null when the constructor failed before making it
            tethers.release();
        }
        for (PointerBuffer p : new PointerBuffer[] {colorOffset, colorSize, stretchOffset, stretchSize,
            bendOffset, bendSize, distanceWork, bendingWork, tetOffset, tetSize, tetWork}) {
            if (p != null) {
                MemoryUtil.memFree(p);
            }
        }
        colorOffset = colorSize = stretchOffset = stretchSize = null;
        bendOffset = bendSize = distanceWork = bendingWork = null;
        tetOffset = tetSize = tetWork = null;
    }

    @Override
    void freeSolverMemory() {
        MemoryUtil.memFree(zero);
    }
}
