package dev.weft.core.model;

import dev.weft.core.InvalidInputException;

/**
 * Which particle pairs get springs. Grid layouts apply to grid cloths; on mesh cloths every layout
 * falls back to {@link #MESH}; ropes always use their stretch and second-neighbour springs.
 */
public enum SpringLayout {
    /**
     * Seed 000, figure 4.1: every particle is joined to all 24 others of its 5 × 5 neighbourhood:
     * the 4 axis neighbours stretch, the 4 diagonal neighbours shear, the 16 at lattice distance 2 bend.
     */
    STENCIL_24("stencil24"),
    /**
     * Seed 004, figure 22.2: 12 springs per particle: 4 structural (axis neighbours), 4 shear
     * (diagonal neighbours) and 4 bend springs to the particles two steps away along the axes.
     */
    PATTERN_12("pattern12"),
    /** Triangle edges stretch, and one bend spring across every interior edge (between the opposite vertices). */
    MESH("mesh");

    private final String label;

    SpringLayout(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static SpringLayout parse(String parameter, String text) {
        for (SpringLayout l : values()) {
            if (l.label.equals(text)) {
                return l;
            }
        }
        throw new InvalidInputException(parameter, "unknown spring layout '" + text
                + "'; allowed: stencil24, pattern12, mesh");
    }
}
