package dev.weft.app;

import dev.weft.core.InvalidInputException;
import dev.weft.core.scene.Scene;
import picocli.CommandLine.Option;

/** Command-line options that change a scene's surroundings, whatever the scene and the solver. */
final class EnvironmentOptions {
    @Option(names = "--gravity", paramLabel = "X,Y,Z", split = ",",
            description = "Gravity in m/s² (default: the scene's, 0,-9.81,0; the Moon: 0,-1.62,0).")
    float[] gravity;

    /** {@code scene} under these options. */
    Scene apply(Scene scene) {
        if (gravity == null) {
            return scene;
        }
        if (gravity.length != 3) {
            throw new InvalidInputException("--gravity", "must be three numbers X,Y,Z in m/s², got " + gravity.length);
        }
        for (float g : gravity) {
            if (!Float.isFinite(g)) {
                throw new InvalidInputException("--gravity", "must be three finite numbers X,Y,Z in m/s², got " + g);
            }
        }
        return scene.withEnvironment(scene.environment().withGravity(gravity));
    }
}
