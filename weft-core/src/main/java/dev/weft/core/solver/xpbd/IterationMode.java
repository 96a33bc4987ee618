package dev.weft.core.solver.xpbd;

import dev.weft.core.InvalidInputException;

/** How one constraint iteration visits the constraints. */
public enum IterationMode {
    /** All constraints from the same positions; corrections averaged per particle (parallel). */
    JACOBI("jacobi"),
    /** One after another in creation order (lexicographic); sequential by definition. */
    GAUSS_SEIDEL("gauss-seidel"),
    /** Gauss–Seidel color by color, each color in parallel. */
    COLORED("colored");

    private final String label;

    IterationMode(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static IterationMode parse(String source, String text) {
        for (IterationMode m : values()) {
            if (m.label.equals(text)) {
                return m;
            }
        }
        throw new InvalidInputException(source, "unknown iteration mode '" + text
                + "'; allowed: jacobi, gauss-seidel, colored");
    }
}
