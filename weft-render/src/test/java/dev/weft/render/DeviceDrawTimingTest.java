package dev.weft.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.scene.BuiltInScenes;
import dev.weft.core.scene.Scene;
import dev.weft.core.step.Environment;
import dev.weft.render.compute.GlslXpbdSolver;
import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What drawing from the solver's buffer saves per frame of {@code weft render --backend glsl} on the default
 * scene (64 × 64 cloth, 30 XPBD substeps a frame, 1280 × 720 with 4 samples): the frames of the two ways
 * taken in turns in one process, so a machine shared with other work slows both alike. Before: a read-back
 * every substep, the positions drawn from the host in the renderer's own context (normals on the host, the
 * vertices uploaded). After: the substeps batched (one read-back a frame, which the metrics need), the cloth
 * drawn from the storage buffer in the solver's context. Each frame: the steps, the draw and the picture's
 * read-back (PNG encoding, the same for both, is left out). Prints the milliseconds; asserts that both
 * ways end in the same state, bit for bit, and drew the same last picture on llvmpipe. Tagged slow (about
 * a minute on llvmpipe): run with -DexcludedTestGroups=none.
 */
@Tag("slow")
class DeviceDrawTimingTest {
    private static final int FRAMES = 20;
    private static final int W = 1280;
    private static final int H = 720;

    @Test
    void framesOfTheDefaultSceneDrawnFromTheDeviceAndFromTheHost() {
        Scene scene = BuiltInScenes.drape();
        Model model = scene.model();
        Environment env = scene.environment();
        float h = 1f / scene.fps() / scene.substeps();
        Camera camera = CameraFraming.forScene(scene, (float) W / H);
        double[] beforeMs = new double[FRAMES];
        double[] afterMs = new double[FRAMES];
        double[] beforeStepMs = new double[FRAMES];
        double[] afterStepMs = new double[FRAMES];
        State before = State.atRest(model);
        State after = State.atRest(model);
        int[] beforePixels;
        int[] afterPixels;
        try (GlslXpbdSolver oldSolver = new GlslXpbdSolver(scene.xpbd());
             GlslXpbdSolver newSolver = new GlslXpbdSolver(scene.xpbd())) {
            // the renderer of before, in a context of its own (as PngFrameRecorder made it)
            EglHeadlessContext own = EglHeadlessContext.create();
            OffscreenTarget ownTarget = new OffscreenTarget(W, H, 4);
            SceneRenderer ownRenderer = new SceneRenderer(model, env.colliders(), RenderStyle.defaults());
            // the renderer of after, in the solver's context
            newSolver.context().makeCurrent();
            OffscreenTarget sharedTarget = new OffscreenTarget(W, H, 4);
            SceneRenderer sharedRenderer = new SceneRenderer(model, env.colliders(), RenderStyle.defaults());
            for (int f = 0; f < FRAMES; f++) {
                long t0 = System.nanoTime();
                own.makeCurrent();
                for (int s = 0; s < scene.substeps(); s++) {
                    oldSolver.step(model, before, env, h);
                }
                beforeStepMs[f] = (System.nanoTime() - t0) / 1e6;
                ownRenderer.draw(ownTarget, before.positions(), camera);
                ownTarget.readImage();
                long t1 = System.nanoTime();
                newSolver.context().makeCurrent();
                newSolver.steps(model, after, env, h, scene.substeps());
                afterStepMs[f] = (System.nanoTime() - t1) / 1e6;
                sharedRenderer.draw(sharedTarget, newSolver, camera);
                sharedTarget.readImage();
                long t2 = System.nanoTime();
                beforeMs[f] = (t1 - t0) / 1e6;
                afterMs[f] = (t2 - t1) / 1e6;
            }
            afterPixels = sharedTarget.readImage().getRGB(0, 0, W, H, null, 0, W);
            sharedRenderer.close();
            sharedTarget.close();
            newSolver.context().releaseCurrent();
            own.makeCurrent();
            beforePixels = ownTarget.readImage().getRGB(0, 0, W, H, null, 0, W);
            ownRenderer.close();
            ownTarget.close();
            own.close();
            assertThat(oldSolver.readBacks()).isEqualTo((long) FRAMES * scene.substeps());
            assertThat(newSolver.readBacks()).isEqualTo(FRAMES);
            if (newSolver.describeDevice().contains("llvmpipe")) {
                assertThat(afterPixels).as("the last picture").isEqualTo(beforePixels);
            }
        }
        assertThat(after.positions()).isEqualTo(before.positions());
        assertThat(after.velocities()).isEqualTo(before.velocities());
        System.out.printf(Locale.ROOT, "default scene, %d frames at %d x %d, 4 samples, frames in turns (ms a frame: "
                + "mean, median, best; the first frame, compiling shaders, left out):%n", FRAMES, W, H);
        System.out.println("  before (read back every substep, host draw): " + summary(beforeMs) + "; the steps "
                + summary(beforeStepMs));
        System.out.println("  after (read back once a frame, device draw):  " + summary(afterMs) + "; the steps "
                + summary(afterStepMs));
    }

    private static String summary(double[] ms) {
        double[] rest = Arrays.copyOfRange(ms, 1, ms.length);
        Arrays.sort(rest);
        double mean = Arrays.stream(rest).average().orElse(Double.NaN);
        return String.format(Locale.ROOT, "%.1f, %.1f, %.1f ms (%.2f /s)", mean, rest[rest.length / 2], rest[0],
                1e3 / mean);
    }
}
