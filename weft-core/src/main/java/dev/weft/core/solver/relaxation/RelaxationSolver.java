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
 * constraints share no particle). The responsivenesses are the seed's, whatever the masses: (0.5, 0.5)
 * between two free particles, (0, 1) when one end is fixed, nothing when both are. (A mass-weighted
 * split would differ on a grid's border particles, which carry half the mass.) Seed 002 has no
 * bending springs, so distance constraints of kind BEND (a rope's second neighbours) are not relaxed:
 * a rope is a chain here. Velocities are the displacement over the step, so the state stays
 * positions + velocities.
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
    private float[] start;
    private float[] w;
    private float[] x;
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

    private final RangeBody verletBody = this::verlet;
    private final RangeBody relaxBody = this::relaxRange;
    private final RangeBody collideBody = this::collide;
    private final RangeBody velocityBody = this::velocities;

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
        x = state.positions();
        v = state.velocities();
        h = dt;
        gx = env.gravityX();
        gy = env.gravityY();
        gz = env.gravityZ();
        colliders = env.colliders();
        int n = m.particleCount();
        aero.compute(pool, x, v, env);
        pool.parallelFor(0, n, verletBody);
        for (int it = 0; it < settings.iterations(); it++) {
            for (int c = 0; c + 1 < colorStart.length; c++) {
                pool.parallelFor(colorStart[c], colorStart[c + 1], relaxBody);
            }
            if (colliders.length > 0) {
                pool.parallelFor(0, n, collideBody);
            }
        }
        ParticleContacts contacts = contactSlot.bind(m);
        if (contacts != null) {
            contacts.project(x, start, w, colliders, pool);
            if (colliders.length > 0) {
                pool.parallelFor(0, n, collideBody);
            }
        }
        pool.parallelFor(0, n, velocityBody);
        state.advance(dt);
    }

    private void relaxRange(int begin, int end) {
        for (int c = begin; c < end; c++) {
            if (relaxed[c]) {
                relaxPair(x, w, pairs[2 * c], pairs[2 * c + 1], rest[c]);
            }
        }
    }

    /**
     * Seed 002 eqs. 2a–2b for one rigid spring: with d = x_b − x_a and the correction
     * Δ = (|d| − L) d / |d|, x_a += s_a Δ and x_b −= s_b Δ, with (s_a, s_b) = (0.5, 0.5) when both are
     * free, (0, 1) or (1, 0) when one is fixed (inverse mass 0), and no move when both are. Coincident
     * particles give no direction and are left alone.
     */
    static void relaxPair(float[] x, float[] w, int ia, int ib, float restLength) {
        boolean freeA = w[ia] != 0f;
        boolean freeB = w[ib] != 0f;
        if (!freeA && !freeB) {
            return;
        }
        int a = 3 * ia;
        int b = 3 * ib;
        float dx = x[b] - x[a];
        float dy = x[b + 1] - x[a + 1];
        float dz = x[b + 2] - x[a + 2];
        float d2 = dx * dx + dy * dy + dz * dz;
        if (d2 < 1e-24f) {
            return;
        }
        float d = (float) Math.sqrt(d2);
        float s = (d - restLength) / d; // Δ = s·(x_b − x_a)
        float sa = freeA ? (freeB ? 0.5f * s : s) : 0f;
        float sb = freeB ? (freeA ? 0.5f * s : s) : 0f;
        x[a] += sa * dx;
        x[a + 1] += sa * dy;
        x[a + 2] += sa * dz;
        x[b] -= sb * dx;
        x[b + 1] -= sb * dy;
        x[b + 2] -= sb * dz;
    }

    /** Eq. 1 with x − x_prev = h v; fixed particles stay (no force is applied to them). */
    private void verlet(int begin, int end) {
        float k = settings.verletDamping();
        float h2 = h * h;
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            start[i3] = x[i3];
            start[i3 + 1] = x[i3 + 1];
            start[i3 + 2] = x[i3 + 2];
            if (w[i] == 0f) {
                continue;
            }
            float wi = w[i];
            x[i3] += k * h * v[i3] + h2 * (gx + (float) airForce[i3] * wi);
            x[i3 + 1] += k * h * v[i3 + 1] + h2 * (gy + (float) airForce[i3 + 1] * wi);
            x[i3 + 2] += k * h * v[i3 + 2] + h2 * (gz + (float) airForce[i3 + 2] * wi);
        }
    }

    private void collide(int begin, int end) {
        for (Collider c : colliders) {
            c.collide(x, start, w, begin, end);
        }
    }

    private void velocities(int begin, int end) {
        float inv = 1f / h;
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            if (w[i] == 0f) {
                v[i3] = 0f;
                v[i3 + 1] = 0f;
                v[i3 + 2] = 0f;
                continue;
            }
            v[i3] = (x[i3] - start[i3]) * inv;
            v[i3 + 1] = (x[i3 + 1] - start[i3 + 1]) * inv;
            v[i3 + 2] = (x[i3 + 2] - start[i3 + 2]) * inv;
        }
    }
}
