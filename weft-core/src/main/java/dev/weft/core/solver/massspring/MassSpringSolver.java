package dev.weft.core.solver.massspring;

import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.contact.ParticleContacts;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.ElasticTetForces;
import dev.weft.core.solver.ParticleContactSlot;
import dev.weft.core.solver.ParticleContactSolver;
import dev.weft.core.solver.TetherProjection;
import dev.weft.core.springs.SpringSet;
import dev.weft.core.model.MaterialParameters;
import dev.weft.core.step.Damping;
import dev.weft.core.step.Environment;
import dev.weft.core.step.PositionStep;
import dev.weft.core.step.StepPositions;

/**
 * Explicit mass-spring cloth with Verlet integration, seed 004's algorithm (figure 22.3): spring,
 * gravity and air forces, then the damped Verlet step of seed 002 eq. 1,
 * {@code x(t+h) = x(t) + k (x(t) − x(t−h)) + h² F(t) / m}, then collisions by projection (each collider
 * moves a penetrating particle out along the surface normal; the velocity gains the correction over h).
 * The previous position is {@code x − h v}, so the {@link State} stays positions + velocities and
 * another solver can take over at any step. Each Verlet step runs in the shared frame
 * ({@link PositionStep}): the Verlet step is its prediction with the spring forces, and tethers,
 * particle contacts and colliders correct it as they correct the other position-based solvers'.
 *
 * <p>Particle contacts ({@link #withParticleContacts}) are projected after the Verlet step, before the
 * colliders: Verlet's velocity is the displacement over the step, so the projection is also the
 * velocity correction (an inelastic contact with friction), and no contact force enters the explicit
 * step to limit its stable h.
 *
 * <p>Explicit: stable only while h·√(k_s/m) stays below about 2 ({@link StableStep}); beyond, the cloth
 * blows up within a few steps. By default each step is split into as many equal Verlet steps as that
 * bound needs, so any step the caller chooses is stable; with {@link MassSpringSettings#stableSteps()}
 * off (seed 004's fixed steps) a step that is too long blows up and {@code Simulation} stops the run
 * naming the step and particle. The model's tethers are projected after every Verlet step, like the
 * colliders (off in seed 004's settings). Springs are evaluated
 * in a pass over springs, forces gathered per particle in a fixed order: identical bits on any number
 * of threads.
 *
 * <p>Elastic tetrahedra add their co-rotated FEM forces ({@link ElasticTetForces}, with their Rayleigh damping),
 * evaluated in a pass over tetrahedra and gathered with the springs'; {@link StableStep} bounds their stiffness
 * too, so the default split into stable Verlet steps covers them.
 */
public final class MassSpringSolver implements ParticleContactSolver {
    private final MassSpringSettings settings;
    private final WorkerPool pool;

    private Model model;
    private SpringSet springs;
    /** The model's elastic tetrahedra, or null. */
    private ElasticTetForces tets;
    private final ThreadLocal<double[]> tetSum = ThreadLocal.withInitial(() -> new double[3]);
    private int n;
    private float[] w;
    private int[] springPairs;
    private float[] springRest;
    private float[] springKs;
    private float[] springKd;
    private int[] incidenceStart;
    private int[] incidenceSpring;
    private float[] springForce;
    /** The springs' force on each particle (xyz), gathered in a fixed order for the prediction. */
    private float[] particleForce;
    /** The shared frame each Verlet step runs in: prediction, tethers, contacts, colliders, velocities. */
    private final PositionStep frame;

    private float[] x;
    private float[] v;
    private final ParticleContactSlot contactSlot = new ParticleContactSlot();
    private final TetherProjection tethers = new TetherProjection();
    /** {@link StableStep#of} the bound model's springs. */
    private double stableStep;

    private final RangeBody springBody = this::evaluateSprings;
    private final RangeBody gatherBody = this::gatherForces;
    private final RangeBody tetBody = this::evaluateTets;

    public MassSpringSolver(MassSpringSettings settings, WorkerPool pool) {
        this.settings = settings;
        this.pool = pool;
        this.frame = new PositionStep(pool);
    }

    @Override
    public String name() {
        return "mass-spring";
    }

    @Override
    public WorkerPool pool() {
        return pool;
    }

    public MassSpringSettings settings() {
        return settings;
    }

    /** Turns on particle–particle contact: a projection after every Verlet step. Returns this solver. */
    @Override
    public MassSpringSolver withParticleContacts(ParticleContactSettings s) {
        contactSlot.configure(s);
        return this;
    }

    @Override
    public ParticleContacts particleContacts() {
        return contactSlot.current();
    }

    /** The springs of the bound model (null before the first step). */
    public SpringSet springs() {
        return springs;
    }

    /**
     * Advances by dt: one Verlet step, or with {@link MassSpringSettings#stableSteps()} as many equal ones
     * as {@link StableStep} needs ({@link #verletStepsPer}).
     */
    @Override
    public void step(Model m, State state, Environment env, float dt) {
        bind(m);
        x = state.positions();
        v = state.velocities();
        int count = verletStepsPer(m, dt);
        float h = dt / count;
        ParticleContacts contacts = contactSlot.bind(m);
        boolean tether = settings.tethers() && tethers.any();
        StepPositions positions = frame.positions();
        for (int k = 0; k < count; k++) {
            pool.parallelFor(0, springs.count(), springBody);
            if (tets != null) {
                pool.parallelFor(0, tets.count(), tetBody);
            }
            pool.parallelFor(0, n, gatherBody);
            // seed 002 eq. 1 with x − x(t−h) = h·v: its damping k scales the velocity
            frame.predict(state, env, h, Damping.VERLET, particleForce);
            if (tether) {
                tethers.project(pool, positions.predicted(), positions.corrections());
            }
            frame.finish(state, contacts, true);
        }
        state.advance(dt);
    }

    /** The longest stable Verlet step of {@code m}'s springs, in s ({@link StableStep}). */
    public double stableStep(Model m) {
        bind(m);
        return stableStep;
    }

    /**
     * Verlet steps one {@link #step} of {@code dt} takes on model {@code m}: 1 with fixed steps, else
     * enough that none is longer than {@link StableStep#of} (e.g. 26 per substep of 1/960 s on the
     * default scene's 64 × 64 cloth with 2000 N/m springs, whose light border particles set the bound).
     */
    public int verletStepsPer(Model m, float dt) {
        bind(m);
        return settings.stableSteps() ? StableStep.count(dt, stableStep) : 1;
    }

    private void bind(Model m) {
        if (m == model) {
            return;
        }
        MaterialParameters.requireNoIsometricBending(m, "mass-spring");
        model = m;
        n = m.particleCount();
        w = m.invMass();
        MaterialParameters.requireFinite(m, "mass-spring");
        springs = SpringSet.build(m);
        tets = ElasticTetForces.of(m, "mass-spring");
        springPairs = springs.pairs();
        springRest = springs.restLength();
        springKs = springs.stiffness();
        springKd = springs.damping();
        incidenceStart = springs.incidenceStart();
        incidenceSpring = springs.incidenceSpring();
        springForce = new float[3 * springs.count()];
        particleForce = new float[3 * n];
        stableStep = StableStep.of(springs, tets, w);
        tethers.bind(m);
        frame.bind(m);
    }

    /** Force on each spring's first particle (eq. 2.13 = seed 004's F_spring). */
    private void evaluateSprings(int begin, int end) {
        final float[] x = this.x;
        final float[] v = this.v;
        final float[] f = springForce;
        for (int s = begin; s < end; s++) {
            int a = 3 * springPairs[2 * s];
            int b = 3 * springPairs[2 * s + 1];
            float lx = x[a] - x[b];
            float ly = x[a + 1] - x[b + 1];
            float lz = x[a + 2] - x[b + 2];
            float l2 = lx * lx + ly * ly + lz * lz;
            int o = 3 * s;
            if (!(l2 > 1e-24f)) { // coincident: no direction, no force
                f[o] = 0f;
                f[o + 1] = 0f;
                f[o + 2] = 0f;
                continue;
            }
            float l = (float) Math.sqrt(l2);
            float inv = 1f / l;
            float cDot = (lx * (v[a] - v[b]) + ly * (v[a + 1] - v[b + 1]) + lz * (v[a + 2] - v[b + 2])) * inv;
            // F_a = −(k_s (l − L) + k_d Ċ) n, eq. 2.13 (SpringForce), with n = L/l folded into one factor
            float scalar = (springKs[s] * (l - springRest[s]) + springKd[s] * cDot) * inv;
            f[o] = -scalar * lx;
            f[o + 1] = -scalar * ly;
            f[o + 2] = -scalar * lz;
        }
    }

    private void evaluateTets(int begin, int end) {
        tets.evaluate(x, v, 0.0, begin, end);
    }

    /** Each particle's spring forces, summed over its springs in the incidence's fixed order, then its tetrahedra's. */
    private void gatherForces(int begin, int end) {
        for (int i = begin; i < end; i++) {
            double fx = 0.0;
            double fy = 0.0;
            double fz = 0.0;
            for (int e = incidenceStart[i]; e < incidenceStart[i + 1]; e++) {
                int s = incidenceSpring[e];
                double sign = springPairs[2 * s] == i ? 1.0 : -1.0;
                fx += sign * springForce[3 * s];
                fy += sign * springForce[3 * s + 1];
                fz += sign * springForce[3 * s + 2];
            }
            if (tets != null) {
                double[] t = tetSum.get();
                t[0] = fx;
                t[1] = fy;
                t[2] = fz;
                tets.addForceOn(i, t);
                fx = t[0];
                fy = t[1];
                fz = t[2];
            }
            particleForce[3 * i] = (float) fx;
            particleForce[3 * i + 1] = (float) fy;
            particleForce[3 * i + 2] = (float) fz;
        }
    }
}
