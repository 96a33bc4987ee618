package dev.weft.core.export;

import static dev.weft.core.export.ExportFixtures.assertSameFloats;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.export.ExportFixtures.Frame;
import dev.weft.core.mesh.ObjReader;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OBJ sequence reads back through the project's {@link ObjReader}. The reader welds equal positions,
 * drops vertices no face uses (the rope's) and skips {@code l}, {@code o}, {@code g} and the normals'
 * values, so those are checked in the text.
 */
class ObjSequenceExporterTest {
    @TempDir
    Path dir;

    private List<Frame> writeScene(int frames) throws IOException {
        List<Frame> run = ExportFixtures.simulate(ExportFixtures.scene(), frames);
        try (ObjSequenceExporter out = new ObjSequenceExporter(dir.resolve("frames"))) {
            ExportFixtures.export(out, run);
            assertThat(dir.resolve("frames")).as("nothing before close").doesNotExist();
        }
        return run;
    }

    @Test
    void everyFrameReadsBackThroughObjReaderWithItsPositions() throws IOException {
        List<Frame> run = writeScene(4);
        for (Frame f : run) {
            Model m = f.model();
            Path file = dir.resolve("frames").resolve(ObjSequenceExporter.fileName(f.index()));
            TriangleMesh back = ObjReader.read(file);
            // The cloths come first in particle order; the rope's vertices belong to no face and are dropped.
            int cloths = m.object("rope").firstParticle();
            assertSameFloats(back.positions(), Arrays.copyOf(f.positions(), 3 * cloths), file.toString());
            assertThat(back.uvs()).isEqualTo(Arrays.copyOf(m.uvs(), 2 * cloths));
            assertThat(back.triangles()).isEqualTo(m.triangles());
        }
        assertThat(dir.resolve("frames").toFile().list()).containsExactlyInAnyOrder(
                "frame_00000.obj", "frame_00001.obj", "frame_00002.obj", "frame_00003.obj");
    }

    @Test
    void eachBodyIsAnObjectAndGroupAndTheRopeAPolyline() throws IOException {
        List<Frame> run = writeScene(2);
        Model m = run.get(1).model();
        List<String> lines = Files.readAllLines(dir.resolve("frames/frame_00001.obj"));
        for (String body : List.of("cloth", "flag", "rope")) {
            int o = lines.indexOf("o " + body);
            assertThat(o).as(body).isPositive();
            assertThat(lines.get(o + 1)).isEqualTo("g " + body);
        }
        int ropeAt = lines.indexOf("g rope");
        // Faces under each group are exactly that body's triangles.
        int clothFaces = (int) lines.subList(lines.indexOf("g cloth"), lines.indexOf("o flag")).stream()
                .filter(l -> l.startsWith("f ")).count();
        assertThat(clothFaces).isEqualTo(m.object("cloth").triangleCount());
        ModelObject rope = m.object("rope");
        StringBuilder polyline = new StringBuilder("l");
        for (int p = rope.firstParticle(); p < rope.firstParticle() + rope.particleCount(); p++) {
            polyline.append(' ').append(p + 1);
        }
        assertThat(lines.subList(ropeAt, lines.size())).containsExactly("g rope", polyline.toString());
        assertThat(lines.stream().filter(l -> l.startsWith("v ")).count()).isEqualTo(m.particleCount());
        assertThat(lines.stream().filter(l -> l.startsWith("vt ")).count()).isEqualTo(m.particleCount());
    }

    @Test
    void normalsAreUnitLengthOnTheSideTheWindingGives() throws IOException {
        List<Frame> run = writeScene(3);
        for (Frame f : run) {
            List<String> lines = Files.readAllLines(dir.resolve("frames").resolve(ObjSequenceExporter.fileName(f.index())));
            List<float[]> normals = new ArrayList<>();
            List<float[]> vertices = new ArrayList<>();
            for (String l : lines) {
                if (l.startsWith("vn ")) {
                    normals.add(floats(l));
                } else if (l.startsWith("v ")) {
                    vertices.add(floats(l));
                }
            }
            // Every particle with triangles has one, the rope's have none.
            assertThat(normals).hasSize(f.model().particleCount() - f.model().object("rope").particleCount());
            for (float[] n : normals) {
                assertThat(Math.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2])).isCloseTo(1.0, within(1e-6));
            }
            int faces = 0;
            for (String l : lines) {
                if (!l.startsWith("f ")) {
                    continue;
                }
                String[] corner = l.substring(2).split(" ");
                float[][] x = new float[3][];
                float[][] n = new float[3][];
                for (int k = 0; k < 3; k++) {
                    String[] idx = corner[k].split("/");
                    assertThat(idx).hasSize(3);
                    assertThat(idx[1]).isEqualTo(idx[0]); // vt index = v index
                    x[k] = vertices.get(Integer.parseInt(idx[0]) - 1);
                    n[k] = normals.get(Integer.parseInt(idx[2]) - 1);
                }
                float[] face = cross(x[0], x[1], x[2]);
                for (int k = 0; k < 3; k++) {
                    assertThat(face[0] * n[k][0] + face[1] * n[k][1] + face[2] * n[k][2]).as(l).isPositive();
                }
                faces++;
            }
            assertThat(faces).isEqualTo(f.model().triangleCount());
        }
    }

    private static float[] floats(String line) {
        String[] t = line.split(" ");
        float[] v = new float[t.length - 1];
        for (int i = 1; i < t.length; i++) {
            v[i - 1] = Float.parseFloat(t[i]);
        }
        return v;
    }

    private static float[] cross(float[] a, float[] b, float[] c) {
        float ux = b[0] - a[0];
        float uy = b[1] - a[1];
        float uz = b[2] - a[2];
        float vx = c[0] - a[0];
        float vy = c[1] - a[1];
        float vz = c[2] - a[2];
        return new float[] {uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx};
    }
}
