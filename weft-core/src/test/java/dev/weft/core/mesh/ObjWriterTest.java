package dev.weft.core.mesh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObjWriterTest {
    @TempDir
    Path dir;

    /** A 20 × 20 grid with awkward float values (random jitter) and uvs. */
    private static TriangleMesh jitteredGrid(boolean withUvs) {
        int n = 20;
        Random random = new Random(42);
        float[] positions = new float[3 * n * n];
        float[] uvs = withUvs ? new float[2 * n * n] : null;
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                int v = j * n + i;
                positions[3 * v] = i * 0.1f + random.nextFloat() * 1e-3f;
                positions[3 * v + 1] = -j * 0.1f + random.nextFloat() * 1e-3f;
                positions[3 * v + 2] = (float) (random.nextGaussian() * 1e-7);
                if (withUvs) {
                    uvs[2 * v] = i / (n - 1f);
                    uvs[2 * v + 1] = j / (n - 1f);
                }
            }
        }
        return new TriangleMesh(positions, uvs, MeshTopologyTest.grid(n));
    }

    @Test
    void roundTripReproducesTheMeshExactly() throws IOException {
        for (boolean withUvs : new boolean[] {true, false}) {
            TriangleMesh mesh = jitteredGrid(withUvs);
            Path file = dir.resolve("grid.obj");
            ObjWriter.write(file, mesh, "a jittered grid\nsecond line");
            TriangleMesh back = ObjReader.read(file);
            assertThat(back.positions()).isEqualTo(mesh.positions());
            assertThat(back.uvs()).isEqualTo(mesh.uvs());
            assertThat(back.triangles()).isEqualTo(mesh.triangles());
        }
    }

    @Test
    void writesPlainObjText() throws IOException {
        StringWriter out = new StringWriter();
        ObjWriter.write(out, new float[] {0, 0, 0, 1, 0, 0, 0, 1.5f, 0}, new float[] {0, 0, 1, 0, 0, 1},
                new int[] {0, 1, 2}, "made by\n\ntest");
        assertThat(out.toString()).isEqualTo("""
                # made by
                #
                # test
                v 0.0 0.0 0.0
                v 1.0 0.0 0.0
                v 0.0 1.5 0.0
                vt 0.0 0.0
                vt 1.0 0.0
                vt 0.0 1.0
                f 1/1 2/2 3/3
                """);

        StringWriter plain = new StringWriter();
        ObjWriter.write(plain, new float[] {0, 0, 0, 1, 0, 0, 0, 1, 0}, null, new int[] {2, 0, 1}, null);
        assertThat(plain.toString()).isEqualTo("v 0.0 0.0 0.0\nv 1.0 0.0 0.0\nv 0.0 1.0 0.0\nf 3 1 2\n");
        TriangleMesh back = ObjReader.read(new BufferedReader(new StringReader(plain.toString())), "plain.obj");
        assertThat(back.triangles()).containsExactly(2, 0, 1);
    }

    @Test
    void replacesExistingFileAndLeavesNoTemporaryFile() throws IOException {
        Path file = dir.resolve("mesh.obj");
        Files.writeString(file, "old content that is longer than the new one, to catch a missing truncate ".repeat(10));
        ObjWriter.write(file, new float[] {0, 0, 0, 1, 0, 0, 0, 1, 0}, null, new int[] {0, 1, 2}, "new");
        assertThat(Files.readString(file)).startsWith("# new\nv 0.0").endsWith("f 1 2 3\n");
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).containsExactly(file);
        }
    }

    @Test
    void rejectsBadArraysWithoutTouchingTheFile() throws IOException {
        Path file = dir.resolve("mesh.obj");
        Files.writeString(file, "keep");
        assertThatThrownBy(() -> ObjWriter.write(file, new float[] {0, 0, 0, 1, 0, 0, 0, Float.NaN, 0}, null,
                new int[] {0, 1, 2}, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("vertex 2 is NaN");
        assertThatThrownBy(() -> ObjWriter.write(file, new float[] {0, 0, 0, 1, 0, 0, 0, 1, 0}, null,
                new int[] {0, 1, 5}, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Files.readString(file)).isEqualTo("keep");
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).containsExactly(file);
        }
    }
}
