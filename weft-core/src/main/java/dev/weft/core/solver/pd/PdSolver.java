package dev.weft.core.solver.pd;

import dev.weft.core.coloring.Coloring;
import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.contact.ParticleContacts;
import dev.weft.core.model.DistanceConstraints;
import dev.weft.core.model.Incidence;
import dev.weft.core.model.MaterialParameters;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.IterativeSolver;
import dev.weft.core.solver.ParticleContactSlot;
import dev.weft.core.solver.ParticleContactSolver;
import dev.weft.core.solver.TetherProjection;
import dev.weft.core.step.AeroForces;
import dev.weft.core.step.Damping;
import dev.weft.core.step.Environment;
import dev.weft.core.step.PositionStep;
import dev.weft.core.step.StepPositions;

/**
 * Projective Dynamics for mass-spring cloth (Bouaziz et al. 2014, Liu et al. 2013) as seed 001 §5.3.4
 * implements it. Every distance constraint is a spring of stiffness k (its weight: the body's material,
 * {@link MaterialParameters}; written as one k below, per spring in the code); one step minimises
 * ½‖M^½(q − y)‖²/h² + Σ ½k‖(q_a − q_b) − p_ab‖² by alternation:
 *
 * <ol>
 *   <li>Verlet prediction y = q + h·v + h²(g − c·v + F_air/m) (algorithm 2; F_air is wind and drag per
 *       triangle, {@link dev.weft.core.step.AeroForces}, from the positions and velocities at the start of the step);</li>
 *   <li>{@code outerIterations} times: the <b>local step</b> projects each spring onto its rest length,
 *       p_ab = L·(q_a − q_b)/|q_a − q_b| from the current positions (the seed's {@code temp});
 *       the <b>global step</b> runs {@code innerIterations} sweeps of an iterative solver on
 *       (m_p/h² + n_p·k)·q_p − k·Σ q_c = m_p/h²·y_p + k·Σ ±p (algorithm 4);</li>
 *   <li>v = v_pred + (q − y)/h; particle contacts when on ({@link #withParticleContacts}) and colliders,
 *       their displacement over h added to v.</li>
 * </ol>
 *
 * <p>The iterate is kept as the prediction y plus a correction d ({@link StepPositions}) and every
 * update writes d, so that no update is rounded to the ulp of a world coordinate (at 1000 m that lost
 * 13 % of a spinning cloth's momentum in 0.5 s). In that form the update above reads
 * d_p ← d_p + ω(−m_p/h²·d_p + k·Σ((y_c − y_p) + (d_c − d_p) ± p))/a_p.
 *
 * <p>Particle contacts (self- and inter-cloth) are a position projection after the local/global
 * iterations, like the colliders, and the velocity follows from the displacement. They are not a term
 * of PD's energy: a contact spring would change the system matrix every step (breaking the constant
 * diagonal the lattice kernels and Chebyshev's ρ are built on), and a contact projected inside the loop
 * is undone by the next global step, which pulls particles back towards y. As the last word before the
 * velocity update they hold exactly, as in XPBD.
 *
 * <p>The per-particle update is q_p ← q_p + ω(target_p − q_p), target_p = (m_p/h²·y_p + k·Σ(q_c ± p))/a_p,
 * a_p = n_p·k + m_p/h². Seed algorithms 5–7 write {@code accum + q_cp + d̂Lk}; the factor k belongs to
 * both terms (it is k·(q_c + p) in the linear system), as here. It is computed as a correction,
 * q_p + ω(m_p/h²·(y_p − q_p) + k·Σ(q_c ± p − q_p))/a_p: the absolute form target·(1/a_p) rounds the
 * reciprocal's error δ into every sweep as q_p·(1 + δ), which pulled a cloth at rest towards the world
 * origin (0.7 m in 2 s at y = 1 m); the correction is exactly zero for a cloth at rest, wherever it is. Pinned particles keep their position
 * and act on their neighbours as known values.
 *
 * <p>Elastic tetrahedra ({@link PdElasticTets}: Bouaziz et al. 2014's strain and volume constraints with the
 * model's Lamé parameters) are terms of the same energy: the local step projects each tetrahedron too, and
 * each particle's row gains its tetrahedra's neighbour weights (constant, like the springs'), so every inner
 * solver runs them unchanged; the particle coloring keeps a tetrahedron's corners apart.
 *
 * <p>Parallel passes write only what their indices own (a color's particles, one particle's Jacobi
 * value, one spring's projection) and sum neighbours in a fixed order, so any thread count gives
 * bitwise the same result. Sequential Gauss–Seidel runs on the calling thread.
 */
public final class PdSolver implements ParticleContactSolver, IterativeSolver {
    private final PdSettings settings;
    private final WorkerPool pool;

    // Bound model data.
    private Model model;
    private int n;
    private float[] w;
    /** Springs: particle pairs and rest lengths (the model's distance constraints, storage order). */
    private int[] springs;
    private float[] rest;
    /**
     * Per particle p, its springs are the slots [slotStart[p], slotStart[p+1]): the neighbour at the other
     * end, and 4 floats: (written by the local step) the spring's weight times the projection as seen from
     * p with the neighbour's prediction, k·((y_c − y_p) ± p_ab), all of p's sum over its springs but the
     * corrections, which change with every sweep; and k itself (one array read per slot instead of three).
     * Slots of one particle are contiguous, so the global step reads them in order.
     */
    private int[] slotStart;
    private int[] slotNeighbour;
    private float[] slotProjection;
    /** PD weight k per spring (N/m), from the bodies' materials. */
    private float[] springK;
    /** Slot of spring e at its first (a) and second (b) particle. */
    private int[] springSlotA;
    private int[] springSlotB;
    /** Particles 0..n−1 in index order: sequential Gauss–Seidel walks the same loop as a color. */
    private int[] identityOrder;
    /** The particle coloring, order by color (red-black on lattices). */
    private int[] colorOrder;
    private int[] colorStart;
    /** The relaxation factor per particle: ω, or ω/n_p for seed 001's Jacobi. */
    private float[] omegaOf;
    /** m_p/h² and 1/(Σ_springs k + m_p/h²) per particle, for the current h (0 for pinned particles). */
    private float[] massOverH2;
    private float[] invDiagonal;
    /** Σ k over each particle's springs (the off-diagonal weight of its row). */
    private float[] springWeight;
    /**
     * The iterate q = y + d: y the inertial target (the prediction in a step, the starting positions in
     * a relaxation), d the correction every update writes.
     */
    private StepPositions positions;
    private float[] y;
    private float[] d;
    /** {@link #iteratePositions()}'s array. */
    private float[] current;
    /** The step's shared frame: prediction, contacts, colliders, velocities (DESIGN.md). */
    private final PositionStep frame;
    private float[] next;
    private float[] older;
    /** The fixed-offset kernels when the springs are seed 001's row-major lattice and the inner solver is RBGS. */
    private LatticeRedBlack lattice;
    private int latticeColor;
    /** Strain and volume terms of the elastic tetrahedra (null without any). */
    private PdElasticTets tets;
    private int[] tetRowStart;
    private int[] tetRowNeighbour;
    private float[] tetRowWeight;
    private float[] tetRhs;
    private boolean latticeKernels = true;
    /** The prefactored global step when the inner solver is {@link InnerSolver#CHOLESKY}, else null. */
    private PdDirectSolve direct;

    // Per-step values read by the range bodies.
    /** The state's (world) positions. */
    private float[] world;
    private float[] v;
    private State state;
    private float h;
    private float boundH;
    /** The springs' one weight when all are equal (the lattice kernels need that), else NaN. */
    private float k;
    private float omega;
    private boolean integrating;
    private final ParticleContactSlot contactSlot = new ParticleContactSlot();
    private final TetherProjection tethers = new TetherProjection();
    private ParticleContacts contacts;
    /** Jacobi sweeps done in this step, and the current Chebyshev weight (Wang 2015 eq. 12). */
    private int sweeps;
    private float chebyshevWeight;
    /** ρ² of Chebyshev acceleration for the current h. */
    private float chebyshevRho2;

    private final RangeBody localBody = this::projectSprings;
    private final RangeBody tetLocalBody = (begin, end) -> tets.project(y, d, begin, end);
    private final RangeBody tetGatherBody = (begin, end) -> tets.gather(begin, end);
    private final RangeBody colorBody = this::gaussSeidelColorRange;
    private final RangeBody jacobiBody = (b, e) -> relaxRange(identityOrder, b, e, next);
    private final RangeBody jacobiApplyBody = this::jacobiApply;
    private final RangeBody latticeLocalBody = (begin, end) -> lattice.project(y, d, begin, end);
    private final RangeBody latticeSweepBody = (begin, end) -> lattice.sweep(y, d, massOverH2, invDiagonal, k, omega,
            latticeColor, begin, end);

    public PdSolver(PdSettings settings, WorkerPool pool) {
        this.settings = settings;
        this.pool = pool;
        this.frame = new PositionStep(pool);
        this.omega = settings.omega();
    }

    @Override
    public String name() {
        return "pd";
    }

    @Override
    public WorkerPool pool() {
        return pool;
    }

    public PdSettings settings() {
        return settings;
    }

    /**
     * Turns on particle–particle contact: a contact pass after the iterations of every step, before the
     * colliders (see the class comment). Returns this solver.
     */
    @Override
    public PdSolver withParticleContacts(ParticleContactSettings s) {
        contactSlot.configure(s);
        contacts = null;
        return this;
    }

    @Override
    public ParticleContacts particleContacts() {
        return contactSlot.current();
    }

    /** Whether the last bound model runs on the lattice kernels ({@link LatticeRedBlack}). */
    boolean usesLatticeKernels() {
        return lattice != null;
    }

    /** Turns the lattice kernels off: the general slot-list path on every model (to test one against the other). */
    PdSolver withGeneralPathOnly() {
        latticeKernels = false;
        model = null;
        return this;
    }

    @Override
    public void step(Model m, State s, Environment env, float dt) {
        beginStep(m, s, env, dt);
        for (int it = 0; it < settings.outerIterations(); it++) {
            iterate();
        }
        endStep();
    }

    /**
     * Starts a step: Verlet prediction y, which is also the first iterate. Then call {@link #iterate()}
     * as often as wanted and {@link #endStep()} (the convergence laboratory measures between them).
     */
    @Override
    public void beginStep(Model m, State s, Environment env, float dt) {
        bind(m, s, dt);
        integrating = true;
        contacts = contactSlot.bind(m);
        // seed 001 algorithm 2's drag c·v as a force in the prediction; no damping after
        frame.predict(s, env, dt, Damping.DRAG);
    }

    /**
     * The current iterate y + d, for measuring between iterations (the convergence laboratory); a
     * scratch array, overwritten by the next call.
     */
    @Override
    public float[] iteratePositions() {
        positions.current(current);
        return current;
    }

    /**
     * Starts an iteration sequence without integration (seed 001's enlarged-cloth experiment): y is the
     * current positions, only the solver moves particles. {@code dt} sets the inertia weight m/h².
     */
    @Override
    public void beginRelax(Model m, State s, float dt) {
        bind(m, s, dt);
        integrating = false; // the experiment has collision handling off
        positions.begin(world);
    }

    /**
     * One local/global alternation: project the springs, then {@code innerIterations} sweeps, or one exact
     * solve with {@link InnerSolver#CHOLESKY}.
     */
    public void iterate() {
        if (lattice != null) {
            pool.parallelFor(0, lattice.rows, 2, latticeLocalBody);
            for (int sweep = 0; sweep < settings.innerIterations(); sweep++) {
                for (latticeColor = 0; latticeColor < 2; latticeColor++) {
                    pool.parallelFor(0, lattice.rows, 2, latticeSweepBody);
                }
            }
            projectTethers();
            return;
        }
        pool.parallelFor(0, rest.length, localBody);
        if (tets != null) {
            pool.parallelFor(0, tets.count(), tetLocalBody);
            pool.parallelFor(0, n, tetGatherBody);
        }
        if (direct != null) {
            direct.solve(d, tetRhs);
            projectTethers();
            return;
        }
        if (settings.innerIterations() > 1) {
            // Several sweeps on one linear system: Chebyshev's recurrence holds for that system only, so it
            // restarts with each local step (accelerating across changing systems was measured to diverge).
            // With one sweep per local step it runs across the whole step, as Wang 2015.
            sweeps = 0;
        }
        for (int sweep = 0; sweep < settings.innerIterations(); sweep++) {
            switch (settings.inner()) {
                case GAUSS_SEIDEL:
                    gaussSeidelSequential();
                    break;
                case RED_BLACK_GAUSS_SEIDEL:
                    for (int c = 0; c + 1 < colorStart.length; c++) {
                        pool.parallelFor(colorStart[c], colorStart[c + 1], colorBody);
                    }
                    break;
                case JACOBI:
                case SEED_JACOBI:
                    jacobiSweep();
                    break;
                default:
                    throw new AssertionError(settings.inner());
            }
        }
        projectTethers();
    }

    /**
     * The model's tethers after each alternation of a step (not while relaxing without integration): the
     * next local step starts from positions within them, and the step ends within them.
     */
    private void projectTethers() {
        if (integrating && settings.tethers()) {
            tethers.project(pool, y, d);
        }
    }

    @Override
    public void iterateOnce() {
        iterate();
    }

    @Override
    public void endStep(State s) {
        endStep();
    }

    /** Ends a step begun by {@link #beginStep}: particle contacts, colliders, velocities, clock. */
    public void endStep() {
        if (!integrating) {
            positions.write(world, w, 0, n);
            return;
        }
        frame.finish(state, contacts, true);
        state.advance(h);
    }

    /** {@link #beginRelax} and {@code iterations} alternations: the enlarged-cloth experiment, benchmarks. */
    public void relax(Model m, State s, float dt, int iterations) {
        beginRelax(m, s, dt);
        for (int it = 0; it < iterations; it++) {
            iterate();
        }
        endStep();
    }

    private void bind(Model m, State s, float dt) {
        if (m != model) {
            MaterialParameters.requireNoIsometricBending(m, "pd");
            model = m;
            tethers.bind(m);
            n = m.particleCount();
            w = m.invMass();
            DistanceConstraints dc = m.distances();
            springs = dc.particles();
            rest = dc.restLength();
            MaterialParameters.requireFinite(m, "pd");
            springK = m.distanceStiffness();
            k = uniform(springK);
            buildSlots(m.distanceIncidence());
            bindTets(m);
            lattice = latticeKernels ? LatticeRedBlack.of(settings, m, springK, tets != null) : null;
            Coloring coloring = m.particleColoring();
            colorOrder = coloring.order();
            colorStart = coloring.colorStart();
            massOverH2 = new float[n];
            invDiagonal = new float[n];
            omegaOf = new float[n];
            for (int p = 0; p < n; p++) {
                int springsOfP = slotStart[p + 1] - slotStart[p] + tetRowStart[p + 1] - tetRowStart[p];
                omegaOf[p] = settings.inner() == InnerSolver.SEED_JACOBI && springsOfP > 0
                        ? omega / springsOfP : omega;
            }
            identityOrder = new int[n];
            for (int p = 0; p < n; p++) {
                identityOrder[p] = p;
            }
            frame.bind(m);
            positions = frame.positions();
            y = positions.predicted();
            d = positions.corrections();
            current = new float[3 * n];
            next = settings.inner().isJacobi() ? new float[3 * n] : null;
            direct = settings.inner().isDirect() ? new PdDirectSolve(n, w, slotStart, slotNeighbour, slotProjection,
                    tetRowStart, tetRowNeighbour, tetRowWeight, m.restPositions(), pool) : null;
            older = settings.chebyshev() ? new float[3 * n] : null;
            boundH = Float.NaN;
        }
        state = s;
        world = s.positions();
        v = s.velocities();
        h = dt;
        if (dt != boundH) {
            boundH = dt;
            float invH2 = 1f / (dt * dt);
            float gershgorin = 0f;
            for (int p = 0; p < n; p++) {
                if (w[p] == 0f) {
                    massOverH2[p] = 0f;
                    invDiagonal[p] = 0f;
                } else {
                    massOverH2[p] = invH2 / w[p];
                    float offDiagonal = springWeight[p];
                    invDiagonal[p] = 1f / (offDiagonal + massOverH2[p]);
                    // the tetrahedra's row weights may be negative: Gershgorin takes their magnitudes
                    float bound = tets == null ? offDiagonal
                            : offDiagonal - tets.diagonal()[p] + tets.absoluteRow()[p];
                    gershgorin = Math.max(gershgorin, bound * invDiagonal[p]);
                }
            }
            float rho = settings.chebyshevRho() > 0f ? settings.chebyshevRho() : gershgorin;
            chebyshevRho2 = rho * rho;
            if (direct != null) {
                direct.factor(massOverH2, springWeight);
            }
        }
        sweeps = 0;
        chebyshevWeight = 1f;
    }

    /**
     * Per particle, its springs in ascending spring order (the model's distance incidence): the fixed
     * summation order of every solver.
     */
    private void buildSlots(Incidence incidence) {
        slotStart = incidence.start();
        int[] entries = incidence.slots();
        slotNeighbour = new int[springs.length];
        springSlotA = new int[rest.length];
        springSlotB = new int[rest.length];
        for (int k = 0; k < entries.length; k++) {
            int s = entries[k];
            int e = s >> 1;
            slotNeighbour[k] = springs[s ^ 1];
            if ((s & 1) == 0) {
                springSlotA[e] = 4 * k; // q_a ≈ q_b + p_ab
            } else {
                springSlotB[e] = 4 * k; // q_b ≈ q_a − p_ab
            }
        }
        slotProjection = new float[4 * springs.length];
        for (int e = 0; e < rest.length; e++) {
            slotProjection[springSlotA[e] + 3] = springK[e];
            slotProjection[springSlotB[e] + 3] = springK[e];
        }
        springWeight = new float[n];
        for (int p = 0; p < n; p++) {
            for (int slot = slotStart[p]; slot < slotStart[p + 1]; slot++) {
                springWeight[p] += slotProjection[4 * slot + 3];
            }
        }
    }

    /**
     * The elastic tetrahedra's rows ({@link PdElasticTets}); their diagonal joins the springs' weight. Without
     * any, empty rows, so the sweep's loop over them costs nothing.
     */
    private void bindTets(Model m) {
        tets = PdElasticTets.of(m);
        if (tets == null) {
            tetRowStart = new int[n + 1];
            tetRowNeighbour = new int[0];
            tetRowWeight = new float[0];
            tetRhs = new float[3 * n];
            return;
        }
        tetRowStart = tets.rowStart();
        tetRowNeighbour = tets.rowNeighbour();
        tetRowWeight = tets.rowWeight();
        tetRhs = tets.rhs();
        for (int p = 0; p < n; p++) {
            springWeight[p] += tets.diagonal()[p];
        }
    }

    /** The one value of {@code k}, or NaN when they differ (or there are none). */
    private static float uniform(float[] k) {
        if (k.length == 0) {
            return Float.NaN;
        }
        for (float v : k) {
            if (v != k[0]) {
                return Float.NaN;
            }
        }
        return k[0];
    }

    // ---- local step -----------------------------------------------------------------------------

    /**
     * p_ab = L·d̂ with d = q_a − q_b, written as +p_ab into a's slot and −p_ab into b's: each slot has
     * exactly one spring, so no two springs write the same place. A degenerate spring (coincident ends)
     * projects to nothing.
     */
    private void projectSprings(int begin, int end) {
        final float[] y = this.y;
        final float[] d = this.d;
        final float[] pr = slotProjection;
        final int[] pairs = springs;
        final int[] toA = springSlotA;
        final int[] toB = springSlotB;
        final float[] len = rest;
        final float[] ks = springK;
        for (int e = begin; e < end; e++) {
            int a = 3 * pairs[2 * e];
            int b = 3 * pairs[2 * e + 1];
            float dx = (y[a] - y[b]) + (d[a] - d[b]);
            float dy = (y[a + 1] - y[b + 1]) + (d[a + 1] - d[b + 1]);
            float dz = (y[a + 2] - y[b + 2]) + (d[a + 2] - d[b + 2]);
            float d2 = dx * dx + dy * dy + dz * dz;
            float s = d2 > 1e-24f ? len[e] / (float) Math.sqrt(d2) : 0f;
            // a's slot holds k·((y_b − y_a) + p_ab), b's its negative: the part of a's sum over its springs
            // that stays the same through this alternation's sweeps (y is the step's prediction)
            float ke = ks[e];
            float qx = ke * ((y[b] - y[a]) + dx * s);
            float qy = ke * ((y[b + 1] - y[a + 1]) + dy * s);
            float qz = ke * ((y[b + 2] - y[a + 2]) + dz * s);
            int sa = toA[e];
            pr[sa] = qx;
            pr[sa + 1] = qy;
            pr[sa + 2] = qz;
            int sb = toB[e];
            pr[sb] = -qx;
            pr[sb + 1] = -qy;
            pr[sb + 2] = -qz;
        }
    }

    // ---- global step ----------------------------------------------------------------------------

    private void gaussSeidelSequential() {
        relaxRange(identityOrder, 0, n, d);
    }

    private void gaussSeidelColorRange(int begin, int end) {
        relaxRange(colorOrder, begin, end, d);
    }

    /**
     * The update of particles order[begin..end) (algorithms 5–7, eq. 5.2):
     * q_p ← q_p + ω_p(m_p/h²·(y_p − q_p) + Σ k·(q_c ± p − q_p)) / a_p, a correction (see the class comment),
     * written on d = q − y into {@code out}: d itself for Gauss–Seidel (with SOR), the next iterate for
     * Jacobi (every particle reads the previous d; pinned ones copy theirs).
     */
    private void relaxRange(int[] order, int begin, int end, float[] out) {
        final float[] d = this.d;
        final float[] pr = slotProjection;
        final int[] start = slotStart;
        final int[] nb = slotNeighbour;
        final float[] inv = invDiagonal;
        final float[] mh2 = massOverH2;
        final float[] wOf = omegaOf;
        final float[] kp = springWeight;
        final int[] tetStart = tetRowStart;
        final int[] tetNb = tetRowNeighbour;
        final float[] tetW = tetRowWeight;
        final float[] tetB = tetRhs;
        for (int i = begin; i < end; i++) {
            int p = order[i];
            int p3 = 3 * p;
            float ip = inv[p];
            float dx = d[p3];
            float dy = d[p3 + 1];
            float dz = d[p3 + 2];
            if (ip == 0f) {
                out[p3] = dx;
                out[p3 + 1] = dy;
                out[p3 + 2] = dz;
                continue;
            }
            float sx = 0f;
            float sy = 0f;
            float sz = 0f;
            for (int s = start[p], e = start[p + 1]; s < e; s++) {
                int c3 = 3 * nb[s];
                int s4 = 4 * s;
                float ks = pr[s4 + 3];
                sx += pr[s4] + ks * d[c3];
                sy += pr[s4 + 1] + ks * d[c3 + 1];
                sz += pr[s4 + 2] + ks * d[c3 + 2];
            }
            int t0 = tetStart[p];
            int t1 = tetStart[p + 1];
            if (t0 < t1) {
                // the elastic tetrahedra: their corners' constant part and Σ_c W_pc·d_c (W_pc may be negative)
                sx += tetB[p3];
                sy += tetB[p3 + 1];
                sz += tetB[p3 + 2];
                for (int s = t0; s < t1; s++) {
                    int c3 = 3 * tetNb[s];
                    float ws = tetW[s];
                    sx += ws * d[c3];
                    sy += ws * d[c3 + 1];
                    sz += ws * d[c3 + 2];
                }
            }
            // Σ k·(d_c − d_p) as Σ k·d_c − (Σ k)·d_p: d is a correction, small wherever the cloth is
            float a = mh2[p] + kp[p];
            float sw = wOf[p] * ip;
            out[p3] = dx + sw * (sx - a * dx);
            out[p3 + 1] = dy + sw * (sy - a * dy);
            out[p3 + 2] = dz + sw * (sz - a * dz);
        }
    }

    private void jacobiSweep() {
        pool.parallelFor(0, n, jacobiBody);
        if (settings.chebyshev()) {
            // Wang 2015: plain iterations first, then ω_{k+1} = 4 / (4 − ρ²ω_k) from ω = 2 / (2 − ρ²).
            float rho2 = chebyshevRho2;
            if (sweeps < settings.chebyshevDelay()) {
                chebyshevWeight = 1f;
            } else if (sweeps == settings.chebyshevDelay()) {
                chebyshevWeight = 2f / (2f - rho2);
            } else {
                chebyshevWeight = 4f / (4f - rho2 * chebyshevWeight);
            }
        }
        pool.parallelFor(0, n, jacobiApplyBody);
        sweeps++;
    }

    /**
     * Moves every particle to its Jacobi value, extrapolated by Chebyshev's weight when enabled (on d:
     * y is fixed during a step, so the recurrence on q and on d are the same).
     */
    private void jacobiApply(int begin, int end) {
        final float[] x = this.d;
        if (older == null) {
            System.arraycopy(next, 3 * begin, x, 3 * begin, 3 * (end - begin));
            return;
        }
        float wc = chebyshevWeight;
        boolean first = sweeps == 0;
        for (int i = 3 * begin; i < 3 * end; i++) {
            float previous = first ? x[i] : older[i];
            float q = wc == 1f ? next[i] : wc * (next[i] - previous) + previous;
            older[i] = x[i];
            x[i] = q;
        }
    }
}
