package dev.weft.app;

import dev.weft.core.InvalidInputException;
import dev.weft.core.scene.BuiltInScenes;
import dev.weft.core.scene.Scene;
import dev.weft.scene.SceneFile;
import java.nio.file.Path;

/** A SCENE argument of {@code run} and {@code render}: a built-in scene's name or a scene file (.json). */
final class SceneArgument {
    static final String DESCRIPTION = "Built-in scene (see 'weft scenes') or a scene file (.json, see README "
            + "\"Scene files\"); default: ${DEFAULT-VALUE}.";

    private SceneArgument() {
    }

    static Scene load(String arg) {
        if (SceneFile.isFile(arg)) {
            return SceneFile.read(Path.of(arg));
        }
        try {
            return BuiltInScenes.byName(arg);
        } catch (InvalidInputException e) {
            throw new InvalidInputException("scene", e.getMessage().replaceFirst("^scene: ", "")
                    + "; or give a scene file (.json)");
        }
    }
}
