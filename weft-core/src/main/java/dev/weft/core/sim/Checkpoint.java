package dev.weft.core.sim;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.Collider;
import dev.weft.core.model.State;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.CRC32;

/**
 * Everything that evolves in a {@link Simulation}, in a file: the {@link State} (positions, velocities,
 * time, step count), what each collider carries between steps ({@link Collider#saveState}: a
 * projectile's flight) and what the solver does ({@link dev.weft.core.solver.Solver#saveState}: the
 * implicit solver's released contacts). Resumed into a simulation of the same scene and solver, the
 * run continues bitwise as if it had never stopped. (Model edits do not exist yet; a drag handle's
 * target is the caller's.)
 *
 * <p>Format, big-endian: "WEFTCKPT", version (int), particle count (int), time (double), steps (long),
 * positions and velocities (3n floats each), solver name (UTF) and state, collider count (int) and per
 * collider its name (UTF) and state (length int, −1 for none, then the bytes), then a CRC-32 of all of it
 * (long). Written atomically (a {@code .part} file renamed into place).
 */
public final class Checkpoint {
    private static final byte[] MAGIC = "WEFTCKPT".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    /** The format's version; a file of another is refused. */
    public static final int VERSION = 1;

    private Checkpoint() {
    }

    /** Writes {@code sim}'s evolving state to {@code file}. */
    public static void write(Path file, Simulation sim) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.write(MAGIC);
            out.writeInt(VERSION);
            State s = sim.state();
            out.writeInt(s.particleCount());
            out.writeDouble(s.time());
            out.writeLong(s.steps());
            for (float f : s.positions()) {
                out.writeFloat(f);
            }
            for (float f : s.velocities()) {
                out.writeFloat(f);
            }
            out.writeUTF(sim.solver().name());
            writeBlock(out, sim.solver().saveState());
            Collider[] colliders = sim.environment().colliders();
            out.writeInt(colliders.length);
            for (Collider c : colliders) {
                out.writeUTF(c.name());
                writeBlock(out, c.saveState());
            }
        }
        CRC32 crc = new CRC32();
        crc.update(bytes.toByteArray());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeLong(crc.getValue());
        }
        Path part = file.resolveSibling(file.getFileName() + ".part");
        Files.write(part, bytes.toByteArray());
        Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Restores {@code sim} from {@code file}. A file that is not a checkpoint, of another version,
     * truncated, corrupted (checksum) or of another scene or solver is an {@link InvalidInputException}
     * naming the file and what does not match; {@code sim} is left untouched then.
     */
    public static void read(Path file, Simulation sim) throws IOException {
        byte[] all = Files.readAllBytes(file);
        String where = file.toString();
        if (all.length < MAGIC.length + Long.BYTES || !java.util.Arrays.equals(all, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new InvalidInputException(where, "is not a Weft checkpoint (it does not start with WEFTCKPT)");
        }
        CRC32 crc = new CRC32();
        crc.update(all, 0, all.length - Long.BYTES);
        long stored = java.nio.ByteBuffer.wrap(all, all.length - Long.BYTES, Long.BYTES).getLong();
        State s = sim.state();
        int n = s.particleCount();
        float[] x = new float[3 * n];
        float[] v = new float[3 * n];
        double time;
        long steps;
        byte[] solverState;
        Collider[] colliders = sim.environment().colliders();
        byte[][] colliderStates = new byte[colliders.length][];
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(all, 0, all.length - Long.BYTES))) {
            in.skipNBytes(MAGIC.length);
            int version = in.readInt();
            if (version != VERSION) {
                throw new InvalidInputException(where, "is a version " + version + " checkpoint; this Weft reads version "
                        + VERSION);
            }
            if (crc.getValue() != stored) {
                throw new InvalidInputException(where, "is corrupted (its checksum does not match its contents)");
            }
            int count = in.readInt();
            if (count != n) {
                throw new InvalidInputException(where, "holds " + count + " particles; the scene has " + n
                        + " (a checkpoint resumes the scene it was written from)");
            }
            time = in.readDouble();
            steps = in.readLong();
            for (int i = 0; i < x.length; i++) {
                x[i] = in.readFloat();
            }
            for (int i = 0; i < v.length; i++) {
                v[i] = in.readFloat();
            }
            String solver = in.readUTF();
            if (!solver.equals(sim.solver().name())) {
                throw new InvalidInputException(where, "was written by the " + solver + " solver; resume it with that "
                        + "solver, not " + sim.solver().name());
            }
            solverState = readBlock(in);
            int colliderCount = in.readInt();
            if (colliderCount != colliders.length) {
                throw new InvalidInputException(where, "has " + colliderCount + " colliders; the scene has "
                        + colliders.length);
            }
            for (int k = 0; k < colliders.length; k++) {
                String name = in.readUTF();
                if (!name.equals(colliders[k].name())) {
                    throw new InvalidInputException(where, "has collider '" + name + "' where the scene has '"
                            + colliders[k].name() + "'");
                }
                colliderStates[k] = readBlock(in);
            }
            if (in.available() > 0) {
                throw new InvalidInputException(where, "has " + in.available() + " bytes more than its contents");
            }
        } catch (EOFException e) {
            throw new InvalidInputException(where, "is truncated");
        }
        System.arraycopy(x, 0, s.positions(), 0, x.length);
        System.arraycopy(v, 0, s.velocities(), 0, v.length);
        s.setClock(time, steps);
        sim.solver().loadState(solverState);
        for (int k = 0; k < colliders.length; k++) {
            colliders[k].loadState(colliderStates[k]);
        }
    }

    private static void writeBlock(DataOutputStream out, byte[] block) throws IOException {
        if (block == null) {
            out.writeInt(-1);
        } else {
            out.writeInt(block.length);
            out.write(block);
        }
    }

    private static byte[] readBlock(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < -1) {
            throw new EOFException();
        }
        if (length < 0) {
            return null;
        }
        byte[] block = in.readNBytes(length);
        if (block.length != length) {
            throw new EOFException();
        }
        return block;
    }
}
