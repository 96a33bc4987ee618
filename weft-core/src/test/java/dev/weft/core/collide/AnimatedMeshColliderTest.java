package dev.weft.core.collide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.InvalidInputException;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Seed 001 §5.5: a kinematic body from a sequence of OBJ frames, and attachment points on it. */
class AnimatedMeshColliderTest {
    private static final float THICKNESS = 0.01f;

    /** A square of (cells + 1)² vertices, |x|, |z| ≤ half, at height y, turned by angle about y. */
    private static String squareObj(float half, int cells, float y, float angle) {
        StringBuilder sb = new StringBuilder();
        float c = (float) Math.cos(angle);
        float s = (float) Math.sin(angle);
        for (int r = 0; r <= cells; r++) {
            for (int k = 0; k <= cells; k++) {
                float x = -half + 2 * half * k / cells;
                float z = -half + 2 * half * r / cells;
                sb.append("v ").append(c * x + s * z).append(' ').append(y).append(' ').append(-s * x + c * z).append('\n');
            }
        }
        for (int r = 0; r < cells; r++) {
            for (int k = 0; k < cells; k++) {
                int a = r * (cells + 1) + k + 1;
                int b = a + 1;
                int d = a + cells + 1;
                int e = d + 1;
                sb.append("f ").append(a).append(' ').append(d).append(' ').append(b).append('\n');
                sb.append("f ").append(b).append(' ').append(d).append(' ').append(e).append('\n');
            }
        }
        return sb.toString();
    }

    private static List<Path> write(Path dir, List<String> objs) throws IOException {
        List<Path> files = new ArrayList<>();
        for (int k = 0; k < objs.size(); k++) {
            Path p = dir.resolve(String.format("frame_%03d.obj", k));
            Files.writeString(p, objs.get(k));
            files.add(p);
        }
        return files;
    }

    @Test
    void framesInterpolateLinearlyAndLoopOrHold() {
        float[] v0 = {0f, 0f, 0f, 1f, 0f, 0f, 0f, 0f, 1f};
        float[] v1 = {0f, 2f, 0f, 1f, 2f, 0f, 0f, 2f, 1f};
        int[] t = {0, 1, 2};
        List<TriangleMesh> frames = List.of(new TriangleMesh(v0, null, t), new TriangleMesh(v1, null, t));
        float[] out = new float[9];
        AnimatedMeshCollider hold = new AnimatedMeshCollider("a", frames, 10f, false, THICKNESS, 0f);
        hold.positionsAt(0.025, out); // a quarter of the way from frame 0 to frame 1
        assertThat(out[1]).isCloseTo(0.5f, within(1e-6f));
        hold.positionsAt(5.0, out);
        assertThat(out[1]).isEqualTo(2f);
        AnimatedMeshCollider loop = new AnimatedMeshCollider("a", frames, 10f, true, THICKNESS, 0f);
        loop.positionsAt(0.15, out); // half way from frame 1 back to frame 0
        assertThat(out[1]).isCloseTo(1f, within(1e-5f));
    }

    @Test
    void aFrameWithAnotherTopologyIsRejectedNamingItsFile(@TempDir Path dir) throws IOException {
        List<Path> files = write(dir, List.of(squareObj(0.5f, 4, 0f, 0f), squareObj(0.5f, 5, 0f, 0f)));
        assertThatThrownBy(() -> AnimatedMeshCollider.fromObjFrames("body", files, 30f, false, THICKNESS, 0f))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("frame_001.obj")
                .hasMessageContaining("vertices");
    }

    /** A platform read from OBJ frames rises at 0.5 m/s and lifts the cloth lying on it. */
    @Test
    void risingPlatformFromObjFramesLiftsTheCloth(@TempDir Path dir) throws IOException {
        List<String> objs = new ArrayList<>();
        for (int k = 0; k <= 5; k++) {
            objs.add(squareObj(0.5f, 6, 0.1f * k, 0f));
        }
        AnimatedMeshCollider platform = AnimatedMeshCollider.fromObjFrames("platform", write(dir, objs), 5f, false,
                THICKNESS, 0.5f);
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("cloth", 12, 12, 0.4f, 0.4f).withOrigin(-0.2f, THICKNESS, -0.2f));
        Model m = b.build();
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of(platform));
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m), new XpbdSolver(XpbdSettings.defaults(), pool), env,
                     4)) {
            float[] x = sim.state().positions();
            for (int f = 0; f < 72; f++) {
                sim.advance(1f / 60f);
                float top = (float) Math.min(0.5, 0.5 * sim.state().time());
                for (int i = 0; i < m.particleCount(); i++) {
                    assertThat(x[3 * i + 1] - top).as("frame %d particle %d above the platform", f, i)
                            .isGreaterThanOrEqualTo(0.99f * THICKNESS);
                }
            }
            // lifted by 0.5 m and resting on the platform
            double mean = 0;
            for (int i = 0; i < m.particleCount(); i++) {
                mean += x[3 * i + 1];
            }
            assertThat(mean / m.particleCount()).isCloseTo(0.5 + THICKNESS, within(0.005));
        }
    }

    /** A mesh ball animated at 10 m/s through a hanging cloth, one substep per 60 Hz frame. */
    @Test
    void fastAnimatedBallPushesTheClothWithoutPassingThrough() {
        TriangleMesh ball = Icosphere.of(0.15f, 2);
        List<TriangleMesh> frames = new ArrayList<>();
        for (int k = 0; k < 3; k++) {
            float[] v = ball.positions().clone();
            for (int i = 0; i < v.length; i += 3) {
                v[i + 1] += 1f;
                v[i + 2] += -0.5f + k; // 1 m per frame at 10 fps: 10 m/s
            }
            frames.add(new TriangleMesh(v, null, ball.triangles()));
        }
        AnimatedMeshCollider body = new AnimatedMeshCollider("ball", frames, 10f, false, THICKNESS, 0.2f);
        ModelBuilder b = new ModelBuilder();
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", 20, 20, 0.6f, 0.6f).withOrigin(-0.3f, 1.3f, 0f)
                .withAxes(GridClothSpec.VERTICAL[0], GridClothSpec.VERTICAL[1]));
        b.pinCorners(cloth, "top-left", "top-right");
        Model m = b.build();
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of(body));
        int middle = cloth.gridParticle(10, 10);
        // the icosphere's faces are within 0.15 * 0.99 of the centre (2 subdivisions): the inner ball
        float inner = 0.14f;
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m), new XpbdSolver(XpbdSettings.defaults(), pool), env,
                     1)) {
            float[] x = sim.state().positions();
            float maxPush = 0f;
            for (int f = 0; f < 9; f++) {
                float[] before = x.clone();
                float c0 = -0.5f + 10f * (float) sim.state().time();
                sim.advance(1f / 60f);
                float c1 = -0.5f + 10f * (float) sim.state().time();
                for (int i = 0; i < m.particleCount(); i++) {
                    // every particle's path relative to the ball stays outside its inscribed ball
                    for (int k = 0; k <= 20; k++) {
                        float t = k / 20f;
                        float dx = before[3 * i] + t * (x[3 * i] - before[3 * i]);
                        float dy = before[3 * i + 1] + t * (x[3 * i + 1] - before[3 * i + 1]) - 1f;
                        float dz = before[3 * i + 2] + t * (x[3 * i + 2] - before[3 * i + 2]) - (c0 + t * (c1 - c0));
                        assertThat(Math.sqrt(dx * dx + dy * dy + dz * dz)).as("frame %d particle %d", f, i)
                                .isGreaterThan(inner);
                    }
                }
                maxPush = Math.max(maxPush, x[3 * middle + 2]);
                if (c1 < 0.3f) {
                    // until the cloth, held at its corners, has to slip off the ball's sides
                    assertThat(x[3 * middle + 2]).as("frame %d: the middle stays ahead of the ball", f)
                            .isGreaterThan(c1);
                }
            }
            assertThat(maxPush).isGreaterThan(0.3f);
        }
    }

    /** Two pinned corners attached to a turning body follow their body points; the cloth hangs from them. */
    @Test
    void attachedParticlesFollowTheirBodyPoints() {
        List<TriangleMesh> frames = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            dev.weft.core.mesh.TriangleMesh sq = dev.weft.core.mesh.ObjReader.read(
                    new java.io.BufferedReader(new java.io.StringReader(squareObj(0.4f, 2, 1f, 0.4f * k))), "frame" + k);
            frames.add(sq);
        }
        ModelBuilder b = new ModelBuilder();
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("curtain", 10, 10, 0.4f, 0.4f)
                .withOrigin(-0.2f, 0.99f, 0.2f).withAxes(GridClothSpec.VERTICAL[0], GridClothSpec.VERTICAL[1]));
        b.pinCorners(cloth, "top-left", "top-right");
        Model m = b.build();
        int left = cloth.gridParticle(0, 0);
        int right = cloth.gridParticle(0, 9);
        AnimatedMeshCollider body = new AnimatedMeshCollider("turntable", frames, 2f, false, THICKNESS, 0f)
                .attach(m, left, new float[] {-0.2f, 1f, 0.2f}).attach(m, right, new float[] {0.2f, 1f, 0.2f});
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of(body));
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m), new XpbdSolver(XpbdSettings.defaults(), pool), env,
                     8)) {
            float[] x = sim.state().positions();
            for (int f = 0; f < 60; f++) {
                sim.advance(1f / 60f);
                // frames turn the body by 0.4 rad every 0.5 s and vertices move linearly between frames:
                // the attached corner sits on the chord between its keyframe positions
                double ft = 2.0 * sim.state().time();
                int k = Math.min(2, (int) Math.floor(ft));
                float u = (float) Math.min(1.0, ft - k);
                for (float cornerX : new float[] {-0.2f, 0.2f}) {
                    float c0 = (float) Math.cos(0.4 * k);
                    float s0 = (float) Math.sin(0.4 * k);
                    float c1 = (float) Math.cos(0.4 * (k + 1));
                    float s1 = (float) Math.sin(0.4 * (k + 1));
                    float ex = (1 - u) * (c0 * cornerX + s0 * 0.2f) + u * (c1 * cornerX + s1 * 0.2f);
                    float ez = (1 - u) * (-s0 * cornerX + c0 * 0.2f) + u * (-s1 * cornerX + c1 * 0.2f);
                    int p = cornerX < 0 ? left : right;
                    assertThat(x[3 * p]).isCloseTo(ex, within(1e-5f));
                    assertThat(x[3 * p + 1]).isCloseTo(1f, within(1e-5f));
                    assertThat(x[3 * p + 2]).isCloseTo(ez, within(1e-5f));
                }
            }
            // the rest hangs below the attachment points
            assertThat(x[3 * cloth.gridParticle(9, 5) + 1]).isLessThan(0.7f);
        }
        // attaching a free particle is an error naming it
        assertThatThrownBy(() -> body.attach(m, cloth.gridParticle(5, 5), new float[] {0f, 1f, 0f}))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("must be pinned");
    }
}
