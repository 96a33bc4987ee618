package dev.weft.core.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.InvalidInputException;
import dev.weft.core.export.ExportFixtures.Frame;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Outputs appear whole at close or not at all: a run that fails half way (the caller aborts, or a frame
 * fails inside the exporter) leaves the files of an earlier run as they were, and no temporary files.
 */
class AtomicExportTest {
    @TempDir
    Path dir;

    private static final String OLD = "an earlier run's output\n";

    /** Puts an older file at every output path of {@code out} (an older frame 0 for obj). */
    private List<Path> olderFiles(FrameExporter out) throws IOException {
        List<Path> files = out.outputs().stream()
                .map(p -> out instanceof ObjSequenceExporter ? p.resolve(ObjSequenceExporter.fileName(0)) : p)
                .toList();
        for (Path f : files) {
            Files.createDirectories(f.getParent());
            Files.writeString(f, OLD);
        }
        return files;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"obj", "pc2", "gltf", "usd"})
    void anAbortedRunLeavesTheOlderFilesIntactAndNoTemporaryFiles(String kind) throws IOException {
        FrameExporter out = Exports.open(kind, dir, "scene", 30f);
        List<Path> older = olderFiles(out);
        List<Frame> run = ExportFixtures.simulate(ExportFixtures.scene(), 3);
        try {
            ExportFixtures.export(out, run.subList(0, 2));
            for (Path f : older) {
                assertThat(f).as("unchanged while running").hasContent(OLD.strip());
            }
            throw new IllegalStateException("the simulation failed");
        } catch (IllegalStateException e) {
            out.abort();
        }
        out.close(); // after abort: nothing
        for (Path f : older) {
            assertThat(Files.readString(f)).isEqualTo(OLD);
        }
        assertThat(hiddenFiles()).as("temporary files").isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"pc2", "gltf"})
    void aFrameFailingInsideTheExporterLeavesTheOlderFilesIntact(String kind) throws IOException {
        FrameExporter out = Exports.open(kind, dir, "scene", 30f);
        List<Path> older = olderFiles(out);
        List<Frame> run = ExportFixtures.simulate(ExportFixtures.scene(), 2);
        ExportFixtures.export(out, run.subList(0, 1));
        // A different model (more particles) mid-run: refused, and the exporter is failed for good.
        Frame other = ExportFixtures.simulate(biggerModel(), 1).get(0);
        assertThatThrownBy(() -> out.frame(other.model(), other.positions(), 1, 1 / 30.0))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> out.frame(run.get(1).model(), run.get(1).positions(), 1, 1 / 30.0))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("failed");
        assertThatThrownBy(out::close).isInstanceOf(IOException.class).hasMessageContaining("was not written");
        for (Path f : older) {
            assertThat(Files.readString(f)).isEqualTo(OLD);
        }
        assertThat(hiddenFiles()).isEmpty();
    }

    @Test
    void aFinishedObjSequenceReplacesTheOlderOneWhole() throws IOException {
        Path frames = dir.resolve("frames");
        Files.createDirectories(frames);
        Files.writeString(frames.resolve(ObjSequenceExporter.fileName(0)), OLD);
        Files.writeString(frames.resolve(ObjSequenceExporter.fileName(9)), OLD);
        Files.writeString(frames.resolve("notes.txt"), OLD);
        try (FrameExporter out = Exports.open("obj", dir, "scene", 30f)) {
            ExportFixtures.export(out, ExportFixtures.simulate(ExportFixtures.scene(), 2));
        }
        assertThat(frames.toFile().list()).containsExactlyInAnyOrder("frame_00000.obj", "frame_00001.obj", "notes.txt");
        assertThat(Files.readString(frames.resolve("frame_00000.obj"))).startsWith("# Weft frame 0");
        assertThat(hiddenFiles()).isEmpty();
    }

    @Test
    void framesOutOfOrderAreRefusedNamingTheFile() throws IOException {
        List<Frame> run = ExportFixtures.simulate(ExportFixtures.scene(), 3);
        try (FrameExporter out = Exports.open("usd", dir, "scene", 30f)) {
            Frame f = run.get(0);
            out.frame(f.model(), f.positions(), 0, 0.0);
            assertThatThrownBy(() -> out.frame(f.model(), f.positions(), 2, 0.1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("scene.usda")
                    .hasMessageContaining("after frame 0");
            assertThatThrownBy(() -> out.frame(f.model(), new float[3], 1, 0.1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("coordinates");
        }
        assertThat(dir.resolve("scene.usda")).exists(); // refused frames are not failures: frame 0 was written
    }

    private List<Path> hiddenFiles() throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(p -> p.getFileName().toString().startsWith(".")).toList();
        }
    }

    /** A model with more particles than the scene's, to change the topology under an exporter. */
    private static Model biggerModel() {
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("cloth", 6, 6, 1f, 1f));
        return b.build();
    }
}
