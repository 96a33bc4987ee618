package dev.weft.core.coloring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.model.BendingModel;
import dev.weft.core.model.DistanceConstraints;
import dev.weft.core.model.DistanceKind;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.RopeSpec;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ColoringTest {
    @Test
    void greedyColoringOfRandomConstraintsIsValidAndBalanced() {
        Random rnd = new Random(7);
        int particles = 2000;
        int[] items = new int[4 * 5000];
        for (int i = 0; i < items.length; i += 4) {
            // four distinct particles per constraint, like a bending stencil
            int base = rnd.nextInt(particles - 40);
            items[i] = base;
            items[i + 1] = base + 1 + rnd.nextInt(10);
            items[i + 2] = base + 11 + rnd.nextInt(10);
            items[i + 3] = base + 21 + rnd.nextInt(10);
        }
        Coloring c = GreedyColoring.of(items, 4, particles);
        assertThat(c.isValidFor(items, 4, particles)).isTrue();
        int max = 0;
        for (int k = 0; k < c.colorCount(); k++) {
            max = Math.max(max, c.colorSize(k));
        }
        // Balanced: a parallel pass over one color waits for its largest, so no color may hold much
        // more than the mean (plain first-fit greedy puts 1.54x the mean into color 0 here).
        double mean = 5000.0 / c.colorCount();
        assertThat(max / mean).isLessThan(1.25);
        // and the count stays near the degree bound: each particle is in ~10 stencils here
        assertThat(c.colorCount()).isLessThanOrEqualTo(64);
    }

    @Test
    void gridDistanceConstraintsUseSeed002sEightPasses() {
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("c", 17, 12, 1f, 1f));
        Model m = b.build();
        assertThat(m.distances().colorCount()).isEqualTo(8);
        assertThat(Coloring.fromColors(colorsOf(m.distances().colorStart())).isValidFor(
                m.distances().particles(), 2, m.particleCount())).isTrue();
    }

    @Test
    void gridWithDistanceBendingUsesTwelvePassesEndingWithTheStretchEdges() {
        ModelBuilder b = new ModelBuilder().bendingModel(BendingModel.DISTANCE);
        b.addGridCloth(GridClothSpec.of("c", 17, 12, 1f, 1f));
        b.addRope(new RopeSpec("r", new float[] {0, 0, 0, 1, 0, 0}, 9, 0.1f)); // greedy colors merge in
        Model m = b.build();
        DistanceConstraints d = m.distances();
        assertThat(d.colorCount()).isEqualTo(12);
        assertThat(Coloring.fromColors(colorsOf(d.colorStart())).isValidFor(d.particles(), 2, m.particleCount()))
                .isTrue();
        // skip springs first, then shear, and the last four passes hold the grid's stretch edges only
        int[] start = d.colorStart();
        byte[] kind = d.kind();
        for (int c = 8; c < 12; c++) {
            for (int k = start[c]; k < start[c + 1]; k++) {
                assertThat(kind[k]).as("color %d", c).isEqualTo(DistanceKind.STRETCH.code());
            }
        }
        for (int k = start[0]; k < start[4]; k++) {
            if (d.particles()[2 * k] < 17 * 12) {
                assertThat(kind[k]).isEqualTo(DistanceKind.BEND.code());
            }
        }
    }

    @Test
    void bendingAndTetherColoringsAreValid() {
        ModelBuilder b = new ModelBuilder();
        var cloth = b.addGridCloth(GridClothSpec.of("c", 20, 20, 1f, 1f));
        b.pinCorners(cloth, "top-left", "top-right");
        Model m = b.build();
        assertThat(Coloring.fromColors(colorsOf(m.bending().colorStart())).isValidFor(
                m.bending().particles(), 4, m.particleCount())).isTrue();
        // tethers only write their first particle
        int[] tetherWritten = new int[m.tethers().count() * 2];
        for (int i = 0; i < m.tethers().count(); i++) {
            tetherWritten[2 * i] = m.tethers().particles()[2 * i];
            tetherWritten[2 * i + 1] = -1;
        }
        assertThat(Coloring.fromColors(colorsOf(m.tethers().colorStart())).isValidFor(tetherWritten, 2,
                m.particleCount())).isTrue();
    }

    @Test
    void redBlackColorsA4NeighbourLatticeWithTwoColors() {
        int cols = 9;
        int rows = 7;
        Coloring c = LatticeColoring.redBlackParticles(cols, rows);
        assertThat(c.colorCount()).isEqualTo(2);
        for (int r = 0; r < rows; r++) {
            for (int col = 0; col < cols; col++) {
                int p = r * cols + col;
                if (col + 1 < cols) {
                    assertThat(c.colorOf(p)).isNotEqualTo(c.colorOf(p + 1));
                }
                if (r + 1 < rows) {
                    assertThat(c.colorOf(p)).isNotEqualTo(c.colorOf(p + cols));
                }
            }
        }
    }

    /** Storage is color-sorted, so the color of storage slot k follows from the offsets. */
    private static int[] colorsOf(int[] colorStart) {
        int[] colorOf = new int[colorStart[colorStart.length - 1]];
        for (int c = 0; c + 1 < colorStart.length; c++) {
            for (int k = colorStart[c]; k < colorStart[c + 1]; k++) {
                colorOf[k] = c;
            }
        }
        return colorOf;
    }
}
