package dev.weft.core.testing;

import dev.weft.core.collide.BoxCollider;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.step.Environment;
import java.util.List;

/**
 * The device solvers' tests' scenes (OpenCL, GLSL compute): cloths on a builder the test configures,
 * colliders, environments.
 */
public final class DeviceTestScenes {
    private DeviceTestScenes() {
    }

    /** An n × n, 1 m cloth held horizontally 1 m up by its two top corners (the hanging scene's). */
    public static Model hangingCloth(ModelBuilder b, int n) {
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", n, n, 1f, 1f).withOrigin(-0.5f, 1f, -0.5f));
        b.pinCorners(cloth, "top-left", "top-right");
        return b.build();
    }

    /** An n × n, 0.6 m cloth held horizontally at {@code height}, free. */
    public static Model droppedCloth(ModelBuilder b, int n, float height) {
        b.addGridCloth(GridClothSpec.of("cloth", n, n, 0.6f, 0.6f).withOrigin(-0.3f, height, -0.3f));
        return b.build();
    }

    /** The floor plane, 5 mm thick, μ 0.4. */
    public static PlaneCollider floor() {
        return PlaneCollider.floor(0f, 0.005f, 0.4f);
    }

    /** A still sphere of 0.2 m resting on the floor, 5 mm thick, μ 0.3. */
    public static SphereCollider ball() {
        return new SphereCollider("ball", new float[] {0f, 0.2f, 0f}, 0.2f, 0.005f, 0.3f);
    }

    /** A box the device does not run. */
    public static Collider crate() {
        return new BoxCollider("crate", new float[] {0f, -1f, 0f}, new float[] {0.5f, 0.5f, 0.5f}, 0f, 0f);
    }

    /** Earth's gravity and one collider. */
    public static Environment earthWith(Collider c) {
        return new Environment(new float[] {0f, -9.81f, 0f}, List.of(c));
    }

    /** Earth with wind and air drag. */
    public static Environment windy() {
        return Environment.earth().withWind(new float[] {3f, 0f, 0f}).withAir(1.2f, 1f, 0.02f);
    }
}
