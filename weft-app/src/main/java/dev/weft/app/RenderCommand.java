package dev.weft.app;

import dev.weft.core.InvalidInputException;
import dev.weft.core.scene.Scene;
import dev.weft.render.Camera;
import dev.weft.render.CameraFraming;
import dev.weft.render.DevicePositions;
import dev.weft.render.PngFrameRecorder;
import dev.weft.render.RenderStyle;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code weft render}: simulates a scene and renders it offscreen (EGL) into PNG frames, optionally a video. */
@Command(name = "render", mixinStandardHelpOptions = true,
        description = "Simulate a scene as 'weft run' does (any --solver, --self-collision, material, --export, "
                + "checkpoints) and render every frame offscreen (OpenGL through EGL, no display needed) into "
                + "OUT/<scene>/render/frame_NNNNN.png; with --video also OUT/<scene>/<scene>.mp4 and a GIF preview.")
final class RenderCommand extends RunCommand {
    /** Exit code when a program or library the command needs (OpenGL/EGL, ffmpeg) is missing. */
    static final int EXIT_MISSING_DEPENDENCY = 5;

    @Option(names = "--width", paramLabel = "W", description = "Picture width in pixels (default: ${DEFAULT-VALUE}).")
    int width = 1280;

    @Option(names = "--height", paramLabel = "H", description = "Picture height in pixels (default: ${DEFAULT-VALUE}).")
    int height = 720;

    @Option(names = "--video", description = "Also encode an MP4 and a GIF preview with ffmpeg.")
    boolean video;

    @Option(names = "--samples", paramLabel = "S",
            description = "Multisample anti-aliasing samples per pixel, 1 = off (default: ${DEFAULT-VALUE}).")
    int samples = 4;

    @Option(names = "--wireframe", description = "Draw the cloth's triangle edges over it.")
    boolean wireframe;

    @Option(names = "--particles", description = "Draw the particles as dots.")
    boolean particles;

    @Option(names = "--checker", description = "Draw the cloth with a checker pattern over its texture coordinates "
            + "(stretching shows; weft view's default).")
    boolean checker;

    @Option(names = "--camera", paramLabel = "X,Y,Z", description = "Camera position (default: the scene's).")
    String cameraEye;

    @Option(names = "--target", paramLabel = "X,Y,Z", description = "Point the camera looks at (default: the scene's).")
    String cameraTarget;

    @Option(names = "--fov", paramLabel = "DEG", description = "Vertical field of view in degrees (default: the scene's).")
    Float fov;

    /**
     * {@code weft run} with pictures: the same scene, solver, material, contacts, exports and checkpoints,
     * every frame drawn with this command's camera and style (OBJ frames only when --obj-every is given).
     */
    @Override
    public Integer call() {
        PrintWriter err = spec == null ? new PrintWriter(System.err, true) : spec.commandLine().getErr();
        GivenFlags given = GivenFlags.of(spec);
        for (String flag : new String[] {"--render", "--render-size"}) {
            if (given.has(flag)) {
                throw new InvalidInputException(flag, "is weft run's; weft render always renders (--width, --height)");
            }
        }
        if (!given.has("--obj-every")) {
            objEvery = 0;
        }
        if (samples < 1 || samples > 16) {
            throw new InvalidInputException("--samples", "must be between 1 (no anti-aliasing) and 16, got " + samples);
        }
        Scene s = environment.apply(material.apply(SceneArgument.load(scene)));
        Camera camera = camera(s, width, height, cameraEye, cameraTarget, fov);
        Path dir = outDir.resolve(s.name());
        Path frameDir = dir.resolve("render");
        Optional<Path> ffmpeg = video ? VideoEncoder.find() : Optional.empty();
        if (video && ffmpeg.isEmpty()) {
            err.println("weft: warning: --video needs ffmpeg, which is not on the PATH; " + VideoEncoder.INSTALL_HINT
                    + ". Rendering the PNG frames anyway.");
        }
        RenderStyle style = RenderStyle.defaults().withWireframe(wireframe).withParticles(particles)
                .withChecker(checker);
        pictures = new Pictures() {
            @Override
            public PngFrameRecorder open(Scene scene, Path into, DevicePositions source) {
                return new PngFrameRecorder(into, scene.model(), scene.environment().colliders(), camera, width, height,
                        samples, style, source).withTextures(scene);
            }

            @Override
            public void finished(PngFrameRecorder recorder, PrintWriter out, double wallS) {
                int written = recorder.framesWritten();
                out.printf(Locale.ROOT, "  pictures: %d frames at %d x %d, %d sample(s) per pixel, %.2f frames/s in all; "
                                + "per frame: draw + read back %.2f ms, PNG (on a second thread) %.2f ms%n", written,
                        width, height, samples, written / wallS, recorder.drawMsPerFrame(), recorder.writeMsPerFrame());
                out.printf(Locale.ROOT, "  wrote %s%n", frameDir.resolve(PngFrameRecorder.FFMPEG_PATTERN));
            }
        };
        int code = super.call();
        if (code != 0 || !video) {
            return code;
        }
        Path mp4 = dir.resolve(s.name() + ".mp4");
        if (ffmpeg.isEmpty()) {
            err.println("weft: error: no video: --video needs ffmpeg, which is not on the PATH; "
                    + VideoEncoder.INSTALL_HINT + ". The PNG frames are in " + frameDir + "; with ffmpeg "
                    + "installed, this encodes them: "
                    + VideoEncoder.manualCommand(frameDir, PngFrameRecorder.FFMPEG_PATTERN, s.fps(), mp4));
            return EXIT_MISSING_DEPENDENCY;
        }
        Path gif = dir.resolve(s.name() + "-preview.gif");
        VideoEncoder encoder = new VideoEncoder(ffmpeg.get(), dir.resolve("ffmpeg.log"));
        encoder.mp4(frameDir, PngFrameRecorder.FFMPEG_PATTERN, s.fps(), mp4);
        encoder.gif(frameDir, PngFrameRecorder.FFMPEG_PATTERN, s.fps(), gif);
        PrintWriter out = spec == null ? new PrintWriter(System.out, true) : spec.commandLine().getOut();
        out.printf(Locale.ROOT, "  wrote %s and %s%n", mp4, gif);
        return 0;
    }

    /** The recorder {@code weft run --render} uses: the scene's camera, 4× anti-aliasing, size "WxH". */
    static PngFrameRecorder recorder(Scene s, Path frameDir, String size, DevicePositions source) {
        String[] wh = size.toLowerCase(Locale.ROOT).split("x");
        int w;
        int h;
        try {
            if (wh.length != 2) {
                throw new NumberFormatException();
            }
            w = Integer.parseInt(wh[0].trim());
            h = Integer.parseInt(wh[1].trim());
        } catch (NumberFormatException e) {
            throw new InvalidInputException("--render-size", "must be WIDTHxHEIGHT in pixels such as 1280x720, got '"
                    + size + "'");
        }
        Camera camera = camera(s, w, h, null, null, null);
        return new PngFrameRecorder(frameDir, s.model(), s.environment().colliders(), camera, w, h, 4,
                RenderStyle.defaults(), source).withTextures(s);
    }

    /** The scene's camera, with any of eye, target and field of view replaced by the given ones. */
    static Camera camera(Scene s, int width, int height, String eye, String target, Float fov) {
        if (width < 1 || width > 16384) {
            throw new InvalidInputException("--width", "must be between 1 and 16384 pixels, got " + width);
        }
        if (height < 1 || height > 16384) {
            throw new InvalidInputException("--height", "must be between 1 and 16384 pixels, got " + height);
        }
        Camera base = CameraFraming.forScene(s, (float) width / height);
        float[] e = eye == null ? base.eye() : vector("--camera", eye);
        float[] t = target == null ? base.target() : vector("--target", target);
        float f = fov == null ? base.fovYDegrees() : fov;
        if (!(f > 1f && f < 170f)) {
            throw new InvalidInputException("--fov", "must be between 1 and 170 degrees, got " + f);
        }
        if (e[0] == t[0] && e[1] == t[1] && e[2] == t[2]) {
            throw new InvalidInputException("--camera", "the camera must not sit on its --target point");
        }
        return new Camera(e, t, f);
    }

    private static float[] vector(String flag, String text) {
        String[] parts = text.split(",");
        if (parts.length != 3) {
            throw new InvalidInputException(flag, "must be three comma-separated numbers X,Y,Z, got '" + text + "'");
        }
        float[] v = new float[3];
        for (int i = 0; i < 3; i++) {
            try {
                v[i] = Float.parseFloat(parts[i].trim());
            } catch (NumberFormatException ex) {
                throw new InvalidInputException(flag, "'" + parts[i].trim() + "' is not a number (in '" + text + "')");
            }
            if (!Float.isFinite(v[i])) {
                throw new InvalidInputException(flag, "must be finite numbers, got '" + text + "'");
            }
        }
        return v;
    }
}
