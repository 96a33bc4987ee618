package dev.weft.core.export;

import dev.weft.core.model.Model;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes simulation results frame by frame to a file format other tools read. Exporters stream: each
 * frame goes to the output (or to a scratch file next to it) as it comes, so memory does not grow with
 * the number of frames.
 *
 * <p>Output is atomic: nothing appears at the final path until {@link #close()} succeeds. A run that
 * fails calls {@link #abort()} (or closes an exporter whose {@link #frame} threw): temporary files are
 * deleted and whatever was at the final path before stays as it was. An exporter cannot tell on its own
 * that something outside it failed, so a caller that stops early must abort, not close:
 *
 * <pre>{@code
 * FrameExporter out = Exports.open("usd", dir, "scene", 30f);
 * try {
 *     ... out.frame(model, positions, k, time) ...
 *     out.close();
 * } catch (RuntimeException | IOException e) {
 *     out.abort();
 *     throw e;
 * }
 * }</pre>
 */
public interface FrameExporter extends AutoCloseable {
    /**
     * Adds one output frame: called once per frame, in order, frame indices one apart (the first, usually
     * 0, is the start state), times strictly increasing. {@code positions} holds xyz per particle of
     * {@code model} and is only read during the call.
     *
     * @throws IOException                               when writing fails (the message names the file)
     * @throws dev.weft.core.InvalidInputException     when the format cannot hold this frame (a topology
     *                                                   change in a fixed-vertex format); the exporter is then failed
     * @throws IllegalArgumentException                  for frames out of order or positions of the wrong size
     */
    void frame(Model model, float[] positions, int frameIndex, double time) throws IOException;

    /**
     * Finishes the output and moves it into place. After a failed {@link #frame} it writes nothing, deletes
     * the temporary files and throws an IOException saying so; with no frames it writes nothing. Closing
     * twice, or after {@link #abort()}, does nothing.
     */
    @Override
    void close() throws IOException;

    /** Gives up: deletes temporary files, leaves the final paths as they were. Never throws; idempotent. */
    void abort();

    /** The files (or directory) this exporter writes, for telling the user where the results are. */
    List<Path> outputs();
}
