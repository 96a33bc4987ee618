package dev.weft.core.mesh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MeshTopologyTest {
    /** A quad 0-1-2-3 split along the diagonal 0-2. */
    @Test
    void quadHasFiveEdgesAndOneStencil() {
        MeshTopology topology = MeshTopology.of(4, new int[] {0, 1, 2, 0, 2, 3});
        assertThat(topology.edges()).containsExactly(0, 1, 0, 2, 0, 3, 1, 2, 2, 3);
        assertThat(topology.edgeCount()).isEqualTo(5);
        // Triangle 0 runs 2 -> 0; its opposite vertex is 1, the other triangle's is 3.
        assertThat(topology.bendingStencils()).containsExactly(2, 0, 1, 3);
        assertThat(topology.bendingStencilCount()).isEqualTo(1);
    }

    @Test
    void inconsistentOrientationStillGivesOppositeVertices() {
        // Both triangles run 0 -> 1.
        MeshTopology topology = MeshTopology.of(4, new int[] {0, 1, 2, 3, 0, 1});
        assertThat(topology.bendingStencils()).containsExactly(0, 1, 2, 3);
    }

    @Test
    void edgeOfThreeTrianglesIsNonManifold() {
        assertThatThrownBy(() -> MeshTopology.of(5, new int[] {0, 1, 2, 1, 0, 3, 4, 1, 0}))
                .isInstanceOfSatisfying(NonManifoldEdgeException.class, e -> {
                    assertThat(e.edgeA()).isEqualTo(0);
                    assertThat(e.edgeB()).isEqualTo(1);
                    assertThat(e.triangleIndex()).isEqualTo(2);
                })
                .isNotInstanceOf(dev.weft.core.InvalidInputException.class);
    }

    @Test
    void reportsTheNonManifoldEdgeWhoseThirdTriangleComesFirst() {
        // Edge (0, 1) sorts first but becomes non-manifold only at triangle 5, edge (3, 4) at triangle 4.
        int[] triangles = {
            0, 1, 2, 3, 4, 5, 4, 3, 6, 1, 0, 7, 3, 4, 8, 0, 1, 9,
        };
        assertThatThrownBy(() -> MeshTopology.of(10, triangles))
                .isInstanceOfSatisfying(NonManifoldEdgeException.class, e -> {
                    assertThat(e.edgeA()).isEqualTo(3);
                    assertThat(e.edgeB()).isEqualTo(4);
                    assertThat(e.triangleIndex()).isEqualTo(4);
                });
    }

    @Test
    void rejectsBadTriangles() {
        assertThatThrownBy(() -> MeshTopology.of(3, new int[] {0, 1, 3}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MeshTopology.of(3, new int[] {0, 1, 1}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("repeats a vertex");
    }

    @Test
    void emptyMeshHasNothing() {
        MeshTopology topology = MeshTopology.of(0, new int[0]);
        assertThat(topology.edges()).isEmpty();
        assertThat(topology.bendingStencils()).isEmpty();
    }

    @Test
    void gridHasExpectedEdgesAndStencils() {
        int n = 100;
        int[] triangles = grid(n);
        MeshTopology topology = MeshTopology.of(n * n, triangles);

        assertThat(topology.edgeCount()).isEqualTo(2 * 99 * 100 + 99 * 99);
        // Every edge but the 4 × 99 on the border is shared by two triangles.
        assertThat(topology.bendingStencilCount()).isEqualTo(2 * 99 * 100 + 99 * 99 - 4 * 99);

        int[] edges = topology.edges();
        for (int i = 0; i < edges.length; i += 2) {
            assertThat(edges[i]).isLessThan(edges[i + 1]);
            if (i > 0) {
                long previous = (long) edges[i - 2] << 32 | edges[i - 1];
                long current = (long) edges[i] << 32 | edges[i + 1];
                assertThat(current).isGreaterThan(previous);
            }
        }

        // Each stencil must be two real triangles: (e0, e1, o0) and, the grid being consistently
        // oriented, (e1, e0, o1), both in their CCW winding.
        Set<List<Integer>> windings = new HashSet<>();
        for (int t = 0; t < triangles.length; t += 3) {
            for (int k = 0; k < 3; k++) {
                windings.add(List.of(triangles[t + k], triangles[t + (k + 1) % 3], triangles[t + (k + 2) % 3]));
            }
        }
        int[] s = topology.bendingStencils();
        for (int i = 0; i < s.length; i += 4) {
            // HashSet lookups: AssertJ's contains() scans the whole set, quadratic over 30k stencils.
            List<Integer> first = List.of(s[i], s[i + 1], s[i + 2]);
            List<Integer> second = List.of(s[i + 1], s[i], s[i + 3]);
            assertThat(windings.contains(first)).as("stencil %d triangle %s", i / 4, first).isTrue();
            assertThat(windings.contains(second)).as("stencil %d triangle %s", i / 4, second).isTrue();
            assertThat(s[i + 2]).isNotEqualTo(s[i + 3]);
        }
    }

    @Test
    void isDeterministic() {
        int[] triangles = grid(30);
        MeshTopology a = MeshTopology.of(900, triangles);
        MeshTopology b = MeshTopology.of(900, triangles.clone());
        assertThat(a.edges()).isEqualTo(b.edges());
        assertThat(a.bendingStencils()).isEqualTo(b.bendingStencils());
    }

    /** n × n vertices, two CCW triangles per quad split along the (i, j)-(i+1, j+1) diagonal. */
    static int[] grid(int n) {
        int[] triangles = new int[6 * (n - 1) * (n - 1)];
        int t = 0;
        for (int j = 0; j + 1 < n; j++) {
            for (int i = 0; i + 1 < n; i++) {
                int v00 = j * n + i;
                int v10 = v00 + 1;
                int v01 = v00 + n;
                int v11 = v01 + 1;
                triangles[t++] = v00;
                triangles[t++] = v10;
                triangles[t++] = v11;
                triangles[t++] = v00;
                triangles[t++] = v11;
                triangles[t++] = v01;
            }
        }
        return triangles;
    }
}
