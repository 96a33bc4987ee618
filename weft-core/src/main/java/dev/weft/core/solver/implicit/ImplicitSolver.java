package dev.weft.core.solver.implicit;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.ParticleSurface;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.contact.ParticleContacts;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.SimulationDivergedException;
import dev.weft.core.solver.ElasticTetForces;
import dev.weft.core.solver.ParticleContactSlot;
import dev.weft.core.solver.ParticleContactSolver;
import dev.weft.core.solver.TetherProjection;
import dev.weft.core.springs.SpringForce;
import dev.weft.core.springs.SpringSet;
import dev.weft.core.model.MaterialParameters;
import dev.weft.core.step.AeroForces;
import dev.weft.core.step.CorrectedVelocity;
import dev.weft.core.step.Environment;
import dev.weft.core.util.Check;
import dev.weft.core.util.FloatList;
import dev.weft.core.util.IntList;
import java.util.Arrays;

/**
 * Implicit (backward) Euler for mass-spring cloth, Baraff and Witkin's "large steps" as seed 000
 * builds it, and for elastic tetrahedra (co-rotated linear FEM, {@link ElasticTetForces}: their forces join the
 * springs', their warped stiffness R K Rᵀ and Rayleigh damping β R K Rᵀ enter A as (h β + h²) R K Rᵀ, R held
 * fixed over the step). One step of length h:
 * <ol>
 *   <li>constraints: pinned particles are fixed; particles the user constrained to a plane or a line,
 *       and particles touching a {@link PlaneCollider} (seed 000 §4.5), get their filter block S_i
 *       and prescribed velocity change z_i;</li>
 *   <li>every spring's force and Jacobians (eqs. 2.13, 4.7, 4.8) in a pass over springs;</li>
 *   <li>row-parallel, gather-style assembly of {@code A = M − h ∂F/∂v − h² ∂F/∂x} and
 *       {@code b = h (F + h ∂F/∂x v)} (eqs. 4.5, 5.4, 5.5) into a {@link BlockSparseMatrix}, and the
 *       inverses of A's diagonal blocks;</li>
 *   <li>solve {@code A Δv = b} with the filtered PCG or Jacobi method;</li>
 *   <li>{@code v += Δv}, {@code x += h v}; the model's tethers ({@link TetherProjection}) and other
 *       colliders project positions afterwards, the velocity gaining their correction over h.</li>
 * </ol>
 * A diagonal block that is singular or not positive definite (seed 000 §6.1's "vanishing particles",
 * whose inverse is NaN) and a breakdown of the linear solver stop the run with a
 * {@link SimulationDivergedException} naming the step and particle, before anything is updated.
 *
 * <p>Wind and air drag ({@link AeroForces}) enter F at the start of the step and are left out of the
 * Jacobians (a lagged, explicit treatment: they are small beside the springs and vary slowly).
 *
 * <p>A particle found inside a plane's thickness is put back on its surface before the step, and its
 * normal velocity is held at zero through S while in contact. A contact with a plane is released when the constraint force it needs would pull the particle
 * onto the plane (Baraff and Witkin §5.3); gravity, the springs and the contact are all implicit in
 * the solve. Friction at a plane contact is Coulomb's, on the velocity after the solve: the plane's
 * normal impulse over the step is J = (A Δv − b)_i · n (what the filter had to add), and the
 * tangential velocity v_t stops when |v_t| ≤ μ_s J / m_i, else loses μ_k J / m_i of its length (the
 * plane's static and kinetic coefficients; planes are taken as still).
 *
 * <p>Particle contacts (self- and inter-cloth, {@link #withParticleContacts}) enter the same way where
 * one direction describes them: a free particle (not pinned, not under a user or plane constraint, not
 * released last step) whose partners within {@value ImplicitContacts#PARTICLE_REACH} contact distances all lie on
 * one side and which is not moving away from them (faster than one step of gravity, g·h) gets the averaged contact normal n as its
 * constrained direction in S, with z prescribing the pair's centre-of-mass normal velocity (the partner's own where a pin, a
 * user constraint or a plane holds it)
 * ({@link ParticleContacts#normalConstraint}); the contact is released, as a plane's, when it would
 * have to pull. Such a contact has Coulomb friction like a plane's, on the velocity relative to the
 * partners' mean velocity at the start of the step, with this step's normal impulse and the cloth–cloth
 * coefficients (it acts on the constrained particle; its partner gets its own when it is constrained
 * too). Everywhere else (a particle squeezed between layers, one already constrained, contacts
 * found only during the step) the contacts act as a position projection with friction after the step,
 * the velocity following the move, as for the non-plane colliders. Deterministic: every pass writes only what its rows own and reductions run in fixed
 * chunks, so 1 and N threads give identical bits.
 */
public final class ImplicitSolver implements ParticleContactSolver {
    private final ImplicitSettings settings;
    private final WorkerPool pool;
    private final LinearSolver linear;

    private final IntList userParticles = new IntList();
    private final IntList userKinds = new IntList();
    private final FloatList userDirections = new FloatList();
    private boolean userDirty = true;

    private Model model;
    private SpringSet springs;
    private int n;
    private int springCount;
    private int[] springPairs;
    private float[] springRest;
    private float[] springKs;
    private float[] springKd;
    /** Per particle, its material's grip (on every contact's friction coefficients) and contact offset. */
    private ParticleSurface surface = ParticleSurface.PLAIN;
    /** Per particle, its material's velocity damping c in 1/s: the force −c·m·v. */
    private float[] velocityDamping;
    private BlockSparseMatrix matrix;
    private FilteredSystem system;
    private int[] blockSpring;
    /** Per spring, its two off-diagonal entries: (a, b) then (b, a). */
    private int[] springEntry;
    /** Per spring: the force on its first particle (3 doubles) and K = ∂F_a/∂x_a (6 floats, for b). */
    private double[] springForce;
    private float[] springK;
    /** The model's elastic tetrahedra, or null; per tetrahedron its 16 block entries of A. */
    private ElasticTetForces tets;
    private int[] tetEntry;
    private final ThreadLocal<double[]> tetBlock = ThreadLocal.withInitial(() -> new double[ElasticTetForces.BLOCK_SIZE]);
    private final ThreadLocal<double[]> springScratch = ThreadLocal.withInitial(() -> new double[SpringForce.STRIDE]);
    private double[] mass;
    private double[] dv;
    private byte[] userKind;
    private float[] userDir;
    /** Planes and cloth contacts as constraints in S, their release and friction. */
    private final ImplicitContacts held = new ImplicitContacts();
    private byte[] badBlock;
    private float[] w;
    private AeroForces aero;
    private double[] airForce;

    private float[] prevX;
    /** Positions right after x += h·v, before particle contacts and colliders correct them. */
    private float[] integratedX;
    private final ParticleContactSlot contactSlot = new ParticleContactSlot();
    private final TetherProjection tethers = new TetherProjection();
    private ParticleContacts contacts;
    private int particleContactCount;

    // per-step values read by the passes
    private float[] x;
    private float[] v;
    private double h;
    private double gx;
    private double gy;
    private double gz;
    private int lastIterations;
    private double lastResidual;
    private int contactCount;
    private long assemblyNanos;
    private long solveNanos;
    private long updateNanos;

    private final ThreadLocal<double[]> contactRow = ThreadLocal.withInitial(() -> new double[3]);
    private final ThreadLocal<double[]> newVelocity = ThreadLocal.withInitial(() -> new double[3]);
    private final RangeBody particleContactBody = this::constrainParticleContacts;
    private final RangeBody constraintBody = this::buildConstraints;
    private final RangeBody springBody = this::evaluateSprings;
    private final RangeBody tetBody = this::evaluateTets;
    private final RangeBody assembleBody = this::assembleRows;
    private final RangeBody integrateBody = this::integrate;
    private final RangeBody collideBody = this::collideOthers;
    private final RangeBody filterTetherBody = this::filterTetherCorrections;

    public ImplicitSolver(ImplicitSettings settings, WorkerPool pool) {
        this.settings = settings;
        this.pool = pool;
        this.linear = settings.method() == LinearMethod.CG ? new FilteredPcg(pool) : new JacobiMethod(pool);
    }

    @Override
    public String name() {
        return "implicit";
    }

    @Override
    public WorkerPool pool() {
        return pool;
    }

    public ImplicitSettings settings() {
        return settings;
    }

    /** Linear-solver iterations of the last step. */
    public int lastIterations() {
        return lastIterations;
    }

    /** Final relative residual |S(b − AΔv)| / |S b| of the last step. */
    public double lastRelativeResidual() {
        return lastResidual;
    }

    /** Time of the last step's constraints, forces, Jacobians and assembly of A, b and the block inverses. */
    public long lastAssemblyNanos() {
        return assemblyNanos;
    }

    /** Time of the last step's linear solve. */
    public long lastSolveNanos() {
        return solveNanos;
    }

    /** Time of the last step's velocity and position update (and non-plane collisions). */
    public long lastUpdateNanos() {
        return updateNanos;
    }

    /** The linear solver (for its own timings: {@link FilteredPcg#productNanos()}). */
    public LinearSolver linearSolver() {
        return linear;
    }

    /** Particles in contact with a plane (constrained through S) during the last step. */
    public int lastContactCount() {
        return contactCount;
    }

    /**
     * Turns on particle–particle contact: through the filter S where it applies, a position projection
     * after the step everywhere (see the class comment). Returns this solver.
     */
    @Override
    public ImplicitSolver withParticleContacts(ParticleContactSettings s) {
        contactSlot.configure(s);
        contacts = null;
        return this;
    }

    @Override
    public ParticleContacts particleContacts() {
        return contactSlot.current();
    }

    /** Particles whose cloth contact was a constraint in S during the last step. */
    public int lastParticleContactCount() {
        return particleContactCount;
    }

    /** The springs of the bound model (null before the first step). */
    public SpringSet springs() {
        return springs;
    }

    /** Lets particle i move only in the plane with the given normal (seed 000 eq. 4.9, second case). */
    public void constrainToPlane(int particle, float[] normal) {
        addUserConstraint(particle, ParticleFilter.PLANE, normal);
    }

    /** Lets particle i move only along the given direction (seed 000 eq. 4.9, third case). */
    public void constrainToLine(int particle, float[] direction) {
        addUserConstraint(particle, ParticleFilter.LINE, direction);
    }

    private void addUserConstraint(int particle, byte kind, float[] dir) {
        Check.vector3("constraint direction", dir);
        if (particle < 0) {
            throw new InvalidInputException("particle", "must be >= 0, got " + particle);
        }
        userParticles.add(particle);
        userKinds.add(kind);
        userDirections.add(dir[0], dir[1], dir[2]);
        userDirty = true;
    }

    /** The contacts released by the pull test (they stay free until they move clear): carried between steps. */
    @Override
    public byte[] saveState() {
        return held.save();
    }

    @Override
    public void loadState(byte[] state) {
        if (state == null) {
            return;
        }
        if (!held.load(state)) {
            // not bound yet, or bound to the model before a resume's edits: applied at the next bind
            model = null;
        }
    }

    @Override
    public void step(Model m, State state, Environment env, float dt) {
        bind(m, env);
        x = state.positions();
        v = state.velocities();
        h = dt;
        gx = env.gravityX();
        gy = env.gravityY();
        gz = env.gravityZ();
        long t0 = System.nanoTime();
        pool.parallelFor(0, n, constraintBody);
        contacts = contactSlot.bind(m);
        held.useClothContacts(contacts);
        if (contacts != null) {
            // after the plane pass (which may move particles onto planes): this one reads neighbours
            contacts.findCandidates(x, pool);
            pool.parallelFor(0, n, particleContactBody);
        }
        aero.compute(pool, x, v, env);
        pool.parallelFor(0, springCount, springBody);
        if (tets != null) {
            pool.parallelFor(0, tets.count(), tetBody);
        }
        pool.parallelFor(0, n, assembleBody);
        for (int i = 0; i < n; i++) {
            if (badBlock[i] != 0) {
                throw new SimulationDivergedException(state.steps() + 1, state.time() + dt, i,
                        "has a singular or indefinite diagonal block of A = M − h∂F/∂v − h²∂F/∂x (its inverse "
                                + "would be NaN: seed 000 §6.1's vanishing particles)");
            }
        }
        long t1 = System.nanoTime();
        try {
            linear.solve(system, dv, settings.maxIterations(), settings.tolerance());
        } catch (LinearSolveException e) {
            throw new SimulationDivergedException(state.steps() + 1, state.time() + dt, e.particle(),
                    "is where the linear solve failed: " + e.getMessage());
        }
        long t2 = System.nanoTime();
        lastIterations = linear.iterations();
        lastResidual = linear.relativeResidual();
        boolean tether = settings.tethers() && tethers.any();
        boolean project = held.otherColliders().length > 0 || contacts != null || tether;
        if (project) {
            System.arraycopy(x, 0, prevX, 0, 3 * n);
        }
        pool.parallelFor(0, n, integrateBody);
        if (project) {
            System.arraycopy(x, 0, integratedX, 0, 3 * n);
        }
        if (tether) {
            tethers.projectWorld(pool, x);
            pool.parallelFor(0, n, filterTetherBody);
        }
        if (contacts != null) {
            contacts.project(x, prevX, w, pool);
        }
        if (project) {
            pool.parallelFor(0, n, collideBody);
        }
        contactCount = held.planeContactCount();
        particleContactCount = held.clothContactCount();
        assemblyNanos = t1 - t0;
        solveNanos = t2 - t1;
        updateNanos = System.nanoTime() - t2;
        state.advance(dt);
    }

    private void bind(Model m, Environment env) {
        if (m != model) {
            MaterialParameters.requireNoIsometricBending(m, "implicit");
            model = m;
            tethers.bind(m);
            n = m.particleCount();
            w = m.invMass();
            MaterialParameters.requireFinite(m, "implicit");
            springs = SpringSet.build(m);
            tets = ElasticTetForces.of(m, "implicit");
            velocityDamping = MaterialParameters.particleDamping(m);
            surface = ParticleSurface.of(m);
            aero = new AeroForces(m);
            airForce = aero.forces();
            springCount = springs.count();
            springPairs = springs.pairs();
            springRest = springs.restLength();
            springKs = springs.stiffness();
            springKd = springs.damping();
            buildMatrix();
            springForce = new double[3 * springCount];
            springK = new float[6 * springCount];
            mass = systemMasses(m.invMass());
            dv = new double[3 * n];
            userKind = new byte[n];
            userDir = new float[3 * n];
            held.bind(m, surface);
            badBlock = new byte[n];
            prevX = new float[3 * n];
            integratedX = new float[3 * n];
            userDirty = true;
            held.unbindEnvironment();
        }
        if (userDirty) {
            Arrays.fill(userKind, (byte) 0);
            for (int k = 0; k < userParticles.size(); k++) {
                int p = userParticles.get(k);
                if (p >= n) {
                    throw new InvalidInputException("particle", "constraint on particle " + p
                            + ", but the model has " + n + " particles");
                }
                userKind[p] = (byte) userKinds.get(k);
                userDir[3 * p] = userDirections.get(3 * k);
                userDir[3 * p + 1] = userDirections.get(3 * k + 1);
                userDir[3 * p + 2] = userDirections.get(3 * k + 2);
            }
            userDirty = false;
        }
        held.bind(env);
    }

    /**
     * Partners within this many contact distances constrain a particle through S (shared with the device).
     */
    public static final float PARTICLE_REACH = ImplicitContacts.PARTICLE_REACH;

    /**
     * The normal speed away from its cloth partners below which a contact still rests: one step of gravity,
     * g·h, or the slop over h where larger ({@link #constrainParticleContacts}; shared with the device).
     */
    public static float restingSeparation(double h, double gx, double gy, double gz) {
        return (float) Math.max(ImplicitContacts.CONTACT_SLOP / h, Math.sqrt(gx * gx + gy * gy + gz * gz) * h);
    }

    /**
     * Each particle's mass in the system's rows: 1/w, and for a pinned particle (w = 0) the free particles'
     * mean — its row is filtered out, and a nominal mass keeps its block invertible. Shared with the device.
     */
    public static double[] systemMasses(float[] w) {
        double sum = 0.0;
        int free = 0;
        for (float wi : w) {
            if (wi > 0f) {
                sum += 1.0 / wi;
                free++;
            }
        }
        double nominal = free == 0 ? 1.0 : sum / free;
        double[] mass = new double[w.length];
        for (int i = 0; i < w.length; i++) {
            mass[i] = w[i] > 0f ? 1.0 / w[i] : nominal;
        }
        return mass;
    }

    /** CSR pattern: row i holds i and its spring neighbours, ascending; blockSpring maps block → spring. */
    private void buildMatrix() {
        SpringBlockPattern pattern = new SpringBlockPattern(springs, tets == null ? new int[0] : tets.tets(), n);
        blockSpring = pattern.blockSpring;
        springEntry = pattern.springEntry;
        tetEntry = pattern.tetEntry;
        matrix = new BlockSparseMatrix(pattern.rowStart, pattern.col);
        if (tets != null) {
            matrix.withSkewParts();
        }
        system = new FilteredSystem(matrix);
    }

    // ---- passes -------------------------------------------------------------------------------

    /** Filter block S_i and prescribed z_i per particle. */
    private void buildConstraints(int begin, int end) {
        ParticleFilter f = system.filter();
        double[] z = system.prescribed();
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            double vx = v[i3];
            double vy = v[i3 + 1];
            double vz = v[i3 + 2];
            if (w[i] == 0f) {
                held.held(i);
                f.fix(i);
                z[i3] = -vx;
                z[i3 + 1] = -vy;
                z[i3 + 2] = -vz;
                continue;
            }
            if (userKind[i] == ParticleFilter.PLANE || userKind[i] == ParticleFilter.LINE) {
                if (userKind[i] == ParticleFilter.PLANE) {
                    f.constrainToPlane(i, userDir[i3], userDir[i3 + 1], userDir[i3 + 2]);
                } else {
                    f.constrainToLine(i, userDir[i3], userDir[i3 + 1], userDir[i3 + 2]);
                }
                // no velocity in the constrained directions: z = −(I − S) v
                z[i3] = -vx;
                z[i3 + 1] = -vy;
                z[i3 + 2] = -vz;
                held.held(i);
                continue;
            }
            f.free(i);
            held.constrainToPlanes(i, w[i], x, v, h, f, z);
        }
    }

    /** Cloth contact through S for the particles the plane and user pass left free ({@link ImplicitContacts#constrainToCloth}). */
    private void constrainParticleContacts(int begin, int end) {
        ParticleFilter f = system.filter();
        double[] z = system.prescribed();
        // Resting layers leave the projection after the step with a small separating speed, of the order
        // of one step of gravity; slower than g·h is still resting contact (measured: two cloths at rest on
        // a floor keep 0.3 mm/s instead of 2 mm/s with projection only, 10 mm/s with the slop alone). A real
        // lift-off is released by the pull test as for planes.
        float separating = restingSeparation(h, gx, gy, gz);
        for (int i = begin; i < end; i++) {
            held.constrainToCloth(i, w[i] != 0f && userKind[i] == ParticleFilter.FREE, x, v, separating, f, z);
        }
    }

    private void evaluateSprings(int begin, int end) {
        final float[] x = this.x;
        final float[] v = this.v;
        final boolean definite = settings.definiteJacobian();
        final float[] values = matrix.values();
        final double hh = h;
        final double h2 = h * h;
        final double[] e = springScratch.get();
        for (int s = begin; s < end; s++) {
            int a = 3 * springPairs[2 * s];
            int b = 3 * springPairs[2 * s + 1];
            SpringForce.evaluate(x[a], x[a + 1], x[a + 2], x[b], x[b + 1], x[b + 2],
                    v[a], v[a + 1], v[a + 2], v[b], v[b + 1], v[b + 2],
                    springRest[s], springKs[s], springKd[s], definite, e, 0);
            springForce[3 * s] = e[0];
            springForce[3 * s + 1] = e[1];
            springForce[3 * s + 2] = e[2];
            // A_ab = A_ba = −h ∂F_a/∂v_b − h² ∂F_a/∂x_b = h D + h² K (∂F_a/∂x_b = −K)
            int q = BlockSparseMatrix.BLOCK * springEntry[2 * s];
            int r = BlockSparseMatrix.BLOCK * springEntry[2 * s + 1];
            for (int c = 0; c < 6; c++) {
                double k = e[SpringForce.DFDX + c];
                springK[6 * s + c] = (float) k;
                float value = (float) (hh * e[SpringForce.DFDV + c] + h2 * k);
                values[q + c] = value;
                values[r + c] = value;
            }
        }
    }

    private void evaluateTets(int begin, int end) {
        tets.evaluate(x, v, h, begin, end);
    }

    /** Row i's diagonal block of A, b_i and the inverse of A_ii (gather: reads springs, writes only row i). */
    private void assembleRows(int begin, int end) {
        final double[] f = springForce;
        final float[] kk = springK;
        final float[] a = matrix.values();
        final double[] bVec = system.rhs();
        final int[] rowStart = matrix.rowStart();
        final int[] col = matrix.columns();
        final double hh = h;
        final double h2 = h * h;
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            double m = mass[i];
            // the material's velocity damping as the force −c·m·v, implicit: ∂f/∂v = −c·m adds h·c·m to A_ii
            double cm = velocityDamping[i] * m;
            double fx = m * gx + airForce[i3] - cm * v[i3];
            double fy = m * gy + airForce[i3 + 1] - cm * v[i3 + 1];
            double fz = m * gz + airForce[i3 + 2] - cm * v[i3 + 2];
            double md = m + hh * cm;
            double kvx = 0.0;
            double kvy = 0.0;
            double kvz = 0.0;
            double sxx = 0.0;
            double sxy = 0.0;
            double sxz = 0.0;
            double syy = 0.0;
            double syz = 0.0;
            double szz = 0.0;
            double vix = v[i3];
            double viy = v[i3 + 1];
            double viz = v[i3 + 2];
            for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
                int s = blockSpring[k];
                if (s < 0) {
                    continue;
                }
                double sign = springPairs[2 * s] == i ? 1.0 : -1.0;
                fx += sign * f[3 * s];
                fy += sign * f[3 * s + 1];
                fz += sign * f[3 * s + 2];
                int kx = 6 * s;
                int q = BlockSparseMatrix.BLOCK * k;
                sxx += a[q];
                sxy += a[q + 1];
                sxz += a[q + 2];
                syy += a[q + 3];
                syz += a[q + 4];
                szz += a[q + 5];
                // (∂F/∂x v)_i = Σ K (v_i − v_j)
                int j3 = 3 * col[k];
                double rx = vix - v[j3];
                double ry = viy - v[j3 + 1];
                double rz = viz - v[j3 + 2];
                kvx += kk[kx] * rx + kk[kx + 1] * ry + kk[kx + 2] * rz;
                kvy += kk[kx + 1] * rx + kk[kx + 3] * ry + kk[kx + 4] * rz;
                kvz += kk[kx + 2] * rx + kk[kx + 4] * ry + kk[kx + 5] * rz;
            }
            if (tets != null) {
                // f + h ∂F/∂x v of the corners, and the diagonal's share, summed into the springs' accumulators
                double[] t = tetRow(i, fx, fy, fz);
                fx = t[0];
                fy = t[1];
                fz = t[2];
                sxx -= t[6];
                sxy -= t[7];
                sxz -= t[8];
                syy -= t[9];
                syz -= t[10];
                szz -= t[11];
            }
            int q = BlockSparseMatrix.BLOCK * matrix.diagonalEntry(i);
            a[q] = (float) (md - sxx);
            a[q + 1] = (float) -sxy;
            a[q + 2] = (float) -sxz;
            a[q + 3] = (float) (md - syy);
            a[q + 4] = (float) -syz;
            a[q + 5] = (float) (md - szz);
            bVec[i3] = hh * (fx + hh * kvx);
            bVec[i3 + 1] = hh * (fy + hh * kvy);
            bVec[i3 + 2] = hh * (fz + hh * kvz);
            badBlock[i] = matrix.invertDiagonal(i, system.blockInverse()) ? (byte) 0 : (byte) 1;
        }
    }

    private final ThreadLocal<double[]> tetRowSums = ThreadLocal.withInitial(() -> new double[12]);

    /**
     * Row i's share of its elastic tetrahedra: writes their off-diagonal blocks (h β + h²) R K Rᵀ into row i's
     * entries (zeroing first what no spring wrote) with their skew parts, and returns, in a per-thread array, the
     * force f plus the corners' f + h ∂F/∂x v ({@link ElasticTetForces#evaluate} with s = h: b_i gets h times it)
     * and, at 6..11, the diagonal block's tetrahedron part (h β + h²) K_ii to subtract from the springs' sum.
     */
    private double[] tetRow(int i, double fx, double fy, double fz) {
        final float[] a = matrix.values();
        final float[] skew = matrix.skew();
        final int[] rowStart = matrix.rowStart();
        final int diagonal = matrix.diagonalEntry(i);
        for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
            if (blockSpring[k] < 0 && k != diagonal) {
                int q = BlockSparseMatrix.BLOCK * k;
                for (int c = 0; c < BlockSparseMatrix.BLOCK; c++) {
                    a[q + c] = 0f;
                }
            }
            skew[3 * k] = 0f;
            skew[3 * k + 1] = 0f;
            skew[3 * k + 2] = 0f;
        }
        final int[] slots = tets.cornerSlots();
        final int[] start = tets.cornerStart();
        final double[] force = tets.cornerForce();
        final float[] beta = tets.damping();
        final double[] blk = tetBlock.get();
        final double hh = h;
        final double h2 = h * h;
        double dxx = 0;
        double dxy = 0;
        double dxz = 0;
        double dyy = 0;
        double dyz = 0;
        double dzz = 0;
        for (int e = start[i]; e < start[i + 1]; e++) {
            int slot = slots[e];
            int t = slot >> 2;
            int ca = slot & 3;
            fx += force[3 * slot];
            fy += force[3 * slot + 1];
            fz += force[3 * slot + 2];
            double c = hh * beta[t] + h2;
            for (int cb = 0; cb < 4; cb++) {
                tets.block(t, ca, cb, blk, 0);
                if (cb == ca) {
                    dxx += c * blk[0];
                    dxy += c * blk[1];
                    dxz += c * blk[2];
                    dyy += c * blk[3];
                    dyz += c * blk[4];
                    dzz += c * blk[5];
                    continue;
                }
                int k = tetEntry[16 * t + 4 * ca + cb];
                int q = BlockSparseMatrix.BLOCK * k;
                for (int m = 0; m < BlockSparseMatrix.BLOCK; m++) {
                    a[q + m] += (float) (c * blk[m]);
                }
                skew[3 * k] += (float) (c * blk[6]);
                skew[3 * k + 1] += (float) (c * blk[7]);
                skew[3 * k + 2] += (float) (c * blk[8]);
            }
        }
        double[] out = tetRowSums.get();
        out[0] = fx;
        out[1] = fy;
        out[2] = fz;
        out[6] = dxx;
        out[7] = dxy;
        out[8] = dxz;
        out[9] = dyy;
        out[10] = dyz;
        out[11] = dzz;
        return out;
    }

    /** v += Δv, x += h v; contact release test. */
    private void integrate(int begin, int end) {
        final double[] d = dv;
        final float hf = (float) h;
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            if (w[i] == 0f) {
                v[i3] = 0f;
                v[i3 + 1] = 0f;
                v[i3 + 2] = 0f;
                held.forget(i);
                continue;
            }
            double nvx = v[i3] + d[i3];
            double nvy = v[i3 + 1] + d[i3 + 1];
            double nvz = v[i3 + 2] + d[i3 + 2];
            if (held.inContact(i)) {
                double[] nv = newVelocity.get();
                nv[0] = nvx;
                nv[1] = nvy;
                nv[2] = nvz;
                held.afterSolve(i, contactPush(i), mass[i], system.filter(), nv);
                nvx = nv[0];
                nvy = nv[1];
                nvz = nv[2];
            } else {
                held.forget(i);
            }
            float fvx = (float) nvx;
            float fvy = (float) nvy;
            float fvz = (float) nvz;
            v[i3] = fvx;
            v[i3 + 1] = fvy;
            v[i3 + 2] = fvz;
            x[i3] += hf * fvx;
            x[i3 + 1] += hf * fvy;
            x[i3 + 2] += hf * fvz;
        }
    }

    /**
     * The plane's normal impulse on particle i over the step, the constraint's share of row i,
     * (A Δv − b)_i · n: negative when the plane would have to pull the particle towards itself.
     */
    private double contactPush(int i) {
        double[] b = system.rhs();
        double[] row = contactRow.get();
        matrix.multiplyRow(dv, row, 0, i);
        double sx = row[0];
        double sy = row[1];
        double sz = row[2];
        int i3 = 3 * i;
        ParticleFilter f = system.filter();
        return (sx - b[i3]) * f.px(i) + (sy - b[i3 + 1]) * f.py(i) + (sz - b[i3 + 2]) * f.pz(i);
    }

    /**
     * The tethers' correction through this step's filter S: a pinned, user-constrained or contact
     * particle keeps only what its constraint allows (seed 000 §4.4: the constraint is exact).
     */
    private void filterTetherCorrections(int begin, int end) {
        ParticleFilter f = system.filter();
        for (int i = begin; i < end; i++) {
            f.filterDisplacement(x, integratedX, i);
        }
    }

    /**
     * Colliders other than planes: position projection after the step; the velocity gains the particle
     * contacts' and colliders' corrections over h ({@link CorrectedVelocity}), not the float32
     * displacement over h, which is quantized far from the origin.
     */
    private void collideOthers(int begin, int end) {
        for (Collider c : held.otherColliders()) {
            c.collide(x, prevX, w, surface, begin, end);
        }
        CorrectedVelocity.apply(x, integratedX, v, w, (float) (1.0 / h), null, begin, end);
    }
}
