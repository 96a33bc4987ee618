package dev.weft.core.solver.implicit;

import dev.weft.core.springs.SpringSet;
import dev.weft.core.model.Incidence;
import java.util.Arrays;

/**
 * The block-sparse pattern of the implicit system for a set of springs, in CSR form: row i holds i and its
 * spring neighbours, ascending (the diagonal placed before the first larger neighbour); per entry its
 * spring (−1 on the diagonal); per spring its two off-diagonal entries. Built once per topology, the same
 * for the CPU solver and the device's layout, so both assemble the same matrix in the same order.
 *
 * <p>With elastic tetrahedra a row also holds every particle it shares a tetrahedron with (an entry with no
 * spring has −1 as its spring), and per tetrahedron the entries of its 4 × 4 blocks ({@link #tetEntry}).
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
    /** Per tetrahedron t, the entry of block (corner a, corner b) at {@code 16t + 4a + b}; empty without tetrahedra. */
    public final int[] tetEntry;

    /**
     * The pattern of {@code springs} and of the tetrahedra {@code tets} (four particles each; may be empty,
     * which gives the springs' pattern exactly).
     */
    public SpringBlockPattern(SpringSet springs, int[] tets, int particleCount) {
        if (tets.length == 0) {
            SpringBlockPattern p = new SpringBlockPattern(springs, particleCount);
            rowStart = p.rowStart;
            col = p.col;
            blockSpring = p.blockSpring;
            springEntry = p.springEntry;
            tetEntry = p.tetEntry;
            return;
        }
        int n = particleCount;
        int[] pairs = springs.pairs();
        int[] start = springs.incidenceStart();
        int[] other = springs.incidenceOther();
        int[] spring = springs.incidenceSpring();
        Incidence corners = Incidence.of(tets, 4, n);
        int[] cornerStart = corners.start();
        int[] cornerSlots = corners.slots();
        // per row its neighbours (springs' and tetrahedra's, each once) and itself, ascending
        int[] seen = new int[n];
        Arrays.fill(seen, -1);
        int[] row = new int[16];
        rowStart = new int[n + 1];
        int[][] rows = new int[n][];
        for (int i = 0; i < n; i++) {
            int size = 0;
            seen[i] = i;
            row[size++] = i;
            for (int e = start[i]; e < start[i + 1]; e++) {
                if (seen[other[e]] != i) {
                    seen[other[e]] = i;
                    row = grown(row, size);
                    row[size++] = other[e];
                }
            }
            for (int k = cornerStart[i]; k < cornerStart[i + 1]; k++) {
                int t = cornerSlots[k] / 4;
                for (int b = 0; b < 4; b++) {
                    int j = tets[4 * t + b];
                    if (seen[j] != i) {
                        seen[j] = i;
                        row = grown(row, size);
                        row[size++] = j;
                    }
                }
            }
            rows[i] = Arrays.copyOf(row, size);
            Arrays.sort(rows[i]);
            rowStart[i + 1] = rowStart[i] + size;
        }
        col = new int[rowStart[n]];
        blockSpring = new int[rowStart[n]];
        Arrays.fill(blockSpring, -1);
        for (int i = 0; i < n; i++) {
            System.arraycopy(rows[i], 0, col, rowStart[i], rows[i].length);
        }
        springEntry = new int[2 * springs.count()];
        for (int i = 0; i < n; i++) {
            for (int e = start[i]; e < start[i + 1]; e++) {
                int s = spring[e];
                int k = entry(i, other[e]);
                springEntry[2 * s + (pairs[2 * s] == i ? 0 : 1)] = k;
                blockSpring[k] = s;
            }
        }
        tetEntry = new int[4 * tets.length];
        for (int t = 0; t < tets.length / 4; t++) {
            for (int a = 0; a < 4; a++) {
                for (int b = 0; b < 4; b++) {
                    tetEntry[16 * t + 4 * a + b] = entry(tets[4 * t + a], tets[4 * t + b]);
                }
            }
        }
    }

    private static int[] grown(int[] row, int size) {
        return size < row.length ? row : Arrays.copyOf(row, 2 * row.length);
    }

    private int entry(int i, int j) {
        return Arrays.binarySearch(col, rowStart[i], rowStart[i + 1], j);
    }

    public SpringBlockPattern(SpringSet springs, int particleCount) {
        tetEntry = new int[0];
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
