package dev.weft.core.export;

import dev.weft.core.geom.SmoothNormals;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelObject;
import java.io.IOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;

/**
 * A binary glTF 2.0 file ({@code .glb}): the first frame as one mesh with a primitive per body (cloth:
 * TRIANGLES with POSITION, NORMAL, TEXCOORD_0; rope: LINES of its segments, sharing those vertex
 * attributes), animated by morph targets: target k holds frame k's positions minus frame 0's, and the
 * mesh node's weights are animated (LINEAR) so that at frame k's time target k alone has weight 1; in
 * between, positions blend linearly between the two frames.
 *
 * <p>The format is not made for long caches: the file holds frames × vertices × 12 bytes of targets
 * plus a weights table of frames² floats (the weights animation has one value per target per keyframe),
 * and a .glb is limited to 4 GiB. The vertex count is fixed: tearing or cutting fails with an
 * {@link dev.weft.core.InvalidInputException} suggesting obj or usd.
 *
 * <p>Streaming: the base mesh and each frame's deltas go to a scratch file as they come, each frame's
 * time and delta bounds to another; the JSON (which lists every target) is written to a third at close,
 * then the three are copied into the GLB.
 *
 * <p>base + delta gives frame k's coordinate exactly where their difference is a float (a coordinate
 * that moved by less than a factor 2, or started at 0), else to within half an ulp of the larger one.
 *
 * <p>Texture v is flipped (glTF's v runs down the image, the model's up, as in OBJ and USD). A vertex
 * without triangles (a rope's) gets the normal +Y, since glTF normals must be unit vectors.
 */
public final class GltfExporter extends AbstractFrameExporter {
    static final int GLB_MAGIC = 0x46546C67; // "glTF"
    static final int CHUNK_JSON = 0x4E4F534A; // "JSON"
    static final int CHUNK_BIN = 0x004E4942; // "BIN\0"
    private static final int ARRAY_BUFFER = 34962;
    private static final int ELEMENT_ARRAY_BUFFER = 34963;
    private static final int FLOAT = 5126;
    private static final int UNSIGNED_INT = 5125;
    /** Per frame in the frame-info scratch: time, delta min xyz, delta max xyz (float32 each). */
    private static final int INFO_BYTES = 28;
    private static final long GLB_LIMIT = 0xFFFF_FFFFL;

    private final Path file;
    private final String sceneName;
    private final FixedTopology topology;
    private ScratchFile data;
    private ScratchFile info;
    private float[] base;
    private ByteBuffer buffer;
    private final ByteBuffer infoRecord = ByteBuffer.allocate(INFO_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private float firstTime;
    private float lastTime;
    /** Byte length of the base section (positions, normals, uvs, indices) at the start of the data scratch. */
    private long baseBytes;
    /** Per primitive (a body with triangles or segments): body, mode, index count, byte offset. O(bodies). */
    private int[] primitiveBody;
    private int[] primitiveMode;
    private int[] primitiveIndices;
    private long[] primitiveOffset;
    private final float[] baseMin = new float[3];
    private final float[] baseMax = new float[3];
    private String[] bodyNames;

    public GltfExporter(Path glbFile, String sceneName) {
        this.file = glbFile.toAbsolutePath();
        this.sceneName = sceneName;
        this.topology = new FixedTopology("the glTF format (morph targets)", this.file);
    }

    @Override
    public List<Path> outputs() {
        return List.of(file);
    }

    @Override
    String describe() {
        return "glTF file " + file;
    }

    @Override
    void write(Model model, float[] positions, int frameIndex, double time, int frameNumber) throws IOException {
        topology.check(model, frameIndex);
        int n = model.drawnSurface().vertexCount();
        if (frameNumber == 0) {
            start(model, positions);
            firstTime = (float) time;
        }
        long projected = 12 + 8 + 8 + baseBytes + (long) (frameNumber + 1) * (12L * n + 4 + INFO_BYTES)
                + 4L * (frameNumber + 1) * (frameNumber + 1);
        if (projected > GLB_LIMIT) {
            throw new IOException("a .glb file is limited to 4 GiB, and " + (frameNumber + 1) + " frames of "
                    + n + " vertices need more (morph targets: frames x vertices x 12 bytes, weights: frames^2 x 4"
                    + " bytes); export fewer frames, or use 'pc2' or 'usd' for long runs");
        }
        // Deltas to frame 0, with their bounds (glTF requires min and max of every POSITION accessor).
        float[] b = base;
        float minX = Float.POSITIVE_INFINITY;
        float minY = Float.POSITIVE_INFINITY;
        float minZ = Float.POSITIVE_INFINITY;
        float maxX = Float.NEGATIVE_INFINITY;
        float maxY = Float.NEGATIVE_INFINITY;
        float maxZ = Float.NEGATIVE_INFINITY;
        ByteBuffer out = buffer;
        out.clear();
        for (int v = 0; v < n; v++) {
            float dx = delta(b[3 * v], positions[3 * v]);
            float dy = delta(b[3 * v + 1], positions[3 * v + 1]);
            float dz = delta(b[3 * v + 2], positions[3 * v + 2]);
            out.putFloat(dx).putFloat(dy).putFloat(dz);
            minX = Math.min(minX, dx);
            minY = Math.min(minY, dy);
            minZ = Math.min(minZ, dz);
            maxX = Math.max(maxX, dx);
            maxY = Math.max(maxY, dy);
            maxZ = Math.max(maxZ, dz);
        }
        out.flip();
        data.write(out);
        infoRecord.clear();
        infoRecord.putFloat((float) time).putFloat(minX).putFloat(minY).putFloat(minZ).putFloat(maxX).putFloat(maxY)
                .putFloat(maxZ).flip();
        info.write(infoRecord);
        lastTime = (float) time;
    }

    /**
     * The morph target value: to − from, rounded once. A renderer adding it back to the base gets {@code to}
     * exactly whenever the difference is a float (always when the coordinate moved by less than a factor 2,
     * or started at 0); otherwise within half a unit in the last place of the larger of the two.
     */
    static float delta(float from, float to) {
        return to - from;
    }

    /** The first frame: the base mesh into the data scratch, and the per-body primitives. */
    private void start(Model model, float[] positions) throws IOException {
        int n = model.drawnSurface().vertexCount();
        Path dir = file.getParent();
        String name = file.getFileName().toString();
        data = new ScratchFile(dir, name + ".bin");
        info = new ScratchFile(dir, name + ".frames");
        base = positions.clone();
        buffer = ByteBuffer.allocate(12 * n).order(ByteOrder.LITTLE_ENDIAN);
        for (int c = 0; c < 3; c++) {
            baseMin[c] = Float.POSITIVE_INFINITY;
            baseMax[c] = Float.NEGATIVE_INFINITY;
        }
        for (int v = 0; v < n; v++) {
            for (int c = 0; c < 3; c++) {
                baseMin[c] = Math.min(baseMin[c], positions[3 * v + c]);
                baseMax[c] = Math.max(baseMax[c], positions[3 * v + c]);
            }
        }
        buffer.clear();
        buffer.asFloatBuffer().put(positions);
        buffer.limit(12 * n);
        data.write(buffer);
        float[] nrm = new SmoothNormals(n).compute(positions, model.drawnSurface().triangles());
        for (int v = 0; v < n; v++) {
            if (nrm[3 * v] == 0f && nrm[3 * v + 1] == 0f && nrm[3 * v + 2] == 0f) {
                // glTF requires unit normals: a rope's vertex (on no triangle) gets +y
                nrm[3 * v] = 0f;
                nrm[3 * v + 1] = 1f;
                nrm[3 * v + 2] = 0f;
            }
        }
        buffer.clear();
        buffer.asFloatBuffer().put(nrm);
        buffer.limit(12 * n);
        data.write(buffer);
        float[] uv = model.drawnSurface().uvs();
        buffer.clear();
        for (int v = 0; v < n; v++) {
            buffer.putFloat(uv[2 * v]).putFloat(1f - uv[2 * v + 1]);
        }
        buffer.flip();
        data.write(buffer);
        writePrimitives(model);
        baseBytes = data.size();
    }

    /** One primitive per body that has triangles (TRIANGLES) or rope segments (LINES); indices appended. */
    private void writePrimitives(Model model) throws IOException {
        int bodies = model.objects().size();
        int[] tris = model.drawnSurface().triangles();
        RopePolylines ropes = RopePolylines.of(model);
        primitiveBody = new int[bodies];
        primitiveMode = new int[bodies];
        primitiveIndices = new int[bodies];
        primitiveOffset = new long[bodies];
        bodyNames = new String[bodies];
        int count = 0;
        long offset = 0;
        ByteBuffer idx = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
        for (int o = 0; o < bodies; o++) {
            bodyNames[o] = model.objects().get(o).name();
            boolean rope = model.objects().get(o).type() == ModelObject.Type.ROPE;
            int indices = 0;
            if (rope) {
                for (int p = 0; p < ropes.count(); p++) {
                    if (ropes.body(p) != o) {
                        continue;
                    }
                    for (int k = ropes.start(p); k + 1 < ropes.end(p); k++) {
                        idx = put(idx, ropes.vertex(k));
                        idx = put(idx, ropes.vertex(k + 1));
                        indices += 2;
                    }
                }
            } else {
                for (int t = 0; t < tris.length; t += 3) {
                    if (model.drawnSurface().objectOf(tris[t]) == o) {
                        idx = put(idx, tris[t]);
                        idx = put(idx, tris[t + 1]);
                        idx = put(idx, tris[t + 2]);
                        indices += 3;
                    }
                }
            }
            if (indices == 0) {
                continue;
            }
            primitiveBody[count] = o;
            primitiveMode[count] = rope ? 1 : 4; // LINES, TRIANGLES
            primitiveIndices[count] = indices;
            primitiveOffset[count] = offset;
            offset += 4L * indices;
            count++;
        }
        idx.flip();
        data.write(idx);
        primitiveBody = java.util.Arrays.copyOf(primitiveBody, count);
        primitiveMode = java.util.Arrays.copyOf(primitiveMode, count);
        primitiveIndices = java.util.Arrays.copyOf(primitiveIndices, count);
        primitiveOffset = java.util.Arrays.copyOf(primitiveOffset, count);
    }

    /** Appends an index, flushing the buffer to the data scratch when full. */
    private ByteBuffer put(ByteBuffer idx, int index) throws IOException {
        if (!idx.hasRemaining()) {
            idx.flip();
            data.write(idx);
            idx.clear();
        }
        return idx.putInt(index);
    }

    @Override
    void finish() throws IOException {
        int frames = frameCount();
        int n = base.length / 3;
        long deltaBytes = (long) frames * 12 * n;
        long timesBytes = 4L * frames;
        long weightsBytes = 4L * frames * frames;
        long binBytes = baseBytes + deltaBytes + timesBytes + weightsBytes;
        try (ScratchFile json = new ScratchFile(file.getParent(), file.getFileName() + ".json")) {
            writeJson(json.text(), n, frames, binBytes);
            long jsonBytes = json.size();
            long jsonPadded = (jsonBytes + 3) & ~3L;
            long total = 12 + 8 + jsonPadded + 8 + binBytes;
            if (total > GLB_LIMIT) {
                throw new IOException("a .glb file is limited to 4 GiB, and " + frames + " frames of " + n
                        + " vertices need " + total + " bytes; export fewer frames, or use 'pc2' or 'usd'");
            }
            AtomicOutput glb = AtomicOutput.create(file);
            try {
                FileChannel out = glb.channel();
                ByteBuffer head = ByteBuffer.allocate(20).order(ByteOrder.LITTLE_ENDIAN);
                head.putInt(GLB_MAGIC).putInt(2).putInt((int) total).putInt((int) jsonPadded).putInt(CHUNK_JSON).flip();
                writeFully(out, head);
                glb.append(json, 0, jsonBytes);
                ByteBuffer pad = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
                for (long k = jsonBytes; k < jsonPadded; k++) {
                    pad.put((byte) ' ');
                }
                pad.putInt((int) binBytes).putInt(CHUNK_BIN).flip();
                writeFully(out, pad);
                glb.append(data, 0, baseBytes + deltaBytes);
                writeTimes(out, frames);
                writeWeights(out, frames);
                glb.commit();
            } catch (IOException | RuntimeException e) {
                glb.discard();
                throw e;
            }
        } finally {
            discard();
        }
    }

    private static void writeFully(FileChannel out, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            out.write(b);
        }
    }

    /** The animation's keyframe times, read back from the frame-info scratch. */
    private void writeTimes(FileChannel out, int frames) throws IOException {
        ByteBuffer records = ByteBuffer.allocate(INFO_BYTES * 1024).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer times = ByteBuffer.allocate(4 * 1024).order(ByteOrder.LITTLE_ENDIAN);
        for (int first = 0; first < frames; first += 1024) {
            int count = Math.min(1024, frames - first);
            readRecords(records, first, count);
            times.clear();
            for (int k = 0; k < count; k++) {
                times.putFloat(records.getFloat(k * INFO_BYTES));
            }
            times.flip();
            writeFully(out, times);
        }
    }

    private void readRecords(ByteBuffer records, int first, int count) throws IOException {
        records.clear();
        records.limit(count * INFO_BYTES);
        long at = (long) first * INFO_BYTES;
        while (records.hasRemaining()) {
            int r = info.read(records, at + records.position());
            if (r < 0) {
                throw new IOException("frame data " + info.path() + " ends early");
            }
        }
        records.flip();
    }

    /** Keyframe k's weights: 1 for target k, 0 for the others (frames × frames floats, in chunks). */
    private static void writeWeights(FileChannel out, int frames) throws IOException {
        long total = (long) frames * frames;
        int chunk = 1 << 14;
        ByteBuffer b = ByteBuffer.allocate(4 * chunk).order(ByteOrder.LITTLE_ENDIAN);
        for (long s = 0; s < total; s += chunk) {
            int count = (int) Math.min(chunk, total - s);
            b.clear();
            for (int i = 0; i < count; i++) {
                b.putFloat((s + i) % (frames + 1) == 0 ? 1f : 0f); // the diagonal k * frames + k
            }
            b.flip();
            writeFully(out, b);
        }
    }

    private void writeJson(Writer w, int n, int frames, long binBytes) throws IOException {
        int primitives = primitiveBody.length;
        int firstIndexAccessor = 3;
        int firstTarget = firstIndexAccessor + primitives;
        int timesAccessor = firstTarget + frames;
        int weightsAccessor = timesAccessor + 1;
        long positionsAt = 0;
        long normalsAt = 12L * n;
        long uvsAt = 24L * n;
        long indicesAt = 32L * n;
        long deltasAt = baseBytes;
        long timesAt = deltasAt + (long) frames * 12 * n;
        long weightsAt = timesAt + 4L * frames;

        w.write("{\"asset\":{\"version\":\"2.0\",\"generator\":\"Weft cloth simulation\"},\n");
        w.write("\"scene\":0,\"scenes\":[{\"name\":" + string(sceneName) + ",\"nodes\":[0]}],\n");
        w.write("\"nodes\":[{\"name\":" + string(sceneName) + ",\"mesh\":0}],\n");
        w.write("\"meshes\":[{\"name\":" + string(sceneName) + ",\"primitives\":[\n");
        for (int p = 0; p < primitives; p++) {
            w.write(p == 0 ? "" : ",\n");
            w.write("{\"attributes\":{\"POSITION\":0,\"NORMAL\":1,\"TEXCOORD_0\":2},\"indices\":"
                    + (firstIndexAccessor + p) + ",\"mode\":" + primitiveMode[p] + ",\"extras\":{\"body\":"
                    + string(bodyNames[primitiveBody[p]]) + "},\"targets\":[");
            for (int k = 0; k < frames; k++) {
                w.write(k == 0 ? "" : ",");
                w.write("{\"POSITION\":" + (firstTarget + k) + "}");
            }
            w.write("]}");
        }
        // Blender names the shape keys after these.
        w.write("],\"extras\":{\"targetNames\":[");
        for (int k = 0; k < frames; k++) {
            w.write((k == 0 ? "\"" : ",\"") + "frame_" + String.format("%05d", firstFrameIndex() + k) + "\"");
        }
        w.write("]}}],\n");
        w.write("\"animations\":[{\"name\":\"simulation\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,"
                + "\"path\":\"weights\"}}],\"samplers\":[{\"input\":" + timesAccessor + ",\"output\":" + weightsAccessor
                + ",\"interpolation\":\"LINEAR\"}]}],\n");
        w.write("\"buffers\":[{\"byteLength\":" + binBytes + "}],\n");
        w.write("\"bufferViews\":[\n");
        w.write(view(positionsAt, 12L * n, ARRAY_BUFFER, 0) + ",\n");
        w.write(view(normalsAt, 12L * n, ARRAY_BUFFER, 0) + ",\n");
        w.write(view(uvsAt, 8L * n, ARRAY_BUFFER, 0) + ",\n");
        w.write(view(indicesAt, baseBytes - indicesAt, ELEMENT_ARRAY_BUFFER, 0) + ",\n");
        // Several vertex accessors share the deltas' view: glTF then requires its byteStride.
        w.write(view(deltasAt, (long) frames * 12 * n, ARRAY_BUFFER, 12) + ",\n");
        w.write(view(timesAt, 4L * frames, 0, 0) + ",\n");
        w.write(view(weightsAt, 4L * frames * frames, 0, 0) + "],\n");
        w.write("\"accessors\":[\n");
        w.write(accessor(0, 0, n, "VEC3", FLOAT, baseMin, baseMax) + ",\n");
        w.write(accessor(1, 0, n, "VEC3", FLOAT, null, null) + ",\n");
        w.write(accessor(2, 0, n, "VEC2", FLOAT, null, null) + ",\n");
        for (int p = 0; p < primitives; p++) {
            w.write(accessor(3, primitiveOffset[p], primitiveIndices[p], "SCALAR", UNSIGNED_INT, null, null) + ",\n");
        }
        ByteBuffer records = ByteBuffer.allocate(INFO_BYTES * 1024).order(ByteOrder.LITTLE_ENDIAN);
        float[] min = new float[3];
        float[] max = new float[3];
        for (int first = 0; first < frames; first += 1024) {
            int count = Math.min(1024, frames - first);
            readRecords(records, first, count);
            for (int k = 0; k < count; k++) {
                for (int c = 0; c < 3; c++) {
                    min[c] = records.getFloat(k * INFO_BYTES + 4 + 4 * c);
                    max[c] = records.getFloat(k * INFO_BYTES + 16 + 4 * c);
                }
                w.write(accessor(4, (long) (first + k) * 12 * n, n, "VEC3", FLOAT, min, max) + ",\n");
            }
        }
        w.write(accessor(5, 0, frames, "SCALAR", FLOAT, new float[] {firstTime}, new float[] {lastTime}) + ",\n");
        w.write(accessor(6, 0, (long) frames * frames, "SCALAR", FLOAT, null, null) + "\n");
        w.write("]}\n");
    }

    private static String view(long offset, long length, int target, int stride) {
        return "{\"buffer\":0,\"byteOffset\":" + offset + ",\"byteLength\":" + length
                + (stride > 0 ? ",\"byteStride\":" + stride : "") + (target > 0 ? ",\"target\":" + target : "") + "}";
    }

    private static String accessor(int view, long offset, long count, String type, int componentType, float[] min,
                                   float[] max) {
        StringBuilder b = new StringBuilder(160);
        b.append("{\"bufferView\":").append(view).append(",\"byteOffset\":").append(offset)
                .append(",\"componentType\":").append(componentType).append(",\"count\":").append(count)
                .append(",\"type\":\"").append(type).append('"');
        if (min != null) {
            b.append(",\"min\":").append(numbers(min)).append(",\"max\":").append(numbers(max));
        }
        return b.append('}').toString();
    }

    /**
     * Floats as JSON numbers holding their exact value ({@code (double) f}): a reader comparing the bounds
     * with the float32 data (as glTF validators do) finds them equal, and parsing to float gives f back.
     */
    private static String numbers(float[] v) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < v.length; i++) {
            b.append(i == 0 ? "" : ",").append(Double.toString(v[i] == 0f ? 0.0 : v[i]));
        }
        return b.append(']').toString();
    }

    /** A JSON string literal. */
    static String string(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }

    @Override
    void discard() {
        if (data != null) {
            data.close();
        }
        if (info != null) {
            info.close();
        }
    }
}
