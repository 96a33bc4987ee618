package dev.weft.core.testing;

import dev.weft.core.collide.BoxCollider;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.EllipsoidCollider;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.mesh.TriangleMesh;
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

    /**
     * Two n × n, 1 m cloths 1 m up, as triangle meshes with alternating diagonals (greedy coloring, not the
     * lattice's), one beside the other, each pinned at the two corners of its first row: a color holds both
     * bodies' constraints, so its stretch constraints are two runs with the first body's bending between.
     */
    public static Model hangingMeshes(ModelBuilder builder, int n) {
        float[] positions = new float[3 * n * n];
        float[] uvs = new float[2 * n * n];
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                int i = r * n + c;
                positions[3 * i] = -0.5f + c / (float) (n - 1);
                positions[3 * i + 1] = 1f;
                positions[3 * i + 2] = -0.5f + r / (float) (n - 1);
                uvs[2 * i] = c / (float) (n - 1);
                uvs[2 * i + 1] = r / (float) (n - 1);
            }
        }
        int[] triangles = new int[6 * (n - 1) * (n - 1)];
        int t = 0;
        for (int r = 0; r + 1 < n; r++) {
            for (int c = 0; c + 1 < n; c++) {
                int a = r * n + c;
                int b = a + 1;
                int d = a + n;
                int e = d + 1;
                int[] tri = (r + c) % 2 == 0 ? new int[] {a, d, e, a, e, b} : new int[] {a, d, b, b, d, e};
                System.arraycopy(tri, 0, triangles, t, 6);
                t += 6;
            }
        }
        ModelObject left = builder.addMeshCloth("left", new TriangleMesh(positions, uvs, triangles));
        builder.pinIndices(left, 0, n - 1);
        float[] moved = positions.clone();
        for (int k = 0; k < moved.length; k += 3) {
            moved[k] += 1.5f;
        }
        ModelObject right = builder.addMeshCloth("right", new TriangleMesh(moved, uvs, triangles));
        builder.pinIndices(right, 0, n - 1);
        return builder.build();
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

    /** An ellipsoid, which no device backend runs yet. */
    public static Collider egg() {
        return new EllipsoidCollider("egg", new float[] {0f, -1f, 0f}, new float[] {0.3f, 0.5f, 0.3f}, 0f, 0f);
    }

    /** A box (OpenCL runs it, GLSL does not). */
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
