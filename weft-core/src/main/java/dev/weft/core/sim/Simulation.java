package dev.weft.core.sim;

import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.solver.Environment;
import dev.weft.core.solver.Solver;
import dev.weft.core.util.Check;

/**
 * Drives a solver over frames: each frame is {@code substeps} solver steps of {@code frameDt / substeps}.
 * After every step the state is checked, and a non-finite or runaway position stops the run with a
 * {@link SimulationDivergedException} instead of being passed on.
 */
public final class Simulation implements AutoCloseable {
    /** A particle farther than this from the origin (in metres) counts as having blown up. */
    public static final float RUNAWAY_DISTANCE = 1e4f;

    private final Model model;
    private final State state;
    private final Solver solver;
    private final Environment environment;
    private final int substeps;

    public Simulation(Model model, State state, Solver solver, Environment environment, int substeps) {
        this.model = model;
        this.state = state;
        this.solver = solver;
        this.environment = environment;
        this.substeps = Check.atLeast("substeps", substeps, 1);
    }

    public Model model() {
        return model;
    }

    public State state() {
        return state;
    }

    public Solver solver() {
        return solver;
    }

    public Environment environment() {
        return environment;
    }

    public int substeps() {
        return substeps;
    }

    /** Advances one frame of {@code frameDt} seconds. */
    public void advance(float frameDt) {
        Check.positive("frame time step", frameDt);
        float h = frameDt / substeps;
        for (int s = 0; s < substeps; s++) {
            environment.advanceColliders(state.time(), h, state.positions());
            solver.step(model, state, environment, h);
            // Every substep, so the report names the step that failed (a scan costs ~1 % of a step).
            checkFinite();
        }
    }

    private void checkFinite() {
        float[] x = state.positions();
        float limit2 = RUNAWAY_DISTANCE * RUNAWAY_DISTANCE;
        for (int i = 0; i < x.length; i += 3) {
            float d2 = x[i] * x[i] + x[i + 1] * x[i + 1] + x[i + 2] * x[i + 2];
            if (!(d2 <= limit2)) {
                String what = Float.isFinite(d2) ? "is " + (float) Math.sqrt(d2) + " m from the origin"
                        : "has a non-finite position (" + x[i] + ", " + x[i + 1] + ", " + x[i + 2] + ")";
                throw new SimulationDivergedException(state.steps(), state.time(), i / 3, what);
            }
        }
    }

    @Override
    public void close() {
        solver.close();
    }
}
