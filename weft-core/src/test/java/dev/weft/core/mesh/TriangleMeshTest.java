package dev.weft.core.mesh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TriangleMeshTest {
    @Test
    void exposesArraysAndCounts() {
        float[] positions = {0, 0, 0, 1, 0, 0, 0, 1, 0};
        float[] uvs = {0, 0, 1, 0, 0, 1};
        int[] triangles = {0, 1, 2};
        TriangleMesh mesh = new TriangleMesh(positions, uvs, triangles);
        assertThat(mesh.vertexCount()).isEqualTo(3);
        assertThat(mesh.triangleCount()).isEqualTo(1);
        assertThat(mesh.positions()).isSameAs(positions);
        assertThat(mesh.uvs()).isSameAs(uvs);
        assertThat(mesh.triangles()).isSameAs(triangles);
        assertThat(new TriangleMesh(positions, null, triangles).uvs()).isNull();
    }

    @Test
    void rejectsInconsistentArrays() {
        float[] positions = {0, 0, 0, 1, 0, 0, 0, 1, 0};
        assertThatThrownBy(() -> new TriangleMesh(new float[] {0, 0}, null, new int[0]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("multiple of 3");
        assertThatThrownBy(() -> new TriangleMesh(positions, new float[4], new int[] {0, 1, 2}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("uvs length");
        assertThatThrownBy(() -> new TriangleMesh(positions, null, new int[] {0, 1}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("multiple of 3");
        assertThatThrownBy(() -> new TriangleMesh(positions, null, new int[] {0, 1, 3}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("vertex 3");
        assertThatThrownBy(() -> new TriangleMesh(positions, null, new int[] {0, -1, 2}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("vertex -1");
    }
}
