package dev.weft.core.model;

import dev.weft.core.coloring.Coloring;

/**
 * Storage shared by every constraint type: {@code arity} particle indices per constraint, laid out
 * color by color so that a parallel pass over one color walks a contiguous range.
 * Subclasses add their own per-constraint parameters, permuted the same way.
 */
public abstract class ColoredConstraints {
    private final int arity;
    private final int[] particles;
    private final int[] colorStart;
    private final NaturalOrder naturalOrder;

    /**
     * @param particlesInBuildOrder {@code arity} indices per constraint, in the order the builder made them
     * @param coloring              a valid coloring of those constraints
     */
    protected ColoredConstraints(int arity, int[] particlesInBuildOrder, Coloring coloring) {
        this.arity = arity;
        int count = particlesInBuildOrder.length / arity;
        if (coloring.itemCount() != count) {
            throw new IllegalArgumentException("coloring has " + coloring.itemCount() + " items, constraints " + count);
        }
        int[] order = coloring.order();
        this.particles = new int[particlesInBuildOrder.length];
        int[] natural = new int[count];
        for (int stored = 0; stored < count; stored++) {
            int original = order[stored];
            System.arraycopy(particlesInBuildOrder, original * arity, particles, stored * arity, arity);
            natural[original] = stored;
        }
        this.naturalOrder = NaturalOrder.of(natural);
        this.colorStart = coloring.colorStart().clone();
    }

    /** Already laid out (an edit's result): storage-order indices, color ranges and natural order as given. */
    ColoredConstraints(int arity, int[] stored, int[] colorStart, NaturalOrder naturalOrder) {
        this.arity = arity;
        this.particles = stored;
        this.colorStart = colorStart;
        this.naturalOrder = naturalOrder;
    }

    /** Reorders a per-constraint array from build order into storage order. */
    protected final float[] permute(float[] inBuildOrder) {
        int[] natural = naturalOrder.get();
        float[] out = new float[inBuildOrder.length];
        for (int original = 0; original < natural.length; original++) {
            out[natural[original]] = inBuildOrder[original];
        }
        return out;
    }

    /** Reorders a per-constraint array from build order into storage order. */
    protected final short[] permute(short[] inBuildOrder) {
        int[] natural = naturalOrder.get();
        short[] out = new short[inBuildOrder.length];
        for (int original = 0; original < natural.length; original++) {
            out[natural[original]] = inBuildOrder[original];
        }
        return out;
    }

    /** Reorders a per-constraint array from build order into storage order. */
    protected final byte[] permute(byte[] inBuildOrder) {
        int[] natural = naturalOrder.get();
        byte[] out = new byte[inBuildOrder.length];
        for (int original = 0; original < natural.length; original++) {
            out[natural[original]] = inBuildOrder[original];
        }
        return out;
    }

    public final int arity() {
        return arity;
    }

    public final int count() {
        return naturalOrder.count();
    }

    /** {@code arity} particle indices per constraint, in storage (color) order. Do not modify. */
    public final int[] particles() {
        return particles;
    }

    public final int colorCount() {
        return colorStart.length - 1;
    }

    /** Color c is the storage range [colorStart[c], colorStart[c+1]). Do not modify. */
    public final int[] colorStart() {
        return colorStart;
    }

    /**
     * Storage index of each constraint in the order the builder created them (row by row on a grid):
     * the lexicographic order a sequential Gauss–Seidel sweep uses (made on first use after an edit). Do
     * not modify.
     */
    public final int[] naturalOrder() {
        return naturalOrder.get();
    }

    /** The sequential order as an edit carries it (birth numbers). */
    final NaturalOrder sequence() {
        return naturalOrder;
    }
}
