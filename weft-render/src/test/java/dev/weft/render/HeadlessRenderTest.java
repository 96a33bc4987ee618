package dev.weft.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.weft.core.collide.AnimatedMeshCollider;
import dev.weft.core.collide.BoxCollider;
import dev.weft.core.collide.CapsuleCollider;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.CylinderCollider;
import dev.weft.core.collide.EllipsoidCollider;
import dev.weft.core.collide.FunnelCollider;
import dev.weft.core.collide.MeshCollider;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.Projectile;
import dev.weft.core.collide.RectangleCollider;
import dev.weft.core.collide.RigidCollider;
import dev.weft.core.collide.SdfCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelEdit;
import dev.weft.core.model.RopeSpec;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.scene.BuiltInScenes;
import dev.weft.core.scene.Scene;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.Solvers;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Renders through EGL without a display (Mesa's llvmpipe on a machine without a GPU) and checks
 * what the pictures must show. Fails, never skips, when EGL cannot start: the test command installs
 * Mesa. Small pictures keep the software rasteriser fast.
 */
class HeadlessRenderTest {
    private static final int W = 320;
    private static final int H = 180;

    private static EglHeadlessContext context;
    private static OffscreenTarget target;

    @BeforeAll
    static void startGl() {
        try {
            context = EglHeadlessContext.create();
        } catch (RenderUnavailableException e) {
            fail("headless OpenGL is unavailable, so the renderer cannot be tested: " + e.getMessage(), e);
        }
        target = new OffscreenTarget(W, H, 4);
    }

    @AfterAll
    static void stopGl() {
        if (target != null) {
            target.close();
        }
        if (context != null) {
            context.close();
        }
    }

    private static BufferedImage render(Model model, Collider[] colliders, RenderStyle style, float[] positions,
                                        Camera camera) {
        try (SceneRenderer r = new SceneRenderer(model, colliders, style)) {
            r.draw(target, positions, camera);
        }
        return copy(target.readImage());
    }

    private static BufferedImage copy(BufferedImage image) {
        BufferedImage c = new BufferedImage(image.getWidth(), image.getHeight(), BufferedImage.TYPE_INT_RGB);
        c.getGraphics().drawImage(image, 0, 0, null);
        return c;
    }

    /** Cloth pixels: the first body's colour is a saturated red, front and back; nothing else in the scenes is. */
    private static boolean isCloth(int rgb) {
        int r = (rgb >> 16) & 0xff;
        int g = (rgb >> 8) & 0xff;
        int b = rgb & 0xff;
        return r > 40 && r > 1.6 * g && r > 1.6 * b;
    }

    private static double clothShare(BufferedImage img) {
        long n = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                n += isCloth(img.getRGB(x, y)) ? 1 : 0;
            }
        }
        return (double) n / (img.getWidth() * img.getHeight());
    }

    /** Mean image row of the cloth pixels (grows downwards). */
    private static double clothRow(BufferedImage img) {
        double sum = 0;
        long n = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                if (isCloth(img.getRGB(x, y))) {
                    sum += y;
                    n++;
                }
            }
        }
        return sum / n;
    }

    private static double luminance(int rgb) {
        return 0.2126 * ((rgb >> 16) & 0xff) + 0.7152 * ((rgb >> 8) & 0xff) + 0.0722 * (rgb & 0xff);
    }

    /** Mean luminance (0..255) of a 5 × 5 window around the pixel where a world point appears. */
    private static double luminanceAt(BufferedImage img, Camera camera, float x, float y, float z) {
        int[] p = pixelOf(camera, x, y, z);
        double sum = 0;
        for (int dy = -2; dy <= 2; dy++) {
            for (int dx = -2; dx <= 2; dx++) {
                sum += luminance(img.getRGB(p[0] + dx, p[1] + dy));
            }
        }
        return sum / 25;
    }

    private static int[] pixelOf(Camera camera, float x, float y, float z) {
        float[] view = camera.view(new float[16]);
        float[] proj = camera.projection((float) W / H, 0.01f, 100f, new float[16]);
        float[] clip = Mat4.transform(Mat4.multiply(proj, view, new float[16]), x, y, z, new float[4]);
        int px = Math.round((clip[0] / clip[3] * 0.5f + 0.5f) * W);
        int py = Math.round((0.5f - clip[1] / clip[3] * 0.5f) * H);
        assertThat(px).as("x pixel of (%s, %s, %s)", x, y, z).isBetween(2, W - 3);
        assertThat(py).as("y pixel of (%s, %s, %s)", x, y, z).isBetween(2, H - 3);
        return new int[] {px, py};
    }

    private static void save(BufferedImage img, String name) throws Exception {
        Path dir = Path.of("target", "render-test");
        Files.createDirectories(dir);
        PngFiles.write(img, dir.resolve(name + ".png"));
    }

    @Test
    void defaultSceneShowsTheClothAndChangesAsItFalls() throws Exception {
        Scene scene = BuiltInScenes.byName(BuiltInScenes.DEFAULT);
        Camera camera = CameraFraming.forScene(scene, (float) W / H);
        Model model = scene.model();
        Collider[] colliders = scene.environment().colliders();
        BufferedImage first;
        BufferedImage later;
        try (SceneRenderer r = new SceneRenderer(model, colliders, RenderStyle.defaults());
             WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(model, State.atRest(model), Solvers.create("xpbd", scene.xpbd(), pool),
                     scene.environment(), scene.substeps())) {
            r.draw(target, sim.state().positions(), camera);
            first = copy(target.readImage());
            for (int f = 0; f < 30; f++) {
                sim.advance(1f / scene.fps());
            }
            r.draw(target, sim.state().positions(), camera);
            later = copy(target.readImage());
        }
        save(first, "drape-first");
        save(later, "drape-later");

        // A 1 m cloth seen whole from about 2 m: several percent of the picture, and far from all of it.
        double share = clothShare(first);
        assertThat(share).as("share of cloth-coloured pixels in the first frame").isBetween(0.03, 0.6);
        // After 0.5 s the free edge has swung down: the cloth is still in view and lower in the picture.
        assertThat(clothShare(later)).isGreaterThan(0.02);
        assertThat(clothRow(later)).as("mean row of the cloth after 0.5 s vs the first frame")
                .isGreaterThan(clothRow(first) + 5);
        long changed = 0;
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                if (Math.abs(luminance(first.getRGB(x, y)) - luminance(later.getRGB(x, y))) > 20) {
                    changed++;
                }
            }
        }
        assertThat((double) changed / (W * H)).as("share of pixels that changed as the cloth fell")
                .isGreaterThan(0.02);
    }

    @Test
    void theCheckerSplitsTheClothIntoLightAndDarkSquaresOfItsOwnHue() throws Exception {
        // a flat 1 m cloth seen from above at 2 m: plain, its cloth pixels are nearly one shade; with the
        // checker (16 squares across, dark squares at 0.62 of the colour) half of them are darker by
        // about that factor, and all stay the body's red (the colour tests keep finding the cloth)
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("cloth", 33, 33, 1f, 1f).withOrigin(-0.5f, 0f, -0.5f));
        Model model = b.build();
        Camera camera = new Camera(new float[] {0f, 2f, 0.01f}, new float[] {0f, 0f, 0f}, 40f);
        BufferedImage plain = render(model, new Collider[0], RenderStyle.defaults(), model.restPositions(), camera);
        BufferedImage checker = render(model, new Collider[0], RenderStyle.defaults().withChecker(true),
                model.restPositions(), camera);
        double plainShare = clothShare(plain);
        assertThat(plainShare).isGreaterThan(0.1);
        assertThat(clothShare(checker)).isCloseTo(plainShare, org.assertj.core.data.Offset.offset(0.02));
        assertThat(darkClothShare(plain)).isLessThan(0.05);
        assertThat(darkClothShare(checker)).isBetween(0.35, 0.65);
    }

    @Test
    void aBodysTextureReplacesItsColourOverItsTextureCoordinates() throws Exception {
        // the flat cloth from above with an image of a blue and a green half: its pixels are blue or green
        // in about equal shares, and none shows the body's own red
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("cloth", 33, 33, 1f, 1f).withOrigin(-0.5f, 0f, -0.5f));
        Model model = b.build();
        Camera camera = new Camera(new float[] {0f, 2f, 0.01f}, new float[] {0f, 0f, 0f}, 40f);
        BufferedImage image = new BufferedImage(64, 64, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < 64; y++) {
            for (int x = 0; x < 64; x++) {
                image.setRGB(x, y, x < 32 ? 0x2040e0 : 0x20c040);
            }
        }
        BufferedImage img;
        try (SceneRenderer r = new SceneRenderer(model, new Collider[0], RenderStyle.defaults().withChecker(true))) {
            r.setTexture(0, image);
            r.draw(target, model.restPositions(), camera);
            img = copy(target.readImage());
        }
        int blue = 0;
        int green = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int rgb = img.getRGB(x, y);
                int r = (rgb >> 16) & 0xff;
                int g = (rgb >> 8) & 0xff;
                int bl = rgb & 0xff;
                blue += bl > 60 && bl > 1.6 * r && bl > 1.4 * g ? 1 : 0;
                green += g > 60 && g > 1.6 * r && g > 1.4 * bl ? 1 : 0;
            }
        }
        double total = img.getWidth() * img.getHeight();
        assertThat(blue / total).as("blue half").isGreaterThan(0.05);
        assertThat(green / total).as("green half").isGreaterThan(0.05);
        assertThat((double) blue / green).isBetween(0.7, 1.4);
        assertThat(clothShare(img)).as("the body's red").isLessThan(0.005);
        assertThatThrownBy(() -> {
            try (SceneRenderer r = new SceneRenderer(model, new Collider[0], RenderStyle.defaults())) {
                r.setTexture(1, image);
            }
        }).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no body 1");
    }

    /** Of the cloth's pixels, the share darker than 0.8 of their median luminance. */
    private static double darkClothShare(BufferedImage img) {
        java.util.List<Double> l = new java.util.ArrayList<>();
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                if (isCloth(img.getRGB(x, y))) {
                    l.add(luminance(img.getRGB(x, y)));
                }
            }
        }
        java.util.Collections.sort(l);
        double bright = l.get((int) (0.9 * (l.size() - 1)));
        return l.stream().filter(v -> v < 0.8 * bright).count() / (double) l.size();
    }

    @Test
    void theFloorIsDarkerInTheSpheresShadowThanBesideIt() throws Exception {
        // A sphere over the floor, the key light straight above it: the floor under the sphere is in
        // shadow, a point 0.8 m aside is lit. A small cloth far off to the side keeps the model non-empty.
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("cloth", 4, 4, 0.2f, 0.2f).withOrigin(-1.4f, 0.3f, -1.4f));
        Model model = b.build();
        Collider[] colliders = {new SphereCollider("ball", new float[] {0f, 0.5f, 0f}, 0.2f, 0f, 0f),
            PlaneCollider.floor(0f, 0f, 0f)};
        Lighting light = new Lighting(new float[] {0f, 3f, 0f}, new float[] {1f, 1f, 1f},
                new float[] {3f, 2f, -2f}, new float[] {0.2f, 0.2f, 0.2f}, new float[] {0.15f, 0.15f, 0.15f});
        Camera camera = new Camera(new float[] {0f, 1.5f, 2.5f}, new float[] {0f, 0.2f, 0f}, 40f);
        BufferedImage img = render(model, colliders, RenderStyle.defaults().withLighting(light),
                model.restPositions(), camera);
        save(img, "shadow");
        // sample cell centres (grid lines every 0.1 m) so no line darkens either sample
        double shadowed = luminanceAt(img, camera, 0.05f, 0f, 0.05f);
        double lit = luminanceAt(img, camera, 0.85f, 0f, 0.05f);
        // The shadowed floor keeps only ambient + fill (0.35 of the key's 1.0 before gamma); after the
        // 1/2.2 gamma that is about 0.6 of the lit brightness; 0.75 leaves room for the soft edge filter.
        assertThat(shadowed).as("floor luminance in the shadow vs lit beside it (%.1f)", lit).isLessThan(0.75 * lit);
        assertThat(lit).as("lit floor luminance").isGreaterThan(80);
    }

    @Test
    void theBackFaceIsLitFromItsOwnSideNotThroughTheCloth() throws Exception {
        // A horizontal cloth; the camera and both lights below it look at its underside.
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("cloth", 8, 8, 1f, 1f).withOrigin(-0.5f, 1f, -0.5f));
        Model model = b.build();
        float[] x = model.restPositions();
        int[] t = model.triangles();
        // which side is the front: the first face's winding normal (b − a) × (c − a)
        float e1y = x[3 * t[1] + 1] - x[3 * t[0] + 1];
        float[] e1 = {x[3 * t[1]] - x[3 * t[0]], e1y, x[3 * t[1] + 2] - x[3 * t[0] + 2]};
        float[] e2 = {x[3 * t[2]] - x[3 * t[0]], x[3 * t[2] + 1] - x[3 * t[0] + 1], x[3 * t[2] + 2] - x[3 * t[0] + 2]};
        float normalY = e1[2] * e2[0] - e1[0] * e2[2];
        float backSide = normalY > 0 ? -1f : 1f; // +1: the back faces up
        Camera camera = new Camera(new float[] {0.3f, 1f + backSide * 1.8f, 0.4f}, new float[] {0f, 1f, 0f}, 50f);
        Lighting sameSide = new Lighting(new float[] {-0.5f, 1f + backSide * 2f, 0.5f}, new float[] {1f, 1f, 1f},
                new float[] {1f, 1f + backSide * 1f, -1f}, new float[] {0.3f, 0.3f, 0.3f},
                new float[] {0.1f, 0.1f, 0.1f});
        Lighting otherSide = new Lighting(new float[] {-0.5f, 1f - backSide * 2f, 0.5f}, new float[] {1f, 1f, 1f},
                new float[] {1f, 1f - backSide * 1f, -1f}, new float[] {0.3f, 0.3f, 0.3f},
                new float[] {0.1f, 0.1f, 0.1f});
        Collider[] none = {};
        BufferedImage litBack = render(model, none, RenderStyle.defaults().withLighting(sameSide), x, camera);
        BufferedImage darkBack = render(model, none, RenderStyle.defaults().withLighting(otherSide), x, camera);
        save(litBack, "back-face-lit");
        save(darkBack, "back-face-unlit");
        double lit = luminanceAt(litBack, camera, 0f, 1f, 0f);
        double unlit = luminanceAt(darkBack, camera, 0f, 1f, 0f);
        // the 1 m square seen from 1.8 m with a 50° field of view fills about 15 % of the picture
        assertThat(clothShare(litBack)).as("the back face shows the cloth's (back) colour").isGreaterThan(0.1);
        // Flipped normals: lights on the viewer's side light the back face (not black) ...
        assertThat(lit).as("back face lit from its own side").isGreaterThan(40);
        // ... and lights on the other side do not shine through it: only ambient is left (0.1 against
        // 1.3 of light, about a third after gamma); unflipped normals would give the opposite order.
        assertThat(unlit).as("back face lit from the other side, vs %.1f", lit).isLessThan(0.6 * lit);
    }

    @Test
    void everyBuiltInSceneRendersWithItsFirstBodyInView() throws Exception {
        for (String name : BuiltInScenes.names()) {
            Scene scene = BuiltInScenes.byName(name);
            Camera camera = CameraFraming.forScene(scene, (float) W / H);
            BufferedImage img = render(scene.model(), scene.environment().colliders(), RenderStyle.defaults(),
                    scene.model().restPositions(), camera);
            save(img, "scene-" + name);
            // the scene's camera (its own or the automatic framing) has the first body in the picture
            assertThat(clothShare(img)).as("share of body-coloured pixels in scene %s", name).isGreaterThan(0.005);
        }
    }

    @Test
    void collidersAreDrawnAsMeshesWhereTheyAreNow() throws Exception {
        // one of every collider kind in a row, no floor; the only body is a small cloth out of view
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("cloth", 4, 4, 0.1f, 0.1f).withOrigin(0f, 5f, -3f));
        Model model = b.build();
        float y = 0.3f;
        double h = Math.sqrt(0.5);
        float[] facingCamera = {(float) h, (float) h, 0f, 0f}; // 90° about x: the rectangle's normal turns to +z
        try (WorkerPool pool = new WorkerPool(1)) {
            Collider[] colliders = {
                new SphereCollider("ball", new float[] {-1.6f, y, 0f}, 0.15f, 0f, 0f),
                new MeshCollider("crate", box(-1.2f, y, 0f, 0.13f), 0.01f, 0f),
                SdfCollider.fromClosedMesh("block", box(-0.8f, y, 0f, 0.13f), 0.02f, 0.01f, 0f, pool),
                new BoxCollider("box", new float[] {-0.4f, y, 0f}, new float[] {0.12f, 0.12f, 0.12f}, 0f, 0f),
                new CapsuleCollider("capsule", new float[] {0f, y, 0f}, 0.08f, 0.1f, 0f, 0f),
                new CylinderCollider("cylinder", new float[] {0.4f, y, 0f}, 0.12f, 0.12f, 0f, 0f),
                new EllipsoidCollider("ellipsoid", new float[] {0.8f, y, 0f}, new float[] {0.15f, 0.1f, 0.1f}, 0f,
                        0f),
                new RectangleCollider("board", new float[] {1.2f, y, 0f}, 0.14f, 0.14f, 0f, 0f)
                        .withOrientation(facingCamera),
                new FunnelCollider("funnel", new float[] {1.6f, y + 0.22f, 0f}, 0.1f, -0.3f, -0.15f, 0f, 0f)};
            Camera camera = new Camera(new float[] {0f, 0.8f, 3.2f}, new float[] {0f, y, 0f}, 45f);
            BufferedImage img = render(model, colliders, RenderStyle.defaults(), model.restPositions(), camera);
            save(img, "colliders");
            int background = img.getRGB(3, 3); // a corner: nothing there
            for (int i = 0; i < colliders.length; i++) {
                float x = -1.6f + 0.4f * i;
                assertThat(difference(img, camera, x, y, 0f, background))
                        .as("colour difference from the background at %s", colliders[i].name()).isGreaterThan(40);
            }

            // a moving sphere is drawn where it is now, not where it started
            SphereCollider ball = new SphereCollider("ball", new float[] {-0.8f, y, 0f}, 0.15f, 0f, 0f);
            ball.withVelocity(new float[] {1f, 0f, 0f}, new float[] {0f, 0f, 0f});
            try (SceneRenderer r = new SceneRenderer(model, new Collider[] {ball}, RenderStyle.defaults())) {
                ball.advance(0.0, 1.6f); // now at x = 0.8
                r.draw(target, model.restPositions(), camera);
            }
            BufferedImage moved = copy(target.readImage());
            save(moved, "moving-sphere");
            int corner = moved.getRGB(3, 3);
            assertThat(difference(moved, camera, 0.8f, y, 0f, corner)).as("at the sphere's new place").isGreaterThan(40);
            assertThat(difference(moved, camera, -0.8f, y, 0f, corner)).as("at its old place").isLessThan(10);

            // given the poses of an earlier frame (the viewer's snapshot, taken with that frame's cloth), the renderer
            // draws the sphere where they put it, not where the body has moved on to since
            SphereCollider ahead = new SphereCollider("ball", new float[] {-0.8f, y, 0f}, 0.15f, 0f, 0f);
            ahead.withVelocity(new float[] {1f, 0f, 0f}, new float[] {0f, 0f, 0f});
            float[] snapshot = new float[12];
            ahead.writePose(snapshot, 0);
            try (SceneRenderer r = new SceneRenderer(model, new Collider[] {ahead}, RenderStyle.defaults())) {
                ahead.advance(0.0, 1.6f); // the body at x = 0.8, the snapshot at -0.8
                r.setPoses(new BodyPoses() {
                    @Override
                    public void rigid(RigidCollider body, float[] out) {
                        System.arraycopy(snapshot, 0, out, 0, 12);
                    }

                    @Override
                    public void ball(Projectile ball, float[] out) {
                        BodyPoses.LIVE.ball(ball, out);
                    }

                    @Override
                    public void animated(AnimatedMeshCollider body, float[] out) {
                        BodyPoses.LIVE.animated(body, out);
                    }
                });
                r.draw(target, model.restPositions(), camera);
            }
            BufferedImage posed = copy(target.readImage());
            assertThat(difference(posed, camera, -0.8f, y, 0f, corner)).as("where the poses put it").isGreaterThan(40);
            assertThat(difference(posed, camera, 0.8f, y, 0f, corner)).as("where the body is now").isLessThan(10);
        }
    }

    private static int difference(BufferedImage img, Camera camera, float x, float y, float z, int reference) {
        int[] p = pixelOf(camera, x, y, z);
        int rgb = img.getRGB(p[0], p[1]);
        return Math.abs(((rgb >> 16) & 0xff) - ((reference >> 16) & 0xff))
                + Math.abs(((rgb >> 8) & 0xff) - ((reference >> 8) & 0xff))
                + Math.abs((rgb & 0xff) - (reference & 0xff));
    }

    /** A closed axis-aligned cube, counter-clockwise seen from outside. */
    private static TriangleMesh box(float cx, float cy, float cz, float h) {
        float[] p = new float[24];
        for (int i = 0; i < 8; i++) {
            p[3 * i] = cx + ((i & 1) == 0 ? -h : h);
            p[3 * i + 1] = cy + ((i & 2) == 0 ? -h : h);
            p[3 * i + 2] = cz + ((i & 4) == 0 ? -h : h);
        }
        int[] t = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5,
            3, 7, 5};
        return new TriangleMesh(p, null, t);
    }

    @Test
    void ropesAreDrawnAsLinesInTheirBodysColour() throws Exception {
        // a rope is a body without triangles: it must still show, as a line through its particles
        ModelBuilder b = new ModelBuilder();
        b.addRope(new RopeSpec("rope", new float[] {-0.5f, 1f, 0f, 0.5f, 1f, 0f}, 40, 0.05f));
        Model model = b.build();
        Camera camera = new Camera(new float[] {0f, 1f, 1.5f}, new float[] {0f, 1f, 0f}, 50f);
        BufferedImage img = render(model, new Collider[0], RenderStyle.defaults(), model.restPositions(), camera);
        save(img, "rope");
        // at least one pixel per picture column the metre of rope spans (it spans about half the width)
        long n = Math.round(clothShare(img) * W * H);
        assertThat(n).as("rope-coloured pixels").isGreaterThan(W / 3);
    }

    @Test
    void aTornRopeIsDrawnWithItsBreak() throws Exception {
        // a 40-particle rope torn at its middle (a split moves the right segments to a copy): the renderer
        // draws the rope's segments, and none of them joins the two halves
        ModelBuilder b = new ModelBuilder();
        b.addRope(new RopeSpec("rope", new float[] {-0.5f, 1f, 0f, 0.5f, 1f, 0f}, 40, 0.05f));
        Model model = b.build();
        Model torn = model.edit(List.of(new ModelEdit.Split(20, 1f, 0f, 0f)));
        assertThat(torn.particleCount()).isEqualTo(41);
        SceneRenderer.RopeSegments whole = SceneRenderer.RopeSegments.of(model);
        SceneRenderer.RopeSegments segments = SceneRenderer.RopeSegments.of(torn);
        assertThat(whole.pairs()).hasSize(2 * 39);
        assertThat(segments.pairs()).hasSize(2 * 39); // (20, 21) became (copy, 21)
        for (int k = 0; k < segments.pairs().length; k += 2) {
            int a = segments.pairs()[k];
            int c = segments.pairs()[k + 1];
            boolean leftA = a <= 20;
            boolean leftC = c <= 20;
            assertThat(leftA).as("segment %d-%d", a, c).isEqualTo(leftC);
        }
        // and it draws: the halves moved apart still show about as many rope pixels as the whole rope
        float[] x = State.atRest(model).resizedFor(torn).positions();
        for (int i = 21; i <= 40; i++) {
            x[3 * i + 1] -= 0.4f;
        }
        Camera camera = new Camera(new float[] {0f, 0.8f, 1.5f}, new float[] {0f, 0.8f, 0f}, 50f);
        BufferedImage before = render(model, new Collider[0], RenderStyle.defaults(),
                State.atRest(model).positions().clone(), camera);
        BufferedImage img = render(torn, new Collider[0], RenderStyle.defaults(), x, camera);
        save(img, "rope-torn");
        assertThat(clothShare(img)).isGreaterThan(0.6 * clothShare(before));
    }

    @Test
    void aNewTriangleArrayIsUploadedAndDrawn() throws Exception {
        // a topology change (tearing) replaces the model's triangle array: the mesh must draw the new
        // triangles, not the old index buffer. First the triangles of the cloth's near half, then a new
        // array holding only the far half: the drawn area must move to the far side.
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("cloth", 9, 9, 1f, 1f).withOrigin(-0.5f, 0f, -0.5f));
        Model model = b.build();
        int[] all = model.triangles();
        int[] firstRows = java.util.Arrays.copyOfRange(all, 0, all.length / 2); // rows at low z
        int[] lastRows = java.util.Arrays.copyOfRange(all, all.length / 2, all.length); // rows at high z
        Camera camera = new Camera(new float[] {0f, 2f, 0.01f}, new float[] {0f, 0f, 0f}, 50f); // looking down
        float[] vp = Mat4.multiply(camera.projection((float) W / H, 0.1f, 10f, new float[16]),
                camera.view(new float[16]), new float[16]);
        double[] rows = new double[2];
        try (ClothMesh mesh = new ClothMesh(model); ShaderProgram flat = new ShaderProgram("flat")) {
            int k = 0;
            for (int[] triangles : new int[][] {firstRows, lastRows}) {
                mesh.update(model.restPositions(), model.uvs(), triangles);
                target.bind();
                org.lwjgl.opengl.GL11.glClearColor(0f, 0f, 0f, 1f);
                org.lwjgl.opengl.GL11.glClear(org.lwjgl.opengl.GL11.GL_COLOR_BUFFER_BIT
                        | org.lwjgl.opengl.GL11.GL_DEPTH_BUFFER_BIT);
                flat.use();
                flat.setMatrix("uViewProjection", vp);
                flat.set("uColor", 1f, 0f, 0f);
                flat.set("uRoundPoints", 0);
                mesh.drawTriangles(0, triangles.length / 3);
                target.endFrame();
                BufferedImage img = copy(target.readImage());
                save(img, "topology-" + k);
                assertThat(clothShare(img)).as("drawn share, triangle set %d", k).isGreaterThan(0.05);
                rows[k++] = clothRow(img);
            }
        }
        // seen from above with -z up in the picture, the two halves lie on opposite sides of the middle row
        assertThat(Math.abs(rows[0] - rows[1])).as("mean rows %s vs %s", rows[0], rows[1]).isGreaterThan(H / 6.0);
    }
}
