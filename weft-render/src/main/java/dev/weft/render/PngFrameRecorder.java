package dev.weft.render;

import dev.weft.core.collide.Collider;
import dev.weft.core.model.Model;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Renders frames of a simulation offscreen and writes them as {@code frame_NNNNN.png} into a folder:
 * owns the EGL context, the offscreen target and the scene renderer. Use it from one thread (the
 * one that created it). Keeps the time spent drawing (including the read back) and writing PNGs.
 */
public final class PngFrameRecorder implements AutoCloseable {
    /** File name of frame {@code n}; {@link #FFMPEG_PATTERN} is the same for ffmpeg. */
    public static String fileName(int frame) {
        return String.format(Locale.ROOT, "frame_%05d.png", frame);
    }

    public static final String FFMPEG_PATTERN = "frame_%05d.png";

    private final Path dir;
    private final Camera camera;
    private final EglHeadlessContext context;
    private final OffscreenTarget target;
    private final SceneRenderer renderer;
    private long drawNanos;
    private long writeNanos;
    private int frames;

    /**
     * Starts OpenGL (throws {@link RenderUnavailableException} when it cannot) and prepares to draw
     * {@code model} among {@code colliders} at width × height with {@code samples} samples per pixel.
     */
    public PngFrameRecorder(Path dir, Model model, Collider[] colliders, Camera camera, int width, int height,
                            int samples, RenderStyle style) {
        this.dir = dir;
        this.camera = camera;
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create folder " + dir, e);
        }
        context = EglHeadlessContext.create();
        OffscreenTarget t = null;
        SceneRenderer r = null;
        try {
            t = new OffscreenTarget(width, height, samples);
            r = new SceneRenderer(model, colliders, style);
        } catch (RuntimeException e) {
            if (t != null) {
                t.close();
            }
            context.close();
            throw e;
        }
        target = t;
        renderer = r;
    }

    /** Which EGL platform and OpenGL renderer draws the frames. */
    public String description() {
        return context.description();
    }

    /** Draws the bodies at {@code positions} and writes the picture as frame {@code frame}; returns its path. */
    public Path record(int frame, float[] positions) {
        long t0 = System.nanoTime();
        renderer.draw(target, positions, camera);
        var image = target.readImage();
        long t1 = System.nanoTime();
        Path file = dir.resolve(fileName(frame));
        try {
            PngFiles.write(image, file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        long t2 = System.nanoTime();
        drawNanos += t1 - t0;
        writeNanos += t2 - t1;
        frames++;
        return file;
    }

    public Path dir() {
        return dir;
    }

    public int framesWritten() {
        return frames;
    }

    /** Mean milliseconds per frame spent drawing and reading the picture back. */
    public double drawMsPerFrame() {
        return frames == 0 ? 0 : drawNanos / 1e6 / frames;
    }

    /** Mean milliseconds per frame spent encoding and writing PNG files. */
    public double writeMsPerFrame() {
        return frames == 0 ? 0 : writeNanos / 1e6 / frames;
    }

    @Override
    public void close() {
        try {
            renderer.close();
            target.close();
        } finally {
            context.close();
        }
    }
}
