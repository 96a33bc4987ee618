package dev.weft.app;

import dev.weft.core.scene.Scene;
import dev.weft.scene.SceneFile;
import dev.weft.scene.SceneLibrary;
import java.nio.file.Path;

/**
 * A SCENE argument of {@code run} and {@code render}: a shipped scene's name ({@link SceneLibrary}: the files of
 * {@code scenes/}) or a scene file (.json).
 */
final class SceneArgument {
    static final String DESCRIPTION = "Built-in scene (see 'weft scenes') or a scene file (.json, see README "
            + "\"Scene files\"); default: ${DEFAULT-VALUE}.";

    private SceneArgument() {
    }

    static Scene load(String arg) {
        if (SceneFile.isFile(arg)) {
            return SceneFile.read(Path.of(arg));
        }
        return SceneLibrary.load(arg);
    }
}
