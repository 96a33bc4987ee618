package dev.weft.core.export;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;

/**
 * The time samples of one USD attribute, gathered in a scratch file as frames come ({@code time: value,}
 * lines) and written into the final file at close: as {@code decl.timeSamples = { ... }} when there are
 * several, as a plain {@code decl = value} when there is one (a value that never changed).
 */
final class TimeSampledArray implements AutoCloseable {
    private static final String SAMPLE_INDENT = "            ";

    private final ScratchFile scratch;
    private int samples;
    /** Length of the first sample's "time: " prefix, skipped when it is written as a plain value. */
    private int firstPrefix;

    TimeSampledArray(Path dir, String name) throws IOException {
        this.scratch = new ScratchFile(dir, name);
    }

    /** Starts the sample at {@code time}: write its value to the returned writer, then call {@link #end()}. */
    Writer begin(int time) throws IOException {
        String prefix = SAMPLE_INDENT + time + ": ";
        if (samples == 0) {
            firstPrefix = prefix.length(); // ASCII: chars are bytes
        }
        Writer w = scratch.text();
        w.write(prefix);
        return w;
    }

    void end() throws IOException {
        scratch.text().write(",\n");
        samples++;
    }

    int samples() {
        return samples;
    }

    /**
     * Writes the attribute: {@code indent + declaration} (e.g. {@code "point3f[] points"}) followed by its
     * value or its time samples, with {@code metadata} (e.g. {@code interpolation = "vertex"}, or null) in
     * parentheses after the declaration. Nothing when there is no sample.
     */
    void writeTo(AtomicOutput out, String indent, String declaration, String metadata) throws IOException {
        if (samples == 0) {
            return;
        }
        Writer w = out.text();
        long size = scratch.size();
        String meta = metadata == null ? "" : " (\n" + indent + "    " + metadata + "\n" + indent + ")";
        if (samples == 1) {
            w.write(indent + declaration + " = ");
            out.append(scratch, firstPrefix, size - 2); // without the trailing ",\n"
            w.write(meta + "\n");
        } else {
            if (metadata != null) {
                w.write(indent + declaration + meta + "\n"); // metadata go with the declaration, samples after
            }
            w.write(indent + declaration + ".timeSamples = {\n");
            out.append(scratch, 0, size);
            w.write(indent + "}\n");
        }
    }

    @Override
    public void close() {
        scratch.close();
    }
}
