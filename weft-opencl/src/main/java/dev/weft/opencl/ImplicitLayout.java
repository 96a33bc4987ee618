package dev.weft.opencl;

import dev.weft.core.model.MaterialParameters;
import dev.weft.core.model.Model;
import dev.weft.core.solver.implicit.BlockSparseMatrix;
import dev.weft.core.solver.implicit.ImplicitSolver;
import dev.weft.core.solver.implicit.SpringBlockPattern;
import dev.weft.core.springs.SpringSet;

/**
 * The host side of {@link OpenClImplicitSolver}'s model, built once per topology: the springs, the block
 * sparse pattern of A ({@link SpringBlockPattern}, the CPU solver's),
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
        SpringBlockPattern blocks = new SpringBlockPattern(springs, n);
        rowStart = blocks.rowStart;
        col = blocks.col;
        blockSpring = blocks.blockSpring;
        springEntry = blocks.springEntry;
        // the pattern's checks (ascending columns, a diagonal per row) and its diagonal entries
        BlockSparseMatrix pattern = new BlockSparseMatrix(rowStart, col);
        diagonal = new int[n];
        for (int i = 0; i < n; i++) {
            diagonal[i] = pattern.diagonalEntry(i);
        }
        mass = ImplicitSolver.systemMasses(m.invMass());
        damping = MaterialParameters.particleDamping(m);
    }

    int springCount() {
        return springs.count();
    }

    int entryCount() {
        return col.length;
    }
}
