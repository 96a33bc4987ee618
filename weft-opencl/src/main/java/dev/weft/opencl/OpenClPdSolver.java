package dev.weft.opencl;

import dev.weft.core.solver.DeviceFeature;
import dev.weft.core.solver.UnsupportedOnDeviceException;
import static org.lwjgl.opencl.CL10.clEnqueueCopyBuffer;
import static org.lwjgl.opencl.CL10.clEnqueueReadBuffer;
import static org.lwjgl.opencl.CL10.clEnqueueWriteBuffer;
import static org.lwjgl.opencl.CL10.clSetKernelArg1f;
import static org.lwjgl.opencl.CL10.clSetKernelArg1i;
import static org.lwjgl.opencl.CL10.clSetKernelArg1p;

import dev.weft.core.coloring.Coloring;
import dev.weft.core.model.DistanceConstraints;
import dev.weft.core.model.Incidence;
import dev.weft.core.model.MaterialParameters;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.solver.IterativeSolver;
import dev.weft.core.solver.pd.InnerSolver;
import dev.weft.core.solver.pd.LatticeRedBlack;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.pd.PdSolver;
import dev.weft.core.solver.pd.PdTetLayout;
import dev.weft.core.step.Environment;
import java.util.Arrays;
import java.util.List;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryUtil;

/**
 * {@link PdSolver}'s Projective Dynamics step on an OpenCL device, for cloth springs (the model's distance
 * constraints: stretch, shear and distance bending, weights k from the bodies' materials), with the
 * inner solvers red-black / colored Gauss–Seidel ({@code rbgs}: the model's particle coloring, one
 * launch per color, SOR with ω) and Jacobi ({@code jacobi}, weighted with ω, Chebyshev-accelerated
 * when the settings say; {@code jacobi-seed}, ω/n_p). One step is, on the device: the prediction with
 * the material's drag; per local/global alternation the local step (one work-item per spring) and the
 * inner sweeps (one work-item per particle of a color, or per particle for Jacobi, gathering its
 * springs through a CSR incidence: no scatter, no atomics); the settle, the colliders and
 * the velocity. The float operations are PdSolver's general (slot-list) path in its order (see
 * {@code pd.cl}), so PoCL gives its bits.
 *
 * <p>Where the CPU solver takes its lattice kernels instead ({@link LatticeRedBlack#of}: rbgs on a model
 * whose springs are exactly one 4-neighbour row-major lattice with one k, seed 001's cloth), so does
 * the device: per particle its right and lower spring's projection, then per color one launch over
 * that color's particles, neighbours at fixed offsets, in those kernels' float operations.
 *
 * <p>Device memory: the model's springs, incidence, coloring and per-particle weights are uploaded when
 * the model changes; m/h² and the inverse diagonal when h changes; positions and velocities live on the
 * device and are uploaded only when the {@link State}'s differ from what the last step read back. A step
 * reads positions and velocities back once, when it returns; nothing is allocated on the host in a step.
 *
 * <p>As PdSolver, an {@link IterativeSolver} (the convergence laboratory, {@code weft converge --backend
 * opencl}): {@link #beginStep} enqueues the prediction, each {@link #iterateOnce} one local/global
 * alternation, {@link #endStep} the finish and reads the state back; {@link #beginRelax} starts from the
 * state's positions with the iterate on the device. {@link #iteratePositions} reads y and d back and adds
 * them on the host as PdSolver does: the one per-iteration read-back, there to measure.
 *
 * <p>Elastic tetrahedra (PdSolver's {@code PdElasticTets}, Bouaziz et al. 2014's strain and volume terms) run
 * as on the CPU: per alternation, after the springs' local step, one work-item per tetrahedron projects its
 * deformation gradient ({@code pd_tets.cl}, the target's polar iteration or SVD in double, as the CPU computes
 * it) into its four corners' right-hand sides, one per particle sums its corners, and every inner solver's
 * sweep ({@code pd_relax}) adds them and the tetrahedra's constant rows ({@link PdTetLayout}, the CPU's
 * arrays). The tetrahedra's kernels are a program of their own, built for the first model that has them; a
 * device without double precision refuses such a model by name ({@link #requireRunsOn}).
 *
 * <p>Refused by name with an {@link UnsupportedOnDeviceException}: sequential Gauss–Seidel ({@code gs},
 * one thread by definition), elastic tetrahedra on a device without fp64, a projectile with particle contacts
 * (every rigid shape, triangle meshes included, animated meshes, grips, projectiles and blades run: {@code
 * colliders.cl}, {@link DeviceColliders}). Wind and air
 * drag run as on the CPU ({@link DeviceAir}'s forces in the prediction); particle
 * contacts ({@link #withParticleContacts}) run on the device after the iterations, as PdSolver runs them
 * ({@link DeviceContacts}). As on the CPU, dihedral
 * bending stencils are not terms of PD's energy (PdSolver leaves them out) and isometric bending and
 * rigid materials are refused with PdSolver's own messages.
 */
public final class OpenClPdSolver extends OpenClSolver<PdSettings> implements IterativeSolver {
    private static final String NAME = "the OpenCL PD solver";
    /** What a relaxation runs in: no gravity, no colliders (PdSolver.beginRelax reads no environment). */
    private static final Environment RELAXATION = new Environment(new float[3], List.of());
    private final long predictKernel;
    private final long projectKernel;
    private final long colorKernel;
    private final long jacobiKernel;
    private final long chebyshevKernel;
    private final long finishKernel;
    private final long latticeProjectKernel;
    private final long latticeSweepKernel;
    /** Whether the kernels keep the CPU's rounding (the tetrahedra's program is built the same way). */
    private final boolean cpuRounding;
    /** The tetrahedra's local step and gather (pd_tets.cl), built for the first model with tetrahedra (0: not yet). */
    private long tetProjectKernel;
    private long tetGatherKernel;
    private final DeviceTethers tethers;
    /** The spring and coordinate launches' sizes, made once (no allocation in a step). */
    private final PointerBuffer springWork = MemoryUtil.memAllocPointer(1);
    private final PointerBuffer coordinateWork = MemoryUtil.memAllocPointer(1);
    /** The tetrahedra's launch size. */
    private final PointerBuffer tetWork = MemoryUtil.memAllocPointer(1);
    /** One lattice color launch's size: rows × ⌈columns / 2⌉. */
    private final PointerBuffer latticeColorWork = MemoryUtil.memAllocPointer(1);
    /** Per particle color: its first place in the color order and its size (one launch's offset and size). */
    private PointerBuffer colorOffset;
    private PointerBuffer colorSize;

    // bound model
    private int springCount;
    private int colors;
    /** The lattice PdSolver's red-black kernels run on, or null (the slot-list path). */
    private LatticeRedBlack lattice;
    /**
     * The elastic tetrahedra PD projects (null: none), made by {@link #requireBindable} (whose refusal of
     * incompressible ones comes before the bound model is released), and their count (0 until bound).
     */
    private PdTetLayout tets;
    private int tetCount;
    private float[] invMass;
    /** Σ k over each particle's springs (PdSolver.springWeight). */
    private float[] springWeight;
    private float[] massOverH2;
    private float[] invDiagonal;
    private float preparedStep = Float.NaN;
    /** ρ² of Chebyshev acceleration for the prepared h (PdSolver.chebyshevRho2). */
    private float chebyshevRho2;
    /** Jacobi sweeps done in this step and the current Chebyshev weight, as PdSolver keeps them. */
    private int sweeps;
    private float chebyshevWeight;

    // a step taken apart (IterativeSolver)
    /** Whether the step begun integrates (beginStep) or only relaxes (beginRelax). */
    private boolean integrating;
    /** Whether the step begun has particles on the device. */
    private boolean begunOnDevice;
    private float begunStep;
    /** y and d read back, and y + d ({@link #iteratePositions}'s array); 3n floats, made when the model is bound. */
    private float[] hostY = new float[0];
    private float[] hostD = new float[0];
    private float[] current = new float[0];

    // device buffers (0: none)
    private long pairsMem;
    private long restMem;
    private long springKMem;
    private long slotAMem;
    private long slotBMem;
    private long slotStartMem;
    private long slotNeighbourMem;
    private long projectionMem;
    private long colorOrderMem;
    private long identityOrderMem;
    private long omegaMem;
    private long springWeightMem;
    private long massOverH2Mem;
    private long invDiagonalMem;
    private long dragMem;
    private long yMem;
    private long dMem;
    private long nextMem;
    private long olderMem;
    private long restRightMem;
    private long restDownMem;
    private long projRightMem;
    private long projDownMem;
    private long tetCornersMem;
    private long tetGradientMem;
    private long tetRestEdgeMem;
    private long tetWeightMem;
    private long tetShareMem;
    private long tetCornerRhsMem;
    private long tetCornerStartMem;
    private long tetCornerSlotsMem;
    private long tetRowStartMem;
    private long tetRowNeighbourMem;
    private long tetRowWeightMem;
    private long tetRhsMem;

    /** A solver on {@code device}, with its own context and queue (released by {@link #close}). */
    public OpenClPdSolver(PdSettings settings, OpenClDevice device) {
        this(settings, device, true);
    }

    /**
     * With {@code cpuRounding} off the kernels are built as a device without the CPU's guarantees would
     * run them (fused multiply-adds, OpenCL's default division and square root): how far such a device
     * may drift from the CPU, which the tests measure to justify their tolerance.
     */
    OpenClPdSolver(PdSettings settings, OpenClDevice device, boolean cpuRounding) {
        super(supported(settings), device, NAME);
        this.cpuRounding = cpuRounding;
        long program = program("tethers.cl+pd.cl", cpuRounding, "");
        useAir(cpuRounding, cpuRounding && device.fp64(), true);
        predictKernel = kernel(program, "pd_predict");
        projectKernel = kernel(program, "pd_project");
        colorKernel = kernel(program, "pd_relax");
        jacobiKernel = kernel(program, "pd_relax");
        chebyshevKernel = kernel(program, "pd_chebyshev");
        finishKernel = kernel(program, "pd_finish");
        latticeProjectKernel = kernel(program, "pd_lattice_project");
        latticeSweepKernel = kernel(program, "pd_lattice_sweep");
        tethers = new DeviceTethers(cl, kernel(program, "pd_tethers"), "pd_tethers", mirrored("tether pairs"),
                mirrored("tether lengths"));
    }

    /** Refused before a context is made. */
    private static PdSettings supported(PdSettings settings) {
        requireSupported(settings);
        return settings;
    }

    @Override
    public String name() {
        return "pd";
    }

    /**
     * Throws {@link UnsupportedOnDeviceException} for settings the device does not run (sequential Gauss–Seidel,
     * the Cholesky solve).
     */
    public static void requireSupported(PdSettings settings) {
        if (settings.inner() == InnerSolver.GAUSS_SEIDEL) {
            throw new UnsupportedOnDeviceException(DeviceFeature.INNER_SOLVER, "inner", "the OpenCL PD solver runs "
                    + "the inner solvers rbgs, jacobi and jacobi-seed, not gs (sequential Gauss–Seidel is one thread "
                    + "by definition); use rbgs (Gauss–Seidel color by color) or the cpu backend");
        }
        if (settings.inner() == InnerSolver.CHOLESKY) {
            throw new UnsupportedOnDeviceException(DeviceFeature.INNER_SOLVER, "inner", "the OpenCL PD solver runs "
                    + "the inner solvers rbgs, jacobi and jacobi-seed, not cholesky (its sparse factor is solved on "
                    + "the cpu only); use rbgs or jacobi on the device, or the cpu backend");
        }
    }

    /**
     * Throws {@link UnsupportedOnDeviceException} when this solver with {@code settings} would refuse
     * {@code m} in {@code env}; needs no device, so a caller can refuse before it opens one.
     */
    public static void requireSupported(PdSettings settings, Model m, Environment env) {
        requireSupported(settings);
        DeviceColliders.requireSupported(env);
    }

    /**
     * Throws {@link UnsupportedOnDeviceException} ({@link DeviceFeature#TETRAHEDRA}) when {@code m} has elastic
     * tetrahedra and {@code device} has no double precision: their projection (the nearest rotation, Newton's
     * polar iteration or an SVD) is computed in double, on the CPU and so on the device. Needs no context.
     */
    public static void requireRunsOn(OpenClDevice device, Model m) {
        if (device.fp64()) {
            return; // every step asks: no count over the tetrahedra where nothing is refused
        }
        int elastic = elasticTets(m);
        if (elastic > 0) {
            throw new UnsupportedOnDeviceException(DeviceFeature.TETRAHEDRA, "the model has " + elastic
                    + " elastic tetrahedra, whose projection (the nearest rotation) the PD solver computes in double, "
                    + "and " + device.deviceName() + " has no double precision (cl_khr_fp64; `weft devices` says "
                    + "which devices have it); use the cpu backend");
        }
    }

    /** The tetrahedra PdSolver projects (PdElasticTets: those with a shear modulus). */
    private static int elasticTets(Model m) {
        int count = 0;
        if (m.tets().count() > 0) {
            for (float mu : m.tets().shearModulus()) {
                count += mu > 0f ? 1 : 0;
            }
        }
        return count;
    }

    @Override
    void refuseUnsupported(Model m, Environment env) {
        requireSupported(settings(), m, env);
        requireRunsOn(device(), m);
    }

    /** PdSolver.bind's checks, with its messages (incompressible tetrahedra: PdElasticTets'). */
    @Override
    void requireBindable(Model m) {
        MaterialParameters.requireNoIsometricBending(m, "pd");
        MaterialParameters.requireFinite(m, "pd");
        tets = PdTetLayout.of(m);
    }

    /** The prediction, the alternations (local step, inner sweeps), the finish. */
    @Override
    void enqueue(Environment env, float dt) {
        integrating = true; // a step (the laboratory's relaxations begin with beginRelax)
        predict(env, dt);
        for (int it = 0; it < settings().outerIterations(); it++) {
            iterate();
        }
        finish(dt);
    }

    /** The Verlet prediction with the material's drag, the first iterate (d = 0); Chebyshev starts over. */
    private void predict(Environment env, float dt) {
        prepare(dt);
        clSetKernelArg1f(predictKernel, 3, dt);
        clSetKernelArg1f(predictKernel, 4, env.gravityX());
        clSetKernelArg1f(predictKernel, 5, env.gravityY());
        clSetKernelArg1f(predictKernel, 6, env.gravityZ());
        ClCheck.ok(clSetKernelArg1p(predictKernel, 11, airForces(env)), "pd_predict argument 11");
        launchPerParticle(predictKernel, "pd_predict");
        sweeps = 0;
        chebyshevWeight = 1f;
    }

    /** Settle, colliders, velocities: the state's buffers hold the step's result. */
    private void finish(float dt) {
        if (contactsOn()) {
            finishWithContacts(1f / dt, 0L); // PD damps in the prediction: no factor after
            return;
        }
        clSetKernelArg1f(finishKernel, 7, 1f / dt);
        launchPerParticle(finishKernel, "pd_finish");
    }

    /** PdSolver.beginStep: the prediction, on the device; the state uploaded where the host changed it. */
    @Override
    public void beginStep(Model m, State s, Environment env, float dt) {
        begunOnDevice = toDevice(m, s, env);
        integrating = true;
        begunStep = dt;
        if (begunOnDevice) {
            predict(env, dt);
        }
    }

    /**
     * PdSolver.beginRelax: y is the state's positions, d = 0, no gravity, colliders or velocities; {@code dt}
     * sets the inertia weight m/h².
     */
    @Override
    public void beginRelax(Model m, State s, float dt) {
        begunOnDevice = toDevice(m, s, RELAXATION);
        integrating = false;
        begunStep = dt;
        if (!begunOnDevice) {
            return;
        }
        prepare(dt);
        long queue = cl.queue();
        ClCheck.ok(clEnqueueCopyBuffer(queue, deviceState.xMem(), yMem, 0L, 0L, 4L * hostY.length, null, null),
                "copy positions to the iterate");
        Arrays.fill(hostD, 0f);
        ClCheck.ok(clEnqueueWriteBuffer(queue, dMem, true, 0L, hostD, null, null), "clear corrections");
        sweeps = 0;
        chebyshevWeight = 1f;
    }

    /** One local/global alternation (the settings' inner sweeps; the lab's settings have one). */
    @Override
    public void iterateOnce() {
        if (begunOnDevice) {
            iterate();
        }
    }

    /** y and d read back (blocking) and added on the host, as PdSolver's StepPositions.current. */
    @Override
    public float[] iteratePositions() {
        if (begunOnDevice) {
            readIterate();
            for (int k = 0; k < current.length; k++) {
                current[k] = hostY[k] + hostD[k];
            }
        }
        return current;
    }

    /**
     * A step: the finish on the device, the state read back, its clock advanced. A relaxation: y + d
     * into the free particles' positions (PdSolver's StepPositions.write), velocities and clock as they were.
     */
    @Override
    public void endStep(State s) {
        if (!integrating) {
            if (begunOnDevice) {
                readIterate();
                float[] world = s.positions();
                for (int i = 0; i < invMass.length; i++) {
                    if (invMass[i] == 0f) {
                        continue;
                    }
                    for (int k = 3 * i; k < 3 * i + 3; k++) {
                        world[k] = hostY[k] + hostD[k];
                    }
                }
            }
            return;
        }
        if (begunOnDevice) {
            finish(begunStep);
            readBack(s);
        }
        s.advance(begunStep);
    }

    private void readIterate() {
        long queue = cl.queue();
        ClCheck.ok(clEnqueueReadBuffer(queue, yMem, true, 0L, hostY, null, null), "read the prediction");
        ClCheck.ok(clEnqueueReadBuffer(queue, dMem, true, 0L, hostD, null, null), "read the corrections");
    }

    /** PdSolver.iterate's general path: the local step, then {@code innerIterations} sweeps. */
    private void iterate() {
        if (lattice != null) {
            launchPerParticle(latticeProjectKernel, "pd_lattice_project");
            for (int sweep = 0; sweep < settings().innerIterations(); sweep++) {
                for (int color = 0; color < 2; color++) {
                    clSetKernelArg1i(latticeSweepKernel, 2, color);
                    launch(latticeSweepKernel, null, latticeColorWork, "pd_lattice_sweep");
                }
            }
            projectTethers();
            return;
        }
        if (springCount > 0) {
            launch(projectKernel, null, springWork, "pd_project");
        }
        if (tetCount > 0) {
            launch(tetProjectKernel, null, tetWork, "pd_tets_project");
            launchPerParticle(tetGatherKernel, "pd_tets_gather");
        }
        if (settings().innerIterations() > 1) {
            sweeps = 0; // Chebyshev restarts with each local step (PdSolver.iterate says why)
        }
        for (int sweep = 0; sweep < settings().innerIterations(); sweep++) {
            if (settings().inner() == InnerSolver.RED_BLACK_GAUSS_SEIDEL) {
                for (int c = 0; c < colors; c++) {
                    if (colorSize.get(c) > 0) {
                        colorOffset.position(c);
                        colorSize.position(c);
                        launch(colorKernel, colorOffset, colorSize, "pd_relax (color)");
                    }
                }
            } else {
                jacobiSweep();
            }
        }
        projectTethers();
    }

    /** PdSolver.jacobiSweep: every particle's next value, then moved over (Chebyshev's weight on the host). */
    private void jacobiSweep() {
        launchPerParticle(jacobiKernel, "pd_relax (jacobi)");
        int n = particleCount();
        if (settings().chebyshev()) {
            float rho2 = chebyshevRho2;
            if (sweeps < settings().chebyshevDelay()) {
                chebyshevWeight = 1f;
            } else if (sweeps == settings().chebyshevDelay()) {
                chebyshevWeight = 2f / (2f - rho2);
            } else {
                chebyshevWeight = 4f / (4f - rho2 * chebyshevWeight);
            }
            clSetKernelArg1f(chebyshevKernel, 1, chebyshevWeight);
            clSetKernelArg1i(chebyshevKernel, 2, sweeps == 0 ? 1 : 0);
            launch(chebyshevKernel, null, coordinateWork, "pd_chebyshev");
        } else {
            ClCheck.ok(clEnqueueCopyBuffer(cl.queue(), nextMem, dMem, 0L, 0L, 12L * n, null, null),
                    "copy the Jacobi iterate");
        }
        sweeps++;
    }

    /** The model's springs, incidence slots, coloring and weights uploaded; arguments set. */
    @Override
    void bindModel(Model m) {
        int n = particleCount();
        DistanceConstraints dc = m.distances();
        int[] springs = dc.particles();
        float[] rest = dc.restLength();
        float[] springK = m.distanceStiffness();
        springCount = rest.length;
        invMass = m.invMass();
        // PdSolver.buildSlots: per particle its springs in the distance incidence's order, 4 floats a slot
        Incidence incidence = m.distanceIncidence();
        int[] slotStart = incidence.start();
        int[] entries = incidence.slots();
        int[] slotNeighbour = new int[springs.length];
        int[] slotA = new int[springCount];
        int[] slotB = new int[springCount];
        for (int k = 0; k < entries.length; k++) {
            int s = entries[k];
            int e = s >> 1;
            slotNeighbour[k] = springs[s ^ 1];
            if ((s & 1) == 0) {
                slotA[e] = 4 * k;
            } else {
                slotB[e] = 4 * k;
            }
        }
        float[] projection = new float[4 * springs.length];
        for (int e = 0; e < springCount; e++) {
            projection[slotA[e] + 3] = springK[e];
            projection[slotB[e] + 3] = springK[e];
        }
        springWeight = new float[n];
        float[] omegaOf = new float[n];
        int[] identity = new int[n];
        // PdSolver.bindTets: the tetrahedra's rows (empty without any), their diagonal added to the springs'
        tetCount = tets == null ? 0 : tets.count();
        int[] tetRowStart = tets == null ? new int[n + 1] : tets.rowStart();
        for (int p = 0; p < n; p++) {
            for (int slot = slotStart[p]; slot < slotStart[p + 1]; slot++) {
                springWeight[p] += projection[4 * slot + 3];
            }
            if (tets != null) {
                springWeight[p] += tets.diagonal()[p];
            }
            int springsOfP = slotStart[p + 1] - slotStart[p] + tetRowStart[p + 1] - tetRowStart[p];
            omegaOf[p] = settings().inner() == InnerSolver.SEED_JACOBI && springsOfP > 0
                    ? settings().omega() / springsOfP : settings().omega();
            identity[p] = p;
        }
        lattice = LatticeRedBlack.of(settings(), m, springK, tets != null);
        Coloring coloring = m.particleColoring();
        int[] colorStart = coloring.colorStart();
        colors = colorStart.length - 1;
        massOverH2 = new float[n];
        invDiagonal = new float[n];
        preparedStep = Float.NaN;
        hostY = new float[3 * n];
        hostD = new float[3 * n];
        current = new float[3 * n];
        if (n == 0) {
            return;
        }
        colorOffset = MemoryUtil.memAllocPointer(Math.max(1, colors));
        colorSize = MemoryUtil.memAllocPointer(Math.max(1, colors));
        for (int c = 0; c < colors; c++) {
            colorOffset.put(c, colorStart[c]);
            colorSize.put(c, colorStart[c + 1] - colorStart[c]);
        }
        springWork.put(0, springCount);
        coordinateWork.put(0, 3L * n);
        pairsMem = cl.upload(springs);
        restMem = cl.upload(rest);
        springKMem = cl.upload(springK);
        slotAMem = cl.upload(slotA);
        slotBMem = cl.upload(slotB);
        slotStartMem = cl.upload(slotStart);
        slotNeighbourMem = cl.upload(slotNeighbour);
        projectionMem = cl.buffer(4L * Math.max(1, projection.length));
        if (projection.length > 0) {
            ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), projectionMem, true, 0L, projection, null, null),
                    "write spring weights");
        }
        colorOrderMem = cl.upload(coloring.order());
        identityOrderMem = cl.upload(identity);
        omegaMem = cl.upload(omegaOf);
        springWeightMem = cl.upload(springWeight);
        massOverH2Mem = cl.buffer(4L * n);
        invDiagonalMem = cl.buffer(4L * n);
        dragMem = cl.upload(MaterialParameters.particleDamping(m));
        yMem = cl.buffer(12L * n);
        dMem = cl.buffer(12L * n);
        boolean jacobi = settings().inner().isJacobi();
        nextMem = jacobi ? cl.buffer(12L * n) : 0L;
        olderMem = settings().chebyshev() ? cl.buffer(12L * n) : 0L;

        long invMassMem = particles.invMassMem();
        long xMem = deviceState.xMem();
        long vMem = deviceState.vMem();
        clSetKernelArg1i(predictKernel, 0, n);
        bufferArgs(predictKernel, "pd_predict", 1, invMassMem, dragMem);
        bufferArgs(predictKernel, "pd_predict", 7, xMem, vMem, yMem, dMem);
        bindTets(n, tetRowStart);
        clSetKernelArg1i(projectKernel, 0, springCount);
        bufferArgs(projectKernel, "pd_project", 1, pairsMem, restMem, springKMem, slotAMem, slotBMem, yMem, dMem,
                projectionMem);
        bufferArgs(colorKernel, "pd_relax", 0, colorOrderMem, slotStartMem, slotNeighbourMem, projectionMem,
                invDiagonalMem, massOverH2Mem, omegaMem, springWeightMem, tetRowStartMem, tetRowNeighbourMem,
                tetRowWeightMem, tetRhsMem, dMem, dMem);
        if (jacobi) {
            bufferArgs(jacobiKernel, "pd_relax", 0, identityOrderMem, slotStartMem, slotNeighbourMem, projectionMem,
                    invDiagonalMem, massOverH2Mem, omegaMem, springWeightMem, tetRowStartMem, tetRowNeighbourMem,
                    tetRowWeightMem, tetRhsMem, dMem, nextMem);
        }
        if (settings().chebyshev()) {
            clSetKernelArg1i(chebyshevKernel, 0, 3 * n);
            bufferArgs(chebyshevKernel, "pd_chebyshev", 3, nextMem, olderMem, dMem);
        }
        if (lattice != null) {
            bindLattice(n, springK[0]);
        }
        clSetKernelArg1i(finishKernel, 0, n);
        bufferArgs(finishKernel, "pd_finish", 1, invMassMem, particles.gripMem(), particles.offsetMem());
        bufferArgs(finishKernel, "pd_finish", 8, xMem, vMem, yMem, dMem);
        tethers.bind(m, settings().tethers(), yMem, dMem);
        if (contactsOn()) {
            bindContacts(m, yMem, dMem);
        }
    }

    /**
     * The elastic tetrahedra's rows for the sweeps (empty rows and no right-hand side without any), and where
     * there are tetrahedra their data for the local step and the gather ({@link PdTetLayout}: the CPU's arrays),
     * the program built the first time, arguments set.
     */
    private void bindTets(int n, int[] rowStart) {
        tetRowStartMem = cl.upload(rowStart);
        if (tets == null) {
            tetRowNeighbourMem = cl.upload(new int[0]);
            tetRowWeightMem = cl.upload(new float[0]);
            tetRhsMem = cl.upload(new float[0]); // never read: every row is empty
            return;
        }
        tetRowNeighbourMem = cl.upload(tets.rowNeighbour());
        tetRowWeightMem = cl.upload(tets.rowWeight());
        tetRhsMem = cl.buffer(12L * n);
        if (tetProjectKernel == 0L) {
            long program = program("pd_tets.cl", cpuRounding, "");
            tetProjectKernel = kernel(program, "pd_tets_project");
            tetGatherKernel = kernel(program, "pd_tets_gather");
        }
        tetCornersMem = cl.upload(tets.corners());
        tetGradientMem = cl.upload(tets.gradient());
        tetRestEdgeMem = cl.upload(tets.restEdge());
        tetWeightMem = cl.upload(tets.weight());
        tetShareMem = cl.upload(tets.strainShare());
        tetCornerRhsMem = cl.buffer(48L * tetCount);
        tetCornerStartMem = cl.upload(tets.cornerStart());
        tetCornerSlotsMem = cl.upload(tets.cornerSlots());
        tetWork.put(0, tetCount);
        clSetKernelArg1i(tetProjectKernel, 0, tetCount);
        bufferArgs(tetProjectKernel, "pd_tets_project", 1, tetCornersMem, tetGradientMem, tetRestEdgeMem, tetWeightMem,
                tetShareMem, yMem, dMem, tetCornerRhsMem);
        clSetKernelArg1i(tetGatherKernel, 0, n);
        bufferArgs(tetGatherKernel, "pd_tets_gather", 1, tetCornerStartMem, tetCornerSlotsMem, tetCornerRhsMem,
                tetRhsMem);
    }

    /** PdSolver.projectTethers: the model's tethers after each alternation of a step, not in a relaxation. */
    private void projectTethers() {
        if (integrating) {
            tethers.project();
        }
    }

    /** The lattice kernels' rest lengths uploaded, their projection buffers made (zero), arguments set. */
    private void bindLattice(int n, float k) {
        int rows = lattice.rows();
        int columns = lattice.columns();
        latticeColorWork.put(0, (long) rows * ((columns + 1) / 2));
        restRightMem = cl.upload(lattice.restRight());
        restDownMem = cl.upload(lattice.restDown());
        projRightMem = cl.buffer(12L * n);
        projDownMem = cl.buffer(12L * n);
        float[] zeros = new float[3 * n];
        ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), projRightMem, true, 0L, zeros, null, null), "clear projections");
        ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), projDownMem, true, 0L, zeros, null, null), "clear projections");
        clSetKernelArg1i(latticeProjectKernel, 0, n);
        clSetKernelArg1i(latticeProjectKernel, 1, columns);
        bufferArgs(latticeProjectKernel, "pd_lattice_project", 2, restRightMem, restDownMem, yMem, dMem, projRightMem,
                projDownMem);
        clSetKernelArg1i(latticeSweepKernel, 0, rows);
        clSetKernelArg1i(latticeSweepKernel, 1, columns);
        clSetKernelArg1f(latticeSweepKernel, 3, k);
        clSetKernelArg1f(latticeSweepKernel, 4, settings().omega());
        bufferArgs(latticeSweepKernel, "pd_lattice_sweep", 5, massOverH2Mem, invDiagonalMem, projRightMem, projDownMem,
                yMem, dMem);
    }

    /** Whether the bound model runs on the lattice kernels (as PdSolver does on it). */
    boolean usesLatticeKernels() {
        return lattice != null;
    }

    /** Particle contacts run on the device (DeviceContacts), after the solver's own phase as on the CPU. */
    @Override
    boolean runsParticleContacts() {
        return true;
    }

    @Override
    void collidersChanged(DeviceColliders c) {
        clSetKernelArg1i(finishKernel, 4, c.count());
        bufferArgs(finishKernel, "pd_finish", 5, c.typeMem(), c.dataMem());
    }

    /**
     * When h changed: PdSolver.bind's m/h², inverse diagonal 1/(Σk + m/h²) (0 for pinned particles; Σk with
     * the tetrahedra's diagonal) and Chebyshev's ρ² (the given ρ, or the Gershgorin bound max Σ|row|/a_p), the
     * first two uploaded.
     */
    private void prepare(float dt) {
        if (dt == preparedStep) {
            return;
        }
        float invH2 = 1f / (dt * dt);
        float gershgorin = 0f;
        for (int p = 0; p < invMass.length; p++) {
            if (invMass[p] == 0f) {
                massOverH2[p] = 0f;
                invDiagonal[p] = 0f;
            } else {
                massOverH2[p] = invH2 / invMass[p];
                float offDiagonal = springWeight[p];
                invDiagonal[p] = 1f / (offDiagonal + massOverH2[p]);
                // the tetrahedra's row weights may be negative: Gershgorin takes their magnitudes
                float bound = tets == null ? offDiagonal
                        : offDiagonal - tets.diagonal()[p] + tets.absoluteRow()[p];
                gershgorin = Math.max(gershgorin, bound * invDiagonal[p]);
            }
        }
        float rho = settings().chebyshevRho() > 0f ? settings().chebyshevRho() : gershgorin;
        chebyshevRho2 = rho * rho;
        long queue = cl.queue();
        ClCheck.ok(clEnqueueWriteBuffer(queue, massOverH2Mem, true, 0L, massOverH2, null, null), "write m/h²");
        ClCheck.ok(clEnqueueWriteBuffer(queue, invDiagonalMem, true, 0L, invDiagonal, null, null),
                "write inverse diagonal");
        preparedStep = dt;
    }

    @Override
    void releaseModelBuffers() {
        OpenClContext.releaseAll(pairsMem, restMem, springKMem, slotAMem, slotBMem, slotStartMem, slotNeighbourMem,
                projectionMem, colorOrderMem, identityOrderMem, omegaMem, springWeightMem, massOverH2Mem,
                invDiagonalMem, dragMem, yMem, dMem, nextMem, olderMem, restRightMem, restDownMem, projRightMem,
                projDownMem, tetCornersMem, tetGradientMem, tetRestEdgeMem, tetWeightMem, tetShareMem, tetCornerRhsMem,
                tetCornerStartMem, tetCornerSlotsMem, tetRowStartMem, tetRowNeighbourMem, tetRowWeightMem, tetRhsMem);
        pairsMem = restMem = springKMem = slotAMem = slotBMem = slotStartMem = slotNeighbourMem = 0L;
        projectionMem = colorOrderMem = identityOrderMem = omegaMem = springWeightMem = massOverH2Mem = 0L;
        invDiagonalMem = dragMem = yMem = dMem = nextMem = olderMem = 0L;
        restRightMem = restDownMem = projRightMem = projDownMem = 0L;
        tetCornersMem = tetGradientMem = tetRestEdgeMem = tetWeightMem = tetShareMem = tetCornerRhsMem = 0L;
        tetCornerStartMem = tetCornerSlotsMem = tetRowStartMem = tetRowNeighbourMem = tetRowWeightMem = tetRhsMem = 0L;
        tetCount = 0;
        if (tethers != null) { // null when the constructor failed before making it
            tethers.release();
        }
        lattice = null;
        for (PointerBuffer p : new PointerBuffer[] {colorOffset, colorSize}) {
            if (p != null) {
                MemoryUtil.memFree(p);
            }
        }
        colorOffset = colorSize = null;
    }

    @Override
    void freeSolverMemory() {
        MemoryUtil.memFree(springWork);
        MemoryUtil.memFree(coordinateWork);
        MemoryUtil.memFree(latticeColorWork);
        MemoryUtil.memFree(tetWork);
    }
}
