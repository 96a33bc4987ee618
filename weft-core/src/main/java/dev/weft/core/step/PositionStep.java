package dev.weft.core.step;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.ParticleSurface;
import dev.weft.core.contact.ParticleContacts;
import dev.weft.core.model.MaterialParameters;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;

/**
 * The frame every position-based solver's step shares (DESIGN.md, "What a step does"): the air forces
 * and the prediction before the solver's constraint phase; after it the settle (world = y + d, the
 * velocity gains d / h), particle contacts, the colliders once, and the velocity from what those moved,
 * damped. XPBD/PBD, Projective Dynamics and Jakobsen relaxation run only their
 * iterations in between, on the positions this frame keeps ({@link #positions()}: prediction y plus
 * corrections d).
 *
 * <p>The prediction is symplectic Euler with two knobs that cover the three solvers' integrators:
 * v_pred = keep·v + h·(g − drag·v + F_air/m), y = x + h·v_pred (XPBD: keep 1, drag 0, damping after;
 * Projective Dynamics: seed 001's drag c·v in the force; relaxation: seed 002's Verlet, whose
 * x − x_prev is h·v, with its damping k as keep; explicit mass-spring: the same Verlet with its spring
 * forces, and only tethers, contacts and colliders between predict and finish). A pinned particle's velocity is 0 and it stays where
 * the state has it. Every pass writes only its own particles, so any thread split gives the same bits.
 */
public final class PositionStep {
    private final WorkerPool pool;

    // bound model data
    private Model model;
    private int n;
    private float[] w;
    private StepPositions positions;
    /** World positions at the step's start (colliders' friction and swept tests, contacts). */
    private float[] start;
    private AeroForces aero;
    private double[] airForce;
    /** Grip and offset per particle, from its body's material. */
    private ParticleSurface surface = ParticleSurface.PLAIN;
    /** Velocity damping rate per particle (1/s), from its body's material. */
    private float[] rate;
    /** Per particle for {@link #factorStep} and {@link #factorForm}: the Verlet share kept, or the factor after. */
    private float[] factor;
    private float factorStep = Float.NaN;
    private Damping factorForm;

    // per step
    private float[] world;
    private float[] v;
    private float h;
    private float gx;
    private float gy;
    private float gz;
    private Damping form = Damping.NONE;
    private boolean air;
    /** A force per particle (xyz, N) the solver adds to the prediction (explicit springs), or null. */
    private float[] force;
    private Collider[] colliders = new Collider[0];

    /** Run on each range right after its prediction, in the same pass (null: nothing). */
    private RangeBody afterPredict;
    /** Run on each range right before it settles, in the same pass (null: nothing). */
    private RangeBody beforeSettle;
    private final RangeBody predictBody = (b, e) -> {
        predict(b, e);
        if (afterPredict != null) {
            afterPredict.run(b, e);
        }
    };
    private final RangeBody collideBody = this::collide;
    private final RangeBody collideInsideBody = (b, e) -> positions.collideRange(colliders, world, start, w, surface, b, e);
    private final RangeBody settleBody = (b, e) -> positions.settle(world, v, w, 1f / h, b, e);
    private final RangeBody finishBody = (b, e) -> positions.finish(world, v, w, 1f / h,
            form == Damping.AFTER ? factor : null, b, e);
    private final RangeBody settleAndFinishBody = (b, e) -> positions.settleAndFinish(world, v, w, 1f / h,
            form == Damping.AFTER ? factor : null, b, e);
    private final RangeBody firstThenSettleAndFinishBody = (b, e) -> {
        beforeSettle.run(b, e);
        settleAndFinishBody.run(b, e);
    };

    public PositionStep(WorkerPool pool) {
        this.pool = pool;
    }

    /** Takes model {@code m} (allocating when it is another, an edited one included); true when it was. */
    public boolean bind(Model m) {
        if (m == model) {
            return false;
        }
        model = m;
        n = m.particleCount();
        w = m.invMass();
        positions = new StepPositions(n);
        start = new float[3 * n];
        aero = null; // made when a step first has air: a model edit (a tear) in still air skips it
        airForce = null;
        rate = MaterialParameters.particleDamping(m);
        surface = ParticleSurface.of(m);
        factor = new float[n];
        factorStep = Float.NaN;
        return true;
    }

    /** The step's positions: prediction y and corrections d (what the constraint phase reads and writes). */
    public StepPositions positions() {
        return positions;
    }

    /**
     * The air forces at the step's start and the prediction (see the class comment) for a step of
     * {@code dt}, each particle damped by its material's rate in the solver's {@code form}: v_pred =
     * keep·v + dt·(g − drag·v + F_air/m) goes into the state's velocities.
     */
    public void predict(State state, Environment env, float dt, Damping form) {
        predict(state, env, dt, form, null);
    }

    /**
     * As {@link #predict(State, Environment, float, Damping)}, with {@code particleForce} (xyz per particle,
     * N; the explicit mass-spring solver's springs) added to the force.
     */
    public void predict(State state, Environment env, float dt, Damping form, float[] particleForce) {
        predict(state, env, dt, form, particleForce, null);
    }

    /**
     * As {@link #predict(State, Environment, float, Damping, float[])}, with {@code then} (null: nothing) run on each
     * range of particles right after its prediction, in the same pass: a solver's per-particle start of the step (its
     * own layout of the predicted positions) without a second pass and a second wait for the threads. {@code then}
     * may read and write only what belongs to the particles of its range.
     */
    public void predict(State state, Environment env, float dt, Damping form, float[] particleForce, RangeBody then) {
        afterPredict = then;
        force = particleForce;
        world = state.positions();
        v = state.velocities();
        h = dt;
        gx = env.gravityX();
        gy = env.gravityY();
        gz = env.gravityZ();
        this.form = form;
        if ((form == Damping.VERLET || form == Damping.AFTER) && (dt != factorStep || form != factorForm)) {
            // per particle once per step length: the same bits as one factor for all when the rates agree
            for (int i = 0; i < n; i++) {
                factor[i] = form == Damping.VERLET
                        ? VerletDamping.perStep(MaterialParameters.verletKeepPerFrame(rate[i]), dt)
                        : Math.max(0f, 1f - rate[i] * dt);
            }
            factorStep = dt;
            factorForm = form;
        }
        colliders = env.colliders();
        air = env.hasAir();
        if (air) {
            if (aero == null) {
                aero = new AeroForces(model);
                airForce = aero.forces();
            }
            aero.compute(pool, world, v, env); // lagged: the force of the step's start
        }
        pool.parallelFor(0, n, predictBody);
    }

    /** The colliders on the current positions y + d, their change added to d (relaxation's inner passes). */
    public void collideInside() {
        if (colliders.length > 0) {
            pool.parallelFor(0, n, collideInsideBody);
        }
    }

    /**
     * Ends the step: settle, then {@code contacts} (null: none), then the colliders when
     * {@code collidersAfter} or when contacts moved particles, then the velocity from what they moved,
     * damped when the prediction's form was {@link Damping#AFTER}. The clock is the solver's (a
     * mass-spring step is several of these).
     */
    public void finish(State state, ParticleContacts contacts, boolean collidersAfter) {
        finish(state, contacts, collidersAfter, null);
    }

    /**
     * As {@link #finish(State, ParticleContacts, boolean)}, with {@code first} (null: nothing) run on each range of
     * particles right before it settles: a solver's last per-particle pass (its corrections back from its own
     * layout), in the same pass where nothing else runs between. {@code first} may read and write only what belongs
     * to the particles of its range.
     */
    public void finish(State state, ParticleContacts contacts, boolean collidersAfter, RangeBody first) {
        beforeSettle = first;
        if (contacts == null && colliders.length == 0) {
            // nothing moves the particles between the two passes: one pass, the same bits, a third less memory traffic
            pool.parallelFor(0, n, first == null ? settleAndFinishBody : firstThenSettleAndFinishBody);
            return;
        }
        if (first != null) {
            pool.parallelFor(0, n, first);
        }
        pool.parallelFor(0, n, settleBody);
        if (contacts != null) {
            contacts.project(world, start, w, colliders, pool);
        }
        if ((collidersAfter || contacts != null) && colliders.length > 0) {
            pool.parallelFor(0, n, collideBody);
        }
        pool.parallelFor(0, n, finishBody);
    }

    private void predict(int begin, int end) {
        float dt = h;
        float[] x = world;
        float[] keepOf = form == Damping.VERLET ? factor : null;
        float[] dragOf = form == Damping.DRAG ? rate : null;
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            start[i3] = x[i3];
            start[i3 + 1] = x[i3 + 1];
            start[i3 + 2] = x[i3 + 2];
            if (w[i] == 0f) {
                v[i3] = 0f;
                v[i3 + 1] = 0f;
                v[i3 + 2] = 0f;
                positions.predict(i, x, 0f, 0f, 0f);
                continue;
            }
            float drag = dragOf == null ? 0f : dragOf[i];
            float keep = keepOf == null ? 1f : keepOf[i];
            float ax = gx - drag * v[i3];
            float ay = gy - drag * v[i3 + 1];
            float az = gz - drag * v[i3 + 2];
            if (air) { // a = g + F_air / m
                ax += (float) airForce[i3] * w[i];
                ay += (float) airForce[i3 + 1] * w[i];
                az += (float) airForce[i3 + 2] * w[i];
            }
            if (force != null) {
                ax += force[i3] * w[i];
                ay += force[i3 + 1] * w[i];
                az += force[i3 + 2] * w[i];
            }
            float vx = keep * v[i3] + dt * ax;
            float vy = keep * v[i3 + 1] + dt * ay;
            float vz = keep * v[i3 + 2] + dt * az;
            v[i3] = vx;
            v[i3 + 1] = vy;
            v[i3 + 2] = vz;
            positions.predict(i, x, dt * vx, dt * vy, dt * vz);
        }
    }

    private void collide(int begin, int end) {
        for (Collider c : colliders) {
            c.collide(world, start, w, surface, begin, end);
        }
    }
}
