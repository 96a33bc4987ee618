package dev.weft.app;

import dev.weft.core.InvalidInputException;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.scene.BuiltInScenes;
import dev.weft.core.scene.Scene;
import dev.weft.core.sim.Simulation;
import dev.weft.core.sim.SimulationDivergedException;
import dev.weft.core.solver.Solvers;
import dev.weft.render.Camera;
import dev.weft.render.CameraFraming;
import dev.weft.render.PngFrameRecorder;
import dev.weft.render.RenderStyle;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code weft render}: simulates a scene and renders it offscreen (EGL) into PNG frames, optionally a video. */
@Command(name = "render", mixinStandardHelpOptions = true,
        description = "Simulate a scene (XPBD; 'weft run --solver ... --render' for other solvers) and render "
                + "every frame offscreen (OpenGL through EGL, no display needed) into "
                + "OUT/<scene>/render/frame_NNNNN.png; with --video also OUT/<scene>/<scene>.mp4 and a GIF preview.")
final class RenderCommand implements Callable<Integer> {
    /** Exit code when a program or library the command needs (OpenGL/EGL, ffmpeg) is missing. */
    static final int EXIT_MISSING_DEPENDENCY = 5;

    @Parameters(index = "0", arity = "0..1", paramLabel = "SCENE",
            description = SceneArgument.DESCRIPTION)
    String scene = BuiltInScenes.DEFAULT;

    @Option(names = "--frames", paramLabel = "N",
            description = "Frames to simulate and render after the initial one (default: the scene's, 300 = 5 s).")
    Integer frames;

    @Option(names = "--width", paramLabel = "W", description = "Picture width in pixels (default: ${DEFAULT-VALUE}).")
    int width = 1280;

    @Option(names = "--height", paramLabel = "H", description = "Picture height in pixels (default: ${DEFAULT-VALUE}).")
    int height = 720;

    @Option(names = "--out", paramLabel = "DIR", description = "Output folder (default: ${DEFAULT-VALUE}).")
    Path outDir = Path.of("out");

    @Option(names = "--video", description = "Also encode an MP4 and a GIF preview with ffmpeg.")
    boolean video;

    @Option(names = "--samples", paramLabel = "S",
            description = "Multisample anti-aliasing samples per pixel, 1 = off (default: ${DEFAULT-VALUE}).")
    int samples = 4;

    @Option(names = "--wireframe", description = "Draw the cloth's triangle edges over it.")
    boolean wireframe;

    @Option(names = "--particles", description = "Draw the particles as dots.")
    boolean particles;

    @Option(names = "--camera", paramLabel = "X,Y,Z", description = "Camera position (default: the scene's).")
    String cameraEye;

    @Option(names = "--target", paramLabel = "X,Y,Z", description = "Point the camera looks at (default: the scene's).")
    String cameraTarget;

    @Option(names = "--fov", paramLabel = "DEG", description = "Vertical field of view in degrees (default: the scene's).")
    Float fov;

    @Option(names = "--threads", paramLabel = "T",
            description = "Solver worker threads (default: available processors, ${DEFAULT-VALUE}).")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--quiet", description = "No progress bar.")
    boolean quiet;

    @CommandLine.Mixin
    MaterialOptions material = new MaterialOptions();

    @CommandLine.Mixin
    EnvironmentOptions environment = new EnvironmentOptions();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec == null ? new PrintWriter(System.out, true) : spec.commandLine().getOut();
        PrintWriter err = spec == null ? new PrintWriter(System.err, true) : spec.commandLine().getErr();
        Scene s = environment.apply(material.apply(SceneArgument.load(scene)));
        int frameCount = frames == null ? s.frames() : frames;
        if (frameCount < 0) {
            throw new InvalidInputException("--frames", "must be an integer >= 0, got " + frameCount);
        }
        if (threads < 1 || threads > 256) {
            throw new InvalidInputException("--threads", "must be between 1 and 256, got " + threads);
        }
        if (samples < 1 || samples > 16) {
            throw new InvalidInputException("--samples", "must be between 1 (no anti-aliasing) and 16, got " + samples);
        }
        Camera camera = camera(s, width, height, cameraEye, cameraTarget, fov);
        Path dir = outDir.resolve(s.name());
        Path frameDir = dir.resolve("render");
        Optional<Path> ffmpeg = video ? VideoEncoder.find() : Optional.empty();
        if (video && ffmpeg.isEmpty()) {
            err.println("weft: warning: --video needs ffmpeg, which is not on the PATH; " + VideoEncoder.INSTALL_HINT
                    + ". Rendering the PNG frames anyway.");
        }
        Model model = s.model();
        float dt = 1f / s.fps();
        RenderStyle style = RenderStyle.defaults().withWireframe(wireframe).withParticles(particles);
        out.printf(Locale.ROOT, "weft render: scene %s (%d particles), %d frames at %d x %d, %d sample(s) per pixel%n",
                s.name(), model.particleCount(), frameCount + 1, width, height, samples);
        long start = System.nanoTime();
        double simMs = 0;
        try (PngFrameRecorder recorder = new PngFrameRecorder(frameDir, model, s.environment().colliders(), camera,
                width, height, samples, style);
             WorkerPool pool = new WorkerPool(threads);
             Simulation sim = new Simulation(model, State.atRest(model), Solvers.create("xpbd", s.xpbd(), pool),
                     s.environment(), s.substeps())) {
            out.println("  " + recorder.description());
            ProgressBar bar = new ProgressBar(err, frameCount, !quiet);
            recorder.record(0, sim.state().positions());
            for (int f = 1; f <= frameCount; f++) {
                long t0 = System.nanoTime();
                try {
                    sim.advance(dt);
                } catch (SimulationDivergedException e) {
                    bar.finish();
                    throw e;
                }
                simMs += (System.nanoTime() - t0) / 1e6;
                recorder.record(f, sim.model(), sim.state().positions());
                bar.update(f, String.format(Locale.ROOT, "t=%.2fs", sim.state().time()));
            }
            bar.finish();
            recorder.flush();
            double wallS = (System.nanoTime() - start) / 1e9;
            int written = recorder.framesWritten();
            out.printf(Locale.ROOT, "  done: %d frames in %.2f s wall = %.2f frames/s; per frame: simulate %.2f ms, "
                            + "draw + read back %.2f ms, PNG (on a second thread) %.2f ms%n", written, wallS, written / wallS,
                    frameCount == 0 ? 0 : simMs / frameCount, recorder.drawMsPerFrame(), recorder.writeMsPerFrame());
            out.printf(Locale.ROOT, "  wrote %s%n", frameDir.resolve(PngFrameRecorder.FFMPEG_PATTERN));
        }
        if (video) {
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
            out.printf(Locale.ROOT, "  wrote %s and %s%n", mp4, gif);
        }
        return 0;
    }

    /** The recorder {@code weft run --render} uses: the scene's camera, 4× anti-aliasing, size "WxH". */
    static PngFrameRecorder recorder(Scene s, Path frameDir, String size) {
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
                RenderStyle.defaults());
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
