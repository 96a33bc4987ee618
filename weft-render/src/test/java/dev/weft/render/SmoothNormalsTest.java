package dev.weft.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.geom.SmoothNormals;
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

    @Test
    void colliderMeshesKeepSharpEdgesAndSmoothCurves() {
        // a unit cube: each corner's smooth normal is 54.7° from every face, so every corner is flat-shaded
        float[] p = new float[24];
        for (int i = 0; i < 8; i++) {
            p[3 * i] = (i & 1) == 0 ? -1 : 1;
            p[3 * i + 1] = (i & 2) == 0 ? -1 : 1;
            p[3 * i + 2] = (i & 4) == 0 ? -1 : 1;
        }
        int[] t = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5,
            3, 7, 5};
        Tessellation cube = SceneRenderer.tessellate(new dev.weft.core.mesh.TriangleMesh(p, null, t));
        float[] n = cube.normals();
        for (int f = 0; f < t.length; f += 3) {
            for (int k = 0; k < 3; k++) {
                int o = 3 * (f + k);
                // a face normal of a cube is one axis: exactly one component is ±1
                double sum = Math.abs(n[o]) + Math.abs(n[o + 1]) + Math.abs(n[o + 2]);
                assertThat(sum).as("corner %d of face %d", k, f / 3).isCloseTo(1.0, within(EPS));
            }
        }
        // a finely tessellated sphere stays smooth: all corners on one vertex share its normal
        Tessellation s = ColliderShapes.capsule(1f, 0f);
        int[] st = s.triangles();
        Tessellation drawn = SceneRenderer.tessellate(new dev.weft.core.mesh.TriangleMesh(s.positions(), null, st));
        float[] shared = new SmoothNormals(s.positions().length / 3).compute(s.positions(), st);
        float[] m = drawn.normals();
        float[] q = s.positions();
        for (int c = 0; c < st.length; c++) {
            int f = c - c % 3;
            if (area(q, st[f], st[f + 1], st[f + 2]) < 1e-6) {
                continue; // the poles' collapsed triangles cover no pixel; their normal does not matter
            }
            int v = 3 * st[c];
            for (int d = 0; d < 3; d++) {
                assertThat(m[3 * c + d]).as("normal of corner %d, vertex %d", c, st[c]).isEqualTo(shared[v + d]);
            }
        }
    }

    private static double area(float[] x, int a, int b, int c) {
        double e1x = x[3 * b] - x[3 * a];
        double e1y = x[3 * b + 1] - x[3 * a + 1];
        double e1z = x[3 * b + 2] - x[3 * a + 2];
        double e2x = x[3 * c] - x[3 * a];
        double e2y = x[3 * c + 1] - x[3 * a + 1];
        double e2z = x[3 * c + 2] - x[3 * a + 2];
        double nx = e1y * e2z - e1z * e2y;
        double ny = e1z * e2x - e1x * e2z;
        double nz = e1x * e2y - e1y * e2x;
        return 0.5 * Math.sqrt(nx * nx + ny * ny + nz * nz);
    }
}
