package dev.weft.core.coloring;

/**
 * A partition of a set of items (constraints or particles) into colors such that no two items of one
 * color touch the same particle. Items of one color can therefore be processed in any order, or in
 * parallel, with the same result.
 *
 * <p>{@code order} lists the items color by color; color {@code c} is
 * {@code order[colorStart[c]] .. order[colorStart[c + 1] - 1]}.
 */
public final class Coloring {
    private final int[] colorOf;
    private final int[] order;
    private final int[] colorStart;

    /** Groups items by the color each was given; items keep their relative order within a color. */
    public static Coloring fromColors(int[] colorOf) {
        int colors = 0;
        for (int c : colorOf) {
            if (c < 0) {
                throw new IllegalArgumentException("negative color " + c);
            }
            colors = Math.max(colors, c + 1);
        }
        int[] start = new int[colors + 1];
        for (int c : colorOf) {
            start[c + 1]++;
        }
        for (int c = 0; c < colors; c++) {
            start[c + 1] += start[c];
        }
        int[] fill = java.util.Arrays.copyOf(start, colors);
        int[] order = new int[colorOf.length];
        for (int i = 0; i < colorOf.length; i++) {
            order[fill[colorOf[i]]++] = i;
        }
        // Drop colors nobody uses so that every color range is non-empty.
        int used = 0;
        int[] compact = new int[colors + 1];
        int[] remap = new int[colors];
        for (int c = 0; c < colors; c++) {
            if (start[c + 1] > start[c]) {
                remap[c] = used;
                compact[used] = start[c];
                used++;
            } else {
                remap[c] = -1;
            }
        }
        compact[used] = colorOf.length;
        int[] dense = new int[colorOf.length];
        for (int i = 0; i < colorOf.length; i++) {
            dense[i] = remap[colorOf[i]];
        }
        return new Coloring(dense, order, java.util.Arrays.copyOf(compact, used + 1));
    }

    private Coloring(int[] colorOf, int[] order, int[] colorStart) {
        this.colorOf = colorOf;
        this.order = order;
        this.colorStart = colorStart;
    }

    public int colorCount() {
        return colorStart.length - 1;
    }

    public int itemCount() {
        return order.length;
    }

    /** Color of item {@code i}. */
    public int colorOf(int i) {
        return colorOf[i];
    }

    /** Items sorted by color (a permutation of 0..itemCount-1). Do not modify. */
    public int[] order() {
        return order;
    }

    /** Offsets into {@link #order()}: color c occupies [colorStart[c], colorStart[c+1]). Do not modify. */
    public int[] colorStart() {
        return colorStart;
    }

    public int colorSize(int c) {
        return colorStart[c + 1] - colorStart[c];
    }

    /**
     * True when no two items of one color share a particle. {@code items} holds {@code arity} particle
     * indices per item; a negative index is ignored (no particle).
     */
    public boolean isValidFor(int[] items, int arity, int particleCount) {
        int[] lastItemColorSeen = new int[particleCount];
        java.util.Arrays.fill(lastItemColorSeen, -1);
        for (int c = 0; c < colorCount(); c++) {
            for (int k = colorStart[c]; k < colorStart[c + 1]; k++) {
                int item = order[k];
                for (int j = 0; j < arity; j++) {
                    int p = items[item * arity + j];
                    if (p < 0) {
                        continue;
                    }
                    if (lastItemColorSeen[p] == c) {
                        return false;
                    }
                    lastItemColorSeen[p] = c;
                }
            }
        }
        return true;
    }
}
