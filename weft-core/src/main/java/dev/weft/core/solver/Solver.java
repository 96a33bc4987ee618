package dev.weft.core.solver;

import dev.weft.core.model.Model;
import dev.weft.core.model.State;

/**
 * A time-stepping method. One call advances {@code state} by {@code dt}; substepping is the caller's
 * ({@code Simulation}'s) business. Implementations keep scratch arrays sized to the model and allocate
 * nothing per step after the first.
 */
public interface Solver extends AutoCloseable {
    /** Name as the command line and scene files spell it. */
    String name();

    void step(Model model, State state, Environment environment, float dt);

    /** Releases worker threads; the default has none. */
    @Override
    default void close() {
    }
}
