package dev.weft.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.coloring.Coloring;
import dev.weft.core.coloring.ParticleColoring;
import org.junit.jupiter.api.Test;

class QuadLatticeTest {
    @Test
    void seedLatticeHasTenThousandParticlesAndNineteenThousandEightHundredSprings() {
        ModelBuilder b = new ModelBuilder().tethers(false);
        QuadLatticeSpec spec = QuadLatticeSpec.of("cloth", 100, 100, 1f);
        ModelObject cloth = b.addQuadLattice(spec);
        Model m = b.build();
        // Seed 001 §6.1: "10 000 particles and 19 800 constraints".
        assertThat(m.particleCount()).isEqualTo(10_000);
        assertThat(m.distances().count()).isEqualTo(19_800).isEqualTo(spec.constraintCount());
        assertThat(m.distances().countOf(DistanceKind.STRETCH)).isEqualTo(19_800);
        assertThat(m.bending().count()).isZero();
        assertThat(cloth.gridCols()).isEqualTo(100);
        // every spring joins 4-neighbours at the lattice spacing
        int[] p = m.distances().particles();
        float[] rest = m.distances().restLength();
        for (int c = 0; c < rest.length; c++) {
            int a = Math.min(p[2 * c], p[2 * c + 1]);
            int d = Math.abs(p[2 * c] - p[2 * c + 1]);
            assertThat(d == 1 && a % 100 != 99 || d == 100).as("constraint %d joins %d-%d", c, p[2 * c], p[2 * c + 1])
                    .isTrue();
            assertThat(rest[c]).isCloseTo(1f / 99f, within(1e-6f));
        }
        // equal masses: 0.2 kg/m^2 over 1 m^2 shared by 10,000 particles
        float[] w = m.invMass();
        for (float wi : w) {
            assertThat(1f / wi).isCloseTo(0.2f / 10_000f, within(1e-9f));
        }
    }

    @Test
    void latticeIsRedBlackColoredLikeSeedAlgorithmSeven() {
        ModelBuilder b = new ModelBuilder();
        ModelObject cloth = b.addQuadLattice(QuadLatticeSpec.of("cloth", 7, 5, 1f));
        Model m = b.build();
        Coloring colors = m.particleColoring();
        assertThat(colors.colorCount()).isEqualTo(2);
        assertThat(ParticleColoring.isValid(colors, m.distances().particles())).isTrue();
        for (int r = 0; r < 5; r++) {
            for (int c = 0; c < 7; c++) {
                assertThat(colors.colorOf(cloth.gridParticle(r, c))).isEqualTo((r + c) & 1);
            }
        }
        // 35 particles: 18 red, 17 black
        assertThat(colors.colorSize(0)).isEqualTo(18);
        assertThat(colors.colorSize(1)).isEqualTo(17);
    }

    @Test
    void otherBodiesGetAValidGreedyParticleColoring() {
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("sheared", 12, 9, 1f, 1f)); // 8 neighbours: not bipartite
        b.addRope(new RopeSpec("rope", new float[] {0, 2, 0, 1, 2, 0}, 20, 0.1f));
        b.addQuadLattice(QuadLatticeSpec.of("lattice", 10, 10, 1f).withOrigin(3f, 0f, 0f));
        Model m = b.build();
        Coloring colors = m.particleColoring();
        assertThat(ParticleColoring.isValid(colors, m.distances().particles())).isTrue();
        // a sheared grid contains triangles, so it needs at least 3 colors; its max degree 8 bounds greedy by 9
        assertThat(colors.colorCount()).isBetween(3, 9);
    }
}
