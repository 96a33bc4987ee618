package dev.weft.core.solver.relaxation;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.ParticleContactSettings;
import dev.weft.core.collide.ParticleContacts;
import dev.weft.core.model.DistanceConstraints;
import dev.weft.core.model.DistanceKind;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.AeroForces;
import dev.weft.core.solver.Environment;
import dev.weft.core.solver.VerletDamping;
import dev.weft.core.solver.StepPositions;
import dev.weft.core.solver.TetherProjection;
import dev.weft.core.solver.ParticleContactSlot;
import dev.weft.core.solver.ParticleContactSolver;

/**
 * Verlet integration and constraint relaxation, Jakobsen's scheme as seed 002 runs it on the GPU:
 * <ol>
 *   <li>every free particle moves by eq. 1, {@code x' = x + k (x − x_prev) + h² F / m}, F being
 *       gravity and the air ({@link AeroForces});</li>
 *   <li>each relaxation step enforces every structural and shear spring as a rigid distance
 *       constraint (eqs. 2a, 2b), then pushes particles out of the colliders.</li>
 * </ol>
 * The distance constraints are relaxed color by color through the model's coloring, which on a grid is
 * seed 002's 8 independent passes (even/odd × horizontal, vertical, two diagonals: see
 * {@code LatticeColoring}) and on any mesh a greedy coloring; each pass runs in parallel (one color's
 * constraints share no particle). The responsivenesses are mass-weighted: the seed's (0.5, 0.5) between
 * two free particles of equal mass, (0, 1) when one end is fixed, nothing when both are (see
 * {@link #relaxPair}: the seed's halves on unequal masses leak momentum). Seed 002 has no
 * bending springs, so distance constraints of kind BEND (a rope's second neighbours) are not relaxed:
 * a rope is a chain here. The state stays positions + velocities: eq. 1's x − x_prev is h·v, and the
 * new velocity is the Verlet velocity plus the relaxation's and colliders' corrections over h (not the
 * float32 displacement over h, which is quantized far from the origin). The positions are kept as the
 * Verlet prediction plus the relaxation's corrections ({@link StepPositions}), so that no correction is
 * rounded to the ulp of a world coordinate.
 *
 * <p>Particle contacts ({@link #withParticleContacts}) are one more projection after the relaxation
 * steps (grid and candidates once per step, as in XPBD), followed by the colliders once more so that
 * no particle ends the step inside a body; the velocity follows from the positions.
 */
public final class RelaxationSolver implements ParticleContactSolver {
    private final RelaxationSettings settings;
    private final WorkerPool pool;

    private Model model;
    private AeroForces aero;
    private double[] airForce;
    /** World positions at the step's start (colliders' friction and swept tests). */
    private float[] start;
    /** Positions during the step: y (Verlet prediction) + d (corrections). */
    private StepPositions positions;
    private float[] y;
    private float[] d;
    private float[] w;
    /** The state's (world) positions. */
    private float[] world;
    private float[] v;
    private float h;
    private float gx;
    private float gy;
    private float gz;
    private Collider[] colliders;
    private int[] pairs;
    private float[] rest;
    /** Per constraint: true for structural and shear springs, the ones seed 002 relaxes. */
    private boolean[] relaxed;
    private int[] colorStart;
    private final ParticleContactSlot contactSlot = new ParticleContactSlot();
    private final TetherProjection tethers = new TetherProjection();

    private final RangeBody verletBody = this::verlet;
    private final RangeBody relaxBody = this::relaxRange;
    private final RangeBody collideBody = this::collide;
    private final RangeBody collideInsideBody = (b, e) -> positions.collideRange(colliders, world, start, w, b, e);
    private final RangeBody settleBody = (b, e) -> positions.settle(world, v, w, 1f / h, b, e);
    private final RangeBody finishBody = (b, e) -> positions.finish(world, v, w, 1f / h, 1f, b, e);

    public RelaxationSolver(RelaxationSettings settings, WorkerPool pool) {
        this.settings = settings;
        this.pool = pool;
    }

    @Override
    public String name() {
        return "relaxation";
    }

    /** Turns on particle–particle contact after the relaxation steps. Returns this solver. */
    @Override
    public RelaxationSolver withParticleContacts(ParticleContactSettings s) {
        contactSlot.configure(s);
        return this;
    }

    @Override
    public ParticleContacts particleContacts() {
        return contactSlot.current();
    }

    public RelaxationSettings settings() {
        return settings;
    }

    @Override
    public void step(Model m, State state, Environment env, float dt) {
        if (m != model) {
            model = m;
            start = new float[3 * m.particleCount()];
            positions = new StepPositions(m.particleCount());
            y = positions.predicted();
            d = positions.corrections();
            w = m.invMass();
            aero = new AeroForces(m);
            airForce = aero.forces();
            DistanceConstraints d = m.distances();
            pairs = d.particles();
            rest = d.restLength();
            colorStart = d.colorStart();
            relaxed = new boolean[d.count()];
            byte bend = DistanceKind.BEND.code();
            for (int c = 0; c < relaxed.length; c++) {
                relaxed[c] = d.kind()[c] != bend;
            }
        }
        tethers.bind(m);
        world = state.positions();
        v = state.velocities();
        h = dt;
        gx = env.gravityX();
        gy = env.gravityY();
        gz = env.gravityZ();
        colliders = env.colliders();
        int n = m.particleCount();
        aero.compute(pool, world, v, env);
        pool.parallelFor(0, n, verletBody);
        for (int it = 0; it < settings.iterations(); it++) {
            for (int c = 0; c + 1 < colorStart.length; c++) {
                pool.parallelFor(colorStart[c], colorStart[c + 1], relaxBody);
            }
            if (settings.tethers()) {
                tethers.project(pool, y, d);
            }
            if (colliders.length > 0) {
                pool.parallelFor(0, n, collideInsideBody);
            }
        }
        pool.parallelFor(0, n, settleBody);
        ParticleContacts contacts = contactSlot.bind(m);
        if (contacts != null) {
            contacts.project(world, start, w, colliders, pool);
            if (colliders.length > 0) {
                pool.parallelFor(0, n, collideBody);
            }
        }
        pool.parallelFor(0, n, finishBody);
        state.advance(dt);
    }

    private void relaxRange(int begin, int end) {
        for (int c = begin; c < end; c++) {
            if (relaxed[c]) {
                relaxPair(y, d, w, pairs[2 * c], pairs[2 * c + 1], rest[c]);
            }
        }
    }

    /**
     * Seed 002 eqs. 2a–2b for one rigid spring: with d = x_b − x_a and the correction
     * Δ = (|d| − L) d / |d|, x_a += s_a Δ and x_b −= s_b Δ, with the responsivenesses
     * (s_a, s_b) = (w_a, w_b) / (w_a + w_b): the seed's (0.5, 0.5) between two free particles of equal
     * mass, (0, 1) or (1, 0) when one is fixed (inverse mass 0), no move when both are. Between unequal
     * masses (a grid's border particles carry half the mass) the seed's (0.5, 0.5) would move the pair's
     * centre of mass, so a free cloth would not keep its momentum (1.4 % in 1 s); the mass-weighted
     * split keeps it. Coincident particles give no direction and are left alone. Positions are y + d;
     * the corrections go to d ({@link StepPositions}).
     */
    static void relaxPair(float[] y, float[] d, float[] w, int ia, int ib, float restLength) {
        float wa = w[ia];
        float wb = w[ib];
        float wsum = wa + wb;
        if (wsum == 0f) {
            return;
        }
        int a = 3 * ia;
        int b = 3 * ib;
        float dx = (y[b] - y[a]) + (d[b] - d[a]);
        float dy = (y[b + 1] - y[a + 1]) + (d[b + 1] - d[a + 1]);
        float dz = (y[b + 2] - y[a + 2]) + (d[b + 2] - d[a + 2]);
        float d2 = dx * dx + dy * dy + dz * dz;
        if (d2 < 1e-24f) {
            return;
        }
        float len = (float) Math.sqrt(d2);
        float s = (len - restLength) / (len * wsum); // Δ/(w_a + w_b) = s·(x_b − x_a)
        float sa = wa * s;
        float sb = wb * s;
        d[a] += sa * dx;
        d[a + 1] += sa * dy;
        d[a + 2] += sa * dz;
        d[b] -= sb * dx;
        d[b + 1] -= sb * dy;
        d[b + 2] -= sb * dz;
    }

    /** Eq. 1 with x − x_prev = h v; fixed particles stay (no force is applied to them). */
    private void verlet(int begin, int end) {
        float k = VerletDamping.perStep(settings.verletDamping(), h); // k is per 1/60 s
        float[] x = world;
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            start[i3] = x[i3];
            start[i3 + 1] = x[i3 + 1];
            start[i3 + 2] = x[i3 + 2];
            if (w[i] == 0f) {
                positions.predict(i, x, 0f, 0f, 0f);
                continue;
            }
            // x' = x + h·v_pred with v_pred = k·v + h·F/m, kept in v for the velocity update
            float wi = w[i];
            float vx = k * v[i3] + h * (gx + (float) airForce[i3] * wi);
            float vy = k * v[i3 + 1] + h * (gy + (float) airForce[i3 + 1] * wi);
            float vz = k * v[i3 + 2] + h * (gz + (float) airForce[i3 + 2] * wi);
            v[i3] = vx;
            v[i3 + 1] = vy;
            v[i3 + 2] = vz;
            positions.predict(i, x, h * vx, h * vy, h * vz);
        }
    }

    private void collide(int begin, int end) {
        for (Collider c : colliders) {
            c.collide(world, start, w, begin, end);
        }
    }
}
