package dev.weft.core.solver.relaxation;

import dev.weft.core.collide.Collider;
import dev.weft.core.collide.ParticleContactSettings;
import dev.weft.core.collide.ParticleContacts;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.AeroForces;
import dev.weft.core.solver.Environment;
import dev.weft.core.solver.ParticleContactSlot;
import dev.weft.core.solver.ParticleContactSolver;
import dev.weft.core.solver.xpbd.IterationMode;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;

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
 * {@code LatticeColoring}) and on any mesh a greedy coloring; each pass runs in parallel. The
 * projection is {@link XpbdSolver}'s rigid (zero-compliance) one, reused as it is: it moves the two
 * particles by responsivenesses s_a = w_a / (w_a + w_b), which are seed 002's (0.5, 0.5) between
 * equal masses and (0, 1) next to a fixed particle; between unequal masses (a grid's border particles
 * carry half the mass) they keep the pair's centre of mass in place, where the white paper's fixed 0.5
 * would not. Velocities are the displacement over the step, so the state stays positions + velocities.
 *
 * <p>Particle contacts ({@link #withParticleContacts}) are one more projection after the relaxation
 * steps (grid and candidates once per step, as in XPBD), followed by the colliders once more so that
 * no particle ends the step inside a body; the velocity follows from the positions.
 */
public final class RelaxationSolver implements ParticleContactSolver {
    private final RelaxationSettings settings;
    private final WorkerPool pool;
    private final XpbdSolver projection;

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
    private final ParticleContactSlot contactSlot = new ParticleContactSlot();

    private final RangeBody verletBody = this::verlet;
    private final RangeBody collideBody = this::collide;
    private final RangeBody velocityBody = this::velocities;

    public RelaxationSolver(RelaxationSettings settings, WorkerPool pool) {
        this.settings = settings;
        this.pool = pool;
        // Rigid stretch and shear (infinite stiffness); rope bending springs keep XPBD's default compliance.
        XpbdSettings rigid = new XpbdSettings(IterationMode.COLORED, 1, 0f, 0f, 0f,
                XpbdSettings.defaults().distanceBendCompliance(), 0f, false);
        this.projection = new XpbdSolver(rigid, pool);
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
        if (colliders.length == 0) {
            projection.relax(m, state, dt, settings.iterations(), XpbdSolver.DISTANCES);
        } else {
            for (int it = 0; it < settings.iterations(); it++) {
                projection.relax(m, state, dt, 1, XpbdSolver.DISTANCES);
                pool.parallelFor(0, n, collideBody);
            }
        }
        ParticleContacts contacts = contactSlot.bind(m);
        if (contacts != null) {
            contacts.project(x, start, w, pool);
            if (colliders.length > 0) {
                pool.parallelFor(0, n, collideBody);
            }
        }
        pool.parallelFor(0, n, velocityBody);
        state.advance(dt);
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
