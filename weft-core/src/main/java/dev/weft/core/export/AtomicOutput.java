package dev.weft.core.export;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A file written under a hidden temporary name in its final directory and moved over the final path
 * only when complete ({@link #commit()}): synced first, so that neither a reader nor a crash ever sees a
 * half-written file, and a failed write ({@link #discard()}) leaves the previous file untouched.
 * Bytes go through {@link #channel()}, text through {@link #text()}; both share the channel's position.
 */
final class AtomicOutput {
    private final Path target;
    private final Path temp;
    private final FileChannel channel;
    private Writer text;

    private AtomicOutput(Path target, Path temp, FileChannel channel) {
        this.target = target;
        this.temp = temp;
        this.channel = channel;
    }

    /** Starts writing {@code target}, creating its directory if needed. */
    static AtomicOutput create(Path target) throws IOException {
        Path absolute = target.toAbsolutePath();
        Path dir = absolute.getParent();
        Files.createDirectories(dir);
        Path temp = createHidden(dir, absolute.getFileName().toString(), ".tmp");
        return new AtomicOutput(absolute, temp, FileChannel.open(temp, StandardOpenOption.READ,
                StandardOpenOption.WRITE));
    }

    /**
     * Creates an empty file {@code .name.<random>suffix} in {@code dir}. Not {@link Files#createTempFile}:
     * that makes the file owner-only (0600), and the move would carry those permissions to the result.
     */
    static Path createHidden(Path dir, String name, String suffix) throws IOException {
        while (true) {
            Path p = dir.resolve("." + name + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()) + suffix);
            try {
                FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close();
                return p;
            } catch (FileAlreadyExistsException e) {
                // name taken: draw another
            }
        }
    }

    Path target() {
        return target;
    }

    FileChannel channel() throws IOException {
        flushText();
        return channel;
    }

    /** A buffered UTF-8 writer at the channel's position; flushed before the channel is used directly. */
    Writer text() {
        if (text == null) {
            text = new BufferedWriter(new OutputStreamWriter(Channels.newOutputStream(channel),
                    StandardCharsets.UTF_8), 1 << 16);
        }
        return text;
    }

    /** Appends bytes [from, to) of {@code scratch} at the channel's position. */
    void append(ScratchFile scratch, long from, long to) throws IOException {
        scratch.copyTo(channel(), from, to);
    }

    void flushText() throws IOException {
        if (text != null) {
            text.flush();
        }
    }

    /** Syncs the file, closes it and moves it over the target (atomically where the file system can). */
    void commit() throws IOException {
        flushText();
        channel.force(true);
        channel.close();
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
        }
        syncDirectory(target.getParent());
    }

    /** Closes and deletes the temporary file, ignoring errors (it is called while handling one). */
    void discard() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // deleting is what matters
        }
        try {
            Files.deleteIfExists(temp);
        } catch (IOException ignored) {
            // a stray hidden temporary file is all that is left
        }
    }

    /**
     * Makes a rename durable: on Linux a directory is synced through a read-only channel. Where the
     * platform does not allow that (Windows), the move is still atomic, only not yet durable.
     */
    static void syncDirectory(Path dir) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException | UnsupportedOperationException ignored) {
            // best effort, see above
        }
    }
}
