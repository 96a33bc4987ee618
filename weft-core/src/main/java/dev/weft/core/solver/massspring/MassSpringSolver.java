package dev.weft.core.solver.massspring;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.ParticleContactSettings;
import dev.weft.core.collide.ParticleContacts;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.step.AeroForces;
import dev.weft.core.step.CorrectedVelocity;
import dev.weft.core.step.Environment;
import dev.weft.core.solver.TetherProjection;
import dev.weft.core.step.VerletDamping;
import dev.weft.core.solver.ParticleContactSlot;
import dev.weft.core.solver.ParticleContactSolver;
import dev.weft.core.springs.SpringSet;

/**
 * Explicit mass-spring cloth with Verlet integration, seed 004's algorithm (figure 22.3): spring,
 * gravity and air ({@link AeroForces}) forces, then the damped Verlet step of seed 002 eq. 1,
 * {@code x(t+h) = x(t) + k (x(t) − x(t−h)) + h² F(t) / m}, then collisions by projection (each collider
 * moves a penetrating particle out along the surface normal; the velocity gains the correction over h).
 * The previous position is {@code x − h v}, so the {@link State} stays positions + velocities and
 * another solver can take over at any step.
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
 */
public final class MassSpringSolver implements ParticleContactSolver {
    private final MassSpringSettings settings;
    private final WorkerPool pool;

    private Model model;
    private SpringSet springs;
    private int n;
    private float[] w;
    private int[] springPairs;
    private float[] springRest;
    private float[] springKs;
    private float[] springKd;
    private int[] incidenceStart;
    private int[] incidenceSpring;
    private float[] springForce;
    private float[] prev;
    /** Positions after the Verlet step, before contacts and colliders correct them. */
    private float[] predicted;
    private AeroForces aero;
    private double[] airForce;

    private float[] x;
    private float[] v;
    private float h;
    private float gx;
    private float gy;
    private float gz;
    private Collider[] colliders;
    private final ParticleContactSlot contactSlot = new ParticleContactSlot();
    private final TetherProjection tethers = new TetherProjection();
    /** {@link StableStep#of} the bound model's springs. */
    private double stableStep;

    private final RangeBody springBody = this::evaluateSprings;
    private final RangeBody integrateBody = this::integrate;
    private final RangeBody collideBody = this::collide;

    public MassSpringSolver(MassSpringSettings settings, WorkerPool pool) {
        this.settings = settings;
        this.pool = pool;
    }

    @Override
    public String name() {
        return "mass-spring";
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
        gx = env.gravityX();
        gy = env.gravityY();
        gz = env.gravityZ();
        colliders = env.colliders();
        int count = verletStepsPer(m, dt);
        h = dt / count;
        ParticleContacts contacts = contactSlot.bind(m);
        boolean tether = settings.tethers() && tethers.any();
        for (int k = 0; k < count; k++) {
            aero.compute(pool, x, v, env);
            pool.parallelFor(0, springs.count(), springBody);
            pool.parallelFor(0, n, integrateBody);
            if (tether) {
                tethers.projectWorld(pool, x);
            }
            if (contacts != null) {
                contacts.project(x, prev, w, colliders, pool);
            }
            if (colliders.length > 0 || contacts != null || tether) {
                pool.parallelFor(0, n, collideBody); // also the velocity from the corrected positions
            }
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
        model = m;
        n = m.particleCount();
        w = m.invMass();
        springs = SpringSet.build(m, settings.layout(), settings.material());
        springPairs = springs.pairs();
        springRest = springs.restLength();
        springKs = springs.stiffness();
        springKd = springs.damping();
        incidenceStart = springs.incidenceStart();
        incidenceSpring = springs.incidenceSpring();
        springForce = new float[3 * springs.count()];
        prev = new float[3 * n];
        predicted = new float[3 * n];
        stableStep = StableStep.of(springs, w);
        tethers.bind(m);
        aero = new AeroForces(m);
        airForce = aero.forces();
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

    /** Gathers forces and takes the Verlet step; remembers x(t) in prev for the collision response. */
    private void integrate(int begin, int end) {
        float k = VerletDamping.perStep(settings.verletDamping(), h); // k is per 1/60 s
        float h2 = h * h;
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            prev[i3] = x[i3];
            prev[i3 + 1] = x[i3 + 1];
            prev[i3 + 2] = x[i3 + 2];
            if (w[i] == 0f) {
                v[i3] = 0f;
                v[i3 + 1] = 0f;
                v[i3 + 2] = 0f;
                continue;
            }
            double fx = airForce[i3];
            double fy = airForce[i3 + 1];
            double fz = airForce[i3 + 2];
            for (int e = incidenceStart[i]; e < incidenceStart[i + 1]; e++) {
                int s = incidenceSpring[e];
                double sign = springPairs[2 * s] == i ? 1.0 : -1.0;
                fx += sign * springForce[3 * s];
                fy += sign * springForce[3 * s + 1];
                fz += sign * springForce[3 * s + 2];
            }
            float wi = w[i];
            // x − x(t−h) = h v; a = g + F/m
            float ax = gx + (float) fx * wi;
            float ay = gy + (float) fy * wi;
            float az = gz + (float) fz * wi;
            float dx = k * h * v[i3] + h2 * ax;
            float dy = k * h * v[i3 + 1] + h2 * ay;
            float dz = k * h * v[i3 + 2] + h2 * az;
            x[i3] += dx;
            x[i3 + 1] += dy;
            x[i3 + 2] += dz;
            v[i3] = dx / h;
            v[i3 + 1] = dy / h;
            v[i3 + 2] = dz / h;
            predicted[i3] = x[i3];
            predicted[i3 + 1] = x[i3 + 1];
            predicted[i3 + 2] = x[i3 + 2];
        }
    }

    /**
     * Projection out of the colliders; the velocity gains the tethers', contacts' and colliders' corrections over h
     * ({@link CorrectedVelocity}: not the float32 displacement over h, which is quantized far from the origin).
     */
    private void collide(int begin, int end) {
        for (Collider c : colliders) {
            c.collide(x, prev, w, begin, end);
        }
        CorrectedVelocity.apply(x, predicted, v, w, 1f / h, 1f, begin, end);
    }
}
