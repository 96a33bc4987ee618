package dev.weft.opencl;

import static org.lwjgl.opencl.CL10.clEnqueueNDRangeKernel;

import dev.weft.core.model.Model;
import dev.weft.core.model.TetherConstraints;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryUtil;

/**
 * The model's tethers (long-range attachments) on the device, for the position-based solvers that project
 * them on y + d: pairs and lengths uploaded when the model changes, and one launch per tether color of
 * the solver's kernel around tethers.cl's {@code tether_project} (a color's tethers share no particle, so
 * each work-item writes only its own particle's d), as {@code TetherProjection.project} does on the CPU.
 */
final class DeviceTethers {
    private final OpenClContext cl;
    private final long kernel;
    private final String name;
    private int colors;
    private PointerBuffer offset;
    private PointerBuffer size;
    /** Kept across edits (the solver closes them): an edit uploads only the tethers that changed. */
    private final MirroredBuffer pairs;
    private final MirroredBuffer lengths;

    /**
     * For {@code kernel} (arguments: pairs, max lengths, y, d), named {@code name} in errors, the tethers held in
     * {@code pairs} and {@code lengths} (the solver's, which it closes).
     */
    DeviceTethers(OpenClContext cl, long kernel, String name, MirroredBuffer pairs, MirroredBuffer lengths) {
        this.cl = cl;
        this.kernel = kernel;
        this.name = name;
        this.pairs = pairs;
        this.lengths = lengths;
    }

    /** The tethers of {@code m} where {@code on} (else none), projecting on the device's y and d. */
    void bind(Model m, boolean on, long yMem, long dMem) {
        release();
        TetherConstraints t = m.tethers();
        colors = on && t.count() > 0 ? t.colorStart().length - 1 : 0;
        if (colors == 0) {
            return;
        }
        int[] start = t.colorStart();
        offset = MemoryUtil.memAllocPointer(colors);
        size = MemoryUtil.memAllocPointer(colors);
        for (int c = 0; c < colors; c++) {
            offset.put(c, start[c]);
            size.put(c, start[c + 1] - start[c]);
        }
        pairs.sync(t.particles());
        lengths.sync(t.maxLength());
        OpenClSolver.bufferArgs(kernel, name, 0, pairs.mem(), lengths.mem(), yMem, dMem);
    }

    /** Whether any tether is projected. */
    boolean any() {
        return colors > 0;
    }

    /** Every tether, a color per launch, in color order. */
    void project() {
        for (int c = 0; c < colors; c++) {
            if (size.get(c) > 0) {
                offset.position(c);
                size.position(c);
                ClCheck.ok(clEnqueueNDRangeKernel(cl.queue(), kernel, 1, offset, size, null, null, null), name);
            }
        }
    }

    /** The launch sizes let go (bind makes them again); the device buffers are kept for the next bind. */
    void release() {
        if (offset != null) {
            MemoryUtil.memFree(offset);
            MemoryUtil.memFree(size);
        }
        offset = size = null;
        colors = 0;
    }
}
