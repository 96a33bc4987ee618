package dev.weft.opencl;

import static org.lwjgl.opencl.CL10.CL_MAP_READ;
import static org.lwjgl.opencl.CL10.CL_MAP_WRITE;
import static org.lwjgl.opencl.CL10.clEnqueueCopyBuffer;
import static org.lwjgl.opencl.CL10.clEnqueueMapBuffer;
import static org.lwjgl.opencl.CL10.clEnqueueReadBuffer;
import static org.lwjgl.opencl.CL10.clEnqueueUnmapMemObject;
import static org.lwjgl.opencl.CL10.clEnqueueWriteBuffer;
import static org.lwjgl.opencl.CL10.clFinish;
import static org.lwjgl.opencl.CL10.clReleaseEvent;
import static org.lwjgl.opencl.CL10.clWaitForEvents;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;

/**
 * One device buffer of 4-byte elements (floats or ints) kept across model edits, with a host copy of what it
 * holds, so that writing a new host array uploads only what the device does not already have.
 *
 * <p>Why: an edit (a tear, a cut, a seam) makes a new model whose arrays are mostly the old ones: a split
 * appends particles and adds or rewires a few constraints. Releasing and re-creating every buffer re-uploaded
 * all of it (2 MB for the 100 × 100 cloth) for the few hundred elements that changed.
 *
 * <p>Capacity grows geometrically (×1.5, at least to what is asked) and never shrinks; on growth the old
 * contents are copied on the device (no host upload) into the new buffer, so the host copy stays true. A
 * write compares the new array with the host copy ({@link Arrays#mismatch}, vectorised; nothing more where
 * nothing changed) and writes each differing span, spans closer than {@link #GAP} elements coalesced into one
 * write: a few writes, not thousands.
 *
 * <p>A buffer made {@code shifting} (constraint arrays) also finds runs of the old contents that moved: an edit
 * lays each color's constraints out together, so a constraint added to one color shifts every later color by
 * a few elements, and a plain comparison would see most of the array change. Where a differing span starts,
 * the old contents are searched for the same elements up to {@link #WINDOW} elements away; each run found (at
 * least {@link #MIN_MOVE} long, compared element by element: only equal contents are moved) is copied on the
 * device (into a spare buffer first, then to its new place: OpenCL copies may not overlap), the rest written
 * from the host. Particle arrays do not shift (an edit appends particles), so they are compared in place only.
 *
 * <p>A buffer the kernels write (positions, velocities) is kept true by {@link #read}; one used as scratch
 * ({@link #reserve} alone) has no meaningful contents. {@link #mem} changes only when the buffer grows (the
 * solvers set their kernels' arguments at every bind; that costs no upload).
 */
final class MirroredBuffer implements AutoCloseable {
    /** Differing spans closer than this many elements (4 KiB) are written as one. */
    static final int GAP = 1024;
    /**
     * How far (elements) a shifting buffer looks for a moved run of its old contents at most; a sync looks
     * {@code 64 + 2·|new length − old length|} far within that (an edit that adds or removes k elements shifts
     * runs by about k; a failed search costs a comparison per place looked at, and repeated values, such as a
     * cloth's equal compliances, make each of them a run measured).
     */
    static final int WINDOW = 4096;
    /** The shortest run moved on the device (shorter ones are written: a copy has its own cost). */
    static final int MIN_MOVE = 32;
    /**
     * After a search that found nothing, this many elements are written before searching again (doubled after
     * each failure in a row: an array that changed for good costs a few searches, not one per span).
     */
    private static final int SKIP = 64;
    /**
     * Reads of at least this many elements (256 KiB) go through {@link #pinned}: a GPU driver copies from its
     * memory to pageable host memory (a Java array) through a staging buffer of its own, in chunks; into
     * memory it allocated itself and keeps page-locked it copies straight (NVIDIA's OpenCL guide: a buffer made
     * with {@code CL_MEM_ALLOC_HOST_PTR}, mapped once, as the read's destination). Smaller reads gain nothing
     * worth a second host copy.
     */
    static final int PINNED_MIN = 1 << 16;

    private final OpenClContext cl;
    private final String name;
    private final boolean shifting;
    private long mem;
    /** The buffer's size in elements. */
    private int capacity;
    /** What the device holds in its first {@link #known} elements, as raw bits. */
    private int[] mirror = new int[0];
    private int known;
    /** A float array's raw bits (reused: positions are compared at every step). */
    private int[] bits = new int[0];
    /**
     * What the device holds, as floats, where {@link #floatFresh}: the state a solver reads back after its steps
     * and compares before the next ones. Comparing and copying floats as they are, instead of converting every
     * element to its bits on each read and each sync, made a 1M-particle state's read-back and next sync (24 MB
     * each way) a fifth cheaper on PoCL (29.2 → 23.9 ms, median of five alternating pairs' ratios 0.81);
     * {@link #mirror} is brought up to date from it only when something changed.
     */
    private float[] floatMirror = new float[0];
    private boolean floatFresh;
    /** Whether {@link #mirror} lags behind {@link #floatMirror} (a read since the last sync). */
    private boolean mirrorStale;
    /** The spare buffer moved runs pass through, and its size in elements (0: none yet). */
    private long spare;
    private int spareCapacity;
    /** The plan of one sync: per operation its target, its source in the old contents (−1: a write), length. */
    private int[] opTo = new int[16];
    private int[] opFrom = new int[16];
    private int[] opLength = new int[16];
    private int ops;
    /** How far this sync's searches look (see {@link #WINDOW}). */
    private int window;
    /**
     * Direct memory the writes of one sync copy from (LWJGL writes from off-heap memory), grown to what a sync
     * writes; the writes do not block (each blocking write costs a round trip to the device's queue), so the
     * next sync that writes waits for {@link #lastWrite} before it fills the stage again.
     */
    private ByteBuffer stage;
    private IntBuffer stageInts;
    /** The event of the last write from the stage (0: none pending). */
    private long lastWrite;
    /** Where the next write of this sync takes its elements from in the stage. */
    private int staged;
    private final PointerBuffer event = MemoryUtil.memAllocPointer(1);
    /** The page-locked buffer large reads land in (0: none yet), mapped for good, and its size in elements. */
    private long pinned;
    private ByteBuffer pinnedHost;
    private FloatBuffer pinnedFloats;
    private int pinnedCapacity;
    /** Whether the driver refused the page-locked buffer (reads then go straight into the array). */
    private boolean pinnedRefused;

    /** An empty buffer named {@code name} in errors; {@code shifting}: look for moved runs (constraint arrays). */
    MirroredBuffer(OpenClContext cl, String name, boolean shifting) {
        this.cl = cl;
        this.name = name;
        this.shifting = shifting;
        this.stage = MemoryUtil.memAlloc(4 * 1024);
        this.stageInts = stage.asIntBuffer();
    }

    /** The device buffer (0 before the first {@link #sync} or {@link #reserve}). */
    long mem() {
        return mem;
    }

    /**
     * Room for at least {@code elements} (and one: OpenCL has no empty buffer), the contents kept. Returns
     * whether {@link #mem} is a new buffer.
     */
    boolean reserve(int elements) {
        int need = Math.max(1, elements);
        if (need <= capacity) {
            return false;
        }
        int grown = (int) Math.min(Integer.MAX_VALUE - 8, Math.max((long) need, capacity + (long) capacity / 2));
        long bigger = cl.buffer(4L * grown);
        if (known > 0) {
            ClCheck.ok(clEnqueueCopyBuffer(cl.queue(), mem, bigger, 0L, 0L, 4L * known, null, null),
                    name + ": keep the contents on growth");
        }
        OpenClContext.release(mem);
        mem = bigger;
        capacity = grown;
        return true;
    }

    /** The device holds {@code data} in its first elements when this returns; whether {@link #mem} is new. */
    boolean sync(float[] data) {
        int length = data.length;
        if (floatFresh && length <= known && Arrays.mismatch(data, 0, length, floatMirror, 0, length) < 0) {
            // the steady state of positions and velocities: what the device read back is what the host has
            // (Arrays.mismatch takes every NaN as equal: a NaN the host swaps for another stays on the device)
            known = length;
            return false;
        }
        if (bits.length < data.length) {
            bits = new int[data.length];
        }
        for (int k = 0; k < data.length; k++) {
            bits[k] = Float.floatToRawIntBits(data[k]);
        }
        boolean grown = sync(bits, length);
        if (floatMirror.length < length) {
            floatMirror = Arrays.copyOf(floatMirror, Math.max(length, capacity));
        }
        System.arraycopy(data, 0, floatMirror, 0, length);
        floatFresh = true;
        return grown;
    }

    /** As {@link #sync(float[])}, for ints. */
    boolean sync(int[] data) {
        boolean grown = sync(data, data.length);
        floatFresh = false;
        return grown;
    }

    private boolean sync(int[] data, int length) {
        if (mirrorStale) {
            // the device's contents as bits again, from what the last read left in floatMirror
            if (mirror.length < known) {
                mirror = Arrays.copyOf(mirror, capacity);
            }
            for (int k = 0; k < known; k++) {
                mirror[k] = Float.floatToRawIntBits(floatMirror[k]);
            }
            mirrorStale = false;
        }
        boolean grown = reserve(length);
        if (mirror.length < capacity) {
            mirror = Arrays.copyOf(mirror, capacity);
        }
        int common = Math.min(known, length);
        int first = Arrays.mismatch(data, 0, common, mirror, 0, common);
        if (first < 0 && length <= known) {
            known = length;
            return grown; // the steady state: nothing changed
        }
        window = (int) Math.min(WINDOW, 64 + 2L * Math.abs(length - known));
        plan(data, length, first < 0 ? common : first);
        apply(data);
        System.arraycopy(data, 0, mirror, 0, length);
        known = length;
        return grown;
    }

    /**
     * The operations that make the device hold {@code data[0, length)}, from element {@code from} (the first
     * difference): in-place runs need none, moved runs a device copy, the rest host writes, in target order.
     */
    private void plan(int[] data, int length, int from) {
        ops = 0;
        int delta = 0; // the current run's target − source
        int searchFrom = from;
        int skip = SKIP;
        int writeStart = -1;
        int i = from;
        while (i < length) {
            int run = runAt(data, length, i, delta);
            if (run >= (delta == 0 ? 1 : MIN_MOVE)) {
                if (writeStart >= 0) {
                    addWrite(writeStart, i);
                    writeStart = -1;
                }
                if (delta != 0) {
                    addOp(i, i - delta, run);
                }
                i += run;
                continue;
            }
            if (shifting && i >= searchFrom) {
                int found = findShift(data, length, i, delta);
                if (found != Integer.MIN_VALUE) {
                    delta = found;
                    skip = SKIP;
                    continue;
                }
                searchFrom = i + skip;
                skip *= 2; // contents that moved further or changed for good: search ever more rarely
            }
            if (writeStart < 0) {
                writeStart = i;
            }
            i++;
        }
        if (writeStart >= 0) {
            addWrite(writeStart, length);
        }
    }

    /** How many elements from {@code i} equal the old contents {@code delta} elements before them. */
    private int runAt(int[] data, int length, int i, int delta) {
        int j = i - delta;
        if (j < 0 || j >= known) {
            return 0;
        }
        int n = Math.min(length - i, known - j);
        int m = Arrays.mismatch(data, i, i + n, mirror, j, j + n);
        return m < 0 ? n : m;
    }

    /** The shift nearest {@code delta} (0 first) at which a run of at least {@link #MIN_MOVE} starts at {@code i}. */
    private int findShift(int[] data, int length, int i, int delta) {
        if (delta != 0 && runAt(data, length, i, 0) >= MIN_MOVE) {
            return 0;
        }
        int first = data[i];
        for (int s = 1; s <= window; s++) {
            // the first element compared inline before a run is measured: most shifts fail there
            int j = i - delta - s;
            if (j >= 0 && j < known && mirror[j] == first && runAt(data, length, i, delta + s) >= MIN_MOVE) {
                return delta + s;
            }
            j = i - delta + s;
            if (j >= 0 && j < known && mirror[j] == first && runAt(data, length, i, delta - s) >= MIN_MOVE) {
                return delta - s;
            }
        }
        return Integer.MIN_VALUE;
    }

    /** A host write of [from, to), merged into the write before it where only {@link #GAP} lies between. */
    private void addWrite(int from, int to) {
        // operations after the last write lie between it and this one: within the gap they are written over
        int last = ops - 1;
        while (last >= 0 && opFrom[last] >= 0) {
            last--;
        }
        if (last >= 0 && from - (opTo[last] + opLength[last]) <= GAP) {
            opLength[last] = to - opTo[last];
            ops = last + 1;
            return;
        }
        addOp(from, -1, to - from);
    }

    private void addOp(int to, int from, int length) {
        if (ops == opTo.length) {
            opTo = Arrays.copyOf(opTo, 2 * ops);
            opFrom = Arrays.copyOf(opFrom, 2 * ops);
            opLength = Arrays.copyOf(opLength, 2 * ops);
        }
        opTo[ops] = to;
        opFrom[ops] = from;
        opLength[ops] = length;
        ops++;
    }

    /** The plan carried out: moved runs to the spare buffer (reading the old contents), then writes and moves. */
    private void apply(int[] data) {
        int moved = 0;
        int written = 0;
        for (int k = 0; k < ops; k++) {
            moved += opFrom[k] >= 0 ? opLength[k] : 0;
            written += opFrom[k] < 0 ? opLength[k] : 0;
        }
        if (written > 0) {
            readyStage(written);
        }
        if (moved > 0) {
            reserveSpare(moved);
            int at = 0;
            for (int k = 0; k < ops; k++) {
                if (opFrom[k] >= 0) {
                    copy(mem, spare, opFrom[k], at, opLength[k]);
                    at += opLength[k];
                }
            }
        }
        int at = 0;
        for (int k = 0; k < ops; k++) {
            if (opFrom[k] >= 0) {
                copy(spare, mem, at, opTo[k], opLength[k]);
                at += opLength[k];
            } else {
                write(data, opTo[k], opTo[k] + opLength[k]);
            }
        }
    }

    private void reserveSpare(int elements) {
        if (elements <= spareCapacity) {
            return;
        }
        OpenClContext.release(spare);
        spareCapacity = Math.max(elements, spareCapacity + spareCapacity / 2);
        spare = cl.buffer(4L * spareCapacity);
    }

    private void copy(long src, long dst, int from, int to, int count) {
        ClCheck.ok(clEnqueueCopyBuffer(cl.queue(), src, dst, 4L * from, 4L * to, 4L * count, null, null),
                name + ": move a run");
    }

    /**
     * Blocking read of the device's first {@code out.length} floats into {@code out}, which the host copy then
     * holds too (what the kernels wrote is what the device has).
     */
    void read(float[] out) {
        if (out.length >= PINNED_MIN && !pinnedRefused) {
            readPinned(out);
        } else {
            ClCheck.ok(clEnqueueReadBuffer(cl.queue(), mem, true, 0L, out, null, null), name + ": read");
        }
        if (!floatFresh) {
            // the first read after an int sync: floatMirror from the bits the device holds (beyond out too)
            if (floatMirror.length < known) {
                floatMirror = Arrays.copyOf(floatMirror, capacity);
            }
            for (int k = 0; k < known; k++) {
                floatMirror[k] = Float.intBitsToFloat(mirror[k]);
            }
        }
        if (floatMirror.length < out.length) {
            floatMirror = Arrays.copyOf(floatMirror, Math.max(out.length, capacity));
        }
        System.arraycopy(out, 0, floatMirror, 0, out.length);
        floatFresh = true;
        mirrorStale = true;
        known = Math.max(known, out.length);
    }

    /**
     * The device's first {@code out.length} floats into {@code out} through the page-locked buffer; where the driver
     * will not make or map one, through a plain read from then on.
     */
    private void readPinned(float[] out) {
        if (pinnedCapacity < out.length) {
            releasePinned();
            int size = Math.max(out.length, capacity);
            try (MemoryStack stack = MemoryStack.stackPush()) {
                pinned = cl.hostBuffer(4L * size);
                IntBuffer status = stack.mallocInt(1);
                pinnedHost = clEnqueueMapBuffer(cl.queue(), pinned, true, CL_MAP_READ | CL_MAP_WRITE, 0L, 4L * size,
                        null, null, status, null);
                ClCheck.ok(status.get(0), name + ": map the read-back buffer (" + 4L * size + " bytes)");
            } catch (RuntimeException refused) {
                // page-locked memory is an optimisation: a driver without it (or out of it) reads as before
                OpenClContext.release(pinned);
                pinned = 0L;
                pinnedHost = null;
                pinnedRefused = true;
                ClCheck.ok(clEnqueueReadBuffer(cl.queue(), mem, true, 0L, out, null, null), name + ": read");
                return;
            }
            pinnedHost.order(ByteOrder.nativeOrder());
            pinnedFloats = pinnedHost.asFloatBuffer();
            pinnedCapacity = size;
        }
        pinnedHost.clear().limit(4 * out.length);
        ClCheck.ok(clEnqueueReadBuffer(cl.queue(), mem, true, 0L, pinnedHost, null, null), name + ": read");
        pinnedFloats.clear().limit(out.length);
        pinnedFloats.get(out);
    }

    private void releasePinned() {
        if (pinned != 0L) {
            ClCheck.ok(clEnqueueUnmapMemObject(cl.queue(), pinned, pinnedHost, null, null), name + ": unmap");
            ClCheck.ok(clFinish(cl.queue()), name + ": unmap");
            OpenClContext.release(pinned);
            pinned = 0L;
            pinnedHost = null;
            pinnedFloats = null;
            pinnedCapacity = 0;
        }
    }

    /** The stage free (the last sync's writes done) and room in it for {@code elements}. */
    private void readyStage(int elements) {
        if (lastWrite != 0L) {
            ClCheck.ok(clWaitForEvents(lastWrite), name + ": wait for the last write");
            clReleaseEvent(lastWrite);
            lastWrite = 0L;
        }
        if (stage.capacity() < 4 * elements) {
            MemoryUtil.memFree(stage);
            stage = MemoryUtil.memAlloc(4 * Math.max(elements, stage.capacity() / 4 * 3 / 2));
            stageInts = stage.asIntBuffer();
        }
        staged = 0;
    }

    /** Writes {@code data[from, to)} to the same elements of the device buffer, through the stage. */
    private void write(int[] data, int from, int to) {
        int count = to - from;
        stageInts.clear().position(staged);
        stageInts.put(data, from, count);
        stage.clear().position(4 * staged).limit(4 * (staged + count));
        if (lastWrite != 0L) {
            clReleaseEvent(lastWrite);
        }
        ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), mem, false, 4L * from, stage, null, event), name + ": write");
        lastWrite = event.get(0);
        staged += count;
        cl.countWritten(4L * count);
    }

    @Override
    public void close() {
        if (lastWrite != 0L) {
            clWaitForEvents(lastWrite);
            clReleaseEvent(lastWrite);
            lastWrite = 0L;
        }
        releasePinned();
        OpenClContext.releaseAll(mem, spare);
        mem = spare = 0L;
        capacity = spareCapacity = known = 0;
        MemoryUtil.memFree(stage);
        MemoryUtil.memFree(event);
    }
}
