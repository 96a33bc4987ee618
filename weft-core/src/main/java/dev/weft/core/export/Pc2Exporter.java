package dev.weft.core.export;

import dev.weft.core.model.Model;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * A PC2 point cache (read by Blender's Mesh Cache modifier, Maya and 3ds Max) plus its base mesh as OBJ
 * with the same vertex order (every particle in model order, written from the first frame).
 *
 * <p>Layout, all little-endian: {@code char[12] "POINTCACHE2\0"}, int32 version 1, int32 numPoints,
 * float32 startFrame (the first frame's index), float32 sampleRate (1: one sample per frame), int32
 * numSamples, then numSamples × numPoints × xyz float32. Samples are appended as frames come; numSamples,
 * known only at the end, is written as 0 and patched at close.
 *
 * <p>The vertex count is fixed for the whole cache: a frame after tearing or cutting fails with an
 * {@link dev.weft.core.InvalidInputException} that suggests obj or usd.
 */
public final class Pc2Exporter extends AbstractFrameExporter {
    static final int HEADER_BYTES = 32;
    /** Byte offset of numSamples in the header. */
    static final int SAMPLES_OFFSET = 28;

    private final Path cacheFile;
    private final Path baseObjFile;
    private final String objectName;
    private final FixedTopology topology;
    private AtomicOutput cache;
    private AtomicOutput base;
    private ByteBuffer sample;

    /**
     * @param objectName the name of the base mesh's one object (a point cache drives one mesh)
     */
    public Pc2Exporter(Path cacheFile, Path baseObjFile, String objectName) {
        this.cacheFile = cacheFile.toAbsolutePath();
        this.baseObjFile = baseObjFile.toAbsolutePath();
        this.objectName = objectName;
        this.topology = new FixedTopology("the PC2 point cache format", this.cacheFile);
    }

    @Override
    public List<Path> outputs() {
        return List.of(cacheFile, baseObjFile);
    }

    @Override
    String describe() {
        return "point cache " + cacheFile;
    }

    @Override
    void write(Model model, float[] positions, int frameIndex, double time, int frameNumber) throws IOException {
        topology.check(model, frameIndex);
        if (frameNumber == 0) {
            start(model, positions, frameIndex);
        }
        sample.clear();
        sample.asFloatBuffer().put(positions);
        sample.limit(positions.length * 4);
        FileChannel out = cache.channel();
        while (sample.hasRemaining()) {
            out.write(sample);
        }
    }

    private void start(Model model, float[] positions, int frameIndex) throws IOException {
        cache = AtomicOutput.create(cacheFile);
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        header.put("POINTCACHE2\0".getBytes(StandardCharsets.US_ASCII));
        header.putInt(1); // version
        header.putInt(model.drawnSurface().vertexCount());
        header.putFloat(frameIndex); // start frame
        header.putFloat(1f); // sample rate: one sample per frame
        header.putInt(0); // numSamples, patched at close
        header.flip();
        FileChannel out = cache.channel();
        while (header.hasRemaining()) {
            out.write(header);
        }
        sample = ByteBuffer.allocate(positions.length * 4).order(ByteOrder.LITTLE_ENDIAN);

        base = AtomicOutput.create(baseObjFile);
        new ObjFrameWriter().write(base.text(), model, positions, objectName,
                "Weft base mesh of " + cacheFile.getFileName() + " (frame " + frameIndex + "; vertex order = cache order)");
        base.flushText();
    }

    @Override
    void finish() throws IOException {
        ByteBuffer count = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(frameCount());
        count.flip();
        FileChannel out = cache.channel();
        while (count.hasRemaining()) {
            out.write(count, SAMPLES_OFFSET + count.position());
        }
        base.commit();
        cache.commit();
    }

    @Override
    void discard() {
        if (cache != null) {
            cache.discard();
        }
        if (base != null) {
            base.discard();
        }
    }
}
