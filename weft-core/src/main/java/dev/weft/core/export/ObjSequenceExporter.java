package dev.weft.core.export;

import dev.weft.core.model.Model;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * One Wavefront OBJ per frame, {@code frame_00012.obj} in a directory (what Blender's "Stop Motion OBJ"
 * and Houdini's file sequences read): {@code v}, {@code vt}, smooth {@code vn}, per body an {@code o} and
 * a {@code g} with its faces {@code f v/vt/vn} and its ropes as {@code l} polylines. Each file is complete
 * in itself, so the topology may change between frames (tearing, cutting).
 *
 * <p>Frames are written into a hidden staging directory beside the target directory and moved into it at
 * {@link #close()}; frame files of an earlier run beyond this run's frames are then deleted, so the
 * directory holds one sequence. An aborted run leaves the directory as it was.
 */
public final class ObjSequenceExporter extends AbstractFrameExporter {
    private static final Pattern FRAME_FILE = Pattern.compile("frame_\\d{5,}\\.obj");

    private final Path directory;
    private final ObjFrameWriter writer = new ObjFrameWriter();
    private Path staging;

    /** Frames go to {@code directory} (created if needed) as {@code frame_NNNNN.obj}. */
    public ObjSequenceExporter(Path directory) {
        this.directory = directory.toAbsolutePath();
    }

    /** The file name of frame {@code index}. */
    public static String fileName(int index) {
        return String.format("frame_%05d.obj", index);
    }

    @Override
    public List<Path> outputs() {
        return List.of(directory);
    }

    @Override
    String describe() {
        return "OBJ sequence " + directory;
    }

    @Override
    void write(Model model, float[] positions, int frameIndex, double time, int frameNumber) throws IOException {
        if (staging == null) {
            if (Files.exists(directory) && !Files.isDirectory(directory)) {
                throw new IOException(directory + " exists and is not a directory: OBJ frames need a directory");
            }
            Path parent = directory.getParent();
            Files.createDirectories(parent);
            staging = createStaging(parent, directory.getFileName().toString());
        }
        Path file = staging.resolve(fileName(frameIndex));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            Writer out = new BufferedWriter(new OutputStreamWriter(Channels.newOutputStream(channel),
                    StandardCharsets.UTF_8), 1 << 16);
            writer.write(out, model, positions, null, "Weft frame " + frameIndex + ", t = " + time + " s");
            out.flush();
            channel.force(true);
        }
    }

    private static Path createStaging(Path parent, String name) throws IOException {
        while (true) {
            Path p = parent.resolve("." + name + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
            if (!Files.exists(p)) {
                return Files.createDirectory(p);
            }
        }
    }

    @Override
    void finish() throws IOException {
        if (!Files.isDirectory(directory)) {
            // Nothing there yet: the whole sequence appears at once.
            move(staging, directory);
            staging = null;
            AtomicOutput.syncDirectory(directory.getParent());
            return;
        }
        for (int k = firstFrameIndex(); k <= lastFrameIndex(); k++) {
            move(staging.resolve(fileName(k)), directory.resolve(fileName(k)));
        }
        // Frames of an earlier, longer run would play on after this one's.
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                if (FRAME_FILE.matcher(name).matches() && !isThisRun(name)) {
                    Files.delete(f);
                }
            }
        }
        AtomicOutput.syncDirectory(directory);
        Files.delete(staging);
        staging = null;
    }

    private boolean isThisRun(String frameFile) {
        long k = Long.parseLong(frameFile.substring("frame_".length(), frameFile.length() - ".obj".length()));
        return k >= firstFrameIndex() && k <= lastFrameIndex();
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @Override
    void discard() {
        if (staging == null) {
            return;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(staging)) {
            for (Path f : files) {
                Files.deleteIfExists(f);
            }
        } catch (IOException ignored) {
            // best effort: a hidden staging directory is all that is left
        }
        try {
            Files.deleteIfExists(staging);
        } catch (IOException ignored) {
            // as above
        }
        staging = null;
    }
}
