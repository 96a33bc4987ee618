package dev.weft.opencl;

import dev.weft.core.model.MaterialParameters;
import dev.weft.core.model.Model;
import dev.weft.core.solver.implicit.BlockSparseMatrix;
import dev.weft.core.springs.SpringSet;

/**
 * The host side of {@link OpenClImplicitSolver}'s model, built once per topology: the springs, the block
 * sparse pattern of A as {@code ImplicitSolver.buildMatrix} builds it (row i holds i and its spring
 * neighbours, ascending; the entry of each block's spring, and each spring's two off-diagonal entries),
 * the masses (a pinned particle's row gets the free particles' mean, so its filtered-out block stays
 * invertible) and each particle's velocity damping.
 */
final class ImplicitLayout {
    final SpringSet springs;
    final int[] rowStart;
    final int[] col;
    /** Per entry: its spring, or −1 on the diagonal. */
    final int[] blockSpring;
    /** Per spring: its entries (a, b) then (b, a). */
    final int[] springEntry;
    /** Per row: its diagonal entry. */
    final int[] diagonal;
    final double[] mass;
    /** Per particle, its material's velocity damping c in 1/s. */
    final float[] damping;

    ImplicitLayout(Model m) {
        int n = m.particleCount();
        springs = SpringSet.build(m);
        int springCount = springs.count();
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
        springEntry = new int[2 * springCount];
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
        // the pattern's checks (ascending columns, a diagonal per row) and its diagonal entries
        BlockSparseMatrix pattern = new BlockSparseMatrix(rowStart, col);
        diagonal = new int[n];
        for (int i = 0; i < n; i++) {
            diagonal[i] = pattern.diagonalEntry(i);
        }
        float[] w = m.invMass();
        double sum = 0.0;
        int free = 0;
        for (int i = 0; i < n; i++) {
            if (w[i] > 0f) {
                sum += 1.0 / w[i];
                free++;
            }
        }
        double nominal = free == 0 ? 1.0 : sum / free;
        mass = new double[n];
        for (int i = 0; i < n; i++) {
            mass[i] = w[i] > 0f ? 1.0 / w[i] : nominal;
        }
        damping = MaterialParameters.particleDamping(m);
    }

    int springCount() {
        return springs.count();
    }

    int entryCount() {
        return col.length;
    }
}
