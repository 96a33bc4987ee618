package dev.weft.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.InvalidInputException;
import dev.weft.core.mesh.ObjReader;
import dev.weft.core.mesh.TriangleMesh;
import java.io.BufferedReader;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

class ModelBuilderTest {
    @Test
    void gridClothHasTheExpectedParticlesConstraintsAndMass() {
        ModelBuilder b = new ModelBuilder().material(Material.cloth().withDensity(0.3f));
        b.addGridCloth(GridClothSpec.of("c", 10, 8, 2f, 1f));
        Model m = b.build();
        assertThat(m.particleCount()).isEqualTo(80);
        assertThat(m.triangleCount()).isEqualTo(2 * 9 * 7);
        assertThat(m.distances().countOf(DistanceKind.STRETCH)).isEqualTo(9 * 8 + 10 * 7);
        assertThat(m.distances().countOf(DistanceKind.SHEAR)).isEqualTo(2 * 9 * 7);
        // interior edges of the triangulation: 3 per cell minus boundary
        assertThat(m.bending().count()).isEqualTo(3 * 9 * 7 - 9 - 7);
        // total mass = density x area, lumped by triangle area
        assertThat(m.totalFreeMass()).isCloseTo(0.3 * 2 * 1, within(1e-5));
        // rest lengths follow the spacing
        float[] rest = m.distances().restLength();
        byte[] kind = m.distances().kind();
        for (int c = 0; c < rest.length; c++) {
            if (kind[c] == DistanceKind.SHEAR.code()) {
                assertThat(rest[c]).isCloseTo((float) Math.hypot(2.0 / 9, 1.0 / 7), within(1e-6f));
            }
        }
        assertThat(m.tethers().count()).isZero(); // nothing pinned
    }

    @Test
    void distanceBendingGivesAGridSkipSpringsInsteadOfDihedralStencils() {
        ModelBuilder b = new ModelBuilder().bendingModel(BendingModel.DISTANCE);
        b.addGridCloth(GridClothSpec.of("c", 10, 8, 2f, 1f).withOrigin(0.3f, 1.7f, -0.9f));
        Model m = b.build();
        assertThat(m.bending().count()).isZero();
        assertThat(m.distances().countOf(DistanceKind.STRETCH)).isEqualTo(9 * 8 + 10 * 7);
        assertThat(m.distances().countOf(DistanceKind.SHEAR)).isEqualTo(2 * 9 * 7);
        // (r, c)-(r, c+2) along the rows and (r, c)-(r+2, c) along the columns
        assertThat(m.distances().countOf(DistanceKind.BEND)).isEqualTo(8 * 8 + 10 * 6);
        int[] p = m.distances().particles();
        float[] rest = m.distances().restLength();
        byte[] kind = m.distances().kind();
        float[] x = m.restPositions();
        for (int c = 0; c < rest.length; c++) {
            int a = p[2 * c];
            int d = p[2 * c + 1];
            if (kind[c] == DistanceKind.BEND.code()) {
                assertThat(d - a == 2 && a / 10 == d / 10 || d - a == 20).as("skip spring %d-%d", a, d).isTrue();
            }
            // every rest length is the float distance of the stored rest positions, as the solver measures it
            float dx = x[3 * d] - x[3 * a];
            float dy = x[3 * d + 1] - x[3 * a + 1];
            float dz = x[3 * d + 2] - x[3 * a + 2];
            assertThat(rest[c]).isEqualTo((float) Math.sqrt(dx * dx + dy * dy + dz * dz));
        }
        // bending(false) still means no bending at all
        ModelBuilder off = new ModelBuilder().bending(false).bendingModel(BendingModel.DISTANCE);
        off.addGridCloth(GridClothSpec.of("c", 10, 8, 2f, 1f));
        assertThat(off.build().distances().countOf(DistanceKind.BEND)).isZero();
        assertThatThrownBy(() -> new ModelBuilder().bendingModel(null)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("dihedral, distance");
    }

    @Test
    void pinsByCornerEdgeAndIndex() {
        ModelBuilder b = new ModelBuilder();
        ModelObject c = b.addGridCloth(GridClothSpec.of("c", 5, 4, 1f, 1f));
        b.pinCorners(c, "top-left", "bottom-right").pinEdge(c, "left").pinIndices(c, 2);
        Model m = b.build();
        assertThat(m.isPinned(c.gridParticle(0, 0))).isTrue();
        assertThat(m.isPinned(c.gridParticle(3, 4))).isTrue();
        for (int r = 0; r < 4; r++) {
            assertThat(m.isPinned(c.gridParticle(r, 0))).isTrue();
        }
        assertThat(m.isPinned(2)).isTrue();
        assertThat(m.pinnedCount()).isEqualTo(4 + 1 + 1);
        // with few pins, every free particle gets one tether per pin
        assertThat(m.tethers().count()).isEqualTo((20 - 6) * 6);
    }

    @Test
    void unknownPinNamesAreClearErrors() {
        ModelBuilder b = new ModelBuilder();
        ModelObject c = b.addGridCloth(GridClothSpec.of("flag", 5, 4, 1f, 1f));
        assertThatThrownBy(() -> b.pinCorners(c, "top-middle")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("flag.pins").hasMessageContaining("top-middle")
                .hasMessageContaining("allowed: top-left, top-right, bottom-left, bottom-right");
        assertThatThrownBy(() -> b.pinEdge(c, "up")).hasMessageContaining("allowed: top, bottom, left, right");
        assertThatThrownBy(() -> b.pinIndices(c, 20)).hasMessageContaining("outside 0..19");
        assertThatThrownBy(() -> GridClothSpec.of("g", 1, 4, 1f, 1f)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("g.cols").hasMessageContaining(">= 2");
        assertThatThrownBy(() -> GridClothSpec.of("g", 3, 4, Float.NaN, 1f)).hasMessageContaining("g.width");
    }

    @Test
    void ropeResamplesThePolylineEvenly() {
        ModelBuilder b = new ModelBuilder();
        b.addRope(new RopeSpec("rope", new float[] {0, 0, 0, 1, 0, 0, 1, 1, 0}, 21, 0.1f));
        Model m = b.build();
        assertThat(m.particleCount()).isEqualTo(21);
        assertThat(m.distances().countOf(DistanceKind.STRETCH)).isEqualTo(20);
        assertThat(m.distances().countOf(DistanceKind.BEND)).isEqualTo(19);
        float[] rest = m.distances().restLength();
        byte[] kind = m.distances().kind();
        for (int c = 0; c < rest.length; c++) {
            if (kind[c] == DistanceKind.STRETCH.code()) {
                assertThat(rest[c]).isCloseTo(0.1f, within(1e-5f));
            }
        }
        assertThat(m.totalFreeMass()).isCloseTo(0.2, within(1e-5));
    }

    @Test
    void meshClothTakesEdgesAndBendingFromTheMesh() {
        String obj = "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nv 2 0 0\nvt 0 0\nf 1 2 3\nf 1 3 4\nf 2 5 3\n";
        TriangleMesh mesh = ObjReader.read(new BufferedReader(new StringReader(obj)), "quad.obj");
        ModelBuilder b = new ModelBuilder().material(Material.cloth().withDensity(1f));
        ModelObject o = b.addMeshCloth("sheet", mesh);
        b.pinIndices(o, 0);
        Model m = b.build();
        assertThat(m.particleCount()).isEqualTo(5);
        assertThat(m.distances().count()).isEqualTo(7);
        assertThat(m.bending().count()).isEqualTo(2);
        assertThat(m.bending().restAngle()).containsOnly(0f);
        // a mesh cloth is tethered by geodesic (edge-path) distance, never shorter than the straight line
        assertThat(m.tethers().count()).isEqualTo(4);
        // 1.5 m² at 1 kg/m²; the pinned vertex is in two triangles of area 0.5, a third of each
        assertThat(m.totalFreeMass()).isCloseTo(1.5 - 2 * 0.5 / 3, within(1e-5));

        // distance bending: a spring between the opposite vertices of each of the two stencils
        ModelBuilder d = new ModelBuilder().bendingModel(BendingModel.DISTANCE);
        d.addMeshCloth("sheet", mesh);
        Model dm = d.build();
        assertThat(dm.bending().count()).isZero();
        assertThat(dm.distances().countOf(DistanceKind.STRETCH)).isEqualTo(7);
        assertThat(dm.distances().countOf(DistanceKind.BEND)).isEqualTo(2);
        int[] p = dm.distances().particles();
        byte[] kind = dm.distances().kind();
        java.util.Set<String> springs = new java.util.TreeSet<>();
        for (int c = 0; c < dm.distances().count(); c++) {
            if (kind[c] == DistanceKind.BEND.code()) {
                springs.add(Math.min(p[2 * c], p[2 * c + 1]) + "-" + Math.max(p[2 * c], p[2 * c + 1]));
                float len = dm.distances().restLength()[c];
                float expected = Math.min(p[2 * c], p[2 * c + 1]) == 1 ? (float) Math.sqrt(2) : 2f;
                assertThat(len).isCloseTo(expected, within(1e-6f));
            }
        }
        // across edge 0-2 (0-based): vertices 1 and 3, √2 apart; across edge 1-2: vertices 0 and 4, 2 m apart
        assertThat(springs).containsExactly("0-4", "1-3");
    }

    /**
     * Dihedral bending on a grid without shear constraints is refused, naming the grid and the ways out.
     * It used to build, and XPBD then pumped energy into it without bound: each stencil spans a quad's
     * diagonal, which nothing held, so the quads sheared into slivers that inverted (a free undamped
     * 3 × 5 cloth: 15,000 times its internal kinetic energy in 5 s; the dihedral gradient itself agrees
     * with finite differences, and resting the stencils of sliver triangles did not help).
     */
    @Test
    void dihedralBendingOnAGridWithoutShearIsRefused() {
        assertThatThrownBy(() -> new ModelBuilder().addGridCloth(GridClothSpec.of("sheet", 3, 5, 0.3f, 0.3f).withShear(false)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("sheet.shear")
                .hasMessageContaining("withShear(true)").hasMessageContaining("bending(false)");
        // the three ways out build
        new ModelBuilder().addGridCloth(GridClothSpec.of("sheet", 3, 5, 0.3f, 0.3f));
        new ModelBuilder().bending(false).addGridCloth(GridClothSpec.of("sheet", 3, 5, 0.3f, 0.3f).withShear(false));
        new ModelBuilder().bendingModel(BendingModel.DISTANCE)
                .addGridCloth(GridClothSpec.of("sheet", 3, 5, 0.3f, 0.3f).withShear(false));
    }
}
