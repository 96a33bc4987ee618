package dev.weft.core.mesh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.InvalidInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TetGenReaderTest {
    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void readsAOneBasedPairWithAttributesMarkersAndComments() throws IOException {
        // TetGen's own layout: header, one line per node with an attribute and a boundary marker
        write("cube.node", "# a unit tetrahedron and one more node\n5 3 1 1\n"
                + "1 0 0 0 7 1\n2 1 0 0 7 1\n3 0 1 0 7 1\n4 0 0 1 7 1\n5 1 1 1 7 0  # the apex\n");
        write("cube.ele", "2 4 1\n1 1 2 3 4 5\n2 2 3 4 5 5\n");
        TetMesh m = TetGenReader.read(dir.resolve("cube.ele"));
        assertThat(m.nodeCount()).isEqualTo(5);
        assertThat(m.nodes()).containsExactly(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1);
        assertThat(m.tets()).containsExactly(0, 1, 2, 3, 1, 2, 3, 4);
        // the base name or the .node file reads the same pair
        assertThat(TetGenReader.read(dir.resolve("cube")).tets()).containsExactly(m.tets());
        assertThat(TetGenReader.read(dir.resolve("cube.node")).nodes()).containsExactly(m.nodes());
    }

    @Test
    void quadraticTetrahedraKeepTheirCorners() throws IOException {
        write("q.node", "4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n");
        write("q.ele", "1 10 0\n0 0 1 2 3 0 1 2 3 0 1\n");
        assertThat(TetGenReader.read(dir.resolve("q.node")).tets()).containsExactly(0, 1, 2, 3);
    }

    @Test
    void badFilesNameTheFileAndLine() throws IOException {
        write("a.node", "4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n");
        write("a.ele", "1 4 0\n0 0 1 2 9\n");
        assertThatThrownBy(() -> TetGenReader.read(dir.resolve("a.ele"))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("a.ele:2").hasMessageContaining("node 9 is not in the .node file");
        write("b.node", "4 3 0 0\n0 0 0 0\n1 1 x 0\n");
        write("b.ele", "1 4 0\n0 0 1 2 3\n");
        assertThatThrownBy(() -> TetGenReader.read(dir.resolve("b.node"))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("b.node:3").hasMessageContaining("'x' is not a number");
        write("c.node", "4 3 0 0\n0 0 0 0\n1 1 0 0\n");
        assertThatThrownBy(() -> TetGenReader.read(dir.resolve("c.node"))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("c.node:3").hasMessageContaining("ends early");
        assertThatThrownBy(() -> TetGenReader.read(dir.resolve("missing.node")))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("missing.node")
                .hasMessageContaining("no such file");
        write("d.node", "4 2 0 0\n");
        assertThatThrownBy(() -> TetGenReader.read(dir.resolve("d.node"))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("d.node:1").hasMessageContaining("dimension 2");
    }
}
