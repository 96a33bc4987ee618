package dev.weft.core.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.InvalidInputException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExportsTest {
    @TempDir
    Path dir;

    @Test
    void eachKindWritesWhereItSays() {
        assertThat(Exports.open("obj", dir, "scene", 30f).outputs()).containsExactly(dir.resolve("frames").toAbsolutePath());
        assertThat(Exports.open("pc2", dir, "scene", 30f).outputs())
                .containsExactly(dir.resolve("scene.pc2").toAbsolutePath(), dir.resolve("scene_base.obj").toAbsolutePath());
        assertThat(Exports.open("gltf", dir, "scene", 30f).outputs()).containsExactly(dir.resolve("scene.glb").toAbsolutePath());
        assertThat(Exports.open("usd", dir, "my scene/1", 30f).outputs())
                .containsExactly(dir.resolve("my_scene_1.usda").toAbsolutePath());
    }

    @Test
    void anUnknownKindNamesTheFlagAndTheAllowedOnes() {
        assertThatThrownBy(() -> Exports.open("x", dir, "scene", 30f)).isInstanceOf(InvalidInputException.class)
                .hasMessage("--export: unknown format 'x'; allowed: obj, pc2, gltf, usd");
        assertThatThrownBy(() -> Exports.open("usd", dir, "scene", 0f)).isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("--fps: ");
    }

    @Test
    void oneRunFansOutToEveryFormat() throws IOException {
        FrameExporter all = Exports.open(List.of("obj", "pc2", "gltf", "usd", "obj"), dir, "scene", 30f);
        assertThat(all.outputs()).hasSize(5);
        try (all) {
            ExportFixtures.export(all, ExportFixtures.simulate(ExportFixtures.scene(), 3));
        }
        for (Path p : all.outputs()) {
            assertThat(p).exists();
        }
        assertThat(dir.resolve("frames").toFile().list()).hasSize(3);
        assertThat(GltfExporterTest.parse(dir.resolve("scene.glb")).list("accessors")).isNotEmpty();
    }
}
