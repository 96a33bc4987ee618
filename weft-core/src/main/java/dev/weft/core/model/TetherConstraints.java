package dev.weft.core.model;

import dev.weft.core.coloring.Coloring;

/**
 * Long-range attachments (Kim, Chentanez and Müller 2012): each free particle may be at most its rest
 * geodesic distance from a pinned anchor. A unilateral constraint, |x_p − x_anchor| ≤ L, that stops
 * the slow over-stretch a hanging cloth shows with few iterations. Pairs are (particle, anchor); the
 * anchor is pinned, so only the particle is ever written.
 */
public final class TetherConstraints extends ColoredConstraints {
    private final float[] maxLength;

    public TetherConstraints(int[] pairs, float[] maxLength, Coloring coloring) {
        super(2, pairs, coloring);
        this.maxLength = permute(maxLength);
    }

    /** Already laid out in storage order (an edit's result). */
    TetherConstraints(int[] stored, float[] maxLength, int[] colorStart, NaturalOrder naturalOrder) {
        super(2, stored, colorStart, naturalOrder);
        this.maxLength = maxLength;
    }

    /** Largest allowed distance per tether (storage order). Do not modify. */
    public float[] maxLength() {
        return maxLength;
    }
}
