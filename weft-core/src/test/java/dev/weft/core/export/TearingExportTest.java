package dev.weft.core.export;

import static dev.weft.core.export.ExportFixtures.assertSameFloats;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.InvalidInputException;
import dev.weft.core.export.ExportFixtures.Frame;
import dev.weft.core.mesh.ObjReader;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelEdit;
import dev.weft.core.model.ModelObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cloth split at its centre after frame 2 (one more particle, triangles re-attached): the formats that
 * can follow it do, the fixed-vertex ones refuse with an error that names the format and the way out.
 */
class TearingExportTest {
    @TempDir
    Path dir;

    private List<Frame> run;
    private int before;

    @BeforeEach
    void tearARun() {
        ModelBuilder b = new ModelBuilder();
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", 5, 5, 1f, 1f));
        b.pinCorners(cloth, "top-left", "top-right");
        Model model = b.build();
        before = model.particleCount();
        run = ExportFixtures.simulate(model, 5, 2, List.of(new ModelEdit.Split(cloth.gridParticle(2, 2), 1f, 0f, 0f)));
        assertThat(run.get(3).model().particleCount()).as("the split happened").isEqualTo(before + 1);
    }

    @Test
    void objFramesFollowTheSplit() throws IOException {
        try (FrameExporter out = new ObjSequenceExporter(dir.resolve("frames"))) {
            ExportFixtures.export(out, run);
        }
        for (Frame f : run) {
            TriangleMesh back = ObjReader.read(dir.resolve("frames").resolve(ObjSequenceExporter.fileName(f.index())));
            assertThat(back.vertexCount()).isEqualTo(f.index() <= 2 ? before : before + 1);
            assertSameFloats(back.positions(), f.positions(), "frame " + f.index());
            assertThat(back.triangles()).isEqualTo(f.model().triangles());
        }
    }

    @Test
    void usdSamplesTheTopologyWhereItChanged() throws IOException {
        Path file = dir.resolve("torn.usda");
        try (FrameExporter out = new UsdaExporter(file, "torn", 30f)) {
            ExportFixtures.export(out, run);
        }
        String prim = Usda.prim(Files.readString(file), "Mesh", "cloth");
        Map<Integer, String> indices = Usda.samples(prim, "int[] faceVertexIndices");
        assertThat(indices.keySet()).containsExactly(0, 3);
        assertThat(Usda.samples(prim, "int[] faceVertexCounts").keySet()).containsExactly(0, 3);
        assertThat(Usda.samples(prim, "texCoord2f[] primvars:st").keySet()).containsExactly(0, 3);
        assertThat(Usda.numbers(indices.get(3))).contains((float) before); // the copy, last point
        Map<Integer, String> points = Usda.samples(prim, "point3f[] points");
        for (Frame f : run) {
            assertThat(Usda.tuples(points.get(f.index()))).isEqualTo(f.index() <= 2 ? before : before + 1);
            assertSameFloats(Usda.numbers(points.get(f.index())), f.positions(), "frame " + f.index());
        }
        float[] after = Usda.numbers(indices.get(3));
        int[] tris = run.get(3).model().triangles();
        for (int i = 0; i < tris.length; i++) {
            assertThat((int) after[i]).isEqualTo(tris[i]);
        }
    }

    @Test
    void pc2RefusesTheSplitNamingTheFormatAndTheAlternatives() throws IOException {
        Path cache = dir.resolve("torn.pc2");
        Path base = dir.resolve("torn_base.obj");
        FrameExporter out = new Pc2Exporter(cache, base, "torn");
        assertRefused(out, "PC2", cache);
        assertThat(cache).doesNotExist();
        assertThat(base).doesNotExist();
    }

    @Test
    void gltfRefusesTheSplitNamingTheFormatAndTheAlternatives() throws IOException {
        Path glb = dir.resolve("torn.glb");
        assertRefused(new GltfExporter(glb, "torn"), "glTF", glb);
        assertThat(glb).doesNotExist();
    }

    private void assertRefused(FrameExporter out, String format, Path file) throws IOException {
        for (Frame f : run.subList(0, 3)) {
            out.frame(f.model(), f.positions(), f.index(), f.time());
        }
        Frame torn = run.get(3);
        assertThatThrownBy(() -> out.frame(torn.model(), torn.positions(), torn.index(), torn.time()))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining(format)
                .hasMessageContaining("frame 3").hasMessageContaining("'obj'").hasMessageContaining("'usd'");
        assertThatThrownBy(out::close).isInstanceOf(IOException.class).hasMessageContaining("was not written")
                .hasMessageContaining("frame 3");
        assertThat(dir.toFile().list()).as("temporary files removed").isEmpty();
    }
}
