package dev.weft.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.collide.Collider;
import dev.weft.core.geom.SmoothNormals;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.State;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.step.Environment;
import dev.weft.core.testing.DeviceTestScenes;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.render.compute.GlslMassSpringSolver;
import dev.weft.render.compute.GlslXpbdSolver;
import java.awt.image.BufferedImage;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The renderer drawing straight from a GLSL solver's storage buffer (no read-back): the cloth's positions
 * as the vertex array, its smooth normals computed by a compute shader, the frame's box the only thing
 * read back. Against the host path: the same renderer drawing the state the solver read back.
 *
 * <p>On Mesa's llvmpipe (which the test command installs) the normals shader gives {@link SmoothNormals}'
 * bits (the host's float operations in its order, 'precise', the reciprocal square root in double as in
 * Java; llvmpipe rounds correctly), so the device-drawn picture is the host-drawn one pixel for pixel
 * (measured: 0 pixels differ). Elsewhere the normals are held to {@link #NORMAL_TOLERANCE} and the pictures
 * to {@link #CHANNEL_TOLERANCE}.
 *
 * <p>The scene: a free 24 × 24 cloth dropped 0.1 m above a ball on the floor (distance bending, no
 * tethers), 20 frames of 10 XPBD substeps of 1/600 s: it lands on the ball and folds over it, so its
 * normals point every way.
 */
class DeviceDrawTest {
    private static final int W = 320;
    private static final int H = 180;
    private static final float H_STEP = 1f / 600f;
    private static final int SUBSTEPS = 10;
    private static final int FRAMES = 20;
    /**
     * Per normal component off llvmpipe: a driver may compute the square root and division to 2.5 ulp (GLSL),
     * and a vertex sums up to six face normals of length one, so the error is a few ulp of 1 (1.2e-7 each):
     * 1e-6 is about 8 ulp.
     */
    private static final float NORMAL_TOLERANCE = 1e-6f;
    /**
     * Per colour channel off llvmpipe: normals within 1e-6 move the shading by far less than one 8-bit level,
     * but a value near a level's boundary can round to the next one.
     */
    private static final int CHANNEL_TOLERANCE = 2;

    private static final Camera CAMERA = new Camera(new float[] {0f, 1.1f, 1.4f}, new float[] {0f, 0.3f, 0f}, 40f);

    private static Model cloth() {
        return DeviceTestScenes.droppedCloth(new ModelBuilder().tethers(false).bendingModel(BendingModel.DISTANCE),
                24, 0.5f);
    }

    private static Environment scene() {
        return new Environment(new float[] {0f, -9.81f, 0f}, List.of(DeviceTestScenes.floor(),
                DeviceTestScenes.ball()));
    }

    private static Collider[] colliders(Environment env) {
        return env.colliders();
    }

    /** The solver's context is the one the renderer draws in. */
    private static boolean llvmpipe(GlslXpbdSolver solver) {
        return solver.describeDevice().contains("llvmpipe");
    }

    @Test
    void thePictureDrawnFromTheSolversBufferIsThePictureOfItsReadBackState() {
        Model model = cloth();
        Environment env = scene();
        try (GlslXpbdSolver solver = new GlslXpbdSolver(XpbdSettings.defaults())) {
            State state = State.atRest(model);
            float[] earlier = null;
            for (int f = 1; f <= FRAMES; f++) {
                solver.steps(model, state, env, H_STEP, SUBSTEPS);
                if (f == FRAMES - 5) {
                    earlier = state.positions().clone();
                }
            }
            solver.context().makeCurrent();
            for (RenderStyle style : List.of(RenderStyle.defaults(),
                    RenderStyle.defaults().withWireframe(true).withParticles(true).withChecker(true))) {
                try (OffscreenTarget target = new OffscreenTarget(W, H, 4);
                     SceneRenderer renderer = new SceneRenderer(model, colliders(env), style)) {
                    assertThat(renderer.canDrawFromDevice()).isTrue();
                    renderer.draw(target, solver, CAMERA);
                    BufferedImage device = copy(target.readImage());
                    renderer.draw(target, state.positions(), CAMERA);
                    BufferedImage host = copy(target.readImage());
                    renderer.draw(target, earlier, CAMERA);
                    BufferedImage before = copy(target.readImage());
                    // and back: the device's vertex arrays again after the host's
                    renderer.draw(target, solver, CAMERA);
                    BufferedImage again = copy(target.readImage());

                    assertThat(differingPixels(before, host)).as("five frames earlier the cloth was elsewhere: "
                            + "the comparison can tell").isGreaterThan(200);
                    if (llvmpipe(solver)) {
                        assertThat(differingPixels(device, host)).as("llvmpipe: pixel for pixel").isZero();
                        assertThat(differingPixels(again, host)).isZero();
                    } else {
                        assertThat(largestChannelDifference(device, host)).isLessThanOrEqualTo(CHANNEL_TOLERANCE);
                        assertThat(largestChannelDifference(again, host)).isLessThanOrEqualTo(CHANNEL_TOLERANCE);
                    }
                }
            }
            solver.context().releaseCurrent();
        }
    }

    @Test
    void theNormalsComputedOnTheDeviceAreTheHosts() {
        Model model = cloth();
        Environment env = scene();
        try (GlslXpbdSolver solver = new GlslXpbdSolver(XpbdSettings.defaults())) {
            State state = State.atRest(model);
            for (int f = 1; f <= FRAMES; f++) {
                solver.steps(model, state, env, H_STEP, SUBSTEPS);
            }
            solver.context().makeCurrent();
            float[] device;
            try (OffscreenTarget target = new OffscreenTarget(W, H, 1);
                 SceneRenderer renderer = new SceneRenderer(model, colliders(env), RenderStyle.defaults())) {
                renderer.draw(target, solver, CAMERA);
                device = renderer.deviceNormals();
            }
            solver.context().releaseCurrent();
            float[] host = new SmoothNormals(model.particleCount()).compute(state.positions(),
                    model.drawnSurface().triangles());
            float largest = 0f;
            float lowestUp = 1f;
            for (int i = 0; i < host.length; i++) {
                largest = Math.max(largest, Math.abs(device[i] - host[i]));
            }
            for (int i = 1; i < host.length; i += 3) {
                lowestUp = Math.min(lowestUp, Math.abs(host[i]));
            }
            System.out.printf("device normals: largest difference from the host's %.3g%n", largest);
            assertThat(lowestUp).as("the cloth folds over the ball: normals far from vertical").isLessThan(0.5f);
            if (llvmpipe(solver)) {
                for (int i = 0; i < host.length; i++) {
                    assertThat(Float.floatToRawIntBits(device[i])).as("normal component %d", i)
                            .isEqualTo(Float.floatToRawIntBits(host[i]));
                }
            } else {
                assertThat(largest).isLessThanOrEqualTo(NORMAL_TOLERANCE);
            }
        }
    }

    /**
     * Held on the device, the frames are drawn from the solver's buffer with no read-back (the counter stays
     * 0); the state read back at the end is the always-read-back run's, bit for bit (the read-backs never
     * changed the arithmetic); batched substeps read back once a frame, single steps once a substep.
     */
    @Test
    void heldStepsReadNothingBackUntilAskedAndEndWhereTheReadBackRunEnds() {
        Model model = cloth();
        Environment env = scene();
        State perStep = State.atRest(model);
        State perFrame = State.atRest(model);
        State held = State.atRest(model);
        float[] start = held.positions().clone();
        try (GlslXpbdSolver everyStep = new GlslXpbdSolver(XpbdSettings.defaults())) {
            for (int k = 0; k < FRAMES * SUBSTEPS; k++) {
                everyStep.step(model, perStep, env, H_STEP);
            }
            assertThat(everyStep.readBacks()).isEqualTo((long) FRAMES * SUBSTEPS);
        }
        try (GlslXpbdSolver everyFrame = new GlslXpbdSolver(XpbdSettings.defaults())) {
            for (int f = 1; f <= FRAMES; f++) {
                everyFrame.steps(model, perFrame, env, H_STEP, SUBSTEPS);
            }
            assertThat(everyFrame.readBacks()).as("one read-back a frame, not one a substep").isEqualTo(FRAMES);
        }
        assertBitwiseEqual(perFrame, perStep);

        try (GlslXpbdSolver solver = new GlslXpbdSolver(XpbdSettings.defaults())) {
            solver.holdStateOnDevice(true);
            BufferedImage last;
            // the recorder's renderer, drawing in the solver's context each frame
            solver.steps(model, held, env, H_STEP, SUBSTEPS);
            solver.context().makeCurrent();
            try (OffscreenTarget target = new OffscreenTarget(W, H, 4);
                 SceneRenderer renderer = new SceneRenderer(model, colliders(env), RenderStyle.defaults())) {
                for (int f = 2; f <= FRAMES; f++) {
                    renderer.draw(target, solver, CAMERA);
                    solver.steps(model, held, env, H_STEP, SUBSTEPS);
                }
                renderer.draw(target, solver, CAMERA);
                last = copy(target.readImage());
                assertThat(solver.readBacks()).as("nothing read back while only drawn").isZero();
                assertThat(solver.hostStateCurrent()).isFalse();
                assertThat(held.positions()).as("the host's copy untouched").containsExactly(start);
                assertThat(held.time()).isEqualTo(perStep.time());
                assertThat(held.steps()).isEqualTo(perStep.steps());

                solver.readBack(held);
                solver.readBack(held); // current already: no second transfer
                assertThat(solver.readBacks()).isEqualTo(1);
                assertThat(solver.hostStateCurrent()).isTrue();
                assertBitwiseEqual(held, perStep);

                renderer.draw(target, held.positions(), CAMERA);
                BufferedImage host = copy(target.readImage());
                if (llvmpipe(solver)) {
                    assertThat(differingPixels(last, host)).as("the last held frame's picture").isZero();
                } else {
                    assertThat(largestChannelDifference(last, host)).isLessThanOrEqualTo(CHANNEL_TOLERANCE);
                }
            }
            solver.context().releaseCurrent();
        }
    }

    /**
     * A solver binds a model before its first step (the mass-spring solver's stable-step query does): its
     * buffer then holds no positions yet, and a recorder must draw that frame from the host's.
     */
    @Test
    void aSolverHoldsNoPositionsToDrawUntilItSteps() {
        Model model = cloth();
        try (GlslMassSpringSolver solver = new GlslMassSpringSolver(MassSpringSettings.defaults())) {
            double stable = solver.stableStep(model);
            assertThat(stable).isPositive();
            assertThat(solver.positionsBuffer()).as("bound").isNotZero();
            assertThat(solver.heldParticles()).as("but not written").isZero();
            solver.step(model, State.atRest(model), scene(), H_STEP);
            assertThat(solver.heldParticles()).isEqualTo(model.particleCount());
        }
    }

    private static void assertBitwiseEqual(State actual, State expected) {
        float[] x = actual.positions();
        float[] v = actual.velocities();
        for (int i = 0; i < x.length; i++) {
            assertThat(Float.floatToRawIntBits(x[i])).as("x[%d]", i)
                    .isEqualTo(Float.floatToRawIntBits(expected.positions()[i]));
            assertThat(Float.floatToRawIntBits(v[i])).as("v[%d]", i)
                    .isEqualTo(Float.floatToRawIntBits(expected.velocities()[i]));
        }
        float travel = 0f;
        for (int i = 1; i < x.length; i += 3) {
            travel = Math.max(travel, 0.5f - x[i]);
        }
        assertThat(travel).as("the cloth fell and landed, not a still one").isGreaterThan(0.05f);
    }

    private static BufferedImage copy(BufferedImage image) {
        BufferedImage c = new BufferedImage(image.getWidth(), image.getHeight(), BufferedImage.TYPE_INT_RGB);
        c.getGraphics().drawImage(image, 0, 0, null);
        return c;
    }

    private static int differingPixels(BufferedImage a, BufferedImage b) {
        int n = 0;
        for (int y = 0; y < a.getHeight(); y++) {
            for (int x = 0; x < a.getWidth(); x++) {
                if (a.getRGB(x, y) != b.getRGB(x, y)) {
                    n++;
                }
            }
        }
        return n;
    }

    private static int largestChannelDifference(BufferedImage a, BufferedImage b) {
        int largest = 0;
        for (int y = 0; y < a.getHeight(); y++) {
            for (int x = 0; x < a.getWidth(); x++) {
                int p = a.getRGB(x, y);
                int q = b.getRGB(x, y);
                for (int shift = 0; shift < 24; shift += 8) {
                    largest = Math.max(largest, Math.abs(((p >> shift) & 0xff) - ((q >> shift) & 0xff)));
                }
            }
        }
        return largest;
    }
}
