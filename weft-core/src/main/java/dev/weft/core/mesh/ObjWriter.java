package dev.weft.core.mesh;

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
 * Writes a triangle mesh as Wavefront OBJ: {@code v}, then {@code vt} when there are uvs, then
 * {@code f} with 1-based indices ({@code f a/a b/b c/c} with uvs, {@code f a b c} without).
 *
 * <p>Floats are written with {@link Float#toString(float)}, the shortest text that parses back to the
 * same float, so {@link ObjReader} reproduces the arrays bit for bit (provided no two vertices share
 * a position, which the reader would weld).
 */
public final class ObjWriter {
    private ObjWriter() {
    }

    /** Writes {@code mesh} to {@code file} atomically; see {@link #write(Path, float[], float[], int[], String)}. */
    public static void write(Path file, TriangleMesh mesh, String comment) throws IOException {
        write(file, mesh.positions(), mesh.uvs(), mesh.triangles(), comment);
    }

    /**
     * Writes the mesh to {@code file} atomically: the text goes to a temporary file in the same
     * directory, which is synced and then moved over {@code file}, so that a reader (or a crash)
     * never sees a half-written mesh.
     *
     * @param uvs     uv per vertex, or null
     * @param comment written as {@code #} lines at the top; null or empty for none
     * @throws IllegalArgumentException if the arrays do not fit together or hold a non-finite value
     */
    public static void write(Path file, float[] positions, float[] uvs, int[] triangles, String comment)
            throws IOException {
        check(positions, uvs, triangles);
        Path target = file.toAbsolutePath();
        Path dir = target.getParent();
        Path temp = createTemp(dir, target.getFileName().toString());
        boolean moved = false;
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                Writer out = new BufferedWriter(
                        new OutputStreamWriter(Channels.newOutputStream(channel), StandardCharsets.UTF_8), 1 << 16);
                write(out, positions, uvs, triangles, comment);
                out.flush();
                channel.force(true);
            }
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            moved = true;
        } finally {
            if (!moved) {
                Files.deleteIfExists(temp);
            }
        }
    }

    /**
     * Creates an empty, uniquely named temporary file. Not {@link Files#createTempFile}: that makes the
     * file owner-only (0600), and the permissions would carry over to the final file by the move.
     */
    private static Path createTemp(Path dir, String name) throws IOException {
        while (true) {
            Path temp = dir.resolve("." + name + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
            try {
                FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close();
                return temp;
            } catch (FileAlreadyExistsException e) {
                // Name taken: draw another.
            }
        }
    }

    /**
     * Writes the mesh as OBJ text to {@code out}, which is neither flushed nor closed.
     *
     * @param uvs     uv per vertex, or null
     * @param comment written as {@code #} lines at the top; null or empty for none
     * @throws IllegalArgumentException if the arrays do not fit together or hold a non-finite value
     */
    public static void write(Writer out, float[] positions, float[] uvs, int[] triangles, String comment)
            throws IOException {
        check(positions, uvs, triangles);
        StringBuilder b = new StringBuilder(128);
        if (comment != null && !comment.isEmpty()) {
            for (String line : comment.split("\r?\n|\r", -1)) {
                out.write(line.isEmpty() ? "#\n" : "# " + line + "\n");
            }
        }
        int n = positions.length / 3;
        for (int v = 0; v < n; v++) {
            b.setLength(0);
            b.append("v ").append(positions[3 * v]).append(' ').append(positions[3 * v + 1]).append(' ')
                    .append(positions[3 * v + 2]).append('\n');
            out.append(b);
        }
        if (uvs != null) {
            for (int v = 0; v < n; v++) {
                b.setLength(0);
                b.append("vt ").append(uvs[2 * v]).append(' ').append(uvs[2 * v + 1]).append('\n');
                out.append(b);
            }
        }
        for (int t = 0; t < triangles.length; t += 3) {
            b.setLength(0);
            b.append('f');
            for (int k = 0; k < 3; k++) {
                int index = triangles[t + k] + 1;
                b.append(' ').append(index);
                if (uvs != null) {
                    b.append('/').append(index);
                }
            }
            b.append('\n');
            out.append(b);
        }
    }

    /** Same rules as a {@link TriangleMesh}, plus finite values: the reader rejects NaN and infinity. */
    private static void check(float[] positions, float[] uvs, int[] triangles) {
        TriangleMesh.validate(positions, uvs, triangles);
        for (int i = 0; i < positions.length; i++) {
            if (!Float.isFinite(positions[i])) {
                throw new IllegalArgumentException("coordinate " + i % 3 + " of vertex " + i / 3 + " is " + positions[i]);
            }
        }
        if (uvs != null) {
            for (int i = 0; i < uvs.length; i++) {
                if (!Float.isFinite(uvs[i])) {
                    throw new IllegalArgumentException("uv " + i % 2 + " of vertex " + i / 2 + " is " + uvs[i]);
                }
            }
        }
    }
}
