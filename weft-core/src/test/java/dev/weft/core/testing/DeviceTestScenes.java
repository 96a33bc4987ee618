package dev.weft.core.testing;

import dev.weft.core.collide.AnimatedMeshCollider;
import dev.weft.core.collide.BoxCollider;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.ConstantVelocityMotion;
import dev.weft.core.collide.EllipsoidCollider;
import dev.weft.core.collide.FunnelCollider;
import dev.weft.core.collide.KeyframedMotion;
import dev.weft.core.collide.MeshCollider;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.Projectile;
import dev.weft.core.collide.RectangleCollider;
import dev.weft.core.collide.Icosphere;
import dev.weft.core.collide.RigidCollider;
import dev.weft.core.collide.SdfCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.parallel.WorkerPool;
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

    /** A closed triangle mesh (a tetrahedron), which the OpenCL solvers run and the GLSL compute ones do not. */
    public static Collider rock() {
        return new MeshCollider("rock", rockMesh(0f), 0f, 0f);
    }

    /** The rock's tetrahedron raised by {@code lift} (m). */
    private static TriangleMesh rockMesh(float lift) {
        float[] corners = {0f, -1f, 0f, 0.3f, -1.3f, 0f, -0.2f, -1.3f, 0.2f, -0.2f, -1.3f, -0.2f};
        for (int k = 1; k < corners.length; k += 3) {
            corners[k] += lift;
        }
        int[] triangles = {0, 2, 1, 0, 3, 2, 0, 1, 3, 1, 2, 3};
        return new TriangleMesh(corners, new float[8], triangles);
    }

    /** A projectile (a cannonball of 0.1 m, 5 kg, flying at 1 m/s), which no device backend runs yet. */
    public static Collider cannonball() {
        return new Projectile("cannonball", new float[] {0f, -1f, 0f}, 0.1f, 5f, new float[] {1f, 0f, 0f},
                new float[] {0f, -9.81f, 0f}, 0f, 0f);
    }

    /** The rock animated (AnimatedMeshCollider: two frames 0.1 m apart, 10 fps): OpenCL runs it, GLSL does not. */
    public static Collider animatedRock() {
        return new AnimatedMeshCollider("rock", List.of(rockMesh(0f), rockMesh(0.1f)), 10f, false, 0f, 0f);
    }

    /**
     * An AnimatedMeshCollider of two frames of a low-poly ball (an icosphere of 0.15 m, 320 triangles): at 0 s
     * below the hanging cloth's middle, as {@link #risingBall()}, at 0.2 s (5 fps) 0.6 m higher and squashed
     * (1.25 times as wide in x, 0.8 times as tall), held after that: it rises at 3 m/s while it deforms, through
     * the hanging cloth. 5 mm thick, μ 0.3.
     */
    public static AnimatedMeshCollider risingAnimatedBall() {
        float[] ball = Icosphere.of(0.15f, 2).positions();
        TriangleMesh shape = Icosphere.of(0.15f, 2);
        float[] low = ball.clone();
        float[] high = ball.clone();
        for (int k = 0; k < ball.length; k += 3) {
            low[k] += 0.05f;
            low[k + 1] += 0.7f;
            low[k + 2] += 0.1f;
            high[k] = 1.25f * ball[k] + 0.05f;
            high[k + 1] = 0.8f * ball[k + 1] + 1.3f;
            high[k + 2] += 0.1f;
        }
        return new AnimatedMeshCollider("animatedBall", List.of(new TriangleMesh(low, null, shape.triangles()),
                new TriangleMesh(high, null, shape.triangles())), 5f, false, 0.005f, 0.3f);
    }

    /**
     * A MeshCollider of the closed box mesh of half extents 0.2, 0.15, 0.18 m ({@link #tiltedFieldBox}'s)
     * about 0.2 m up, tilted: a falling cloth meets its faces, edges and corners (every region of the closest
     * triangle) obliquely. 5 mm thick, μ 0.3.
     */
    public static MeshCollider tiltedMeshBox() {
        return (MeshCollider) new MeshCollider("meshBox", boxMesh(), 0.005f, 0.3f)
                .withPosition(new float[] {0f, 0.2f, 0f}).withOrientation(tilt());
    }

    /**
     * A MeshCollider of a low-poly sphere (an icosphere of 0.15 m, 320 triangles, two-sided) moving up at 3 m/s
     * from below the hanging cloth, as {@link #risingBall()}: its faceted surface lifts the cloth. 5 mm thick,
     * μ 0.3.
     */
    public static MeshCollider risingMeshBall() {
        MeshCollider ball = new MeshCollider("meshBall", Icosphere.of(0.15f, 2), 0.005f, 0.3f);
        ball.withMotion(ConstantVelocityMotion.translating(new float[] {0.05f, 0.7f, 0.1f},
                new float[] {0f, 3f, 0f}));
        return ball;
    }

    /** 30° about a tilted axis: every face, edge and cap of a shape meets a falling cloth obliquely. */
    public static float[] tilt() {
        float s = (float) Math.sin(Math.toRadians(15));
        return new float[] {(float) Math.cos(Math.toRadians(15)), 0.3f * s, 0.9f * s, 0.3f * s};
    }

    /** A still ellipsoid of semi-axes 0.25, 0.15, 0.2 m about 0.2 m up, tilted, 5 mm thick, μ 0.3. */
    public static EllipsoidCollider tiltedEgg() {
        return (EllipsoidCollider) new EllipsoidCollider("egg", new float[] {0f, 0.2f, 0f},
                new float[] {0.25f, 0.15f, 0.2f}, 0.005f, 0.3f).withOrientation(tilt());
    }

    /** A still rectangle (a two-sided shell) of 0.5 × 0.4 m, 0.3 m up, tilted, 5 mm thick, μ 0.3. */
    public static RectangleCollider tiltedBoard() {
        return (RectangleCollider) new RectangleCollider("board", new float[] {0f, 0.3f, 0f}, 0.25f, 0.2f, 0.005f,
                0.3f).withOrientation(tilt());
    }

    /**
     * The funnel scene's funnel (seed 001: radius e^(y/0.5), cut to −0.8 ≤ y ≤ 0 below its mouth at 1.5 m; the
     * mouth's radius is 1 m, the neck's 0.2 m at 0.7 m), 5 mm thick, μ 0.05: a dropped cloth 1.15 m up starts
     * inside it and meets its wall about 1.07 m up.
     */
    public static FunnelCollider funnel() {
        return new FunnelCollider("funnel", new float[] {0f, 1.5f, 0f}, 0.5f, -0.8f, 0f, 0.005f, 0.05f);
    }

    /**
     * A ball of 0.15 m moving up at 3 m/s (ConstantVelocityMotion) from 0.7 m, below the middle of the hanging
     * cloth: it meets the falling cloth within a few hundredths of a second and lifts it. 5 mm thick, μ 0.3.
     */
    public static RigidCollider risingBall() {
        return new SphereCollider("risingBall", new float[] {0.05f, 0.7f, 0.1f}, 0.15f, 0.005f, 0.3f)
                .withMotion(ConstantVelocityMotion.translating(new float[] {0.05f, 0.7f, 0.1f},
                        new float[] {0f, 3f, 0f}));
    }

    /**
     * A box of 0.3 × 0.2 × 0.6 m keyframed (KeyframedMotion) up through the hanging cloth while turning: 0.6 m up
     * at 0 s, 1.0 m and 25° about z at 0.1 s, 1.25 m and 25° about z then 40° about x at 0.2 s, held after that.
     * 5 mm thick, μ 0.3.
     */
    public static RigidCollider keyframedBox() {
        float s25 = (float) Math.sin(Math.toRadians(12.5));
        float c25 = (float) Math.cos(Math.toRadians(12.5));
        float s40 = (float) Math.sin(Math.toRadians(20));
        float c40 = (float) Math.cos(Math.toRadians(20));
        // q(40° about x) ⊗ q(25° about z)
        float[] last = {c40 * c25, s40 * c25, -s40 * s25, c40 * s25};
        KeyframedMotion keys = new KeyframedMotion(new double[] {0.0, 0.1, 0.2},
                new float[] {0f, 0.6f, 0f, 0.1f, 1.0f, 0f, 0.2f, 1.25f, 0.05f},
                new float[] {1f, 0f, 0f, 0f, c25, 0f, 0f, s25, last[0], last[1], last[2], last[3]});
        return new BoxCollider("keyframedBox", new float[] {0f, 0.6f, 0f}, new float[] {0.15f, 0.1f, 0.3f}, 0.005f,
                0.3f).withMotion(keys);
    }

    /** A box (OpenCL runs it, GLSL does not). */
    public static Collider crate() {
        return new BoxCollider("crate", new float[] {0f, -1f, 0f}, new float[] {0.5f, 0.5f, 0.5f}, 0f, 0f);
    }

    /**
     * A distance field (SdfCollider, 2 cm cells) of a closed box mesh of half extents 0.2, 0.15, 0.18 m about
     * 0.2 m up, tilted: flat faces, edges and corners where the trilinear field is not exactly a distance.
     * 5 mm thick, μ 0.3.
     */
    public static SdfCollider tiltedFieldBox() {
        try (WorkerPool pool = new WorkerPool(1)) {
            return (SdfCollider) SdfCollider.fromClosedMesh("fieldBox", boxMesh(), 0.02f, 0.005f, 0.3f, pool)
                    .withPosition(new float[] {0f, 0.2f, 0f}).withOrientation(tilt());
        }
    }

    /** A closed box mesh of half extents 0.2, 0.15, 0.18 m about the origin, its triangles turned outward. */
    private static TriangleMesh boxMesh() {
        float[] h = {0.2f, 0.15f, 0.18f};
        float[] corners = new float[24];
        for (int v = 0; v < 8; v++) {
            for (int a = 0; a < 3; a++) {
                corners[3 * v + a] = (v >> a & 1) != 0 ? h[a] : -h[a];
            }
        }
        // each face a quad of the four corners with its axis bit fixed, cyclic in the other two bits, as two
        // triangles turned outward (the box is convex about its centre)
        int[] triangles = new int[36];
        int t = 0;
        for (int a = 0; a < 3; a++) {
            int b = (a + 1) % 3;
            int c = (a + 2) % 3;
            for (int side = 0; side < 2; side++) {
                int[] q = new int[4];
                int[][] cycle = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
                for (int k = 0; k < 4; k++) {
                    q[k] = side << a | cycle[k][0] << b | cycle[k][1] << c;
                }
                for (int[] tri : new int[][] {{q[0], q[1], q[2]}, {q[0], q[2], q[3]}}) {
                    if (!outward(corners, tri)) {
                        int swap = tri[1];
                        tri[1] = tri[2];
                        tri[2] = swap;
                    }
                    System.arraycopy(tri, 0, triangles, t, 3);
                    t += 3;
                }
            }
        }
        return new TriangleMesh(corners, new float[16], triangles);
    }

    /** Whether the triangle's normal (right-handed) points away from the origin. */
    private static boolean outward(float[] v, int[] tri) {
        float[] e1 = new float[3];
        float[] e2 = new float[3];
        float[] centre = new float[3];
        for (int a = 0; a < 3; a++) {
            e1[a] = v[3 * tri[1] + a] - v[3 * tri[0] + a];
            e2[a] = v[3 * tri[2] + a] - v[3 * tri[0] + a];
            centre[a] = v[3 * tri[0] + a] + v[3 * tri[1] + a] + v[3 * tri[2] + a];
        }
        float nx = e1[1] * e2[2] - e1[2] * e2[1];
        float ny = e1[2] * e2[0] - e1[0] * e2[2];
        float nz = e1[0] * e2[1] - e1[1] * e2[0];
        return nx * centre[0] + ny * centre[1] + nz * centre[2] > 0f;
    }

    /**
     * A distance field (SdfCollider, 2.5 cm cells) of an icosphere of 0.15 m moving up at 3 m/s from below the
     * hanging cloth, as {@link #risingBall()}. 5 mm thick, μ 0.3.
     */
    public static SdfCollider risingFieldBall() {
        try (WorkerPool pool = new WorkerPool(1)) {
            SdfCollider ball = SdfCollider.fromClosedMesh("fieldBall", Icosphere.of(0.15f, 3), 0.025f, 0.005f, 0.3f,
                    pool);
            ball.withMotion(ConstantVelocityMotion.translating(new float[] {0.05f, 0.7f, 0.1f},
                    new float[] {0f, 3f, 0f}));
            return ball;
        }
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
