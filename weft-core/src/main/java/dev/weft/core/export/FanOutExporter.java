package dev.weft.core.export;

import dev.weft.core.model.Model;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Gives each frame to several exporters. A failure of one does not stop the others from getting the
 * frame: the first failure is thrown after all were given it, later ones attached as suppressed, and
 * the caller decides (usually {@link #abort()}). Close and abort reach every exporter likewise.
 */
final class FanOutExporter implements FrameExporter {
    private final List<FrameExporter> exporters;

    FanOutExporter(List<FrameExporter> exporters) {
        this.exporters = List.copyOf(exporters);
    }

    @Override
    public void frame(Model model, float[] positions, int frameIndex, double time) throws IOException {
        Exception first = null;
        for (FrameExporter e : exporters) {
            try {
                e.frame(model, positions, frameIndex, time);
            } catch (IOException | RuntimeException ex) {
                first = record(first, ex);
            }
        }
        rethrow(first);
    }

    @Override
    public void close() throws IOException {
        Exception first = null;
        for (FrameExporter e : exporters) {
            try {
                e.close();
            } catch (IOException | RuntimeException ex) {
                first = record(first, ex);
            }
        }
        rethrow(first);
    }

    @Override
    public void abort() {
        for (FrameExporter e : exporters) {
            e.abort();
        }
    }

    @Override
    public List<Path> outputs() {
        List<Path> all = new ArrayList<>();
        for (FrameExporter e : exporters) {
            all.addAll(e.outputs());
        }
        return List.copyOf(all);
    }

    private static Exception record(Exception first, Exception e) {
        if (first == null) {
            return e;
        }
        first.addSuppressed(e);
        return first;
    }

    private static void rethrow(Exception e) throws IOException {
        if (e instanceof IOException io) {
            throw io;
        }
        if (e instanceof RuntimeException r) {
            throw r;
        }
    }
}
