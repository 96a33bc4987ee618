package dev.weft.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import org.junit.jupiter.api.Test;

class SmoothNormalsTest {
    /** float rounding of a few additions and one normalisation of unit vectors */
    private static final double EPS = 1e-6;

    @Test
    void aFlatClothHasTheSameNormalEverywhere() {
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("cloth", 5, 4, 1f, 1f));
        Model model = b.build();
        float[] n = new SmoothNormals(model.particleCount()).compute(model.restPositions(), model.triangles());
        for (int i = 0; i < n.length; i += 3) {
            assertThat(n[i]).isCloseTo(0f, within((float) EPS));
            assertThat(Math.abs(n[i + 1])).isCloseTo(1f, within((float) EPS));
            assertThat(n[i + 1]).isEqualTo(n[1]); // one side throughout: the windings agree
            assertThat(n[i + 2]).isCloseTo(0f, within((float) EPS));
        }
    }

    @Test
    void anOctahedronsVertexNormalsPointAlongItsAxes() {
        // vertex normal = mean of the 4 face normals (±1, ±1, ±1)/√3 around the vertex = the axis itself
        float[] x = {1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1};
        int[] t = {0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5};
        SmoothNormals normals = new SmoothNormals(6);
        float[] n = normals.compute(x, t);
        for (int i = 0; i < 18; i++) {
            assertThat((double) n[i]).as("component %d", i).isCloseTo(x[i], within(EPS));
        }
        // computed into the same array every time: nothing allocated per frame
        assertThat(normals.compute(x, t)).isSameAs(n);
    }

    @Test
    void collapsedTrianglesAndUnusedVerticesContributeNothing() {
        float[] x = {0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 2, 2, 5, 5, 5};
        // triangle 1 collapses (all three corners on vertex 3); vertex 4 is on no triangle
        int[] t = {0, 1, 2, 3, 3, 3};
        float[] n = new SmoothNormals(5).compute(x, t);
        assertThat(new float[] {n[0], n[1], n[2]}).containsExactly(0f, 0f, 1f);
        assertThat(new float[] {n[9], n[10], n[11], n[12], n[13], n[14]}).containsOnly(0f);
    }
}
