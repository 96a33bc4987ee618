package dev.weft.app;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.Projectile;
import dev.weft.core.scene.Scene;
import java.util.Arrays;
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
        // a ball that fell under the scene's gravity falls under the new one (one given its own keeps it)
        float[] before = scene.environment().gravity();
        for (Collider c : scene.environment().colliders()) {
            if (c instanceof Projectile p && Arrays.equals(p.gravity(), before)) {
                p.withGravity(gravity);
            }
        }
        return scene.withEnvironment(scene.environment().withGravity(gravity));
    }
}
