package dev.weft.app;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A text file written line by line under a temporary name and moved into place when closed, also
 * after a failure: what was written so far is kept under the real name and never half a line.
 */
final class AtomicTextFile implements AutoCloseable {
    private final Path target;
    private final Path partial;
    private final BufferedWriter writer;

    AtomicTextFile(Path target) throws IOException {
        this.target = target;
        this.partial = target.resolveSibling(target.getFileName() + ".part");
        this.writer = Files.newBufferedWriter(partial, StandardCharsets.UTF_8);
    }

    /** Writes {@code lines} as the whole file, atomically; an I/O failure is the IOException itself. */
    static void write(Path target, java.util.List<String> lines) throws IOException {
        try (AtomicTextFile file = new AtomicTextFile(target)) {
            for (String l : lines) {
                file.line(l);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    void line(String text) {
        try {
            writer.write(text);
            writer.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + partial, e);
        }
    }

    void flush() {
        try {
            writer.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + partial, e);
        }
    }

    @Override
    public void close() throws IOException {
        writer.close();
        try {
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
