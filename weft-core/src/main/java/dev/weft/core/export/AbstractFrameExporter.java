package dev.weft.core.export;

import dev.weft.core.model.Model;
import java.io.IOException;

/**
 * What every exporter does around its format: checks that frames come in order with positions of the
 * right size, fails for good once a frame failed (a half-written frame must never be committed), and
 * turns close into commit, or discard after a failure or {@link #abort()}.
 */
abstract class AbstractFrameExporter implements FrameExporter {
    /** The frames written so far. */
    private int frames;
    private int firstIndex;
    private int lastIndex;
    private double lastTime;
    private boolean closed;
    /** The failure of a frame, after which nothing is committed. */
    private Throwable failure;
    private int failedIndex;

    /** What is written, for messages: the file or directory. */
    abstract String describe();

    /** Writes one frame (already checked); {@code frameNumber} counts frames from 0. */
    abstract void write(Model model, float[] positions, int frameIndex, double time, int frameNumber)
            throws IOException;

    /** Assembles and commits the output; at least one frame was written. */
    abstract void finish() throws IOException;

    /** Deletes temporary files; must not throw and may be called in any state. */
    abstract void discard();

    final int frameCount() {
        return frames;
    }

    final int firstFrameIndex() {
        return firstIndex;
    }

    final int lastFrameIndex() {
        return lastIndex;
    }

    @Override
    public final void frame(Model model, float[] positions, int frameIndex, double time) throws IOException {
        if (closed) {
            throw new IllegalStateException(describe() + ": frame " + frameIndex + " given after close or abort");
        }
        if (failure != null) {
            throw new IllegalStateException(describe() + ": frame " + frameIndex + " given after frame " + failedIndex
                    + " failed (" + failure.getMessage() + ")");
        }
        check(model, positions, frameIndex, time);
        try {
            // the drawn surface: particles, and a skinned soft body's skin in place of its own triangles
            write(model, model.drawnSurface().positions(positions), frameIndex, time, frames);
        } catch (IOException e) {
            fail(e, frameIndex);
            throw new IOException("cannot write " + describe() + " (frame " + frameIndex + "): " + message(e), e);
        } catch (RuntimeException | Error e) {
            fail(e, frameIndex);
            throw e;
        }
        if (frames == 0) {
            firstIndex = frameIndex;
        }
        frames++;
        lastIndex = frameIndex;
        lastTime = time;
    }

    private void fail(Throwable e, int frameIndex) {
        failure = e;
        failedIndex = frameIndex;
    }

    private void check(Model model, float[] positions, int frameIndex, double time) {
        if (model == null || positions == null) {
            throw new IllegalArgumentException(describe() + ": frame " + frameIndex + " without a model or positions");
        }
        if (positions.length != 3 * model.particleCount()) {
            throw new IllegalArgumentException(describe() + ": frame " + frameIndex + " has " + positions.length
                    + " coordinates for " + model.particleCount() + " particles (3 each)");
        }
        if (frames == 0 ? frameIndex < 0 : frameIndex != lastIndex + 1) {
            throw new IllegalArgumentException(describe() + ": frame " + frameIndex + (frames == 0
                    ? " cannot come first: frame indices start at 0 or more"
                    : " after frame " + lastIndex + ": frames must come in order, one index apart"));
        }
        // Time codes are stored as float32 (glTF): strictly increasing there too.
        if (!Double.isFinite(time) || frames > 0 && !((float) time > (float) lastTime)) {
            throw new IllegalArgumentException(describe() + ": frame " + frameIndex + " at time " + time
                    + " s: times must be finite and increase from frame to frame (previous " + lastTime + " s)");
        }
        for (int i = 0; i < positions.length; i++) {
            if (!Float.isFinite(positions[i])) {
                throw new IllegalArgumentException(describe() + ": frame " + frameIndex + ": particle " + i / 3
                        + " has a non-finite coordinate " + positions[i] + "; no format can store it");
            }
        }
    }

    @Override
    public final void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (failure != null) {
            discard();
            throw new IOException(describe() + " was not written: frame " + failedIndex + " failed: "
                    + message(failure));
        }
        if (frames == 0) {
            discard();
            return;
        }
        try {
            finish();
        } catch (IOException e) {
            discard();
            throw new IOException("cannot write " + describe() + ": " + message(e), e);
        } catch (RuntimeException | Error e) {
            discard();
            throw e;
        }
    }

    @Override
    public final void abort() {
        if (!closed) {
            closed = true;
            discard();
        }
    }

    static String message(Throwable e) {
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
