package dev.weft.core.model;

import dev.weft.core.coloring.Coloring;

/** Distance constraints |x_a − x_b| = L (stretch, shear, distance bending), colored. */
public final class DistanceConstraints extends ColoredConstraints {
    private final float[] restLength;
    private final byte[] kind;

    public DistanceConstraints(int[] pairs, float[] restLength, byte[] kind, Coloring coloring) {
        super(2, pairs, coloring);
        this.restLength = permute(restLength);
        this.kind = permute(kind);
    }

    /** Already laid out in storage order (an edit's result). */
    DistanceConstraints(int[] stored, float[] restLength, byte[] kind, int[] colorStart, int[] naturalOrder) {
        super(2, stored, colorStart, naturalOrder);
        this.restLength = restLength;
        this.kind = kind;
    }

    /** Rest length per constraint (storage order). Do not modify. */
    public float[] restLength() {
        return restLength;
    }

    /** {@link DistanceKind#code()} per constraint (storage order). Do not modify. */
    public byte[] kind() {
        return kind;
    }

    public int countOf(DistanceKind k) {
        int n = 0;
        for (byte b : kind) {
            if (b == k.code()) {
                n++;
            }
        }
        return n;
    }
}
