package dev.weft.core.solver;

import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.step.Environment;

/**
 * A solver whose step can be taken apart into its iterations, for measuring between them (the
 * convergence laboratory): {@link #beginStep} (or {@link #beginRelax}), {@link #iterateOnce} as often
 * as wanted, {@link #endStep}. With the solver's own iteration count in between this is its
 * {@link #step}.
 */
public interface IterativeSolver extends Solver {
    /** Starts a step: the prediction, which is also the first iterate. */
    void beginStep(Model m, State s, Environment env, float dt);

    /**
     * Starts iterations without integration (seed 001's enlarged cloth): the iterate is the state's
     * positions as they are, only the solver moves particles; {@code dt} sets the inertia or compliance
     * scale. {@link #endStep} writes the result to the state, with no collider, velocity or clock.
     */
    void beginRelax(Model m, State s, float dt);

    /** One iteration: a constraint sweep (XPBD), one local/global alternation (Projective Dynamics). */
    void iterateOnce();

    /**
     * The positions the iterations have reached, to measure between {@link #iterateOnce} calls (a scratch
     * array, overwritten by the next call).
     */
    float[] iteratePositions();

    /** Ends what {@link #beginStep} or {@link #beginRelax} started. */
    void endStep(State s);
}
