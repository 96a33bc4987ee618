package dev.weft.core.sim;

import dev.weft.core.collide.Collider;
import dev.weft.core.interact.Tearing;
import dev.weft.core.model.DistanceConstraints;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelEdit;
import dev.weft.core.model.State;
import dev.weft.core.solver.Solver;
import dev.weft.core.step.Environment;
import dev.weft.core.util.Check;
import java.util.ArrayList;
import java.util.List;

/**
 * Drives a solver over frames: each frame is {@code substeps} solver steps of {@code frameDt / substeps}.
 * After every step the state is checked, and a non-finite or runaway position (and after every frame
 * a distance constraint stretched to {@link #RUNAWAY_STRETCH} times its rest length) stops the run with a
 * {@link SimulationDivergedException} instead of being passed on. The stretch test catches a blow-up
 * that something bounds in space (tethers, colliders keep an unstable cloth within reach of its pins,
 * where the runaway-distance test never fires).
 */
public final class Simulation implements AutoCloseable {
    /** A particle farther than this from the origin (in metres) counts as having blown up. */
    public static final float RUNAWAY_DISTANCE = 1e4f;
    /**
     * A distance constraint this many times its rest length counts as having blown up. Far beyond any
     * material (woven cloth tears near 1.3×), because a step of few iterations can overstretch an edge
     * for a moment and recover: a cloth thrown at 20 m/s onto a collider with one substep per frame
     * stretches edges 14× for a step (AnalyticColliderTest); a blown-up explicit spring cloth held by
     * its tethers reaches 200× (MassSpringSolverTest).
     */
    public static final float RUNAWAY_STRETCH = 100f;

    private Model model;
    private State state;
    private final Solver solver;
    private Environment environment;
    private final int substeps;
    /** Whether bodies whose material tears do tear (the viewer's switch); on unless turned off. */
    private boolean tearing = true;
    /** The blow-up checks, on the solver's threads. */
    private final RunawayScan scan = new RunawayScan();

    public Simulation(Model model, State state, Solver solver, Environment environment, int substeps) {
        this.model = model;
        this.state = state;
        this.solver = solver;
        this.environment = environment;
        this.substeps = Check.atLeast("substeps", substeps, 1);
    }

    /** The model now: edits ({@link #edit}, tearing) replace it, so ask again after a frame. */
    public Model model() {
        return model;
    }

    /** The state now: an edit that adds particles replaces it, so ask again after a frame. */
    public State state() {
        return state;
    }

    /**
     * Applies topology edits between steps (cuts, seams, splits: {@link ModelEdit}): the model and, when
     * particles were added, the state are replaced; the solver takes the new model at its next step.
     * Returns the new model.
     */
    public Model edit(List<ModelEdit> edits) {
        Model edited = model.edit(edits, solver.pool());
        if (edited != model) {
            state = state.resizedFor(edited);
            model = edited;
        }
        return model;
    }

    public Solver solver() {
        return solver;
    }

    public Environment environment() {
        return environment;
    }

    /**
     * Acts from the next step on in {@code changed} (between frames): colliders added or removed, gravity or
     * wind changed. Moving colliders kept from the old environment keep their own state.
     */
    public void setEnvironment(Environment changed) {
        environment = java.util.Objects.requireNonNull(changed, "environment");
    }

    /**
     * Turns tearing on or off from the next step: off, a body whose material tears is stretched without
     * breaking; on (the default), it breaks past its material's tear strain.
     */
    public void setTearing(boolean on) {
        tearing = on;
    }

    public boolean tearing() {
        return tearing;
    }

    public int substeps() {
        return substeps;
    }

    /** Advances one frame of {@code frameDt} seconds. */
    public void advance(float frameDt) {
        Check.positive("frame time step", frameDt);
        float h = frameDt / substeps;
        if (substeps > 1 && solver.batchesSteps() && !(tearing && model.tears()) && !anyColliderMoves()) {
            // a device solver keeps the state between the substeps: it crosses to the host once a frame
            solver.steps(model, state, environment, h, substeps);
            checkFinite();
        } else {
            substeps(h);
        }
        afterFrame();
    }

    /** The frame's substeps one at a time, with what the host does between them. */
    private void substeps(float h) {
        for (int s = 0; s < substeps; s++) {
            environment.advanceColliders(state.time(), h, state.positions());
            solver.step(model, state, environment, h);
            // Every substep, so the report names the step that failed (a scan costs ~1 % of a step).
            checkFinite();
            // Tearing is a material failing: the substep an edge passes its limit, as seed 001 drops a
            // constraint during the solve. Once a frame, a cannonball stretched a curtain many times its
            // tear strain before anything broke, and the stored stretch flung it up past its pins.
            if (tearing && model.tears()) {
                edit(Tearing.find(model, state.positions(), solver.pool()));
            }
        }
    }

    /** Whether a collider's pose changes with time (it must then be advanced before each substep). */
    private boolean anyColliderMoves() {
        for (Collider c : environment.colliders()) {
            if (c.moving()) {
                return true;
            }
        }
        return false;
    }

    private void afterFrame() {
        // Once a frame: a blow-up that stays bounded takes several steps to grow a hundredfold, and
        // per substep this scan cost 10 % of an XPBD substep on the default scene (JFR samples).
        checkStretch();
        // topology events after the frame (DESIGN.md, "What a step does"): cuts
        List<ModelEdit> events = null;
        for (Collider c : environment.colliders()) {
            List<ModelEdit> cuts = c.topologyEdits(model, state.positions());
            if (!cuts.isEmpty()) {
                events = events == null ? new ArrayList<>() : events;
                events.addAll(cuts);
            }
        }
        if (events != null) {
            edit(events);
        }
    }

    /** Puts a checkpoint's model and state in place ({@link Checkpoint#read}). */
    void restore(Model restored, State s) {
        model = restored;
        state = s;
    }

    private void checkStretch() {
        float[] x = state.positions();
        DistanceConstraints d = model.distances();
        int[] p = d.particles();
        float[] rest = d.restLength();
        int c = scan.firstStretched(x, p, rest, RUNAWAY_STRETCH, solver.pool());
        if (c >= 0) {
            int a = 3 * p[2 * c];
            int b = 3 * p[2 * c + 1];
            float dx = x[a] - x[b];
            float dy = x[a + 1] - x[b + 1];
            float dz = x[a + 2] - x[b + 2];
            throw new SimulationDivergedException(state.steps(), state.time(), p[2 * c],
                    "is " + (float) Math.sqrt(dx * dx + dy * dy + dz * dz) + " m from particle " + p[2 * c + 1]
                            + ", more than " + (int) RUNAWAY_STRETCH + " times their rest distance " + rest[c] + " m");
        }
    }

    private void checkFinite() {
        float[] x = state.positions();
        int p = scan.firstFar(x, RUNAWAY_DISTANCE * RUNAWAY_DISTANCE, solver.pool());
        if (p >= 0) {
            int i = 3 * p;
            float d2 = x[i] * x[i] + x[i + 1] * x[i + 1] + x[i + 2] * x[i + 2];
            String what = Float.isFinite(d2) ? "is " + (float) Math.sqrt(d2) + " m from the origin"
                    : "has a non-finite position (" + x[i] + ", " + x[i + 1] + ", " + x[i + 2] + ")";
            throw new SimulationDivergedException(state.steps(), state.time(), p, what);
        }
    }

    @Override
    public void close() {
        solver.close();
    }
}
