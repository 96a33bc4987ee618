package dev.weft.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The strain measure on a hand-made 3 × 3 grid of 1 m spacing. */
class GridStrainTest {
    /** Vertex r·3 + c at (c, 0, r). */
    private static float[] grid() {
        float[] x = new float[27];
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                x[3 * (r * 3 + c)] = c;
                x[3 * (r * 3 + c) + 2] = r;
            }
        }
        return x;
    }

    @Test
    void aGridAtRestHasNoStrainWhereverItIsMovedOrTurned() {
        float[] rest = grid();
        GridStrain strain = new GridStrain(rest, 3);
        assertThat(strain.max(rest)).isZero();
        // turned 90° about x (now hanging in the XY plane) and moved: lengths unchanged
        float[] moved = new float[27];
        for (int i = 0; i < 9; i++) {
            moved[3 * i] = rest[3 * i] + 5f;
            moved[3 * i + 1] = -rest[3 * i + 2] + 2f;
            moved[3 * i + 2] = 7f;
        }
        assertThat(strain.max(moved)).isCloseTo(0, within(1e-6));
    }

    @Test
    void theLargestStructuralEdgeStrainCountsStretchAndCompressionAlike() {
        float[] rest = grid();
        GridStrain strain = new GridStrain(rest, 3);
        float[] x = rest.clone();
        x[3 * 8] = 2.3f; // the bottom-right vertex (r 2, c 2) moves 0.3 m along +x: its left edge 1.3 m long
        assertThat(strain.max(x)).isCloseTo(0.3, within(1e-6));
        x = rest.clone();
        x[3 * 4 + 2] = 0.9f; // the middle vertex 0.1 m towards row 0: edge above 0.9 m, below 1.1 m
        assertThat(strain.max(x)).isCloseTo(0.1, within(1e-6));
        x = rest.clone();
        x[3 * 6 + 2] = 1.5f; // the bottom-left vertex up to z = 1.5: its vertical edge 0.5 m, compressed 50 %
        assertThat(strain.max(x)).isCloseTo(0.5, within(1e-6));
    }

    @Test
    void diagonalsAreNotStructuralEdges() {
        float[] rest = grid();
        GridStrain strain = new GridStrain(rest, 3);
        // a shear of the whole grid: every column slides along x in proportion to its row; the vertical edges
        // lengthen (sqrt(1 + 0.1^2)), the horizontal ones do not, the diagonals change more but are not counted
        float[] x = rest.clone();
        for (int i = 0; i < 9; i++) {
            x[3 * i] += 0.1f * x[3 * i + 2];
        }
        assertThat(strain.max(x)).isCloseTo(Math.sqrt(1.01) - 1, within(1e-6));
    }

    @Test
    void aBlownUpClothIsNeverUnstretched() {
        float[] x = grid();
        GridStrain strain = new GridStrain(x.clone(), 3);
        x[3 * 4 + 1] = Float.NaN;
        assertThat(strain.max(x)).isNaN();
    }
}
