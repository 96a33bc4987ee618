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
