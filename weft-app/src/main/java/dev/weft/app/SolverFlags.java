package dev.weft.app;

import dev.weft.core.InvalidInputException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The flags of a command that only some of its solvers use, and which ones. A flag given on the
 * command line for a solver that does not use it is an error naming the flag, the chosen solver and
 * the solvers that do use it: silently ignoring it would let a person believe a run used settings it
 * did not (say {@code --linear jacobi} with {@code --solver xpbd}).
 */
final class SolverFlags {
    /** The flag that picks the solver(s), for the message: "--solver", "--solvers". */
    private final String selector;
    /** Flag name to the solvers that use it, in the order the flags were declared. */
    private final Map<String, List<String>> users = new LinkedHashMap<>();

    SolverFlags(String selector) {
        this.selector = selector;
    }

    /** Declares that {@code flag} is used by {@code solvers} (and by no other). */
    SolverFlags flag(String flag, String... solvers) {
        users.put(flag, List.of(solvers));
        return this;
    }

    /**
     * Fails on the first declared flag that was given but is used by none of the chosen solvers.
     *
     * @param chosen the solvers the command will run
     * @param given  the flags given on the command line
     * @throws InvalidInputException naming the flag, the chosen solver(s) and the solvers that use it
     */
    void check(Collection<String> chosen, GivenFlags given) {
        for (Map.Entry<String, List<String>> e : users.entrySet()) {
            if (!given.has(e.getKey())) {
                continue;
            }
            boolean used = false;
            for (String solver : chosen) {
                used |= e.getValue().contains(solver);
            }
            if (!used) {
                throw new InvalidInputException(given.typed(e.getKey()), "does not apply to " + selector + " "
                        + String.join(",", chosen) + " (it is used by: " + String.join(", ", e.getValue()) + ")");
            }
        }
    }
}
