package dev.weft.core.mesh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.InvalidInputException;
import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Path;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObjReaderTest {
    private static TriangleMesh read(String text) {
        return ObjReader.read(new BufferedReader(new StringReader(text)), "name.obj");
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> assertFails(String text, int line) {
        return assertThatThrownBy(() -> read(text))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("name.obj:" + line + ": ")
                .satisfies(e -> assertThat(((InvalidInputException) e).line()).isEqualTo(line));
    }

    @Test
    void weldsDuplicatedVerticesOfAQuad() {
        TriangleMesh mesh = read("""
                v 0 0 0
                v 1 0 0
                v 1 1 0
                v 0 0 0
                v 1 1 0
                v 0 1 0
                f 1 2 3
                f 4 5 6
                """);
        assertThat(mesh.vertexCount()).isEqualTo(4);
        assertThat(mesh.triangleCount()).isEqualTo(2);
        assertThat(mesh.positions()).containsExactly(0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0);
        assertThat(mesh.triangles()).containsExactly(0, 1, 2, 0, 2, 3);
        assertThat(mesh.uvs()).isNull();

        MeshTopology topology = MeshTopology.of(mesh.vertexCount(), mesh.triangles());
        assertThat(topology.edgeCount()).isEqualTo(5);
        // The shared diagonal runs 2 -> 0 in the first triangle; opposite vertices are 1 and 3.
        assertThat(topology.bendingStencils()).containsExactly(2, 0, 1, 3);
    }

    @Test
    void weldsNegativeZeroWithZeroAndKeepsTheFirstPosition() {
        TriangleMesh mesh = read("""
                v -0.0 0 0
                v 1 0 0
                v 0 1 0
                v 0.0 0 0
                v 0 -1 0
                f 1 2 3
                f 4 5 2
                """);
        assertThat(mesh.vertexCount()).isEqualTo(4);
        assertThat(Float.floatToRawIntBits(mesh.positions()[0])).isEqualTo(Float.floatToRawIntBits(-0.0f));
        assertThat(mesh.triangles()).containsExactly(0, 1, 2, 0, 3, 1);
    }

    @Test
    void triangulatesPolygonsAsFan() {
        TriangleMesh mesh = read("""
                v 0 0 0
                v 1 0 0
                v 2 1 0
                v 1 2 0
                v 0 1 0
                f 1 2 3 4 5
                """);
        assertThat(mesh.triangles()).containsExactly(0, 1, 2, 0, 2, 3, 0, 3, 4);
    }

    @Test
    void resolvesNegativeIndicesAgainstWhatIsDefinedSoFar() {
        TriangleMesh mesh = read("""
                v 0 0 0
                v 1 0 0
                v 0 1 0
                f -3 -2 -1
                v 1 1 0
                f -3 -1 -2
                v 0 -1 0
                vt 0.5 0.25
                f 1/-1 -1/1 2/-1
                """);
        assertThat(mesh.triangles()).containsExactly(0, 1, 2, 1, 3, 2, 0, 4, 1);
        // Only the third face gave uvs; vertices 2 and 3 have none and get (0, 0).
        assertThat(mesh.uvs()).containsExactly(0.5f, 0.25f, 0.5f, 0.25f, 0, 0, 0, 0, 0.5f, 0.25f);
    }

    @Test
    void acceptsAllCornerForms() {
        TriangleMesh mesh = read("""
                v 0 0 0
                v 1 0 0
                v 1 1 0
                v 0 1 0 1.0
                v 1 2 0
                vt 0 0
                vt 1 0
                vt 1 1 0
                vt 0 1
                vn 0 0 1
                f 1/1/1 2/2/1 3/3/1
                f 1//1 3//1 4//1
                f 4/4 3/3 5/2
                """);
        assertThat(mesh.triangles()).containsExactly(0, 1, 2, 0, 2, 3, 3, 2, 4);
        // Vertex 4 got no uv from the i//n face, then (0, 1) from the i/t face.
        assertThat(mesh.uvs()).containsExactly(0, 0, 1, 0, 1, 1, 0, 1, 1, 0);
    }

    @Test
    void weldedVertexTakesTheUvOfTheFirstCornerThatGaveOne() {
        TriangleMesh mesh = read("""
                v 0 0 0
                v 1 0 0
                v 0 1 0
                v 0 0 0
                v 0 -1 0
                v -1 0 0
                vt 0.1 0.1
                vt 0.2 0.2
                vt 0.3 0.3
                vt 0.9 0.9
                vt 0.5 0.5
                f 1 2 3
                f 4/4 5/5 2/2
                f 3/3 6/1 1/1
                """);
        // v 1 and v 4 weld into vertex 0: it keeps vt 4 from the first corner with a uv, not vt 1.
        assertThat(mesh.positions()).containsExactly(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, -1, 0, -1, 0, 0);
        assertThat(mesh.triangles()).containsExactly(0, 1, 2, 0, 3, 1, 2, 4, 0);
        assertThat(mesh.uvs()).containsExactly(0.9f, 0.9f, 0.2f, 0.2f, 0.3f, 0.3f, 0.5f, 0.5f, 0.1f, 0.1f);
    }

    @Test
    void skipsCommentsNamesGroupsAndMaterialsAndDropsUnusedVertices() {
        TriangleMesh mesh = read("""
                # a comment
                mtllib cloth.mtl

                o Cloth
                g front
                s off
                usemtl linen
                v 9 9 9
                v 0 0 0 # the origin
                v 1 0 0
                \tv  0   1\t0  \r
                l 1 2
                p 1
                f 2 3 4
                """);
        assertThat(mesh.positions()).containsExactly(0, 0, 0, 1, 0, 0, 0, 1, 0);
        assertThat(mesh.triangles()).containsExactly(0, 1, 2);
    }

    @Test
    void skipsByteOrderMark() {
        assertThat(read("\uFEFFv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").vertexCount()).isEqualTo(3);
    }

    @Test
    void acceptsThinButValidTriangles() {
        TriangleMesh mesh = read("v 0 0 0\nv 1 0 0\nv 0.5 1e-5 0\nf 1 2 3\n");
        assertThat(mesh.triangleCount()).isEqualTo(1);
    }

    @Test
    void rejectsNonNumericCoordinate() {
        assertFails("v 0 0 0\nv 1 abc 0\n", 2).hasMessageContaining("'abc' is not a number");
        assertFails("v 0 0 0x1p3\n", 1).hasMessageContaining("is not a number");
        assertFails("v 0 0 1f\n", 1).hasMessageContaining("is not a number");
    }

    @Test
    void rejectsNonFiniteCoordinate() {
        assertFails("v 0 NaN 0\n", 1).hasMessageContaining("not finite");
        assertFails("v 0 0 -Infinity\n", 1).hasMessageContaining("not finite");
        assertFails("v 0 0 1e39\n", 1).hasMessageContaining("not finite");
    }

    @Test
    void rejectsWrongNumberOfCoordinates() {
        assertFails("# vertices\nv 0 0\n", 2).hasMessageContaining("3 coordinates").hasMessageContaining("found 2");
        assertFails("v 0 0 0 1 2\n", 1).hasMessageContaining("found 5");
        assertFails("v 0 0 0\nvt 0\n", 2).hasMessageContaining("texture coordinate needs 2 values");
    }

    @Test
    void rejectsFaceIndexOutOfRange() {
        assertFails("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", 4)
                .hasMessageContaining("vertex index 4 is out of range")
                .hasMessageContaining("3 vertices are defined before this line");
        assertFails("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -4\n", 4).hasMessageContaining("vertex index -4 is out of range");
        assertFails("f 1 2 3\n", 1).hasMessageContaining("no vertices are defined");
    }

    @Test
    void rejectsIndexZero() {
        assertFails("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", 4).hasMessageContaining("index 0 is not allowed");
    }

    @Test
    void rejectsTextureAndNormalIndexOutOfRange() {
        assertFails("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/1 2/2 3/1\n", 5)
                .hasMessageContaining("texture coordinate index 2 is out of range");
        assertFails("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1//1 2//1 3//1\n", 4)
                .hasMessageContaining("normal index 1 is out of range");
    }

    @Test
    void rejectsMalformedCorners() {
        String vertices = "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\n";
        assertFails(vertices + "f 1/1/1/1 2 3\n", 6).hasMessageContaining("malformed face vertex '1/1/1/1'");
        assertFails(vertices + "f 1/ 2 3\n", 6).hasMessageContaining("malformed face vertex '1/'");
        assertFails(vertices + "f 1 2 x\n", 6).hasMessageContaining("allowed forms are i, i/t, i//n and i/t/n");
        assertFails(vertices + "f 1 2 3/1/\n", 6).hasMessageContaining("malformed face vertex");
    }

    @Test
    void rejectsFaceWithTwoVertices() {
        assertFails("v 0 0 0\nv 1 0 0\nf 1 2\n", 3).hasMessageContaining("at least 3 vertices, found 2");
    }

    @Test
    void rejectsDegenerateTriangles() {
        assertFails("v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n", 4)
                .hasMessageContaining("degenerate triangle").hasMessageContaining("collinear");
        assertFails("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 1\n", 4)
                .hasMessageContaining("degenerate triangle").hasMessageContaining("same point");
        // Distinct v lines, but the same position: degenerate once welded.
        assertFails("v 0 0 0\nv 1 0 0\nv 1 0 0\n\nf 1 2 3\n", 5)
                .hasMessageContaining("degenerate triangle").hasMessageContaining("(1.0, 0.0, 0.0)");
        // A polygon whose fan contains a collinear triangle.
        assertFails("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 2 2 0\nf 1 2 3 4\n", 5)
                .hasMessageContaining("triangle 2 of the fan splitting this 4-vertex face");
    }

    @Test
    void rejectsNonManifoldEdgeAtTheThirdFace() {
        assertFails("""
                v 0 0 0
                v 1 0 0
                v 0 1 0
                v 0 -1 0
                v 0 0 1
                f 1 2 3
                f 2 1 4
                # the third face on edge 1-2
                f 1 2 5
                """, 9)
                .hasMessageContaining("non-manifold edge between (0.0, 0.0, 0.0) and (1.0, 0.0, 0.0)")
                .hasMessageContaining("at most two triangles");
    }

    /** A quad of two triangles and a third one hanging off its bottom edge: every edge has at most two faces. */
    private static final String THREE_TRIANGLES = """
            v 0 0 0
            v 1 0 0
            v 1 1 0
            v 0 1 0
            v 0.5 -1 0
            f 1 2 3
            f 1 3 4
            f 2 1 5
            """;

    @Test
    void rejectsARepeatedTriangleWithTheSameWindingNamingBothLines() {
        assertFails(THREE_TRIANGLES + "f 1 2 3\n", 9)
                .hasMessageContaining("repeated triangle: this face (line 9) repeats the face at line 6")
                .hasMessageContaining("with the same winding")
                .hasMessageContaining("(0.0, 0.0, 0.0), (1.0, 0.0, 0.0) and (1.0, 1.0, 0.0)")
                .hasMessageContaining("each triangle may appear only once, in either winding");
    }

    @Test
    void rejectsARepeatedTriangleWithItsCornersRotated() {
        assertFails(THREE_TRIANGLES + "# rotated\nf 3 1 2\n", 10)
                .hasMessageContaining("this face (line 10) repeats the face at line 6")
                .hasMessageContaining("with the same winding");
    }

    @Test
    void rejectsARepeatedTriangleWithTheOppositeWinding() {
        assertFails(THREE_TRIANGLES + "f 4 3 1\n", 9)
                .hasMessageContaining("this face (line 9) repeats the face at line 7")
                .hasMessageContaining("with the opposite winding");
    }

    @Test
    void rejectsATriangleRepeatedThroughWeldedVertices() {
        // Lines 10-12 are new v lines, but at the positions of v 1, v 2 and v 3: the same triangle once welded.
        assertFails(THREE_TRIANGLES + "v 0 0 0\nv 1 0 0\nv 1 1 0\nf 6 8 7\n", 12)
                .hasMessageContaining("this face (line 12) repeats the face at line 6")
                .hasMessageContaining("with the opposite winding");
    }

    @Test
    void rejectsATriangleRepeatedByAQuadsFan() {
        // The quad 1 3 4 5... splits into (1, 3, 4) and (1, 4, 5): its first triangle repeats line 7's face.
        assertFails(THREE_TRIANGLES + "f 1 3 4 5\n", 9)
                .hasMessageContaining("triangle 1 of this 4-vertex face (line 9) repeats the face at line 7");
        // A triangle repeating the second triangle of an earlier quad.
        assertFails("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\nf 4 3 1\n", 6)
                .hasMessageContaining("this face (line 6) repeats triangle 2 of the polygon at line 5")
                .hasMessageContaining("with the opposite winding");
        // Two triangles of one polygon's fan.
        assertFails("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4 3 2\n", 5)
                .hasMessageContaining("triangles 2 and 3 of the fan splitting this 6-vertex face are the same");
    }

    @Test
    void stillLoadsTrianglesThatShareTwoOfTheirThreeVertices() {
        // Every pair of faces here shares vertices, and the two back faces share an edge with front ones,
        // but no two faces have the same three vertices: a legitimate closed tetrahedron.
        TriangleMesh mesh = read("""
                v 0 0 0
                v 1 0 0
                v 0 1 0
                v 0 0 1
                f 1 3 2
                f 1 2 4
                f 2 3 4
                f 3 1 4
                """);
        assertThat(mesh.triangleCount()).isEqualTo(4);
        assertThat(read(THREE_TRIANGLES).triangleCount()).isEqualTo(3);
    }

    @Test
    void findsARepeatedTriangleAmongThousands() {
        // A 40 x 40 grid of quads (3042 triangles, enough to grow the triangle set's table many times),
        // loaded as it is, then with its first quad given again, flipped, at the end.
        StringBuilder grid = new StringBuilder();
        int n = 40;
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                grid.append("v ").append(i).append(' ').append(j).append(" 0\n");
            }
        }
        for (int j = 0; j + 1 < n; j++) {
            for (int i = 0; i + 1 < n; i++) {
                int v = j * n + i + 1;
                grid.append("f ").append(v).append(' ').append(v + 1).append(' ').append(v + n + 1).append(' ')
                        .append(v + n).append('\n');
            }
        }
        assertThat(read(grid.toString()).triangleCount()).isEqualTo(2 * (n - 1) * (n - 1));
        int lines = n * n + (n - 1) * (n - 1);
        assertFails(grid + "f 1 " + (n + 1) + " " + (n + 2) + " 2\n", lines + 1)
                .hasMessageContaining("triangle 1 of this 4-vertex face (line " + (lines + 1) + ") repeats "
                        + "triangle 2 of the polygon at line " + (n * n + 1))
                .hasMessageContaining("with the opposite winding");
    }

    @Test
    void rejectsFileWithoutFaces() {
        assertThatThrownBy(() -> read("# nothing\nv 0 0 0\nv 1 0 0\nv 0 1 0\n"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("name.obj: no faces");
        assertThatThrownBy(() -> read(""))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("no faces");
    }

    @Test
    void rejectsUnknownStatement() {
        assertFails("v 0 0 0\n\nvp 0.5 0.5\n", 3)
                .hasMessageContaining("unknown statement 'vp'")
                .hasMessageContaining("supported are v, vt, vn, f");
    }

    @Test
    void reportsMissingFile(@TempDir Path dir) {
        Path missing = dir.resolve("missing.obj");
        assertThatThrownBy(() -> ObjReader.read(missing))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage(missing + ": cannot read file: no such file");
    }

    @Test
    void reportsDirectoryAsUnreadable(@TempDir Path dir) {
        assertThatThrownBy(() -> ObjReader.read(dir))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith(dir + ": cannot read file: ");
    }
}
