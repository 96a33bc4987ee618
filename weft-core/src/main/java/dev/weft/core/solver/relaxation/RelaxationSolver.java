package dev.weft.core.solver.relaxation;

import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.contact.ParticleContacts;
import dev.weft.core.model.DistanceConstraints;
import dev.weft.core.model.DistanceKind;
import dev.weft.core.model.MaterialParameters;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.ParticleContactSlot;
import dev.weft.core.solver.ParticleContactSolver;
import dev.weft.core.solver.TetherProjection;
import dev.weft.core.solver.xpbd.IterationMode;
import dev.weft.core.solver.xpbd.TetProjection;
import dev.weft.core.step.AeroForces;
import dev.weft.core.step.Damping;
import dev.weft.core.step.Environment;
import dev.weft.core.step.PositionStep;
import dev.weft.core.step.StepPositions;

/**
 * Verlet integration and constraint relaxation, Jakobsen's scheme as seed 002 runs it on the GPU:
 * <ol>
 *   <li>every free particle moves by eq. 1, {@code x' = x + k (x − x_prev) + h² F / m}, F being
 *       gravity and the air ({@link dev.weft.core.step.AeroForces});</li>
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
    /** The step's shared frame: prediction, contacts, colliders, velocities (DESIGN.md). */
    private final PositionStep frame;
    /** Positions during the step: y (Verlet prediction) + d (corrections). */
    private StepPositions positions;
    private float[] y;
    private float[] d;
    private float[] w;
    private int[] pairs;
    private float[] rest;
    /** Per constraint: true for structural and shear springs, the ones seed 002 relaxes. */
    private boolean[] relaxed;
    private int[] colorStart;
    private final ParticleContactSlot contactSlot = new ParticleContactSlot();
    private final TetherProjection tethers = new TetherProjection();
    /**
     * A soft body's tetrahedra, relaxed color by color with XPBD's compliant projection after the springs: the
     * material's Young's modulus and Poisson ratio at any number of relaxation steps (a rigid relaxation, the
     * seed's rule for springs, would make rubber infinitely stiff). Null where the model has no elastic
     * tetrahedra: a voxel body's volume-only ones are not relaxed (its springs carry it, as under pd and the
     * other spring solvers); in a model with both kinds, both are.
     */
    private TetProjection tetPass;

    private final RangeBody relaxBody = this::relaxRange;

    public RelaxationSolver(RelaxationSettings settings, WorkerPool pool) {
        this.settings = settings;
        this.pool = pool;
        this.frame = new PositionStep(pool);
    }

    @Override
    public String name() {
        return "relaxation";
    }

    @Override
    public WorkerPool pool() {
        return pool;
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
            MaterialParameters.requireNoIsometricBending(m, "relaxation");
            model = m;
            frame.bind(m);
            positions = frame.positions();
            y = positions.predicted();
            d = positions.corrections();
            w = m.invMass();
            DistanceConstraints d = m.distances();
            pairs = d.particles();
            rest = d.restLength();
            colorStart = d.colorStart();
            relaxed = new boolean[d.count()];
            byte bend = DistanceKind.BEND.code();
            for (int c = 0; c < relaxed.length; c++) {
                relaxed[c] = d.kind()[c] != bend;
            }
            tetPass = m.tets().elastic() ? new TetProjection(m, y, this.d, w, IterationMode.COLORED, pool) : null;
        }
        tethers.bind(m);
        // eq. 1 with x − x_prev = h·v: seed 002's damping k scales the velocity (per 1/60 s, VerletDamping),
        // k from each body's material damping rate
        frame.predict(state, env, dt, Damping.VERLET);
        if (tetPass != null) {
            tetPass.begin(dt);
        }
        for (int it = 0; it < settings.iterations(); it++) {
            for (int c = 0; c + 1 < colorStart.length; c++) {
                pool.parallelFor(colorStart[c], colorStart[c + 1], relaxBody);
            }
            if (tetPass != null) {
                tetPass.sweep();
            }
            if (settings.tethers()) {
                tethers.project(pool, y, d);
            }
            frame.collideInside();
        }
        // the colliders ran in every relaxation step: after the settle only when contacts moved particles
        frame.finish(state, contactSlot.bind(m), false);
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
}
