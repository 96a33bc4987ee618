package dev.weft.render.view;

import dev.weft.render.PngFiles;
import dev.weft.render.PngFrameRecorder;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The V key's recording: every drawn frame, read back from the window, written as
 * {@code <dir>/take_NN/frame_NNNNN.png} (ffmpeg's numbering, as {@code weft render}'s frames) on a second
 * thread, so the window does not wait for the PNG encoder. Each start makes a new take.
 */
final class WindowRecorder implements AutoCloseable {
    /** Frames waiting for the writer at most; beyond this the window waits (memory: 1.5 MB a 960 × 540 frame). */
    private static final int MAX_PENDING = 16;

    private final Path dir;
    private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "weft-view-png");
        t.setDaemon(true);
        return t;
    });
    private final List<Future<?>> pending = new ArrayList<>();
    private final List<Path> takes = new ArrayList<>();
    private final List<Integer> frameCounts = new ArrayList<>();
    private Path take;
    private int frames;

    WindowRecorder(Path dir) {
        this.dir = dir;
    }

    boolean recording() {
        return take != null;
    }

    /** Starts a new take, or stops the one running. */
    void toggle() {
        if (take != null) {
            stop();
            return;
        }
        take = dir.resolve(String.format(Locale.ROOT, "take_%02d", takes.size() + 1));
        try {
            Files.createDirectories(take);
        } catch (IOException e) {
            take = null;
            throw new UncheckedIOException("cannot create " + dir + " for the recording", e);
        }
        takes.add(take);
        frameCounts.add(0);
        frames = 0;
    }

    private void stop() {
        frameCounts.set(frameCounts.size() - 1, frames);
        take = null;
    }

    /** Writes this drawn frame into the running take (the image is the writer's from now on). */
    void frame(BufferedImage image) throws IOException {
        Path file = take.resolve(String.format(Locale.ROOT, "frame_%05d.png", frames++));
        pending.removeIf(Future::isDone);
        while (pending.size() >= MAX_PENDING) {
            waitFor(pending.remove(0));
        }
        pending.add(writer.submit(() -> {
            PngFiles.write(image, file);
            return null;
        }));
    }

    private static void waitFor(Future<?> f) throws IOException {
        try {
            f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while writing the recording", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException("cannot write a recorded frame: " + e.getCause().getMessage(), e.getCause());
        }
    }

    /** The takes recorded, each with its frame count, once {@link #close} has written them all. */
    List<Path> takes() {
        return List.copyOf(takes);
    }

    List<Integer> frameCounts() {
        return List.copyOf(frameCounts);
    }

    /** The file name pattern of the frames in a take (for ffmpeg). */
    static String pattern() {
        return PngFrameRecorder.FFMPEG_PATTERN;
    }

    /** Stops a running take and waits until every frame is written. */
    @Override
    public void close() {
        if (take != null) {
            stop();
        }
        try {
            for (Future<?> f : pending) {
                waitFor(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            writer.shutdown();
            try {
                writer.awaitTermination(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
