package dev.weft.core.solver.xpbd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.collide.Icosphere;
import dev.weft.core.model.Elasticity;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.TetBodySpec;
import dev.weft.core.model.TetConstraints;
import dev.weft.core.model.VoxelBodySpec;
import org.junit.jupiter.api.Test;

/**
 * What a device backend uploads for the soft bodies' tetrahedra ({@link XpbdDeviceLayout#tetPacked()}): per
 * tetrahedron TetProjection's 18 floats, whose values are the physics' (D_m⁻¹ of the rest shape, 6 V₀, a rest
 * shape's Green strain of float rounding only, the compliances 36 V₀/λ and 1/(2 μ V₀) over h²), recomputed when
 * h changes and only then.
 */
class XpbdDeviceLayoutTetTest {
    @Test
    void anElasticBlocksPackedRestValuesAndCompliancesAreThePhysics() {
        Elasticity e = new Elasticity(1e5f, 0.3f);
        ModelBuilder b = new ModelBuilder();
        b.addTetBody(TetBodySpec.box("block", new float[] {0f, 0f, 0f}, new float[] {0.09f, 0.09f, 0.09f}, 3, 3, 3,
                1000f, e));
        Model m = b.build();
        TetConstraints t = m.tets();
        XpbdDeviceLayout layout = new XpbdDeviceLayout(m, XpbdSettings.defaults());
        assertThat(layout.tetCount()).isEqualTo(t.count()).isPositive();
        assertThat(layout.tetColorStart()).isEqualTo(t.colorStart());
        float h = 1f / 600f;
        assertThat(layout.prepare(h)).isTrue();
        float[] q = layout.tetPacked();
        int n = XpbdDeviceLayout.TET_PACKED;
        assertThat(q).hasSize(n * t.count());
        double mu = e.shearModulus();
        double lambda = e.lameLambda();
        for (int c = 0; c < t.count(); c++) {
            double v0 = t.restVolume()[c];
            assertThat(q[n * c + 15]).as("6 V0").isCloseTo((float) (6 * v0), within((float) (6e-6 * v0)));
            for (int k = 0; k < 9; k++) {
                assertThat(q[n * c + k]).as("D_m^-1").isEqualTo(t.restInverse()[9 * c + k]);
            }
            for (int k = 9; k < 15; k++) {
                assertThat(Math.abs(q[n * c + k])).as("the rest shape's strain: rounding only").isLessThan(1e-6f);
            }
            double hh = (double) h * h;
            assertThat((double) q[n * c + 16]).as("volume α̃").isCloseTo(36 * v0 / lambda / hh,
                    within(1e-5 * 36 * v0 / lambda / hh));
            assertThat((double) q[n * c + 17]).as("shape α̃").isCloseTo(1 / (2 * mu * v0) / hh,
                    within(1e-5 / (2 * mu * v0) / hh));
        }
        assertThat(layout.tetIncidence()).as("colored: no slots to gather").isNull();
        XpbdDeviceLayout jacobi = new XpbdDeviceLayout(m, XpbdSettings.defaults().withMode(IterationMode.JACOBI));
        int[] start = jacobi.tetIncidence().start();
        for (int c = 0; c < t.count(); c++) {
            int most = 1;
            for (int k = 0; k < 4; k++) {
                int p = t.particles()[4 * c + k];
                most = Math.max(most, start[p + 1] - start[p]);
            }
            assertThat(jacobi.tetJacobiWeights()[c]).as("Jacobi: 1 / its busiest corner's tetrahedra")
                    .isEqualTo(1f / most);
        }
        float volumeAlpha = q[16];
        assertThat(layout.prepare(h)).as("the same h: nothing to upload").isFalse();
        assertThat(layout.prepare(2 * h)).isTrue();
        assertThat(layout.tetPacked()[16]).as("α/h², h doubled").isCloseTo(volumeAlpha / 4,
                within(volumeAlpha * 1e-6f));
    }

    @Test
    void aVoxelBodysVolumeTetrahedraAreIncompressibleWithoutShape() {
        ModelBuilder b = new ModelBuilder();
        b.addVoxelBody(new VoxelBodySpec("jelly", Icosphere.of(0.1f, 2), 0.04f, 1000f, true, true));
        Model m = b.build();
        XpbdDeviceLayout layout = new XpbdDeviceLayout(m, XpbdSettings.defaults());
        layout.prepare(1f / 600f);
        float[] q = layout.tetPacked();
        int n = XpbdDeviceLayout.TET_PACKED;
        assertThat(layout.tetCount()).isPositive();
        for (int c = 0; c < layout.tetCount(); c++) {
            assertThat(q[n * c + 16]).as("incompressible: α̃ 0").isZero();
            assertThat(q[n * c + 17]).as("no shape term: the kernel's 'absent'").isEqualTo(Float.MAX_VALUE);
        }
    }

    @Test
    void aModelWithoutTetrahedraHasAnEmptyLayout() {
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(dev.weft.core.model.GridClothSpec.of("cloth", 4, 4, 1f, 1f));
        XpbdDeviceLayout layout = new XpbdDeviceLayout(b.build(), XpbdSettings.defaults());
        layout.prepare(1f / 600f);
        assertThat(layout.tetCount()).isZero();
        assertThat(layout.tetPacked()).isEmpty();
    }
}
