package dev.weft.opencl;

import static org.lwjgl.opencl.CL10.clEnqueueReadBuffer;
import static org.lwjgl.opencl.CL10.clEnqueueWriteBuffer;
import static org.lwjgl.opencl.CL10.clSetKernelArg1f;
import static org.lwjgl.opencl.CL10.clSetKernelArg1i;
import static org.lwjgl.opencl.CL10.clSetKernelArg1p;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.Collider;
import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.contact.ParticleContacts;
import dev.weft.core.model.MaterialParameters;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.model.TetherConstraints;
import dev.weft.core.sim.SimulationDivergedException;
import dev.weft.core.solver.UnsupportedOnDeviceException;
import dev.weft.core.solver.implicit.ImplicitSettings;
import dev.weft.core.solver.implicit.ImplicitSolver;
import dev.weft.core.solver.implicit.LinearMethod;
import dev.weft.core.step.Environment;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryUtil;

/**
 * Seed 000's implicit Euler (Baraff and Witkin) on an OpenCL device: {@link ImplicitSolver}'s step with its
 * filtered PCG ({@code FilteredPcg}) or filtered block Jacobi method ({@code JacobiMethod}), in its float
 * and double operations and order (see {@code implicit.cl} and {@code implicit_linear.cl}), so that PoCL
 * gives the CPU's bits. Per step: the filter S and z per particle (pins; still planes and cloth contacts through
 * S with their release test), each spring's force and Jacobians, A's diagonal blocks, b and the block-Jacobi inverses
 * per row (A's pattern is built once per topology on the host, {@link ImplicitLayout}), then the linear
 * solve, whose dot products are reduced on the device in {@code RowChunks}' order: each row's term,
 * 64-row chunk sums in row order, one work-item adding the chunks in order and computing α, β and the
 * convergence test. Every kernel of an iteration skips itself once that test says stop, so the host
 * enqueues {@link #iterationsPerCheck} iterations between reads of the scalars (14 numbers) and the result
 * does not depend on it. Then v += Δv, x += h v with the planes' friction, the model's tethers (where {@link
 * ImplicitSettings#tethers()}) and the other colliders (every rigid shape, still or moving) by projection, the
 * velocity gaining their correction over h. Jacobi sweeps from Δv's buffer into a second one and back, each
 * measuring its iterate's residual, with the CPU's divergence test.
 *
 * <p>Device memory: the model's springs, pattern, masses and materials are uploaded when the model
 * changes; positions and velocities live on the device between steps and are read back once per call.
 *
 * <p>Wind and air drag as on the CPU: {@link DeviceAir}'s forces (in the kernels' reals) from the positions
 * the plane pass left enter F, explicit (not in the Jacobian).
 *
 * <p>Particle contacts ({@link #withParticleContacts}) as the CPU solver takes them: after the plane pass the
 * grid and candidate lists of {@link DeviceContacts} on the step's start, then {@code implicit_cloth_constraints}
 * gives a free particle whose partners within {@link ImplicitSolver#PARTICLE_REACH} contact distances lie on
 * one side its averaged contact normal as S's direction and the pairs' centre-of-mass normal velocity as z (a
 * partner a pin or a plane holds counts as a wall); after the solve such a contact is released where it would
 * pull, else has Coulomb friction relative to its partners' mean velocity; after the step the pairs are
 * projected as ImplicitSolver calls {@code ParticleContacts.project} (no colliders' pass: only pins are the
 * support levels' ground), vertex–triangle contacts included, the velocity gaining the move over h. In the
 * CPU's float and double operations and order: PoCL gives its bits.
 *
 * <p>Not on the device, refused by name with an {@link UnsupportedOnDeviceException}:
 * a projectile with particle contacts;
 * elastic tetrahedral bodies, which the CPU solver simulates (co-rotated FEM) and this one not yet (an
 * {@link dev.weft.core.InvalidInputException} naming the body and the cpu backend; a voxel body's springs run).
 * The CPU solver's user constraints to a plane or a line ({@link
 * ImplicitSolver#constrainToPlane}) are not offered.
 */
public final class OpenClImplicitSolver extends OpenClSolver<ImplicitSettings> {
    private static final String NAME = "the OpenCL implicit solver";
    /** Iterations enqueued between two reads of the convergence scalars, unless the constructor says. */
    static final int DEFAULT_ITERATIONS_PER_CHECK = 4;
    /** RowChunks.SIZE: the rows of one partial sum. */
    private static final int CHUNK = 64;

    // implicit.cl's scalars
    private static final int S_B_NORM2 = 0;
    private static final int S_DELTA = 1;
    private static final int S_R_NORM2 = 2;
    private static final int S_ITERATIONS = 6;
    private static final int S_ACTIVE = 7;
    private static final int S_FAILURE = 8;
    private static final int S_FAILURE_ROW = 9;
    private static final int S_CQ = 10;
    private static final int SCALARS = 14;
    private static final int FAIL_BLOCK = 1;
    private static final int FAIL_BREAKDOWN = 2;
    private static final int FAIL_DIVERGED = 4;

    private final int iterationsPerCheck;
    /** The kernels' real_t buffers and arguments: double with fp64, else float. */
    private final RealBuffers reals;

    private final long constraintsKernel;
    private final long clothKernel;
    private final long springsKernel;
    private final long assembleKernel;
    private final long chunkAKernel;
    private final long chunkAbKernel;
    /** chunk_sums with the iteration guard: the product's and the update's reductions. */
    private final long loopChunkAKernel;
    private final long loopChunkAbKernel;
    private final long firstBadKernel;
    private final long initKernel;
    private final long startKernel;
    private final long residualKernel;
    private final long residualScalarsKernel;
    private final long productKernel;
    private final long alphaKernel;
    private final long updateKernel;
    private final long betaKernel;
    private final long directionKernel;
    private final long integrateKernel;
    private final long tetherKernel;
    private final long filterTethersKernel;
    private final long collideKernel;
    // the Jacobi method: a sweep from Δv into the second buffer and one back, alternating
    private final long jacobiReduceKernel;
    private final long jacobiStartKernel;
    private final long jacobiEvenKernel;
    private final long jacobiOddKernel;
    private final long jacobiCheckKernel;
    private final boolean jacobi;

    private final PointerBuffer springWork = MemoryUtil.memAllocPointer(1);
    private final PointerBuffer chunkWork = MemoryUtil.memAllocPointer(1);
    private final PointerBuffer oneWork = MemoryUtil.memAllocPointer(1).put(0, 1);
    private PointerBuffer tetherOffset;
    private PointerBuffer tetherSize;

    // the bound model
    private ImplicitLayout layout;
    private int springCount;
    private int chunks;
    private int tetherColors;
    private boolean tethers;
    private final double[] scalars = new double[SCALARS];

    // device buffers (0: none)
    private long pairsMem;
    private long restMem;
    private long ksMem;
    private long kdMem;
    private long rowStartMem;
    private long colMem;
    private long blockSpringMem;
    private long springEntryMem;
    private long diagonalMem;
    private long massMem;
    private long dampingMem;
    private long springForceMem;
    private long springKMem;
    private long valuesMem;
    private long bMem;
    private long zMem;
    private long blockInverseMem;
    private long badMem;
    private long filterKindMem;
    private long filterPMem;
    private long contactMem;
    private long contactPlaneMem;
    private long releasedMem;
    private long contactInvMassMem;
    private long partnerVelocityMem;
    private long partnerGripMem;
    private long dvMem;
    private long rMem;
    private long cMem;
    private long qMem;
    private long sMem;
    private long rowAMem;
    private long rowBMem;
    private long partialAMem;
    private long partialBMem;
    private long partialBadMem;
    private long scalarsMem;
    private long prevXMem;
    private long integratedXMem;
    private long reducedInverseMem;
    private long jacobiNextMem;
    private long tetherPairsMem;
    private long tetherLengthMem;

    // the steps of the current call, for the divergence messages
    private long firstStep;
    private double firstTime;
    private int stepsEnqueued;
    private float stepDt;
    private int lastIterations;
    private double lastResidual;
    /** Released-contact flags from {@link #loadState}, uploaded when they fit the bound model. */
    private byte[] pendingReleased;
    /**
     * The bound model, and the released flags kept over a rebind: of the same model (contacts turned on or off), or
     * of the model a split made from it (a tear or a cut), where the copies take their source's flag.
     */
    private Model boundModel;
    private byte[] keptReleased;

    /** A solver on {@code device}, with its own context and queue (released by {@link #close}). */
    public OpenClImplicitSolver(ImplicitSettings settings, OpenClDevice device) {
        this(settings, device, DEFAULT_ITERATIONS_PER_CHECK);
    }

    /**
     * With {@code iterationsPerCheck} PCG iterations enqueued between reads of the convergence scalars
     * (1: a read per iteration, as the CPU tests every iteration; the result is the same for any value).
     */
    OpenClImplicitSolver(ImplicitSettings settings, OpenClDevice device, int iterationsPerCheck) {
        this(settings, device, iterationsPerCheck, true);
    }

    /**
     * With {@code cpuRounding} off the kernels are built as a device without the CPU's guarantees and
     * without fp64 would run them (everything in float, fused multiply-adds, OpenCL's default division and
     * square root): how far such a device may drift from the CPU, which the tests measure for their
     * tolerance.
     */
    OpenClImplicitSolver(ImplicitSettings settings, OpenClDevice device, int iterationsPerCheck, boolean cpuRounding) {
        super(settings, device, NAME);
        if (iterationsPerCheck < 1) {
            throw new IllegalArgumentException("iterationsPerCheck must be >= 1, got " + iterationsPerCheck);
        }
        this.iterationsPerCheck = iterationsPerCheck;
        boolean fp64 = cpuRounding && device.fp64();
        this.reals = new RealBuffers(cl, fp64);
        // without fp64 the kernels' unsuffixed constants are floats too
        long program = program("implicit.cl+implicit_linear.cl", cpuRounding,
                fp64 ? "-D WEFT_FP64" : "-cl-single-precision-constant");
        // the air's force enters F in the kernels' reals, as ImplicitSolver adds its doubles
        useAir(cpuRounding, fp64, false);
        constraintsKernel = kernel(program, "implicit_constraints");
        clothKernel = kernel(program, "implicit_cloth_constraints");
        springsKernel = kernel(program, "implicit_springs");
        assembleKernel = kernel(program, "implicit_assemble");
        chunkAKernel = kernel(program, "chunk_sums");
        chunkAbKernel = kernel(program, "chunk_sums");
        loopChunkAKernel = kernel(program, "chunk_sums");
        loopChunkAbKernel = kernel(program, "chunk_sums");
        firstBadKernel = kernel(program, "chunk_first_bad");
        initKernel = kernel(program, "pcg_init");
        startKernel = kernel(program, "pcg_start");
        residualKernel = kernel(program, "pcg_residual");
        residualScalarsKernel = kernel(program, "pcg_residual_scalars");
        productKernel = kernel(program, "pcg_product");
        alphaKernel = kernel(program, "pcg_alpha");
        updateKernel = kernel(program, "pcg_update");
        betaKernel = kernel(program, "pcg_beta");
        directionKernel = kernel(program, "pcg_direction");
        integrateKernel = kernel(program, "implicit_integrate");
        tetherKernel = kernel(program, "implicit_tethers");
        filterTethersKernel = kernel(program, "implicit_filter_tethers");
        collideKernel = kernel(program, "implicit_collide");
        jacobiReduceKernel = kernel(program, "jacobi_reduce");
        jacobiStartKernel = kernel(program, "jacobi_start");
        jacobiEvenKernel = kernel(program, "jacobi_sweep");
        jacobiOddKernel = kernel(program, "jacobi_sweep");
        jacobiCheckKernel = kernel(program, "jacobi_check");
        jacobi = settings.method() == LinearMethod.JACOBI;
    }

    @Override
    public String name() {
        return "implicit";
    }

    /** PCG iterations of the last step. */
    public int lastIterations() {
        return lastIterations;
    }

    /** Final relative residual |S(b − AΔv)| / |S b| of the last step (0 where S b = 0). */
    public double lastRelativeResidual() {
        return lastResidual;
    }

    /**
     * Throws {@link UnsupportedOnDeviceException} when this solver with {@code settings} would refuse
     * {@code m} in {@code env} (a collider it does not know); needs
     * no device, so a caller can refuse before it opens one.
     */
    public static void requireSupported(ImplicitSettings settings, Model m, Environment env) {
        DeviceColliders.requireSupported(env);
    }

    /** Particle contacts run on the device: through S where one direction describes them, then projected. */
    @Override
    boolean runsParticleContacts() {
        return true;
    }

    /**
     * Contacts on ({@code s}) or off (null), as the base class does; the model is bound again at the next step,
     * and the released flags carry over it as the CPU solver's do (it keeps its model, and them, when its
     * contacts change).
     */
    @Override
    public OpenClImplicitSolver withParticleContacts(ParticleContactSettings s) {
        byte[] flags = releasedMem != 0L ? saveState() : null;
        super.withParticleContacts(s);
        if (flags != null) {
            keptReleased = flags;
        }
        return this;
    }

    /** ImplicitSolver projects its contacts without the colliders' pass (ParticleContacts.project(x, prevX, w)). */
    @Override
    boolean contactsPassColliders() {
        return false;
    }

    /**
     * Particles whose cloth contact was a constraint in S during the last step, as {@code
     * ImplicitSolver.lastParticleContactCount()} (reads the device; 0 without contacts).
     */
    public int lastParticleContactCount() {
        if (!contactsOn() || contactMem == 0L) {
            return 0;
        }
        int[] kinds = new int[particleCount()];
        ClCheck.ok(clEnqueueReadBuffer(cl.queue(), contactMem, true, 0L, kinds, null, null), "read contacts");
        int count = 0;
        for (int k : kinds) {
            count += k == 2 ? 1 : 0;
        }
        return count;
    }

    @Override
    void refuseUnsupported(Model m, Environment env) {
        requireSupported(settings(), m, env);
    }

    /** What the CPU solver refuses too, in its words, and elastic tetrahedra, which only the CPU solver runs. */
    @Override
    void requireBindable(Model m) {
        MaterialParameters.requireNoIsometricBending(m, "implicit");
        MaterialParameters.requireFinite(m, "implicit");
        MaterialParameters.requireNoElasticTetsOnDevice(m, "OpenCL", "implicit");
    }

    /**
     * The contacts released by the planes' pull test (they stay free until they move clear), carried between
     * steps as the CPU solver's {@code saveState} carries them: one byte per particle, null before a model
     * is bound.
     */
    @Override
    public byte[] saveState() {
        if (releasedMem == 0L) {
            return pendingReleased == null ? null : pendingReleased.clone();
        }
        int n = particleCount();
        int[] flags = new int[n];
        ClCheck.ok(clEnqueueReadBuffer(cl.queue(), releasedMem, true, 0L, flags, null, null), "read released");
        byte[] out = new byte[n];
        for (int i = 0; i < n; i++) {
            out[i] = (byte) flags[i];
        }
        return out;
    }

    /** Restores {@link #saveState}'s flags (or the CPU solver's): now where they fit the bound model, else at bind. */
    @Override
    public void loadState(byte[] state) {
        if (state == null) {
            return;
        }
        pendingReleased = state.clone();
        if (releasedMem != 0L && state.length == particleCount()) {
            uploadReleased();
        }
    }

    /** The pending released flags uploaded (the bound model's particle count checked). */
    private void uploadReleased() {
        int n = particleCount();
        if (pendingReleased.length != n) {
            throw new InvalidInputException("solver state", "the checkpoint's implicit solver state is for "
                    + pendingReleased.length + " particles, the model has " + n);
        }
        ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), releasedMem, true, 0L, ints(pendingReleased), null, null),
                "write released");
        pendingReleased = null;
    }

    /**
     * A split (a tear or a cut) keeps every particle's index and appends copies, which start as the particle they
     * were split from: its released flags are read back before the buffers go, to carry over as the CPU solver's do.
     */
    @Override
    void beforeRebind(Model next) {
        if (keptReleased == null && releasedMem != 0L && next.particleCount() > particleCount()) {
            keptReleased = saveState();
        }
    }

    /** The released flags {@code m} starts with: zeros, or the kept ones for the same model or a split of it. */
    private int[] carriedReleased(Model m, int n) {
        int[] flags = new int[n];
        if (keptReleased == null) {
            return flags;
        }
        if (m == boundModel && keptReleased.length == n) {
            return ints(keptReleased);
        }
        if (keptReleased.length < n && m.sourceOf(n - 1) != n - 1) {
            for (int i = 0; i < keptReleased.length; i++) {
                flags[i] = keptReleased[i];
            }
            for (int i = keptReleased.length; i < n; i++) {
                flags[i] = flags[m.sourceOf(i)];
            }
        }
        return flags;
    }

    private static int[] ints(byte[] flags) {
        int[] out = new int[flags.length];
        for (int i = 0; i < flags.length; i++) {
            out[i] = flags[i];
        }
        return out;
    }

    @Override
    void stepsFrom(State state) {
        firstStep = state.steps();
        firstTime = state.time();
        stepsEnqueued = 0;
    }

    /** The model's springs, pattern and materials uploaded; the work buffers made; the kernels' arguments set. */
    @Override
    void bindModel(Model m) {
        int n = particleCount();
        layout = new ImplicitLayout(m);
        springCount = layout.springCount();
        chunks = (n + CHUNK - 1) / CHUNK;
        TetherConstraints t = m.tethers();
        tethers = settings().tethers() && t.count() > 0;
        if (n == 0) {
            return;
        }
        int[] pairs = layout.springs.pairs();
        pairsMem = cl.upload(pairs);
        restMem = cl.upload(layout.springs.restLength());
        ksMem = cl.upload(layout.springs.stiffness());
        kdMem = cl.upload(layout.springs.damping());
        rowStartMem = cl.upload(layout.rowStart);
        colMem = cl.upload(layout.col);
        blockSpringMem = cl.upload(layout.blockSpring);
        springEntryMem = cl.upload(layout.springEntry);
        diagonalMem = cl.upload(layout.diagonal);
        massMem = reals.buffer(n);
        reals.write(massMem, layout.mass);
        dampingMem = cl.upload(layout.damping);
        int springs = Math.max(1, springCount);
        springForceMem = reals.buffer(3L * springs);
        springKMem = cl.buffer(24L * springs);
        valuesMem = cl.buffer(24L * layout.entryCount());
        bMem = reals.buffer(3L * n);
        zMem = reals.buffer(3L * n);
        blockInverseMem = reals.buffer(9L * n);
        badMem = cl.buffer(4L * n);
        filterKindMem = cl.buffer(4L * n);
        filterPMem = reals.buffer(3L * n);
        contactMem = cl.buffer(4L * n);
        contactPlaneMem = cl.buffer(4L * n);
        releasedMem = cl.buffer(4L * n);
        contactInvMassMem = cl.buffer(4L * n);
        partnerVelocityMem = cl.buffer(12L * n);
        partnerGripMem = cl.buffer(4L * n);
        // no contact was released before the first step, unless a checkpoint says; the bound model's flags carry
        // over to it again and to a split of it (ImplicitContacts.bind)
        ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), releasedMem, true, 0L, carriedReleased(m, n), null, null),
                "write released");
        keptReleased = null;
        boundModel = m;
        if (pendingReleased != null) {
            uploadReleased();
        }
        dvMem = reals.buffer(3L * n);
        rMem = reals.buffer(3L * n);
        cMem = reals.buffer(3L * n);
        qMem = reals.buffer(3L * n);
        sMem = reals.buffer(3L * n);
        rowAMem = reals.buffer(n);
        rowBMem = reals.buffer(n);
        partialAMem = reals.buffer(chunks);
        partialBMem = reals.buffer(chunks);
        partialBadMem = cl.buffer(4L * chunks);
        scalarsMem = reals.buffer(SCALARS);
        reals.write(scalarsMem, new double[SCALARS]);
        prevXMem = cl.buffer(12L * n);
        integratedXMem = cl.buffer(12L * n);
        if (jacobi) {
            reducedInverseMem = reals.buffer(9L * n);
            jacobiNextMem = reals.buffer(3L * n);
        }
        springWork.put(0, springCount);
        chunkWork.put(0, chunks);
        bindTethers(t);
        setArguments(n);
        if (contactsOn()) {
            // the contacts' settle and finish kernels (PositionStep's) are not run here: any float buffers of 3n
            bindContacts(m, prevXMem, integratedXMem);
            bindClothContacts(n);
        }
    }

    /** The cloth contacts through S before the solve and their friction after it: the kernels' arguments. */
    private void bindClothContacts(int n) {
        DeviceContacts contacts = deviceContacts();
        clSetKernelArg1i(clothKernel, 0, n);
        clSetKernelArg1i(clothKernel, 1, ParticleContacts.MAX_NEIGHBOURS);
        clSetKernelArg1f(clothKernel, 2, contacts.contactDistance());
        clSetKernelArg1f(clothKernel, 3, ImplicitSolver.PARTICLE_REACH);
        bufferArgs(clothKernel, "implicit_cloth_constraints", 5, particles.offsetMem(), particles.gripMem(),
                contactInvMassMem, releasedMem, contacts.neighbourCountMem(), contacts.neighboursMem(),
                deviceState.xMem(), deviceState.vMem(), filterKindMem, filterPMem, zMem, contactMem,
                partnerVelocityMem, partnerGripMem);
        clSetKernelArg1f(integrateKernel, 22, contacts.settings().staticFriction());
        clSetKernelArg1f(integrateKernel, 23, contacts.settings().kineticFriction());
    }

    /** The tethers' pairs and lengths, and a launch per color. */
    private void bindTethers(TetherConstraints t) {
        freeTetherWork();
        if (!tethers) {
            tetherColors = 0;
            return;
        }
        int[] colorStart = t.colorStart();
        tetherColors = colorStart.length - 1;
        tetherPairsMem = cl.upload(t.particles());
        tetherLengthMem = cl.upload(t.maxLength());
        tetherOffset = MemoryUtil.memAllocPointer(Math.max(1, tetherColors));
        tetherSize = MemoryUtil.memAllocPointer(Math.max(1, tetherColors));
        for (int c = 0; c < tetherColors; c++) {
            tetherOffset.put(c, colorStart[c]);
            tetherSize.put(c, colorStart[c + 1] - colorStart[c]);
        }
        bufferArgs(tetherKernel, "implicit_tethers", 0, tetherPairsMem, tetherLengthMem, deviceState.xMem());
    }

    private void setArguments(int n) {
        long x = deviceState.xMem();
        long v = deviceState.vMem();
        clSetKernelArg1i(constraintsKernel, 0, n);
        bufferArgs(constraintsKernel, "implicit_constraints", 1, particles.invMassMem(), particles.offsetMem());
        bufferArgs(constraintsKernel, "implicit_constraints", 6, releasedMem);
        bufferArgs(constraintsKernel, "implicit_constraints", 8, x, v, filterKindMem, filterPMem, zMem, contactMem,
                contactPlaneMem, contactInvMassMem);

        clSetKernelArg1i(springsKernel, 0, springCount);
        bufferArgs(springsKernel, "implicit_springs", 1, pairsMem, restMem, ksMem, kdMem);
        clSetKernelArg1i(springsKernel, 5, settings().definiteJacobian() ? 1 : 0);
        bufferArgs(springsKernel, "implicit_springs", 7, x, v, springEntryMem, springForceMem, springKMem, valuesMem);

        clSetKernelArg1i(assembleKernel, 0, n);
        bufferArgs(assembleKernel, "implicit_assemble", 1, rowStartMem, colMem, blockSpringMem, diagonalMem, pairsMem,
                springForceMem, springKMem, massMem, dampingMem);
        bufferArgs(assembleKernel, "implicit_assemble", 14, v, valuesMem, bMem, blockInverseMem, badMem);

        chunkArgs(chunkAKernel, n, false, false);
        chunkArgs(chunkAbKernel, n, true, false);
        chunkArgs(loopChunkAKernel, n, false, true);
        chunkArgs(loopChunkAbKernel, n, true, true);
        clSetKernelArg1i(firstBadKernel, 0, n);
        bufferArgs(firstBadKernel, "chunk_first_bad", 1, badMem, partialBadMem);

        clSetKernelArg1i(initKernel, 0, n);
        bufferArgs(initKernel, "pcg_init", 1, filterKindMem, filterPMem, bMem, zMem, dvMem, rowAMem);
        clSetKernelArg1i(startKernel, 0, chunks);
        bufferArgs(startKernel, "pcg_start", 1, partialAMem, partialBadMem);
        reals.setArg(startKernel, 3, settings().tolerance());
        clSetKernelArg1i(startKernel, 4, settings().maxIterations());
        bufferArgs(startKernel, "pcg_start", 5, scalarsMem);
        clSetKernelArg1i(residualKernel, 0, n);
        bufferArgs(residualKernel, "pcg_residual", 1, rowStartMem, colMem, valuesMem, filterKindMem, filterPMem,
                blockInverseMem, bMem, dvMem, rMem, cMem, rowAMem, rowBMem);
        clSetKernelArg1i(residualScalarsKernel, 0, chunks);
        bufferArgs(residualScalarsKernel, "pcg_residual_scalars", 1, partialAMem, partialBMem, scalarsMem);

        clSetKernelArg1i(productKernel, 0, n);
        bufferArgs(productKernel, "pcg_product", 1, rowStartMem, colMem, valuesMem, filterKindMem, filterPMem, cMem,
                qMem, rowAMem, scalarsMem);
        clSetKernelArg1i(alphaKernel, 0, chunks);
        bufferArgs(alphaKernel, "pcg_alpha", 1, partialAMem, scalarsMem);
        clSetKernelArg1i(updateKernel, 0, n);
        bufferArgs(updateKernel, "pcg_update", 1, blockInverseMem, cMem, qMem, dvMem, rMem, sMem, rowAMem, rowBMem,
                scalarsMem);
        clSetKernelArg1i(betaKernel, 0, chunks);
        bufferArgs(betaKernel, "pcg_beta", 1, partialAMem, partialBMem, scalarsMem);
        clSetKernelArg1i(directionKernel, 0, n);
        bufferArgs(directionKernel, "pcg_direction", 1, filterKindMem, filterPMem, sMem, cMem, scalarsMem);

        clSetKernelArg1i(integrateKernel, 0, n);
        bufferArgs(integrateKernel, "implicit_integrate", 1, particles.invMassMem(), particles.gripMem());
        bufferArgs(integrateKernel, "implicit_integrate", 4, contactMem, contactPlaneMem, releasedMem, filterPMem,
                rowStartMem, colMem, valuesMem, bMem, dvMem, massMem);
        bufferArgs(integrateKernel, "implicit_integrate", 16, x, v, prevXMem, integratedXMem, partnerVelocityMem,
                partnerGripMem);
        // without cloth contacts no particle is in one: the coefficients are never read
        clSetKernelArg1f(integrateKernel, 22, 0f);
        clSetKernelArg1f(integrateKernel, 23, 0f);

        clSetKernelArg1i(filterTethersKernel, 0, n);
        bufferArgs(filterTethersKernel, "implicit_filter_tethers", 1, filterKindMem, filterPMem, integratedXMem, x);
        clSetKernelArg1i(collideKernel, 0, n);
        bufferArgs(collideKernel, "implicit_collide", 1, particles.invMassMem(), particles.gripMem(),
                particles.offsetMem());
        bufferArgs(collideKernel, "implicit_collide", 8, prevXMem, integratedXMem, x, v);
        if (jacobi) {
            clSetKernelArg1i(jacobiReduceKernel, 0, n);
            bufferArgs(jacobiReduceKernel, "jacobi_reduce", 1, filterKindMem, filterPMem, diagonalMem, valuesMem,
                    reducedInverseMem);
            clSetKernelArg1i(jacobiStartKernel, 0, chunks);
            bufferArgs(jacobiStartKernel, "jacobi_start", 1, partialAMem, partialBadMem);
            reals.setArg(jacobiStartKernel, 3, settings().tolerance());
            clSetKernelArg1i(jacobiStartKernel, 4, settings().maxIterations());
            bufferArgs(jacobiStartKernel, "jacobi_start", 5, scalarsMem);
            sweepArgs(jacobiEvenKernel, n, dvMem, jacobiNextMem);
            sweepArgs(jacobiOddKernel, n, jacobiNextMem, dvMem);
            clSetKernelArg1i(jacobiCheckKernel, 0, chunks);
            bufferArgs(jacobiCheckKernel, "jacobi_check", 1, partialAMem, scalarsMem);
        }
    }

    private void sweepArgs(long kernel, int n, long cur, long next) {
        clSetKernelArg1i(kernel, 0, n);
        bufferArgs(kernel, "jacobi_sweep", 1, rowStartMem, colMem, valuesMem, diagonalMem, filterKindMem, filterPMem,
                blockInverseMem, reducedInverseMem, bMem, zMem, cur, next, rowAMem, scalarsMem);
    }

    private void chunkArgs(long kernel, int n, boolean both, boolean guarded) {
        clSetKernelArg1i(kernel, 0, n);
        clSetKernelArg1i(kernel, 1, both ? 1 : 0);
        bufferArgs(kernel, "chunk_sums", 2, rowAMem, rowBMem, partialAMem, partialBMem, scalarsMem);
        clSetKernelArg1i(kernel, 7, guarded ? 1 : 0);
    }

    @Override
    void collidersChanged(DeviceColliders c) {
        clSetKernelArg1i(constraintsKernel, 3, c.count());
        bufferArgs(constraintsKernel, "implicit_constraints", 4, c.typeMem(), c.dataMem());
        bufferArgs(integrateKernel, "implicit_integrate", 3, c.dataMem());
        clSetKernelArg1i(collideKernel, 4, c.count());
        bufferArgs(collideKernel, "implicit_collide", 5, c.typeMem(), c.dataMem());
    }

    /** One implicit step of {@code dt}: assembly, the PCG with reads of its scalars, the update. */
    @Override
    void enqueue(Environment env, float dt) {
        stepDt = dt;
        double h = dt;
        reals.setArg(constraintsKernel, 7, h);
        reals.setArg(springsKernel, 6, h);
        reals.setArg(assembleKernel, 10, h);
        reals.setArg(assembleKernel, 11, env.gravityX());
        reals.setArg(assembleKernel, 12, env.gravityY());
        reals.setArg(assembleKernel, 13, env.gravityZ());
        // the colliders that are not planes (the rigid shapes, still or moving) project after the step
        boolean others = false;
        for (Collider c : env.colliders()) {
            others |= c.plane() == null;
        }
        boolean clothContacts = contactsOn();
        boolean project = others || tethers || clothContacts;
        clSetKernelArg1f(integrateKernel, 14, (float) h);
        clSetKernelArg1i(integrateKernel, 15, project ? 1 : 0);
        clSetKernelArg1f(collideKernel, 7, (float) (1.0 / h));

        launchPerParticle(constraintsKernel, "implicit_constraints");
        if (clothContacts) {
            // after the plane pass (which may move particles onto planes): this one reads neighbours
            deviceContacts().findCandidates();
            clSetKernelArg1f(clothKernel, 4, ImplicitSolver.restingSeparation(h, env.gravityX(), env.gravityY(),
                    env.gravityZ()));
            launchPerParticle(clothKernel, "implicit_cloth_constraints");
        }
        // as ImplicitSolver: the air on the positions the plane pass left, before the springs and F
        long air = airForces(env);
        ClCheck.ok(clSetKernelArg1p(assembleKernel, 19, air), "implicit_assemble argument 19");
        if (springCount > 0) {
            launch(springsKernel, null, springWork, "implicit_springs");
        }
        launchPerParticle(assembleKernel, "implicit_assemble");
        launchPerParticle(initKernel, "pcg_init");
        launch(chunkAKernel, null, chunkWork, "chunk_sums");
        launch(firstBadKernel, null, chunkWork, "chunk_first_bad");
        long solution = jacobi ? solveJacobi() : solvePcg();
        if (scalars[S_FAILURE] != 0.0) {
            throw diverged();
        }
        lastIterations = (int) scalars[S_ITERATIONS];
        double bNorm2 = scalars[S_B_NORM2];
        lastResidual = bNorm2 == 0.0 ? 0.0 : Math.sqrt(scalars[S_R_NORM2] / bNorm2);
        // Δv's buffer (Jacobi may end in its second one); set directly: bufferArgs' varargs would allocate
        ClCheck.ok(clSetKernelArg1p(integrateKernel, 12, solution), "implicit_integrate argument 12");

        launchPerParticle(integrateKernel, "implicit_integrate");
        if (tethers) {
            for (int c = 0; c < tetherColors; c++) {
                launch(tetherKernel, tetherOffset.position(c), tetherSize.position(c), "implicit_tethers");
            }
            tetherOffset.position(0);
            tetherSize.position(0);
            launchPerParticle(filterTethersKernel, "implicit_filter_tethers");
        }
        if (clothContacts) {
            deviceContacts().projectFrom(prevXMem); // ParticleContacts.project(x, prevX, w): no colliders' pass
        }
        if (project) {
            launchPerParticle(collideKernel, "implicit_collide");
        }
        stepsEnqueued++;
    }

    /**
     * The filtered PCG after its init pass: the residual, then {@link #iterationsPerCheck} iterations between
     * reads of the scalars until they say stop. Returns the buffer holding Δv.
     */
    private long solvePcg() {
        launch(startKernel, null, oneWork, "pcg_start");
        launchPerParticle(residualKernel, "pcg_residual");
        launch(chunkAbKernel, null, chunkWork, "chunk_sums");
        launch(residualScalarsKernel, null, oneWork, "pcg_residual_scalars");
        int max = settings().maxIterations();
        int enqueued = 0;
        while (true) {
            int batch = Math.min(iterationsPerCheck, max - enqueued);
            for (int k = 0; k < batch; k++) {
                enqueueIteration();
            }
            enqueued += batch;
            reals.readInto(scalarsMem, scalars);
            if (scalars[S_ACTIVE] == 0.0 || enqueued >= max) {
                return dvMem;
            }
        }
    }

    /**
     * The filtered block Jacobi method after the init pass (Δv = (I − S) z): at most maxIterations + 1
     * sweeps (the last measures the final iterate's residual), alternating between Δv's buffer and the
     * second one, {@link #iterationsPerCheck} between reads of the scalars. Returns the buffer holding the
     * last iterate.
     */
    private long solveJacobi() {
        launchPerParticle(jacobiReduceKernel, "jacobi_reduce");
        launch(jacobiStartKernel, null, oneWork, "jacobi_start");
        int sweeps = settings().maxIterations() + 1;
        int enqueued = 0;
        while (true) {
            int batch = Math.min(iterationsPerCheck, sweeps - enqueued);
            for (int k = 0; k < batch; k++) {
                long sweep = (enqueued + k) % 2 == 0 ? jacobiEvenKernel : jacobiOddKernel;
                launchPerParticle(sweep, "jacobi_sweep");
                launch(loopChunkAKernel, null, chunkWork, "chunk_sums");
                launch(jacobiCheckKernel, null, oneWork, "jacobi_check");
            }
            enqueued += batch;
            reals.readInto(scalarsMem, scalars);
            if (scalars[S_ACTIVE] == 0.0 || enqueued >= sweeps) {
                // the iterate of the last sweep: Δv's buffer after an even number of iterations
                return ((int) scalars[S_ITERATIONS]) % 2 == 0 ? dvMem : jacobiNextMem;
            }
        }
    }

    /** One PCG iteration; each kernel skips itself once the scalars say stop. */
    private void enqueueIteration() {
        launchPerParticle(productKernel, "pcg_product");
        launch(loopChunkAKernel, null, chunkWork, "chunk_sums");
        launch(alphaKernel, null, oneWork, "pcg_alpha");
        launchPerParticle(updateKernel, "pcg_update");
        launch(loopChunkAbKernel, null, chunkWork, "chunk_sums");
        launch(betaKernel, null, oneWork, "pcg_beta");
        launchPerParticle(directionKernel, "pcg_direction");
    }

    /** What the CPU solver throws where the device's scalars report a failure. */
    private SimulationDivergedException diverged() {
        long step = firstStep + stepsEnqueued + 1;
        double time = firstTime + (stepsEnqueued + 1) * (double) stepDt;
        int failure = (int) scalars[S_FAILURE];
        if (failure == FAIL_BLOCK) {
            return new SimulationDivergedException(step, time, (int) scalars[S_FAILURE_ROW],
                    "has a singular or indefinite diagonal block of A = M − h∂F/∂v − h²∂F/∂x (its inverse "
                            + "would be NaN: seed 000 §6.1's vanishing particles)");
        }
        int iteration = (int) scalars[S_ITERATIONS];
        if (failure == FAIL_DIVERGED) {
            long current = iteration % 2 == 0 ? dvMem : jacobiNextMem;
            return new SimulationDivergedException(step, time, worstResidualRow(current), "is where the linear "
                    + "solve failed: Jacobi iteration diverged after " + iteration + " iterations (residual "
                    + Math.sqrt(scalars[S_R_NORM2] / scalars[S_B_NORM2]) + " × |b|): the system matrix is not "
                    + "diagonally dominant enough; use cg, a smaller time step or softer springs");
        }
        String what = failure == FAIL_BREAKDOWN
                ? "conjugate gradient broke down at iteration " + iteration + ": cᵀAc = " + scalars[S_CQ]
                        + ", the system matrix is not positive definite"
                : "conjugate gradient produced a non-finite residual at iteration " + iteration;
        return new SimulationDivergedException(step, time, worstRow(failure == FAIL_BREAKDOWN ? cMem : rMem),
                "is where the linear solve failed: " + what);
    }

    /** JacobiMethod.worstResidualRow: the row of largest |b − A Δv|₁ (unfiltered), from the device's A, b, Δv. */
    private int worstResidualRow(long current) {
        int n = particleCount();
        double[] cur = reals.read(current, 3 * n);
        double[] b = reals.read(bMem, 3 * n);
        float[] a = new float[6 * layout.entryCount()];
        ClCheck.ok(clEnqueueReadBuffer(cl.queue(), valuesMem, true, 0L, a, null, null), "read A");
        int worst = 0;
        double max = -1.0;
        for (int i = 0; i < n; i++) {
            double sx = 0.0;
            double sy = 0.0;
            double sz = 0.0;
            for (int k = layout.rowStart[i]; k < layout.rowStart[i + 1]; k++) {
                int j3 = 3 * layout.col[k];
                int o = 6 * k;
                double axy = a[o + 1];
                double axz = a[o + 2];
                double ayz = a[o + 4];
                sx += a[o] * cur[j3] + axy * cur[j3 + 1] + axz * cur[j3 + 2];
                sy += axy * cur[j3] + a[o + 3] * cur[j3 + 1] + ayz * cur[j3 + 2];
                sz += axz * cur[j3] + ayz * cur[j3 + 1] + a[o + 5] * cur[j3 + 2];
            }
            double m = Math.abs(b[3 * i] - sx) + Math.abs(b[3 * i + 1] - sy) + Math.abs(b[3 * i + 2] - sz);
            if (!(m <= max)) {
                max = Double.isNaN(m) ? Double.POSITIVE_INFINITY : m;
                worst = i;
            }
        }
        return worst;
    }

    /** FilteredPcg.worstRow of a device vector: the row of largest |.|₁, a NaN first. */
    private int worstRow(long mem) {
        int n = particleCount();
        double[] v = reals.read(mem, 3 * n);
        int worst = 0;
        double max = -1.0;
        for (int i = 0; i < n; i++) {
            double m = Math.abs(v[3 * i]) + Math.abs(v[3 * i + 1]) + Math.abs(v[3 * i + 2]);
            if (!(m <= max)) {
                max = Double.isNaN(m) ? Double.POSITIVE_INFINITY : m;
                worst = i;
                if (Double.isNaN(m)) {
                    break;
                }
            }
        }
        return worst;
    }

    private void freeTetherWork() {
        OpenClContext.releaseAll(tetherPairsMem, tetherLengthMem);
        tetherPairsMem = tetherLengthMem = 0L;
        if (tetherOffset != null) {
            MemoryUtil.memFree(tetherOffset);
            MemoryUtil.memFree(tetherSize);
            tetherOffset = tetherSize = null;
        }
    }

    @Override
    void releaseModelBuffers() {
        OpenClContext.releaseAll(pairsMem, restMem, ksMem, kdMem, rowStartMem, colMem, blockSpringMem, springEntryMem,
                diagonalMem, massMem, dampingMem, springForceMem, springKMem, valuesMem, bMem, zMem, blockInverseMem,
                badMem, filterKindMem, filterPMem, contactMem, contactPlaneMem, releasedMem, dvMem, rMem, cMem, qMem,
                sMem, rowAMem, rowBMem, partialAMem, partialBMem, partialBadMem, scalarsMem, prevXMem, integratedXMem,
                contactInvMassMem, partnerVelocityMem, partnerGripMem);
        pairsMem = restMem = ksMem = kdMem = rowStartMem = colMem = blockSpringMem = springEntryMem = 0L;
        diagonalMem = massMem = dampingMem = springForceMem = springKMem = valuesMem = bMem = zMem = 0L;
        blockInverseMem = badMem = filterKindMem = filterPMem = contactMem = contactPlaneMem = releasedMem = 0L;
        dvMem = rMem = cMem = qMem = sMem = rowAMem = rowBMem = partialAMem = partialBMem = partialBadMem = 0L;
        scalarsMem = prevXMem = integratedXMem = contactInvMassMem = partnerVelocityMem = partnerGripMem = 0L;
        OpenClContext.releaseAll(reducedInverseMem, jacobiNextMem);
        reducedInverseMem = jacobiNextMem = 0L;
        freeTetherWork();
    }

    @Override
    void freeSolverMemory() {
        MemoryUtil.memFree(springWork);
        MemoryUtil.memFree(chunkWork);
        MemoryUtil.memFree(oneWork);
    }
}
