package dev.weft.core.export;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A hidden temporary file next to an output, holding frame data until the output is assembled at close
 * (formats that need totals up front): frames go to disk as they come instead of into memory. It sits
 * in the output's directory so that it is on the same disk and is deleted with {@link #close()}.
 */
final class ScratchFile implements AutoCloseable {
    private final Path path;
    private final FileChannel channel;
    private Writer text;

    ScratchFile(Path dir, String name) throws IOException {
        Files.createDirectories(dir);
        this.path = AtomicOutput.createHidden(dir, name, ".scratch");
        this.channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE,
                StandardOpenOption.DELETE_ON_CLOSE);
    }

    Path path() {
        return path;
    }

    /** A buffered UTF-8 writer appending to the file. */
    Writer text() {
        if (text == null) {
            text = new BufferedWriter(new OutputStreamWriter(Channels.newOutputStream(channel),
                    StandardCharsets.UTF_8), 1 << 16);
        }
        return text;
    }

    /** Appends all of {@code bytes} (position to limit). */
    void write(ByteBuffer bytes) throws IOException {
        flush();
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
    }

    /** Bytes written so far. */
    long size() throws IOException {
        flush();
        return channel.size();
    }

    /** Reads into {@code into} from byte {@code at}; returns the bytes read (-1 at the end). */
    int read(ByteBuffer into, long at) throws IOException {
        flush();
        return channel.read(into, at);
    }

    /** Copies bytes [from, to) to {@code out} at its position, in chunks (the kernel's, where it can). */
    void copyTo(WritableByteChannel out, long from, long to) throws IOException {
        flush();
        long at = from;
        while (at < to) {
            long n = channel.transferTo(at, to - at, out);
            if (n <= 0) {
                throw new IOException("cannot copy " + path + ": it ends at byte " + channel.size()
                        + ", expected " + to);
            }
            at += n;
        }
    }

    private void flush() throws IOException {
        if (text != null) {
            text.flush();
        }
    }

    /** Closes and deletes the file, ignoring errors (also called while handling one). */
    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // deleting is what matters
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // a stray hidden scratch file is all that is left
        }
    }
}
