package dev.weft.scene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.InvalidInputException;
import dev.weft.core.scene.BuiltInScenes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shipped scenes: every file of scenes/ by name, through the class path, the built-in ones among them. */
class SceneLibraryTest {
    @Test
    void theIndexNamesEverySceneFileOnce() throws Exception {
        List<String> files = new ArrayList<>();
        try (var list = Files.list(SceneFileTest.SCENES)) {
            for (Path p : (Iterable<Path>) list::iterator) {
                String f = p.getFileName().toString();
                if (f.endsWith(".json") && !f.endsWith(".schema.json")) {
                    files.add(f.substring(0, f.length() - ".json".length()));
                }
            }
        }
        assertThat(SceneLibrary.names()).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(files);
        assertThat(SceneLibrary.names()).containsAll(BuiltInScenes.names()).startsWith(SceneLibrary.DEFAULT);
    }

    @Test
    void aShippedSceneLoadsByNameWithItsMeshes() {
        // chair reads meshes/chair.obj beside it, wherever the scenes are (a folder here, the jar when shipped)
        assertThat(SceneLibrary.load("chair").environment().colliders()[0].name()).isEqualTo("chair");
        assertThat(SceneLibrary.load("drape").model().particleCount()).isEqualTo(64 * 64);
        assertThatThrownBy(() -> SceneLibrary.load("drap")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("unknown scene 'drap'; built in: drape, hanging");
    }
}
