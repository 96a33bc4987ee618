package dev.weft.core.sim;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.Collider;
import dev.weft.core.model.DistanceKind;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelEdit;
import dev.weft.core.model.State;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Everything that evolves in a {@link Simulation}, in a file: the {@link State} (positions, velocities,
 * time, step count), what each collider carries between steps ({@link Collider#saveState}: a
 * projectile's flight) and what the solver does ({@link dev.weft.core.solver.Solver#saveState}: the
 * implicit solver's released contacts). Resumed into a simulation of the same scene and solver, the
 * run continues bitwise as if it had never stopped, edits included: the model's edit log
 * ({@link Model#edits()}: tears, cuts, seams so far) is replayed onto the scene's model. (A drag
 * handle's target is the caller's.)
 *
 * <p>Format, big-endian: "WEFTCKPT", version (int), the built model's particle count (int), its bodies'
 * materials (count int, then per body stretch, shear, bend, damping, strain damping, tear strain, friction,
 * density and thickness as floats: a resume with another material would not continue the run, so it is
 * refused), the edit log
 * (count int, then per edit a tag byte: 1 split: particle int, normal 3 floats; 2 distance: a, b int,
 * rest length float, kind byte; 3 detach: particle int, normal 3 floats, triangle count int and the
 * triangles), particle count (int), time (double), steps (long),
 * positions and velocities (3n floats each), solver name (UTF) and state, collider count (int) and per
 * collider its name (UTF) and state (length int, −1 for none, then the bytes), then a CRC-32 of all of it
 * (long). Written atomically (a {@code .part} file renamed into place).
 */
public final class Checkpoint {
    private static final byte[] MAGIC = "WEFTCKPT".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    /** The format's version; a file of another is refused. */
    public static final int VERSION = 4;
    private static final byte SPLIT = 1;
    private static final byte DISTANCE = 2;
    private static final byte DETACH = 3;

    private Checkpoint() {
    }

    /** Writes {@code sim}'s evolving state to {@code file}. */
    public static void write(Path file, Simulation sim) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.write(MAGIC);
            out.writeInt(VERSION);
            out.writeInt(sim.model().base().particleCount());
            Model built = sim.model().base();
            out.writeInt(built.objects().size());
            for (int o = 0; o < built.objects().size(); o++) {
                for (float f : fields(built.material(o))) {
                    out.writeFloat(f);
                }
            }
            List<ModelEdit> edits = sim.model().edits();
            out.writeInt(edits.size());
            for (ModelEdit e : edits) {
                writeEdit(out, e);
            }
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
        Model model;
        float[] x;
        float[] v;
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
            Model base = sim.model().base();
            int built = in.readInt();
            if (built != base.particleCount()) {
                throw new InvalidInputException(where, "was written for a model of " + built + " particles; the scene "
                        + "has " + base.particleCount() + " (a checkpoint resumes the scene it was written from)");
            }
            int bodies = in.readInt();
            if (bodies != base.objects().size()) {
                throw new InvalidInputException(where, "was written for a model of " + bodies + " bodies; the scene has "
                        + base.objects().size());
            }
            for (int o = 0; o < bodies; o++) {
                float[] now = fields(base.material(o));
                for (int f = 0; f < now.length; f++) {
                    float then = in.readFloat();
                    if (Float.floatToIntBits(then) != Float.floatToIntBits(now[f])) {
                        throw new InvalidInputException(where, "was written with " + base.objects().get(o).name()
                                + "'s " + MATERIAL_FIELDS[f] + " " + then + " where this run has " + now[f]
                                + ": resume with the material the run had"
                                + (MATERIAL_FLAGS[f] == null ? "" : " (the same " + MATERIAL_FLAGS[f] + ")"));
                    }
                }
            }
            int editCount = in.readInt();
            if (editCount < 0) {
                throw new EOFException();
            }
            List<ModelEdit> edits = new ArrayList<>();
            for (int k = 0; k < editCount; k++) {
                edits.add(readEdit(in, where));
            }
            try {
                model = base.edit(edits);
            } catch (InvalidInputException e) {
                throw new InvalidInputException(where, "has an edit the scene's model does not take: " + e.getMessage());
            }
            if (model.edits().size() != editCount) {
                throw new InvalidInputException(where, "has edits the scene's model does not take ("
                        + (editCount - model.edits().size()) + " of " + editCount + " change nothing)");
            }
            int n = model.particleCount();
            int count = in.readInt();
            if (count != n) {
                throw new InvalidInputException(where, "holds " + count + " particles; the scene with its "
                        + editCount + " edits has " + n);
            }
            x = new float[3 * n];
            v = new float[3 * n];
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
        State s = new State(model.particleCount());
        System.arraycopy(x, 0, s.positions(), 0, x.length);
        System.arraycopy(v, 0, s.velocities(), 0, v.length);
        s.setClock(time, steps);
        sim.restore(model, s);
        sim.solver().loadState(solverState);
        for (int k = 0; k < colliders.length; k++) {
            colliders[k].loadState(colliderStates[k]);
        }
    }

    private static final String[] MATERIAL_FIELDS = {"stretch stiffness", "shear stiffness", "bending rigidity",
        "damping", "strain damping", "tear strain", "friction", "density", "thickness"};
    /** The {@code weft run} flag that sets each field, or null where none does. */
    private static final String[] MATERIAL_FLAGS = {"--stretch", "--shear", "--bend", "--damping", null, "--tear-strain",
        "--friction", null, "--thickness"};

    private static float[] fields(Material m) {
        return new float[] {m.stretchStiffness(), m.shearStiffness(), m.bendStiffness(), m.damping(),
            m.strainDamping(), m.tearStrain(), m.friction(), m.density(), m.thickness()};
    }

    private static void writeEdit(DataOutputStream out, ModelEdit e) throws IOException {
        if (e instanceof ModelEdit.Split) {
            ModelEdit.Split split = (ModelEdit.Split) e;
            out.writeByte(SPLIT);
            out.writeInt(split.particle());
            out.writeFloat(split.nx());
            out.writeFloat(split.ny());
            out.writeFloat(split.nz());
        } else if (e instanceof ModelEdit.Detach) {
            ModelEdit.Detach detach = (ModelEdit.Detach) e;
            out.writeByte(DETACH);
            out.writeInt(detach.particle());
            out.writeFloat(detach.nx());
            out.writeFloat(detach.ny());
            out.writeFloat(detach.nz());
            int[] triangles = detach.triangles();
            out.writeInt(triangles.length);
            for (int t : triangles) {
                out.writeInt(t);
            }
        } else {
            ModelEdit.AddDistance add = (ModelEdit.AddDistance) e;
            out.writeByte(DISTANCE);
            out.writeInt(add.a());
            out.writeInt(add.b());
            out.writeFloat(add.restLength());
            out.writeByte(add.kind().code());
        }
    }

    private static ModelEdit readEdit(DataInputStream in, String where) throws IOException {
        byte tag = in.readByte();
        switch (tag) {
            case SPLIT:
                return new ModelEdit.Split(in.readInt(), in.readFloat(), in.readFloat(), in.readFloat());
            case DETACH: {
                int particle = in.readInt();
                float nx = in.readFloat();
                float ny = in.readFloat();
                float nz = in.readFloat();
                int count = in.readInt();
                if (count < 0 || count > 1 << 20) {
                    throw new EOFException();
                }
                int[] triangles = new int[count];
                for (int k = 0; k < count; k++) {
                    triangles[k] = in.readInt();
                }
                return new ModelEdit.Detach(particle, triangles, nx, ny, nz);
            }
            case DISTANCE: {
                int a = in.readInt();
                int b = in.readInt();
                float rest = in.readFloat();
                byte kind = in.readByte();
                if (kind < 0 || kind >= DistanceKind.values().length) {
                    throw new InvalidInputException(where, "has a distance edit of unknown kind " + kind);
                }
                return new ModelEdit.AddDistance(a, b, rest, DistanceKind.of(kind));
            }
            default:
                throw new InvalidInputException(where, "has an edit of unknown type " + tag);
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
