package dev.weft.opencl;

import static org.lwjgl.opencl.CL10.clEnqueueReadBuffer;
import static org.lwjgl.opencl.CL10.clEnqueueWriteBuffer;

import dev.weft.core.model.State;
import java.util.Arrays;

/**
 * A {@link State}'s positions and velocities on the device, between steps. A host copy of what the
 * buffers hold (after the last upload or read-back) lets a step upload only what the host changed (a
 * drag, a {@code copyFrom}, another solver having run); the step's result is read back once.
 */
final class DeviceState implements AutoCloseable {
    private final OpenClContext cl;
    private long xMem;
    private long vMem;
    /** What the device's x and v hold. */
    private float[] deviceX = new float[0];
    private float[] deviceV = new float[0];
    private boolean known;

    DeviceState(OpenClContext cl) {
        this.cl = cl;
    }

    /** Buffers for {@code n} particles (none for 0), contents unknown until the next upload. */
    void bind(int n) {
        close();
        deviceX = new float[3 * n];
        deviceV = new float[3 * n];
        known = false;
        if (n > 0) {
            xMem = cl.buffer(12L * n);
            vMem = cl.buffer(12L * n);
        }
    }

    /** Uploads positions and velocities that are not what the device already holds. */
    void uploadIfChanged(State state) {
        float[] x = state.positions();
        float[] v = state.velocities();
        if (!known || !Arrays.equals(x, deviceX)) {
            ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), xMem, true, 0L, x, null, null), "write positions");
            cl.countWritten(4L * x.length);
            System.arraycopy(x, 0, deviceX, 0, x.length);
        }
        if (!known || !Arrays.equals(v, deviceV)) {
            ClCheck.ok(clEnqueueWriteBuffer(cl.queue(), vMem, true, 0L, v, null, null), "write velocities");
            cl.countWritten(4L * v.length);
            System.arraycopy(v, 0, deviceV, 0, v.length);
        }
        known = true;
    }

    /** Blocking reads: {@code state} holds the device's positions and velocities when this returns. */
    void readBack(State state) {
        long queue = cl.queue();
        ClCheck.ok(clEnqueueReadBuffer(queue, xMem, true, 0L, state.positions(), null, null), "read positions");
        ClCheck.ok(clEnqueueReadBuffer(queue, vMem, true, 0L, state.velocities(), null, null), "read velocities");
        System.arraycopy(state.positions(), 0, deviceX, 0, deviceX.length);
        System.arraycopy(state.velocities(), 0, deviceV, 0, deviceV.length);
        known = true;
    }

    /** The float3-per-particle position buffer. */
    long xMem() {
        return xMem;
    }

    /** The float3-per-particle velocity buffer. */
    long vMem() {
        return vMem;
    }

    @Override
    public void close() {
        OpenClContext.releaseAll(xMem, vMem);
        xMem = vMem = 0L;
    }
}
