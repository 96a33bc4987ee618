package dev.weft.core.solver;

import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.step.Environment;

/**
 * A time-stepping method. One call advances {@code state} by {@code dt}; substepping is the caller's
 * ({@code Simulation}'s) business. Implementations keep scratch arrays sized to the model and allocate
 * nothing per step after the first.
 */
public interface Solver extends AutoCloseable {
    /** Name as the command line and scene files spell it. */
    String name();

    void step(Model model, State state, Environment environment, float dt);

    /**
     * {@code count} steps of {@code dt}, for a caller with nothing to do between them (no tearing, no
     * moving collider, no drag). A solver whose state lives elsewhere (a device) overrides it to bring
     * the state back once, after the last step, instead of after each; by default {@code count} calls of
     * {@link #step}, the same result.
     */
    default void steps(Model model, State state, Environment environment, float dt, int count) {
        for (int k = 0; k < count; k++) {
            step(model, state, environment, dt);
        }
    }

    /**
     * True when {@link #steps} is cheaper than as many {@link #step} calls (the state crosses to and from
     * a device at each call), so a caller with nothing to do between substeps should batch them.
     */
    default boolean batchesSteps() {
        return false;
    }

    /**
     * What the solver carries from one step to the next beyond the {@link State} (the implicit solver's
     * released contacts), for a checkpoint; null when nothing.
     */
    default byte[] saveState() {
        return null;
    }

    /** Restores what {@link #saveState} wrote, before the next step. */
    default void loadState(byte[] state) {
        if (state != null) {
            throw new dev.weft.core.InvalidInputException("solver state", "the " + name()
                    + " solver carries no state, the checkpoint has " + state.length + " bytes for it");
        }
    }

    /** The threads the solver runs on (an edit of its model may use them too), or null for none of its own. */
    default WorkerPool pool() {
        return null;
    }

    /** Releases worker threads; the default has none. */
    @Override
    default void close() {
    }
}
