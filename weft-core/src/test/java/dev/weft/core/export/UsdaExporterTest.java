package dev.weft.core.export;

import static dev.weft.core.export.ExportFixtures.assertSameFloats;
import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.export.ExportFixtures.Frame;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UsdaExporterTest {
    private static final int FRAMES = 4;

    @TempDir
    Path dir;

    @Test
    void aMeshPerClothWithItsPointsSampledEveryFrameAndACurveForTheRope() throws IOException {
        List<Frame> run = ExportFixtures.simulate(ExportFixtures.scene(), FRAMES);
        Model m = run.get(0).model();
        Path file = dir.resolve("scene.usda");
        try (UsdaExporter out = new UsdaExporter(file, "scene", ExportFixtures.FPS)) {
            ExportFixtures.export(out, run);
            assertThat(file).as("nothing before close").doesNotExist();
        }
        assertThat(dir.toFile().list()).as("no scratch file left").containsExactly("scene.usda");
        String text = Files.readString(file);

        assertThat(text).startsWith("#usda 1.0\n(\n");
        assertThat(Usda.header(text, "startTimeCode")).isEqualTo("0");
        assertThat(Usda.header(text, "endTimeCode")).isEqualTo(String.valueOf(FRAMES - 1));
        assertThat(Usda.header(text, "timeCodesPerSecond")).isEqualTo("30");
        assertThat(Usda.header(text, "upAxis")).isEqualTo("\"Y\"");
        assertThat(Usda.header(text, "metersPerUnit")).isEqualTo("1");
        assertThat(Usda.header(text, "defaultPrim")).isEqualTo("\"scene\"");
        assertThat(text.split("def Mesh ", -1)).hasSize(3); // two meshes
        assertThat(text).contains("def Xform \"scene\"");

        for (String name : List.of("cloth", "flag")) {
            ModelObject body = m.object(name);
            String prim = Usda.prim(text, "Mesh", name);
            assertThat(prim).as(name).isNotNull();
            float[] counts = Usda.numbers(Usda.value(prim, "int[] faceVertexCounts"));
            assertThat(counts).hasSize(body.triangleCount()).containsOnly(3f);
            float[] indices = Usda.numbers(Usda.value(prim, "int[] faceVertexIndices"));
            assertThat(indices).hasSize(3 * body.triangleCount());
            for (int i = 0; i < indices.length; i++) {
                assertThat((int) indices[i]).isEqualTo(m.triangles()[3 * body.firstTriangle() + i] - body.firstParticle());
            }
            String st = Usda.value(prim, "texCoord2f[] primvars:st");
            assertThat(Usda.tuples(st)).isEqualTo(body.particleCount());
            assertSameFloats(Usda.numbers(st), java.util.Arrays.copyOfRange(m.uvs(), 2 * body.firstParticle(),
                    2 * (body.firstParticle() + body.particleCount())), name + " uvs");
            assertThat(prim).contains("interpolation = \"vertex\"");

            Map<Integer, String> points = Usda.samples(prim, "point3f[] points");
            assertThat(points.keySet()).containsExactly(0, 1, 2, 3);
            Map<Integer, String> extent = Usda.samples(prim, "float3[] extent");
            assertThat(extent).hasSize(FRAMES);
            for (Frame f : run) {
                String sample = points.get(f.index());
                assertThat(Usda.tuples(sample)).isEqualTo(body.particleCount());
                float[] expected = java.util.Arrays.copyOfRange(f.positions(), 3 * body.firstParticle(),
                        3 * (body.firstParticle() + body.particleCount()));
                assertSameFloats(Usda.numbers(sample), expected, name + " frame " + f.index());
            }
        }

        String rope = Usda.prim(text, "BasisCurves", "rope");
        assertThat(rope).contains("uniform token type = \"linear\"");
        assertThat(Usda.value(rope, "int[] curveVertexCounts")).isEqualTo("[5]");
        Map<Integer, String> ropePoints = Usda.samples(rope, "point3f[] points");
        assertThat(ropePoints).hasSize(FRAMES);
        ModelObject r = m.object("rope");
        assertSameFloats(Usda.numbers(ropePoints.get(3)), java.util.Arrays.copyOfRange(run.get(3).positions(),
                3 * r.firstParticle(), 3 * (r.firstParticle() + r.particleCount())), "rope frame 3");
    }

    @Test
    void primNamesAreMadeValidIdentifiers() {
        assertThat(UsdaExporter.identifier("my cloth-2")).isEqualTo("my_cloth_2");
        assertThat(UsdaExporter.identifier("3d")).isEqualTo("_3d");
    }
}
