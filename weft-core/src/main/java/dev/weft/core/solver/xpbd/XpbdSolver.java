package dev.weft.core.solver.xpbd;

import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.contact.ParticleContacts;
import dev.weft.core.geom.DihedralAngle;
import dev.weft.core.model.BendingConstraints;
import dev.weft.core.model.Incidence;
import dev.weft.core.model.DistanceConstraints;
import dev.weft.core.model.MaterialParameters;
import dev.weft.core.model.DistanceKind;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.model.TetherConstraints;
import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.IterativeSolver;
import dev.weft.core.solver.ParticleContactSolver;
import dev.weft.core.solver.TetherProjection;
import dev.weft.core.step.Damping;
import dev.weft.core.step.Environment;
import dev.weft.core.step.PositionStep;
import dev.weft.core.step.StepPositions;

/**
 * Extended position-based dynamics (Macklin, Müller and Chentanez 2016) for cloth and ropes.
 *
 * <p>One step, in {@link PositionStep}'s frame: predict positions from velocities, gravity and the air;
 * reset the Lagrange multipliers; run {@code iterations} sweeps over distance, bending and tether
 * constraints, which read the positions as prediction + correction and write the correction
 * ({@link StepPositions}: no correction is rounded to the ulp of a world coordinate); then the frame's
 * settle, particle contacts, colliders (with friction), velocities and damping. Sweeps are Jacobi,
 * sequential symmetric Gauss–Seidel or colored Gauss–Seidel
 * ({@link IterationMode}).
 *
 * <p>Every parallel pass writes only particles its own indices own (one color's constraints share no
 * particle; Jacobi gathers per particle), and floating-point operations are the same whatever the
 * split, so results are bitwise identical for any thread count.
 */
public final class XpbdSolver implements ParticleContactSolver, IterativeSolver {
    /** Bit flags selecting constraint types for {@link #relax}. */
    public static final int DISTANCES = 1;
    public static final int BENDING = 2;
    public static final int TETHERS = 4;
    public static final int ALL = DISTANCES | BENDING | TETHERS;

    private final XpbdSettings settings;
    private final WorkerPool pool;

    // Bound model data (copied references, so the hot loops read fields, not getters).
    private Model model;
    /** Positions during the iterations: y (predicted) + d (corrections); constraints write d. */
    private StepPositions positions;
    private float[] y;
    private float[] d;
    /** The state's (world) positions. */
    private float[] world;
    /** {@link #iteratePositions()}'s array. */
    private float[] current;
    private float[] v;
    private float[] w;
    /** The step's shared frame: prediction, contacts, colliders, velocities (DESIGN.md). */
    private final PositionStep frame;
    /** Between {@link #beginRelax} and {@link #endStep}: iterations without integration. */
    private boolean relaxing;
    private int[] distParticles;
    private float[] distRest;
    private float[] distAlpha;
    private float[] distLambda;
    private byte[] distKind;
    private int[] distColorStart;
    /** Per color: true when every constraint in it has zero compliance (the λ-free fast path). */
    private boolean[] distColorRigid;
    private int[] distNatural;
    /** The stretch constraints, grouped by color ({@link #stretchColorStart}), for the extra stretch passes. */
    private int[] stretchOrder;
    private int[] stretchColorStart;
    /**
     * Per color: true when its stretch constraints are one run of the storage (a lattice color is one edge
     * direction and parity), so the extra passes sweep that run with the inlined loop, not via stretchOrder.
     */
    private boolean[] stretchColorContiguous;
    /** The stretch constraints in natural order (Gauss–Seidel's extra passes). */
    private int[] stretchNatural;
    private int[] bendParticles;
    private float[] bendRest;
    private float[] bendLambda;
    private int[] bendColorStart;
    private int[] bendNatural;
    /** Per stencil {@link BendingConstraints#DIHEDRAL} or {@link BendingConstraints#ISOMETRIC}. */
    private byte[] bendModel;
    private boolean bendAnyIsometric;
    private boolean bendAllIsometric;
    /** The isometric stencils' constant weights K, four per stencil ({@link Model#isometricWeights}). */
    private float[] isoWeights;
    private int[] tetherParticles;
    private float[] tetherLength;
    private int[] tetherColorStart;
    /** Whether the tethers run in the lanes, by slot, before the way back ({@link #bindTetherLanes}). */
    private boolean tethersInLanes;
    /** The grid cloths' stretch limits where the settings ask for them, else null. */
    private StretchLimits limits;
    private float[] bendGradScratch;
    /** The soft bodies' tetrahedra: volume and shape (TetProjection). */
    private TetProjection tetPass;
    /** Gradient scratch per thread: bending passes run on several threads at once. */
    private final ThreadLocal<float[]> gradScratch = ThreadLocal.withInitial(() -> new float[12]);
    private JacobiGather distGather;
    private JacobiGather bendGather;
    private float[] distCorrection;
    private float[] bendCorrection;
    /** Jacobi: per constraint, the weight both (all) its particles' corrections share (see JacobiGather). */
    private float[] distJacobiWeight;
    private float[] bendJacobiWeight;

    // Per-step values read by the range bodies.
    private float h;
    /** α/h² per bending stencil, from the material's hinge stiffness. */
    private float[] bendAlpha;
    /** k per distance constraint and k_θ per bending stencil, from the bodies' materials. */
    private float[] distStiffness;
    private float[] hingeStiffness;

    /**
     * The colored distance sweeps in vector lanes ({@link SoaDistanceKernel}), where the JDK's Vector API is
     * present; null elsewhere. Used for a model whose distance colors are mostly runs (a grid cloth's rows);
     * {@link #soaInUse} says whether the bound model is one.
     */
    private final SoaDistanceKernel soa = SoaDistanceKernel.create();
    /** The stretch limits' kernel on the same axis arrays (its own constraints), where the lanes run. */
    private final SoaDistanceKernel limitSoa = SoaDistanceKernel.create();
    /** Whether the bound model's stretch limits run in vector lanes. */
    private boolean limitsInLanes;
    /** The inverse masses at the lanes' slots (the axis arrays' order), while the lanes run. */
    private float[] laneW;
    /** The colored tetrahedron sweep's groups of eight in vector lanes ({@link TetLaneKernel}); null elsewhere. */
    private final TetLaneKernel tetLanes = TetLaneKernel.create();
    private boolean soaInUse;
    /** Of the bound model's distance constraints, those in runs (0 where the lanes are not in use). */
    private int constraintsInRuns;
    /** The step's positions one array per axis while the distance sweeps run in lanes. */
    private float[] yx;
    private float[] yy;
    private float[] yz;
    private float[] dx;
    private float[] dy;
    private float[] dz;
    /** Minimum constraints of a run the lanes take (shorter ones run one at a time). */
    private static final int LANE_RUN = 8;
    /** The constraint order and particle slots of the lanes ({@link LaneLayout}), or null: the model's own. */
    private LaneLayout laneLayout;
    /** {@code laneLayout.slot} while the lanes are in use with it, else null (the axis arrays particle-indexed). */
    private int[] laneSlot;
    /** Whether yx, yy, yz hold the current prediction (y is fixed from the step's start to its end). */
    private boolean ySoaCurrent;
    private final RangeBody soaRigidBody = (b, e) -> soa.rigid(b, e);
    private final RangeBody soaCompliantBody = (b, e) -> soa.compliant(b, e);
    private final RangeBody soaStretchOrderBody = (b, e) -> {
        for (int k = b; k < e; k++) {
            soa.compliant(stretchOrder[k], stretchOrder[k] + 1);
        }
    };
    private final SweepBodies laneSweep = new SweepBodies(soaRigidBody, soaCompliantBody, soaStretchOrderBody,
            (b, e) -> soa.compliantHalf(b, e), (b, e) -> {
                for (int k = b; k < e; k++) {
                    soa.compliantHalf(stretchOrder[k], stretchOrder[k] + 1);
                }
            });
    private final RangeBody toSoaFreshBody = this::toSoaFresh;
    private final RangeBody stepStartBody = this::stepStart;
    /** The prediction's pass has put this step's start in the slots ({@link #stepStart}); the first sweep takes it. */
    private boolean soaFresh;
    /**
     * Whether a step's last sweep may leave its corrections in the lanes for the settling pass to take back: nothing
     * after the lane sweep reads them (no bending stencils, no tetrahedra, the tethers in the lanes or none).
     */
    private boolean wayBackDeferrable;
    /** The sweep about to run is a step's last and {@link #wayBackDeferrable}. */
    private boolean deferWayBack;
    /** The last sweep left its corrections in the lanes: {@link #endStep} takes them back. */
    private boolean wayBackDeferred;
    private final RangeBody dToSoaBody = (b, e) -> transposeIn(d, dx, dy, dz, laneSlot, b, e);
    private final RangeBody fromSoaBody = this::fromSoa;
    private final RangeBody tetherLanesBody = (b, e) -> soa.tethers(b, e);

    /** Self- and inter-cloth contact: off unless {@link #withParticleContacts} turned it on. */
    private ParticleContactSettings contactSettings;
    private ParticleContacts contacts;

    private final RangeBody distanceColorBody = this::projectDistances;
    private final RangeBody rigidDistanceColorBody = this::projectRigidDistances;
    private final RangeBody bendingColorBody = this::projectBendingRange;
    private final RangeBody clearDistLambdaBody = (b, e) -> java.util.Arrays.fill(distLambda, b, e, 0f);
    private final RangeBody clearBendLambdaBody = (b, e) -> java.util.Arrays.fill(bendLambda, b, e, 0f);
    private final RangeBody limitColorBody = (b, e) ->
            StretchLimits.projectRange(limits.particles, limits.maxLength, w, y, d, b, e);
    private final RangeBody limitLanesBody = (b, e) -> limitSoa.limit(b, e);
    private final RangeBody tetherColorBody = (b, e) -> TetherProjection.projectRange(tetherParticles, tetherLength, y, d, b, e);
    private final RangeBody stretchColorBody = this::projectStretchDistances;
    private final RangeBody smoothingColorBody = (b, e) -> projectDistances(b, e, SMOOTHING_SHARE);
    private final RangeBody smoothingOrderBody = this::smoothStretchDistances;
    private final SweepBodies scalarSweep = new SweepBodies(rigidDistanceColorBody, distanceColorBody,
            stretchColorBody, smoothingColorBody, smoothingOrderBody);
    private final RangeBody distanceJacobiBody = (b, e) -> distanceCorrections(b, e, false);
    private final RangeBody stretchJacobiBody = (b, e) -> distanceCorrections(b, e, true);
    private final RangeBody distanceGatherBody = (b, e) -> distGather.apply(distCorrection, d, w, b, e);
    private final RangeBody bendingJacobiBody = this::bendingCorrections;
    private final RangeBody bendingGatherBody = (b, e) -> bendGather.apply(bendCorrection, d, w, b, e);
    private final RangeBody distAlphaBody = this::distanceCompliances;
    private final RangeBody bendAlphaBody = this::bendingCompliances;
    private final RangeBody stretchCountBody = this::countStretches;
    private final RangeBody stretchOrderBody = this::orderStretches;

    public XpbdSolver(XpbdSettings settings, WorkerPool pool) {
        this.settings = settings;
        this.pool = pool;
        this.frame = new PositionStep(pool);
    }

    @Override
    public String name() {
        return "xpbd";
    }

    @Override
    public WorkerPool pool() {
        return pool;
    }

    /**
     * Turns on particle–particle contact (self- and inter-cloth collision): a contact pass after the
     * constraint iterations of every step, before the colliders. Returns this solver.
     */
    @Override
    public XpbdSolver withParticleContacts(ParticleContactSettings s) {
        contactSettings = s;
        contacts = null;
        model = null; // rebind: the contacts are built for the model
        return this;
    }

    /** The particle contacts of the bound model, or null when off or before the first step. */
    @Override
    public ParticleContacts particleContacts() {
        return contacts;
    }

    public XpbdSettings settings() {
        return settings;
    }

    @Override
    public void step(Model m, State state, Environment env, float dt) {
        beginStep(m, state, env, dt); // resets the multipliers: the sweeps follow without iterate's second reset
        int passes = settings.tethers() ? ALL : DISTANCES | BENDING;
        for (int it = 0; it < settings.iterations(); it++) {
            // the last sweep's corrections come back from the lanes in the settling pass (endStep)
            deferWayBack = it == settings.iterations() - 1 && wayBackDeferrable;
            sweep(passes);
        }
        deferWayBack = false;
        endStep(state);
    }

    /**
     * A step taken apart, for measuring between iterations (the convergence laboratory):
     * {@code beginStep}, then {@link #iterateOnce} as often as wanted, then {@link #endStep}. With
     * {@code settings.iterations()} calls of {@code iterateOnce} this is exactly {@link #step}.
     */
    @Override
    public void beginStep(Model m, State state, Environment env, float dt) {
        bind(m, state, dt);
        relaxing = false;
        if (soaInUse) {
            // the lanes' start of the step in the prediction's pass: one pass over the particles and one wait less
            frame.predict(state, env, dt, Damping.AFTER, null, stepStartBody);
            soaFresh = true;
            ySoaCurrent = true;
        } else {
            frame.predict(state, env, dt, Damping.AFTER);
            ySoaCurrent = false;
            clearMultipliers();
        }
        tetPass.begin(h);
    }

    /** Iterations without integration ({@link IterativeSolver#beginRelax}); multipliers reset. */
    @Override
    public void beginRelax(Model m, State state, float dt) {
        bind(m, state, dt);
        relaxing = true;
        positions.begin(world);
        ySoaCurrent = false;
        soaFresh = false;
        clearMultipliers();
        tetPass.begin(h);
    }

    /** One sweep over the constraint types a step sweeps, keeping the multipliers of this step. */
    @Override
    public void iterateOnce() {
        sweep(settings.tethers() ? ALL : DISTANCES | BENDING);
    }

    /**
     * The positions the iterations of the current step have reached (prediction + corrections), for
     * measuring between iterations (the convergence laboratory); a scratch array, overwritten by the
     * next call.
     */
    @Override
    public float[] iteratePositions() {
        positions.current(current);
        return current;
    }

    /** World positions, contacts, colliders, velocities and the clock: the end of a step begun by {@link #beginStep}. */
    @Override
    public void endStep(State state) {
        if (relaxing) {
            positions.write(world, w, 0, model.particleCount());
            return;
        }
        // colliders last, so that no particle ends the step inside a collider's thickness
        RangeBody first = wayBackDeferred ? fromSoaBody : null;
        wayBackDeferred = false;
        frame.finish(state, contacts, true, first);
        state.advance(h);
    }

    /**
     * Runs constraint sweeps on the state's positions without integrating (seed 001's "enlarged cloth"
     * experiment; benchmarks). Multipliers are reset first; {@code dt} sets the compliance scale.
     *
     * @param passes a combination of {@link #DISTANCES}, {@link #BENDING}, {@link #TETHERS}
     */
    public void relax(Model m, State state, float dt, int iterations, int passes) {
        bind(m, state, dt);
        positions.begin(world);
        ySoaCurrent = false;
        soaFresh = false;
        iterate(iterations, passes);
        positions.write(world, w, 0, m.particleCount());
    }

    private void iterate(int iterations, int passes) {
        clearMultipliers();
        tetPass.begin(h);
        for (int it = 0; it < iterations; it++) {
            sweep(passes);
        }
    }

    /** The step's multipliers to zero, on the pool's threads (one thread clearing them kept the others waiting). */
    private void clearMultipliers() {
        pool.parallelFor(0, distLambda.length, clearDistLambdaBody);
        pool.parallelFor(0, bendLambda.length, clearBendLambdaBody);
    }

    private void sweep(int passes) {
        // the tethers in the lanes where nothing runs between the distances and them
        boolean tethersInLanes = this.tethersInLanes && (passes & (DISTANCES | TETHERS)) == (DISTANCES | TETHERS);
        if ((passes & DISTANCES) != 0) {
            sweepDistances(tethersInLanes);
        }
        if ((passes & BENDING) != 0) {
            sweepBending();
            if (!tetPass.isEmpty()) {
                tetPass.sweep(); // a soft body's shape keeping, with the bending pass
            }
        }
        // tethers last: tried first (before the distances) on issue #17's cloth, the strain was no lower
        if ((passes & TETHERS) != 0 && !tethersInLanes) {
            for (int c = 0; c + 1 < tetherColorStart.length; c++) {
                pool.parallelFor(tetherColorStart[c], tetherColorStart[c + 1], tetherColorBody);
            }
        }
    }

    /** @param withTethers the lanes project the tethers too, after the distances (only where they are bound there) */
    private void sweepDistances(boolean withTethers) {
        switch (settings.mode()) {
            case COLORED:
                if (soaInUse) {
                    sweepDistancesInLanes(withTethers);
                    break;
                }
                coloredDistances(scalarSweep, limitColorBody);
                break;
            case GAUSS_SEIDEL:
                symmetricSweep(distNatural);
                projectLimits(limitColorBody);
                for (int pass = 1; pass < settings.stretchPasses(); pass++) {
                    symmetricSweep(stretchNatural);
                }
                break;
            case JACOBI:
                pool.parallelFor(0, distRest.length, distanceJacobiBody);
                pool.parallelFor(0, w.length, distanceGatherBody);
                projectLimits(limitColorBody);
                for (int pass = 1; pass < settings.stretchPasses(); pass++) {
                    pool.parallelFor(0, distRest.length, stretchJacobiBody);
                    pool.parallelFor(0, w.length, distanceGatherBody);
                }
                break;
            default:
                throw new AssertionError(settings.mode());
        }
    }

    /**
     * The colored distance sweep (and the extra stretch passes) of {@link #sweepDistances} on the positions one
     * array per axis, in vector lanes where a color's constraints form runs: the same projections in the same
     * color order, so the same bits as the scalar loops.
     */
    private void sweepDistancesInLanes(boolean withTethers) {
        int n = w.length;
        if (soaFresh) {
            // the prediction's pass put this step's start in the slots (stepStart)
            soaFresh = false;
        } else if (!ySoaCurrent) {
            // a step's first sweep: d is all zeros (the prediction, or a relaxation's begin, cleared it, and the
            // distances are the first pass), so its axis arrays are cleared instead of gathered
            pool.parallelFor(0, n, toSoaFreshBody);
            ySoaCurrent = true;
        } else {
            pool.parallelFor(0, n, dToSoaBody);
        }
        // bindLimitLanes puts the limits in the lanes' slots wherever the distances run there and there are any
        coloredDistances(laneSweep, limitsInLanes ? limitLanesBody : null);
        if (withTethers) {
            pool.parallelFor(0, n, tetherLanesBody);
        }
        if (deferWayBack) {
            wayBackDeferred = true; // endStep's settling pass takes the corrections back first
        } else {
            pool.parallelFor(0, n, fromSoaBody);
        }
    }

    /**
     * The stretch limits, if the settings ask for them: every color by {@code body}, coarse levels first. They run
     * within the distance sweep, after its first pass and before the extra stretch passes: a one-sided limit that
     * holds a chord to its path's length moves its ends onto the edges beside it, and where the limits ran last
     * (after the tethers) those edges kept the shift: issue #17's cloth at N = 256 (8 × 1, four stretch passes)
     * ended its frames with columns of edges at +7, 0, +3.6, −3.6 % in turn and 5.22 / 7.33 % strain (final / peak);
     * with the stretch passes after the limits 2.53 / 4.39 %. Fine levels first, or without the finest level, left
     * more strain than no limits; before a step's first distance pass they are lost (the lanes' first sweep starts
     * from d = 0).
     */
    private void projectLimits(RangeBody body) {
        if (limits == null || body == null) {
            return;
        }
        for (int c = 0; c + 1 < limits.colorStart.length; c++) {
            pool.parallelFor(limits.colorStart[c], limits.colorStart[c + 1], body);
        }
    }

    /**
     * The colored distance sweep's projections: {@code rigid} (zero compliance throughout) or {@code compliant} over
     * a color's range; {@code stretchByOrder} over places in {@link #stretchOrder} (a stretch color that is not one
     * run in storage); {@code halfCompliant} and {@code halfByOrder} as those two with half a multiplier step (the
     * smoothing). One set for the scalar loops, one for the vector lanes: the same arithmetic.
     */
    private record SweepBodies(RangeBody rigid, RangeBody compliant, RangeBody stretchByOrder,
                               RangeBody halfCompliant, RangeBody halfByOrder) {
    }

    /** Half: a stretched line's [2s, 0] residual of a colored sweep becomes [s, s] (XpbdSettings.stretchSmoothing). */
    private static final float SMOOTHING_SHARE = 0.5f;

    /**
     * The colored distance sweep: each color by {@code bodies.rigid} or {@code bodies.compliant} over its constraint
     * range, then the stretch limits by {@code limit} (null: none), then the extra stretch passes, then the
     * smoothing's half pass if the settings ask for it.
     */
    private void coloredDistances(SweepBodies bodies, RangeBody limit) {
        for (int c = 0; c + 1 < distColorStart.length; c++) {
            pool.parallelFor(distColorStart[c], distColorStart[c + 1],
                    distColorRigid[c] ? bodies.rigid() : bodies.compliant());
        }
        projectLimits(limit);
        int colors = stretchColorStart.length - 1;
        for (int pass = 1; pass < settings.stretchPasses(); pass++) {
            stretchPass(bodies.compliant(), bodies.stretchByOrder(), colors);
        }
        if (settings.stretchSmoothing()) {
            // the last stretch color is exact after its projection: half of one would move nothing
            int last = colors - 1;
            while (last >= 0 && stretchColorStart[last] == stretchColorStart[last + 1]) {
                last--;
            }
            stretchPass(bodies.halfCompliant(), bodies.halfByOrder(), Math.max(last, 0));
        }
    }

    /**
     * The stretch constraints of colors [0, colors): a color's by {@code compliant} over their run in storage where
     * they are one (a lattice color), else by {@code byOrder} over their places in {@link #stretchOrder}.
     */
    private void stretchPass(RangeBody compliant, RangeBody byOrder, int colors) {
        for (int c = 0; c < colors; c++) {
            int from = stretchColorStart[c];
            int to = stretchColorStart[c + 1];
            if (from == to) {
                continue;
            }
            if (stretchColorContiguous[c]) {
                int first = stretchOrder[from];
                pool.parallelFor(first, first + (to - from), compliant);
            } else {
                pool.parallelFor(from, to, byOrder);
            }
        }
    }

    /**
     * The start of a step's lanes, where d is zero: particles [begin, end)'s y to their slots (the axis arrays),
     * slots [begin, end) of d cleared.
     */
    /**
     * The lanes' start of a step for particles [begin, end), run in the prediction's pass: their predicted positions
     * to their slots and those slots' corrections cleared ({@link #toSoaFresh}), and the multipliers' share of the
     * particles' range cleared (every range its proportional slice, so the ranges of a pass clear them all once).
     */
    private void stepStart(int begin, int end) {
        toSoaFresh(begin, end);
        int n = w.length;
        clearSlice(distLambda, begin, end, n);
        clearSlice(bendLambda, begin, end, n);
    }

    private static void clearSlice(float[] a, int begin, int end, int n) {
        java.util.Arrays.fill(a, (int) ((long) a.length * begin / n), (int) ((long) a.length * end / n), 0f);
    }

    private void toSoaFresh(int begin, int end) {
        transposeIn(y, yx, yy, yz, laneSlot, begin, end);
        java.util.Arrays.fill(dx, begin, end, 0f);
        java.util.Arrays.fill(dy, begin, end, 0f);
        java.util.Arrays.fill(dz, begin, end, 0f);
    }

    /** Particles [begin, end)'s corrections back from their slots (each particle writes its own). */
    private void fromSoa(int begin, int end) {
        final int[] at = laneSlot;
        for (int i = begin; i < end; i++) {
            int s = at == null ? i : at[i];
            d[3 * i] = dx[s];
            d[3 * i + 1] = dy[s];
            d[3 * i + 2] = dz[s];
        }
    }

    /** Particles [begin, end) into the axis arrays at their slots ({@code slot} null: at their own index). */
    private static void transposeIn(float[] xyz, float[] x, float[] y, float[] z, int[] slot, int begin, int end) {
        for (int i = begin; i < end; i++) {
            int s = slot == null ? i : slot[i];
            x[s] = xyz[3 * i];
            y[s] = xyz[3 * i + 1];
            z[s] = xyz[3 * i + 2];
        }
    }

    /**
     * How many distance constraints lie in runs, writing per constraint the exclusive end of the run it lies in,
     * or −1, into {@code runEnd} unless it is null (a count alone allocates nothing: a rebind after every tear
     * compares two orders' counts). A run is at least {@code minRun} consecutive constraints of one color whose
     * first particles are consecutive and whose second particles lie a fixed offset from the first (a lattice
     * color's row).
     */
    static int runs(int[] pairs, int[] colorStart, int minRun, int[] runEnd) {
        int inRuns = 0;
        for (int color = 0; color + 1 < colorStart.length; color++) {
            inRuns += runsOfColor(pairs, colorStart[color], colorStart[color + 1], minRun, runEnd);
        }
        return inRuns;
    }

    /** {@link #runs} of the one color [c, end). */
    static int runsOfColor(int[] pairs, int c, int end, int minRun, int[] runEnd) {
        int inRuns = 0;
        while (c < end) {
            int a = pairs[2 * c];
            int offset = pairs[2 * c + 1] - a;
            int k = c + 1;
            while (k < end && pairs[2 * k] == a + (k - c) && pairs[2 * k + 1] - pairs[2 * k] == offset) {
                k++;
            }
            boolean run = k - c >= minRun;
            inRuns += run ? k - c : 0;
            if (runEnd != null) {
                int mark = run ? k : -1;
                for (int j = c; j < k; j++) {
                    runEnd[j] = mark;
                }
            }
            c = k;
        }
        return inRuns;
    }

    /** Forward, then backward over {@code order} (see IterationMode.GAUSS_SEIDEL: one direction gains energy). */
    private void symmetricSweep(int[] order) {
        for (int k = 0; k < order.length; k++) {
            projectDistance(order[k]);
        }
        for (int k = order.length - 1; k >= 0; k--) {
            projectDistance(order[k]);
        }
    }

    private void sweepBending() {
        switch (settings.mode()) {
            case COLORED:
                for (int c = 0; c + 1 < bendColorStart.length; c++) {
                    pool.parallelFor(bendColorStart[c], bendColorStart[c + 1], bendingColorBody);
                }
                break;
            case GAUSS_SEIDEL:
                for (int k = 0; k < bendNatural.length; k++) {
                    projectStencil(bendNatural[k], bendGradScratch);
                }
                for (int k = bendNatural.length - 1; k >= 0; k--) {
                    projectStencil(bendNatural[k], bendGradScratch);
                }
                break;
            case JACOBI:
                pool.parallelFor(0, bendRest.length, bendingJacobiBody);
                pool.parallelFor(0, w.length, bendingGatherBody);
                break;
            default:
                throw new AssertionError(settings.mode());
        }
    }

    private void bind(Model m, State state, float dt) {
        if (m != model) {
            model = m;
            int n = m.particleCount();
            w = m.invMass();
            frame.bind(m);
            positions = frame.positions();
            y = positions.predicted();
            d = positions.corrections();
            current = new float[3 * n];
            DistanceConstraints d = m.distances();
            distParticles = d.particles();
            distRest = d.restLength();
            distKind = d.kind();
            distColorStart = d.colorStart();
            // the sequential orders only where a sweep is sequential (after a tear, a set makes its order on
            // first use)
            boolean sequential = settings.mode() == IterationMode.GAUSS_SEIDEL;
            distNatural = sequential ? d.naturalOrder() : null;
            distLambda = new float[d.count()];
            distAlpha = new float[d.count()];
            distStiffness = m.distanceStiffness();
            hingeStiffness = m.hingeStiffness();
            bendAlpha = new float[hingeStiffness.length];
            bindLanes(m, n); // may store the distance constraints in the lanes' order: before the stretch order
            bindStretchOrder();
            BendingConstraints b = m.bending();
            bendParticles = b.particles();
            bendRest = b.restAngle();
            bendColorStart = b.colorStart();
            bendNatural = sequential ? b.naturalOrder() : null;
            bendModel = b.models();
            bendAnyIsometric = b.anyIsometric();
            bendAllIsometric = b.allIsometric();
            isoWeights = bendAnyIsometric ? m.isometricWeights() : null;
            bendLambda = new float[b.count()];
            TetherConstraints t = m.tethers();
            tetherParticles = t.particles();
            tetherLength = t.maxLength();
            tetherColorStart = t.colorStart();
            limits = settings.stretchLimits() ? StretchLimits.of(m) : null;
            bindLimitLanes();
            bendGradScratch = new float[12];
            tetPass = new TetProjection(m, y, this.d, w, settings.mode(), pool, tetLanes);
            bindTetherLanes(n);
            wayBackDeferrable = soaInUse && bendRest.length == 0 && tetPass.isEmpty()
                    && (tethersInLanes || tetherLength.length == 0 || !settings.tethers());
            if (settings.mode() == IterationMode.JACOBI) {
                distGather = new JacobiGather(distParticles, m.distanceIncidence());
                bendGather = new JacobiGather(bendParticles, m.bendingIncidence());
                distCorrection = new float[3 * distParticles.length];
                bendCorrection = new float[3 * bendParticles.length];
                distJacobiWeight = distGather.sharedWeights();
                bendJacobiWeight = bendGather.sharedWeights();
            }
            h = Float.NaN;
            contacts = contactSettings == null ? null : new ParticleContacts(m, contactSettings);
        }
        world = state.positions();
        v = state.velocities();
        if (dt != h) {
            h = dt;
            // per constraint, on the pool's threads (a rebind after every tear pays for these)
            pool.parallelFor(0, distAlpha.length, distAlphaBody);
            pool.parallelFor(0, bendAlpha.length, bendAlphaBody);
            distColorRigid = new boolean[distColorStart.length - 1];
            for (int k = 0; k < distColorRigid.length; k++) {
                boolean rigid = true;
                for (int c = distColorStart[k]; c < distColorStart[k + 1] && rigid; c++) {
                    rigid = distAlpha[c] == 0f;
                }
                distColorRigid[k] = rigid;
            }
        }
    }

    /**
     * The vector-lane sweep for this model where the kernel exists, the mode is colored and at least half the
     * distance constraints lie in runs (a grid cloth: its rows); else the scalar loops (a mesh cloth's colors have
     * few runs, and the transposes would cost without lanes to pay for them).
     */
    private void bindLanes(Model m, int n) {
        soaInUse = false;
        constraintsInRuns = 0;
        laneLayout = null;
        laneSlot = null;
        if (soa == null || settings.mode() != IterationMode.COLORED) {
            return;
        }
        int[] lanePairs = distParticles;
        int[] runEnd = null;
        // the lanes' own order (LaneLayout) where it puts more constraints in runs than the model's (a grid's
        // horizontal colors); the constraints are then stored in it for every colored pass (the same bits: a
        // color's constraints are independent)
        LaneLayout layout = LaneLayout.residueRows(m);
        int count = distParticles.length / 2;
        int inRuns = -1; // the model order's count, made only where the choice needs it
        if (layout != null) {
            LaneLayout.Ordered o = layout.order(distParticles, distRest, distKind, distStiffness, distColorStart,
                    LANE_RUN, pool);
            // three quarters in runs is taken without counting the model order's: the choice only decides speed,
            // never bits, and a rebind after every tear pays for the count
            if (4L * o.inRuns >= 3L * count || o.inRuns > (inRuns = runs(distParticles, distColorStart, LANE_RUN, null))) {
                laneLayout = layout;
                distParticles = o.pairs;
                distRest = o.rest;
                distKind = o.kind;
                distStiffness = o.stiffness;
                lanePairs = o.slotted;
                runEnd = o.runEnd;
                inRuns = o.inRuns;
            }
        }
        if (runEnd == null) {
            runEnd = new int[count];
            inRuns = runs(distParticles, distColorStart, LANE_RUN, runEnd);
        }
        if (2 * inRuns < runEnd.length) {
            return;
        }
        soaInUse = true;
        constraintsInRuns = inRuns;
        yx = new float[n];
        yy = new float[n];
        yz = new float[n];
        dx = new float[n];
        dy = new float[n];
        dz = new float[n];
        laneW = laneLayout == null ? w : laneLayout.atSlots(w);
        soa.bind(lanePairs, distRest, laneW, distAlpha, distLambda, runEnd);
        soa.positions(yx, yy, yz, dx, dy, dz);
        laneSlot = laneLayout == null ? null : laneLayout.slot;
        ySoaCurrent = false;
    }


    /**
     * The stretch limits in vector lanes where the distances run there: each color's limits at their particles'
     * slots, in the order of their first slot (a column level's segments are then runs of consecutive slots at a
     * fixed offset of k rows, as are the rows' finest level), which changes no result: a color's limits share no
     * particle.
     */
    private void bindLimitLanes() {
        limitsInLanes = false;
        if (limits == null || !soaInUse || limitSoa == null || limits.count() == 0) {
            return;
        }
        int count = limits.count();
        int[] slotted = new int[2 * count];
        float[] max = new float[count];
        long[] keys = new long[count];
        for (int c = 0; c + 1 < limits.colorStart.length; c++) {
            int from = limits.colorStart[c];
            int to = limits.colorStart[c + 1];
            for (int l = from; l < to; l++) {
                keys[l] = ((long) slotOf(limits.particles[2 * l]) << 32) | l;
            }
            java.util.Arrays.sort(keys, from, to);
            for (int k = from; k < to; k++) {
                int l = (int) keys[k];
                slotted[2 * k] = slotOf(limits.particles[2 * l]);
                slotted[2 * k + 1] = slotOf(limits.particles[2 * l + 1]);
                max[k] = limits.maxLength[l];
            }
        }
        int[] runEnd = new int[count];
        runs(slotted, limits.colorStart, LANE_RUN, runEnd);
        limitSoa.bind(slotted, max, laneW, null, null, runEnd);
        limitSoa.positions(yx, yy, yz, dx, dy, dz);
        limitsInLanes = true;
    }

    /**
     * The tethers in vector lanes, by slot ({@link SoaDistanceKernel#tethers}), where that is the same as their pass
     * after the distances: the distances run in lanes, nothing runs between them and the tethers (no bending
     * stencils, no tetrahedra), every anchor is pinned (so no tether reads what another writes) and no particle has
     * more than one tether (a particle's tethers in another color would need their order kept).
     */
    private void bindTetherLanes(int n) {
        tethersInLanes = false;
        int count = tetherLength.length;
        if (!soaInUse || count == 0 || bendRest.length > 0 || !tetPass.isEmpty()) {
            return;
        }
        int[] anchorAt = new int[n];
        float[] max = new float[n];
        for (int s = 0; s < n; s++) {
            anchorAt[s] = s;
            max[s] = Float.MAX_VALUE;
        }
        for (int t = 0; t < count; t++) {
            int s = slotOf(tetherParticles[2 * t]);
            if (w[tetherParticles[2 * t + 1]] != 0f || max[s] != Float.MAX_VALUE) {
                return;
            }
            anchorAt[s] = slotOf(tetherParticles[2 * t + 1]);
            max[s] = tetherLength[t];
        }
        soa.bindTethers(anchorAt, max);
        tethersInLanes = true;
    }

    /** Whether the bound model's tethers run in vector lanes rather than as their own pass (tests). */
    boolean tethersInLanes() {
        return tethersInLanes;
    }

    private int slotOf(int particle) {
        return laneSlot == null ? particle : laneSlot[particle];
    }

    /** Whether the bound model's stretch limits run in vector lanes (tests). */
    boolean limitsInLanes() {
        return limitsInLanes;
    }

    /** Whether the bound model's colored distance sweeps run in vector lanes (tests). */
    boolean distancesInLanes() {
        return soaInUse;
    }

    /** Whether the bound model's colored tetrahedron sweep projects groups of eight in vector lanes (tests). */
    boolean tetrahedraInLanes() {
        return tetPass != null && tetPass.inLanes();
    }

    /** Tetrahedra of the bound model a sweep projects in lanes with each color in one range (tests). */
    int tetrahedraInLaneGroups() {
        return tetPass == null ? 0 : tetPass.tetrahedraInLanes();
    }

    /** Distance constraints of the bound model in runs, which a lane sweep projects eight at a time (tests). */
    int constraintsInRuns() {
        return constraintsInRuns;
    }

    /** XPBD compliance α = 1/k (0 where the material is rigid), over h² as the update uses it, of distances [begin, end). */
    private void distanceCompliances(int begin, int end) {
        float invH2 = 1f / (h * h);
        boolean rigidSetting = settings.rigid();
        byte bend = DistanceKind.BEND.code();
        for (int c = begin; c < end; c++) {
            boolean rigid = rigidSetting && distKind[c] != bend;
            // a stiffness of 0 (no bending) gets the largest float, so its correction is 0 and never NaN
            distAlpha[c] = rigid ? 0f : Math.min(compliance(distStiffness[c]) * invH2, Float.MAX_VALUE);
        }
    }

    /** As {@link #distanceCompliances} for bending stencils [begin, end). */
    private void bendingCompliances(int begin, int end) {
        float invH2 = 1f / (h * h);
        for (int c = begin; c < end; c++) {
            bendAlpha[c] = Math.min(compliance(hingeStiffness[c]) * invH2, Float.MAX_VALUE);
        }
    }

    /** Per color of [begin, end) its stretch constraints, into {@code stretchColorStart[color + 1]} (then summed). */
    private void countStretches(int begin, int end) {
        byte stretch = DistanceKind.STRETCH.code();
        for (int color = begin; color < end; color++) {
            int k = 0;
            for (int c = distColorStart[color]; c < distColorStart[color + 1]; c++) {
                k += distKind[c] == stretch ? 1 : 0;
            }
            stretchColorStart[color + 1] = k;
        }
    }

    /** The stretch constraints of the colors [begin, end) into their ranges of {@code stretchOrder}. */
    private void orderStretches(int begin, int end) {
        byte stretch = DistanceKind.STRETCH.code();
        for (int color = begin; color < end; color++) {
            int k = stretchColorStart[color];
            boolean run = true;
            for (int c = distColorStart[color]; c < distColorStart[color + 1]; c++) {
                if (distKind[c] == stretch) {
                    run &= k == stretchColorStart[color] || stretchOrder[k - 1] == c - 1;
                    stretchOrder[k++] = c;
                }
            }
            stretchColorContiguous[color] = run;
        }
    }

    /**
     * The stretch constraints within each color (a subset of a coloring is a coloring, so each group
     * still runs in parallel), and in natural order. Colors on the pool's threads, each writing its own range.
     */
    private void bindStretchOrder() {
        int colors = distColorStart.length - 1;
        stretchColorStart = new int[colors + 1];
        pool.parallelFor(0, colors, 1, stretchCountBody);
        for (int color = 0; color < colors; color++) {
            stretchColorStart[color + 1] += stretchColorStart[color];
        }
        int stretches = stretchColorStart[colors];
        stretchOrder = new int[stretches];
        stretchColorContiguous = new boolean[colors];
        pool.parallelFor(0, colors, 1, stretchOrderBody);
        if (distNatural == null) {
            stretchNatural = null;
            return;
        }
        stretchNatural = new int[stretches];
        int k = 0;
        for (int c : distNatural) {
            if (distKind[c] == DistanceKind.STRETCH.code()) {
                stretchNatural[k++] = c;
            }
        }
    }

    // ---- distance constraints ----------------------------------------------------------------

    /**
     * Gauss–Seidel over compliant distances: {@link #projectDistance} and {@link #distanceMultiplierStep}
     * inlined with the arrays in locals (the same arithmetic, the same bits), because this loop is the
     * largest share of an XPBD step on a cloth with shear and distance bending (JFR: 43 % of the
     * default scene's samples).
     */
    private void projectDistances(int begin, int end) {
        projectDistances(begin, end, 1f);
    }

    /** {@link #projectDistances(int, int)} with each multiplier step times {@code share} (1, or ½: the smoothing). */
    private void projectDistances(int begin, int end, float share) {
        final float[] y = this.y;
        final float[] d = this.d;
        final float[] w = this.w;
        final int[] pairs = distParticles;
        final float[] rest = distRest;
        final float[] alphas = distAlpha;
        final float[] lambdas = distLambda;
        for (int c = begin; c < end; c++) {
            int ia = pairs[2 * c];
            int ib = pairs[2 * c + 1];
            int a = 3 * ia;
            int b = 3 * ib;
            float dax = d[a];
            float day = d[a + 1];
            float daz = d[a + 2];
            float dbx = d[b];
            float dby = d[b + 1];
            float dbz = d[b + 2];
            float dx = (y[b] - y[a]) + (dbx - dax);
            float dy = (y[b + 1] - y[a + 1]) + (dby - day);
            float dz = (y[b + 2] - y[a + 2]) + (dbz - daz);
            float wa = w[ia];
            float wb = w[ib];
            float wsum = wa + wb;
            float d2 = dx * dx + dy * dy + dz * dz;
            if (wsum == 0f || d2 < 1e-24f) {
                continue;
            }
            float len = (float) Math.sqrt(d2);
            float alpha = alphas[c];
            float dl = (rest[c] - len - alpha * lambdas[c]) / (wsum + alpha);
            dl *= share;
            lambdas[c] += dl;
            float scale = dl / len;
            float sa = wa * scale;
            float sb = wb * scale;
            d[a] = dax - sa * dx;
            d[a + 1] = day - sa * dy;
            d[a + 2] = daz - sa * dz;
            d[b] = dbx + sb * dx;
            d[b + 1] = dby + sb * dy;
            d[b + 2] = dbz + sb * dz;
        }
    }

    private void projectDistance(int c) {
        projectDistance(c, 1f);
    }

    /** One constraint's projection with its multiplier step times {@code share}. */
    private void projectDistance(int c, float share) {
        int ia = distParticles[2 * c];
        int ib = distParticles[2 * c + 1];
        int a = 3 * ia;
        int b = 3 * ib;
        float dax = d[a];
        float day = d[a + 1];
        float daz = d[a + 2];
        float dbx = d[b];
        float dby = d[b + 1];
        float dbz = d[b + 2];
        float dx = (y[b] - y[a]) + (dbx - dax);
        float dy = (y[b + 1] - y[a + 1]) + (dby - day);
        float dz = (y[b + 2] - y[a + 2]) + (dbz - daz);
        float scale = distanceMultiplierStep(c, w[ia] + w[ib], dx * dx + dy * dy + dz * dz, share);
        if (scale == 0f) {
            return;
        }
        float sa = w[ia] * scale;
        float sb = w[ib] * scale;
        d[a] = dax - sa * dx;
        d[a + 1] = day - sa * dy;
        d[a + 2] = daz - sa * dz;
        d[b] = dbx + sb * dx;
        d[b + 1] = dby + sb * dy;
        d[b + 2] = dbz + sb * dz;
    }

    /**
     * Updates constraint c's multiplier by {@code weight}·Δλ, given the inverse mass sum and the squared
     * length of x_b − x_a, and returns that over the length: particle a moves by −w_a·(that)·(x_b − x_a)
     * and b by +w_b·(that)·(x_b − x_a). The weight is 1 in Gauss–Seidel and the constraint's shared
     * Jacobi weight in Jacobi mode, so λ counts what was applied. Returns 0 when there is nothing to do
     * (both pinned, or coincident particles without a direction).
     */
    private float distanceMultiplierStep(int c, float wsum, float d2, float weight) {
        if (wsum == 0f || d2 < 1e-24f) {
            return 0f;
        }
        float len = (float) Math.sqrt(d2);
        float alpha = distAlpha[c];
        float dl = (distRest[c] - len - alpha * distLambda[c]) / (wsum + alpha);
        dl *= weight;
        distLambda[c] += dl;
        return dl / len;
    }

    /**
     * Zero compliance: XPBD's update reduces to PBD's, Δλ = (L − d) / Σw, and λ itself is never
     * needed, so this pass skips λ and a division.
     */
    private void projectRigidDistances(int begin, int end) {
        final float[] y = this.y;
        final float[] d = this.d;
        final float[] w = this.w;
        final int[] pairs = distParticles;
        final float[] rest = distRest;
        for (int c = begin; c < end; c++) {
            int ia = pairs[2 * c];
            int ib = pairs[2 * c + 1];
            int a = 3 * ia;
            int b = 3 * ib;
            // Each coordinate loaded once into a local: the stores below may alias nothing the JIT can see.
            float dax = d[a];
            float day = d[a + 1];
            float daz = d[a + 2];
            float dbx = d[b];
            float dby = d[b + 1];
            float dbz = d[b + 2];
            float dx = (y[b] - y[a]) + (dbx - dax);
            float dy = (y[b + 1] - y[a + 1]) + (dby - day);
            float dz = (y[b + 2] - y[a + 2]) + (dbz - daz);
            float wa = w[ia];
            float wb = w[ib];
            float wsum = wa + wb;
            float d2 = dx * dx + dy * dy + dz * dz;
            if (wsum == 0f || d2 < 1e-24f) {
                continue;
            }
            float len = (float) Math.sqrt(d2);
            float s = (rest[c] - len) / (wsum * len);
            float sa = wa * s;
            float sb = wb * s;
            d[a] = dax - sa * dx;
            d[a + 1] = day - sa * dy;
            d[a + 2] = daz - sa * dz;
            d[b] = dbx + sb * dx;
            d[b + 1] = dby + sb * dy;
            d[b + 2] = dbz + sb * dz;
        }
    }

    /** The extra stretch passes: constraints {@code stretchOrder[begin..end)}, one color's share. */
    private void projectStretchDistances(int begin, int end) {
        for (int k = begin; k < end; k++) {
            projectDistance(stretchOrder[k]);
        }
    }

    /** The smoothing's half projections over places [begin, end) of {@link #stretchOrder}. */
    private void smoothStretchDistances(int begin, int end) {
        for (int k = begin; k < end; k++) {
            projectDistance(stretchOrder[k], SMOOTHING_SHARE);
        }
    }

    /**
     * Jacobi: each constraint's correction from the same positions, into its own slots; with
     * {@code stretchOnly}, the other constraints' corrections are zero (the extra stretch passes).
     */
    private void distanceCorrections(int begin, int end, boolean stretchOnly) {
        for (int c = begin; c < end; c++) {
            int o = 6 * c;
            if (stretchOnly && distKind[c] != DistanceKind.STRETCH.code()) {
                java.util.Arrays.fill(distCorrection, o, o + 6, 0f);
                continue;
            }
            int ia = distParticles[2 * c];
            int ib = distParticles[2 * c + 1];
            int a = 3 * ia;
            int b = 3 * ib;
            float dx = (y[b] - y[a]) + (d[b] - d[a]);
            float dy = (y[b + 1] - y[a + 1]) + (d[b + 1] - d[a + 1]);
            float dz = (y[b + 2] - y[a + 2]) + (d[b + 2] - d[a + 2]);
            float scale = distanceMultiplierStep(c, w[ia] + w[ib], dx * dx + dy * dy + dz * dz, distJacobiWeight[c]);
            float sa = w[ia] * scale;
            float sb = w[ib] * scale;
            distCorrection[o] = -sa * dx;
            distCorrection[o + 1] = -sa * dy;
            distCorrection[o + 2] = -sa * dz;
            distCorrection[o + 3] = sb * dx;
            distCorrection[o + 4] = sb * dy;
            distCorrection[o + 5] = sb * dz;
        }
    }

    // ---- bending constraints -----------------------------------------------------------------

    private void projectBendingRange(int begin, int end) {
        if (bendAllIsometric) {
            projectIsometricRange(begin, end);
            return;
        }
        float[] grad = gradScratch.get();
        for (int c = begin; c < end; c++) {
            projectStencil(c, grad);
        }
    }

    /** Stencil c by its own model (Gauss–Seidel: its correction written at once). */
    private void projectStencil(int c, float[] grad) {
        float dl = bendAnyIsometric && bendModel[c] == BendingConstraints.ISOMETRIC
                ? isometricMultiplierStep(c, grad, 1f) : bendingMultiplierStep(c, grad, 1f);
        if (dl == 0f) {
            return;
        }
        for (int k = 0; k < 4; k++) {
            int p = bendParticles[4 * c + k];
            float s = w[p] * dl;
            int p3 = 3 * p;
            d[p3] += s * grad[3 * k];
            d[p3 + 1] += s * grad[3 * k + 1];
            d[p3 + 2] += s * grad[3 * k + 2];
        }
    }

    private void bendingCorrections(int begin, int end) {
        float[] grad = gradScratch.get();
        for (int c = begin; c < end; c++) {
            float dl = bendAnyIsometric && bendModel[c] == BendingConstraints.ISOMETRIC
                    ? isometricMultiplierStep(c, grad, bendJacobiWeight[c])
                    : bendingMultiplierStep(c, grad, bendJacobiWeight[c]);
            int o = 12 * c;
            for (int k = 0; k < 4; k++) {
                float s = w[bendParticles[4 * c + k]] * dl;
                bendCorrection[o + 3 * k] = s * grad[3 * k];
                bendCorrection[o + 3 * k + 1] = s * grad[3 * k + 1];
                bendCorrection[o + 3 * k + 2] = s * grad[3 * k + 2];
            }
        }
    }

    /**
     * Updates constraint c's multiplier by {@code weight}·Δλ and returns that (0 when there is nothing to
     * do); fills grad.
     */
    private float bendingMultiplierStep(int c, float[] grad, float weight) {
        int e0 = bendParticles[4 * c];
        int e1 = bendParticles[4 * c + 1];
        int o0 = bendParticles[4 * c + 2];
        int o1 = bendParticles[4 * c + 3];
        float angle = DihedralAngle.compute(y, d, e0, e1, o0, o1, grad);
        if (Float.isNaN(angle)) {
            return 0f;
        }
        float constraint = angle - bendRest[c];
        // Wrap into (−π, π] so a stencil near ±π does not jump a full turn.
        if (constraint > (float) Math.PI) {
            constraint -= (float) (2 * Math.PI);
        } else if (constraint < (float) -Math.PI) {
            constraint += (float) (2 * Math.PI);
        }
        float alpha = bendAlpha[c];
        float denom = alpha;
        denom += w[e0] * (grad[0] * grad[0] + grad[1] * grad[1] + grad[2] * grad[2]);
        denom += w[e1] * (grad[3] * grad[3] + grad[4] * grad[4] + grad[5] * grad[5]);
        denom += w[o0] * (grad[6] * grad[6] + grad[7] * grad[7] + grad[8] * grad[8]);
        denom += w[o1] * (grad[9] * grad[9] + grad[10] * grad[10] + grad[11] * grad[11]);
        if (!(denom > 1e-20f)) {
            return 0f;
        }
        float dl = (-constraint - alpha * bendLambda[c]) / denom;
        dl *= weight;
        bendLambda[c] += dl;
        return dl;
    }

    // ---- isometric bending (Bergou et al. 2006) ------------------------------------------------

    /**
     * Colored Gauss–Seidel over isometric stencils: C = ‖H‖ − ‖H̄‖ with H = Σ_j K_j x_j (constant weights,
     * {@link dev.weft.core.geom.IsometricBending}), ∇_j C = K_j H/‖H‖, compliance 1/k_iso. The same arithmetic
     * as {@link #isometricMultiplierStep} with the arrays in locals and the correction applied at once: about
     * two distance constraints' work (no normals, no angle). H is summed from differences to x_e0, in the
     * order IsometricBending.curvature sums it, so a stencil in its rest shape gives exactly its rest value.
     */
    private void projectIsometricRange(int begin, int end) {
        final float[] y = this.y;
        final float[] d = this.d;
        final float[] w = this.w;
        final float[] kw = isoWeights;
        final int[] p = bendParticles;
        final float[] rest = bendRest;
        final float[] alphas = bendAlpha;
        final float[] lambdas = bendLambda;
        for (int c = begin; c < end; c++) {
            int i0 = p[4 * c];
            int i1 = p[4 * c + 1];
            int i2 = p[4 * c + 2];
            int i3 = p[4 * c + 3];
            int a = 3 * i0;
            int b = 3 * i1;
            int o = 3 * i2;
            int q = 3 * i3;
            float k0 = kw[4 * c];
            float k1 = kw[4 * c + 1];
            float k2 = kw[4 * c + 2];
            float k3 = kw[4 * c + 3];
            float dax = d[a];
            float day = d[a + 1];
            float daz = d[a + 2];
            float hx = k1 * ((y[b] - y[a]) + (d[b] - dax)) + k2 * ((y[o] - y[a]) + (d[o] - dax))
                    + k3 * ((y[q] - y[a]) + (d[q] - dax));
            float hy = k1 * ((y[b + 1] - y[a + 1]) + (d[b + 1] - day)) + k2 * ((y[o + 1] - y[a + 1]) + (d[o + 1] - day))
                    + k3 * ((y[q + 1] - y[a + 1]) + (d[q + 1] - day));
            float hz = k1 * ((y[b + 2] - y[a + 2]) + (d[b + 2] - daz)) + k2 * ((y[o + 2] - y[a + 2]) + (d[o + 2] - daz))
                    + k3 * ((y[q + 2] - y[a + 2]) + (d[q + 2] - daz));
            float len2 = hx * hx + hy * hy + hz * hz;
            if (!(len2 > 0f)) {
                continue; // flat: no direction, and nothing to correct
            }
            float w0 = w[i0];
            float w1 = w[i1];
            float w2 = w[i2];
            float w3 = w[i3];
            float alpha = alphas[c];
            float denom = w0 * k0 * k0 + w1 * k1 * k1 + w2 * k2 * k2 + w3 * k3 * k3 + alpha;
            if (!(denom > 1e-20f)) {
                continue;
            }
            float len = (float) Math.sqrt(len2);
            float dl = (rest[c] - len - alpha * lambdas[c]) / denom;
            lambdas[c] += dl;
            float s = dl / len;
            float s0 = w0 * k0 * s;
            float s1 = w1 * k1 * s;
            float s2 = w2 * k2 * s;
            float s3 = w3 * k3 * s;
            d[a] = dax + s0 * hx;
            d[a + 1] = day + s0 * hy;
            d[a + 2] = daz + s0 * hz;
            d[b] += s1 * hx;
            d[b + 1] += s1 * hy;
            d[b + 2] += s1 * hz;
            d[o] += s2 * hx;
            d[o + 1] += s2 * hy;
            d[o + 2] += s2 * hz;
            d[q] += s3 * hx;
            d[q + 1] += s3 * hy;
            d[q + 2] += s3 * hz;
        }
    }

    /**
     * Updates isometric stencil c's multiplier by {@code weight}·Δλ and returns that (0 when there is nothing
     * to do); fills grad with ∇_j C = K_j H/‖H‖ (e0, e1, o0, o1).
     */
    private float isometricMultiplierStep(int c, float[] grad, float weight) {
        int i0 = bendParticles[4 * c];
        int i1 = bendParticles[4 * c + 1];
        int i2 = bendParticles[4 * c + 2];
        int i3 = bendParticles[4 * c + 3];
        float len = dev.weft.core.geom.IsometricBending.curvature(y, d, i0, i1, i2, i3, isoWeights, 4 * c, grad);
        if (!(len > 0f)) {
            return 0f;
        }
        float nx = grad[0] / len;
        float ny = grad[1] / len;
        float nz = grad[2] / len;
        float denom = bendAlpha[c];
        for (int k = 0; k < 4; k++) {
            float kk = isoWeights[4 * c + k];
            denom += w[bendParticles[4 * c + k]] * kk * kk;
            grad[3 * k] = kk * nx;
            grad[3 * k + 1] = kk * ny;
            grad[3 * k + 2] = kk * nz;
        }
        if (!(denom > 1e-20f)) {
            return 0f;
        }
        float dl = (bendRest[c] - len - bendAlpha[c] * bendLambda[c]) / denom;
        dl *= weight;
        bendLambda[c] += dl;
        return dl;
    }

    /** 1/k, with 0 for a rigid (infinite) stiffness and +∞ for none (a zero-stiffness constraint never pulls). */
    private static float compliance(float k) {
        return k == Float.POSITIVE_INFINITY ? 0f : 1f / k;
    }
}
