package dev.weft.core.coloring;

/**
 * Closed-form colorings of regular grids, the special case of {@link GreedyColoring} that seed 001
 * (red-black Gauss–Seidel) and seed 002 (the eight relaxation passes) use. Grid particle (row, col)
 * has index {@code row * cols + col}.
 */
public final class LatticeColoring {
    /** Direction of a grid edge, which decides its pass in seed 002's scheme. */
    public enum EdgeDirection {
        /** (r, c)–(r, c+1) */
        HORIZONTAL,
        /** (r, c)–(r+1, c) */
        VERTICAL,
        /** (r, c)–(r+1, c+1) */
        DIAGONAL,
        /** (r, c+1)–(r+1, c) */
        ANTI_DIAGONAL
    }

    private LatticeColoring() {
    }

    /**
     * Seed 002's passes: even/odd × {x, y, diagonal, anti-diagonal}, 8 colors for a grid with
     * structural and shear edges. {@code row, col} is the edge's first particle as in {@link EdgeDirection}
     * (for ANTI_DIAGONAL the top row and the left column of its cell).
     */
    public static int edgeColor(EdgeDirection direction, int row, int col) {
        switch (direction) {
            case HORIZONTAL:
                return col & 1;
            case VERTICAL:
                return 2 + (row & 1);
            case DIAGONAL:
                return 4 + (row & 1);
            case ANTI_DIAGONAL:
                return 6 + (row & 1);
            default:
                throw new AssertionError(direction);
        }
    }

    /**
     * Red-black coloring of the particles of a 4-neighbour lattice (seed 001, eq. 5.1): no two
     * neighbours share a color, so a per-particle Gauss–Seidel sweep runs in two parallel passes.
     */
    public static Coloring redBlackParticles(int cols, int rows) {
        int[] colorOf = new int[cols * rows];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                colorOf[r * cols + c] = (r + c) & 1;
            }
        }
        return Coloring.fromColors(colorOf);
    }
}
