package dev.weft.render.compute;

import dev.weft.core.model.State;
import java.util.Arrays;

/**
 * A {@link State}'s positions and velocities in two shader storage buffers, between steps. A host copy
 * of what the buffers hold (after the last upload or read-back) lets a step upload only what the host
 * changed (a drag, a {@code copyFrom}, another solver having run); the step's result is read back once.
 */
final class GlslDeviceState {
    private final ComputeContext gl;
    private int xBuffer;
    private int vBuffer;
    /** What the buffers hold. */
    private float[] deviceX = new float[0];
    private float[] deviceV = new float[0];
    private boolean known;

    GlslDeviceState(ComputeContext gl) {
        this.gl = gl;
    }

    /** Buffers for {@code n} particles at their binding points, contents unknown until the next upload. */
    void bind(int n) {
        release();
        deviceX = new float[3 * n];
        deviceV = new float[3 * n];
        known = false;
        xBuffer = gl.buffer(12L * n, GlslSolver.POSITIONS);
        vBuffer = gl.buffer(12L * n, GlslSolver.VELOCITIES);
    }

    /** Uploads positions and velocities that are not what the buffers already hold. */
    void uploadIfChanged(State state) {
        float[] x = state.positions();
        float[] v = state.velocities();
        if (!known || !Arrays.equals(x, deviceX)) {
            ComputeContext.write(xBuffer, x);
            System.arraycopy(x, 0, deviceX, 0, x.length);
        }
        if (!known || !Arrays.equals(v, deviceV)) {
            ComputeContext.write(vBuffer, v);
            System.arraycopy(v, 0, deviceV, 0, v.length);
        }
        known = true;
    }

    /** {@code state} holds the buffers' positions and velocities when this returns. */
    void readBack(State state) {
        ComputeContext.read(xBuffer, state.positions());
        ComputeContext.read(vBuffer, state.velocities());
        System.arraycopy(state.positions(), 0, deviceX, 0, deviceX.length);
        System.arraycopy(state.velocities(), 0, deviceV, 0, deviceV.length);
        known = true;
    }

    /** Whether the buffers hold a state (uploaded or stepped), not only made by {@link #bind}. */
    boolean holdsState() {
        return known;
    }

    /** The positions' buffer (0 before {@link #bind}). */
    int positionsBuffer() {
        return xBuffer;
    }

    void release() {
        gl.delete(xBuffer, vBuffer);
        xBuffer = vBuffer = 0;
    }
}
