package dev.weft.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class IncidenceTest {
    @Test
    void everySlotIsListedOnceUnderItsParticleInAscendingOrder() {
        // two triangles sharing the edge 1–2, over 5 particles (4 touches none)
        int[] tris = {0, 1, 2, 2, 1, 3};
        Incidence inc = Incidence.of(tris, 3, 5);
        assertThat(inc.start()).containsExactly(0, 1, 3, 5, 6, 6);
        assertThat(inc.slots()).containsExactly(0, 1, 4, 2, 3, 5);
        assertThat(inc.items()).containsExactly(0, 0, 1, 0, 1, 1);
        assertThat(inc.count(1)).isEqualTo(2);
        assertThat(inc.count(4)).isZero();
        for (int p = 0; p < 5; p++) {
            for (int k = inc.start()[p]; k < inc.start()[p + 1]; k++) {
                assertThat(tris[inc.slots()[k]]).isEqualTo(p);
            }
        }
        assertThatThrownBy(() -> Incidence.of(new int[] {0, 1, 2, 3}, 3, 4)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theModelBuildsItsTriangleIncidenceOnce() {
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("c", 4, 3, 1f, 1f));
        Model m = b.build();
        Incidence inc = m.triangleIncidence();
        assertThat(m.triangleIncidence()).isSameAs(inc);
        assertThat(inc.slots()).hasSize(m.triangles().length);
        // a grid's corner touches one or two triangles, an interior particle six
        assertThat(inc.count(5)).isEqualTo(6);
    }

    @Test
    void aTearableModelIsBuiltWithWhatATearReadsAndACutCarriesItsTearLengths() {
        ModelBuilder b = new ModelBuilder();
        ModelObject c = b.addGridCloth(GridClothSpec.of("grid", 12, 9, 0.8f, 0.6f));
        b.pinCorners(c, "top-left", "top-right");
        b.tearStrain(c, 0.5f);
        Model m = b.build();
        assertThat(m.incidencesBuilt()).as("built with the model: a tear reads them").isTrue();
        // a cut across the whole grid at x = 0.31 (detaches: a particle's triangles on one side move to its copy),
        // then a second cut of the cut model
        Model cut = m.edit(dev.weft.core.interact.Cutting.across(m, m.restPositions(), new float[] {0.31f, -1f, -1f},
                new float[] {0f, 2f, 0f}, new float[] {0f, 0f, 3f}));
        assertThat(cut.particleCount()).isGreaterThan(m.particleCount());
        ModelEditProperties.assertTearLengths(cut);
        Model twice = cut.edit(dev.weft.core.interact.Cutting.across(cut, cut.restPositions(),
                new float[] {0.55f, -1f, -1f}, new float[] {0f, 2f, 0f}, new float[] {0f, 0f, 3f}));
        assertThat(twice.particleCount()).isGreaterThan(cut.particleCount());
        ModelEditProperties.assertTearLengths(twice);
    }

    @Test
    void aModelThatCannotTearBuildsThemOnFirstUse() {
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("c", 4, 3, 1f, 1f));
        assertThat(b.build().incidencesBuilt()).isFalse();
    }
}
