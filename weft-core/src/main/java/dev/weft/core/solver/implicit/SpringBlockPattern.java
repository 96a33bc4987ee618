package dev.weft.core.solver.implicit;

import dev.weft.core.springs.SpringSet;

/**
 * The block-sparse pattern of the implicit system for a set of springs, in CSR form: row i holds i and its
 * spring neighbours, ascending (the diagonal placed before the first larger neighbour); per entry its
 * spring (−1 on the diagonal); per spring its two off-diagonal entries. Built once per topology, the same
 * for the CPU solver and the device's layout, so both assemble the same matrix in the same order.
 */
public final class SpringBlockPattern {
    /** Row offsets, one more than particles. */
    public final int[] rowStart;
    /** Per entry its column. */
    public final int[] col;
    /** Per entry its spring, or −1 on the diagonal. */
    public final int[] blockSpring;
    /** Per spring s its entries: (a, b) at {@code 2s}, (b, a) at {@code 2s + 1}. */
    public final int[] springEntry;

    public SpringBlockPattern(SpringSet springs, int particleCount) {
        int n = particleCount;
        int[] pairs = springs.pairs();
        int[] start = springs.incidenceStart();
        int[] other = springs.incidenceOther();
        int[] spring = springs.incidenceSpring();
        rowStart = new int[n + 1];
        for (int i = 0; i < n; i++) {
            rowStart[i + 1] = rowStart[i] + (start[i + 1] - start[i]) + 1;
        }
        col = new int[rowStart[n]];
        blockSpring = new int[rowStart[n]];
        springEntry = new int[2 * springs.count()];
        for (int i = 0; i < n; i++) {
            int k = rowStart[i];
            boolean diagonalPlaced = false;
            for (int e = start[i]; e < start[i + 1]; e++) {
                if (!diagonalPlaced && other[e] > i) {
                    col[k] = i;
                    blockSpring[k++] = -1;
                    diagonalPlaced = true;
                }
                int s = spring[e];
                springEntry[2 * s + (pairs[2 * s] == i ? 0 : 1)] = k;
                col[k] = other[e];
                blockSpring[k++] = s;
            }
            if (!diagonalPlaced) {
                col[k] = i;
                blockSpring[k] = -1;
            }
        }
    }
}
