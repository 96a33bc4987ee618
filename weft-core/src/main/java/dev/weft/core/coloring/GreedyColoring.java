package dev.weft.core.coloring;

import java.util.Arrays;

/**
 * Greedy graph coloring of any constraint set: two constraints conflict when they share a particle.
 * Each constraint takes, among the colors none of its particles uses yet, the one with the fewest
 * members so far (balanced color sizes keep parallel passes evenly loaded); a new color opens only
 * when every existing one is taken. This needs at most (max particle degree × (arity − 1) + 1) colors.
 */
public final class GreedyColoring {
    /** Colors beyond this mean a particle with an absurd number of constraints: treated as an error. */
    public static final int MAX_COLORS = 256;
    private static final int WORDS = MAX_COLORS / 64;

    private GreedyColoring() {
    }

    /**
     * @param items         {@code arity} particle indices per constraint; a negative index is no particle
     * @param arity         particles per constraint
     * @param particleCount number of particles the indices refer to
     * @return the color of each constraint
     */
    public static int[] colors(int[] items, int arity, int particleCount) {
        int count = items.length / arity;
        long[] used = new long[particleCount * WORDS];
        int[] size = new int[MAX_COLORS];
        int colors = 0;
        int[] colorOf = new int[count];
        long[] forbidden = new long[WORDS];
        for (int i = 0; i < count; i++) {
            Arrays.fill(forbidden, 0L);
            for (int j = 0; j < arity; j++) {
                int p = items[i * arity + j];
                if (p >= 0) {
                    for (int w = 0; w < WORDS; w++) {
                        forbidden[w] |= used[p * WORDS + w];
                    }
                }
            }
            int best = -1;
            for (int c = 0; c < colors; c++) {
                if ((forbidden[c >>> 6] & (1L << (c & 63))) == 0 && (best < 0 || size[c] < size[best])) {
                    best = c;
                }
            }
            if (best < 0) {
                if (colors == MAX_COLORS) {
                    throw new IllegalStateException("constraint graph needs more than " + MAX_COLORS
                            + " colors: some particle has too many constraints");
                }
                best = colors++;
            }
            colorOf[i] = best;
            size[best]++;
            for (int j = 0; j < arity; j++) {
                int p = items[i * arity + j];
                if (p >= 0) {
                    used[p * WORDS + (best >>> 6)] |= 1L << (best & 63);
                }
            }
        }
        return colorOf;
    }

    public static Coloring of(int[] items, int arity, int particleCount) {
        return Coloring.fromColors(colors(items, arity, particleCount));
    }
}
