package dev.weft.core.solver.implicit;

import dev.weft.core.InvalidInputException;

/** How the implicit solver solves its linear system (seed 000 §4.4). */
public enum LinearMethod {
    /** Baraff–Witkin's filtered preconditioned conjugate gradient (listing 4.1). */
    CG("cg"),
    /** Filtered block Jacobi iteration (listing 4.2). */
    JACOBI("jacobi");

    private final String label;

    LinearMethod(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static LinearMethod parse(String parameter, String text) {
        for (LinearMethod m : values()) {
            if (m.label.equals(text)) {
                return m;
            }
        }
        throw new InvalidInputException(parameter, "unknown linear solver '" + text + "'; allowed: cg, jacobi");
    }
}
