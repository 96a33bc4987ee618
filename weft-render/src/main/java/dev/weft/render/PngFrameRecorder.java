package dev.weft.render;

import dev.weft.core.collide.Collider;
import dev.weft.core.model.Model;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Renders frames of a simulation offscreen and writes them as {@code frame_NNNNN.png} into a folder:
 * owns the EGL context, the offscreen target and the scene renderer. PNG encoding runs on one
 * background thread while the caller simulates and draws the next frame (two image buffers, at most
 * one write in flight). Use it from one thread, the one that created it. Keeps the time spent
 * drawing (including the read back) and encoding PNGs.
 *
 * <p>Made with a {@link DevicePositions} (a GLSL solver), it draws in that source's context instead of
 * one of its own, and each frame from the source's buffer rather than from the positions handed to
 * {@link #record} (which a skinned model still needs: see {@link SceneRenderer#canDrawFromDevice}).
 */
public final class PngFrameRecorder implements AutoCloseable {
    /** The frame file names as a printf / ffmpeg pattern. */
    public static final String FFMPEG_PATTERN = "frame_%05d.png";

    /** File name of frame {@code n}. */
    public static String fileName(int frame) {
        return String.format(Locale.ROOT, FFMPEG_PATTERN, frame);
    }

    private final Path dir;
    private final Camera camera;
    private final EglHeadlessContext context;
    /** The positions drawn from on the device, or null: drawn from the host's, in a context of our own. */
    private final DevicePositions source;
    private int framesFromDevice;
    private final OffscreenTarget target;
    private final SceneRenderer renderer;
    private final BufferedImage[] buffers = new BufferedImage[2];
    private final ExecutorService writer;
    private Future<?> pending;
    private long drawNanos;
    private volatile long writeNanos;
    private int frames;

    /**
     * Draws the bodies of {@code scene} that have a texture with it ({@link SceneTextures}); returns this. An
     * image that cannot be read closes the recorder and throws.
     */
    public PngFrameRecorder withTextures(dev.weft.core.scene.Scene scene) {
        try {
            SceneTextures.apply(renderer, scene);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        return this;
    }

    /**
     * Starts OpenGL (throws {@link RenderUnavailableException} when it cannot) and prepares to draw
     * {@code model} among {@code colliders} at width × height with {@code samples} samples per pixel.
     */
    public PngFrameRecorder(Path dir, Model model, Collider[] colliders, Camera camera, int width, int height,
                            int samples, RenderStyle style) {
        this(dir, model, colliders, camera, width, height, samples, style, null);
    }

    /**
     * As the constructor above, drawing from {@code source}'s buffer in its context when it is not null
     * (close this recorder before the source's context closes).
     */
    public PngFrameRecorder(Path dir, Model model, Collider[] colliders, Camera camera, int width, int height,
                            int samples, RenderStyle style, DevicePositions source) {
        this.dir = dir;
        this.camera = camera;
        this.source = source;
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create folder " + dir, e);
        }
        if (source == null) {
            context = EglHeadlessContext.create();
        } else {
            context = source.context();
            context.makeCurrent();
        }
        OffscreenTarget t = null;
        SceneRenderer r = null;
        try {
            t = new OffscreenTarget(width, height, samples);
            r = new SceneRenderer(model, colliders, style);
        } catch (RuntimeException e) {
            if (t != null) {
                t.close();
            }
            releaseContext();
            throw e;
        }
        target = t;
        renderer = r;
        for (int i = 0; i < buffers.length; i++) {
            buffers[i] = new BufferedImage(width, height, BufferedImage.TYPE_3BYTE_BGR);
        }
        writer = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "weft-png-writer");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Which EGL platform and OpenGL renderer draws the frames. */
    public String description() {
        return context.description();
    }

    /** Whether the frames are drawn from a device buffer (made with a source, the model not skinned). */
    public boolean drawsFromDevice() {
        return source != null && renderer.canDrawFromDevice();
    }

    /**
     * Whether the source's buffer holds the drawn model's positions: it does after the solver stepped that
     * model (not before its first step: that frame draws the host's positions). The buffer is the positions of
     * the solver's last step: record right after stepping, as weft run does.
     */
    private boolean deviceHolds() {
        int n = renderer.model().particleCount();
        return source != null && n > 0 && source.heldParticles() == n && renderer.canDrawFromDevice();
    }

    /** How many frames were drawn from the device buffer. */
    public int framesFromDevice() {
        return framesFromDevice;
    }

    /**
     * Draws the bodies at {@code positions} and queues the picture to be written as frame
     * {@code frame}; returns the file's path (complete once the next call or {@link #close()} returns).
     */
    public Path record(int frame, float[] positions) {
        return record(frame, null, positions);
    }

    /** As {@link #record(int, float[])}, drawing the bodies of {@code model} (an edited model), when not null. */
    public Path record(int frame, Model model, float[] positions) {
        long t0 = System.nanoTime();
        if (source != null && !context.isCurrent()) {
            context.makeCurrent();
        }
        if (model != null) {
            renderer.setModel(model);
        }
        if (deviceHolds()) {
            renderer.draw(target, source, camera);
            framesFromDevice++;
        } else {
            renderer.draw(target, positions, camera);
        }
        BufferedImage drawn = target.readImage();
        drawNanos += System.nanoTime() - t0;
        awaitPendingWrite(); // frees the buffer written two frames ago
        BufferedImage copy = buffers[frames & 1];
        byte[] src = ((DataBufferByte) drawn.getRaster().getDataBuffer()).getData();
        byte[] dst = ((DataBufferByte) copy.getRaster().getDataBuffer()).getData();
        System.arraycopy(src, 0, dst, 0, src.length);
        Path file = dir.resolve(fileName(frame));
        pending = writer.submit(() -> {
            long w0 = System.nanoTime();
            try {
                PngFiles.write(copy, file);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + file, e);
            }
            writeNanos += System.nanoTime() - w0;
        });
        frames++;
        return file;
    }

    /** Returns when every recorded frame is on disk. */
    public void flush() {
        awaitPendingWrite();
    }

    /** Waits for the write in flight; rethrows its failure. */
    private void awaitPendingWrite() {
        if (pending == null) {
            return;
        }
        try {
            pending.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing a PNG frame", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            pending = null;
        }
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

    /** Mean milliseconds per frame spent encoding and writing PNG files (on the writer thread). */
    public double writeMsPerFrame() {
        return frames == 0 ? 0 : writeNanos / 1e6 / frames;
    }

    /** Closes our own context; a source's stays (its owner closes it), no longer current. */
    private void releaseContext() {
        if (source == null) {
            context.close();
        } else {
            context.releaseCurrent();
        }
    }

    /** Finishes the last write, then releases OpenGL. */
    @Override
    public void close() {
        try {
            awaitPendingWrite();
        } finally {
            writer.shutdown();
            try {
                if (source != null) {
                    context.makeCurrent();
                }
                renderer.close();
                target.close();
            } finally {
                releaseContext();
            }
        }
    }
}
