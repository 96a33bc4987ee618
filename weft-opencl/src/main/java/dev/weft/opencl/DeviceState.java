package dev.weft.opencl;

import dev.weft.core.model.State;

/**
 * A {@link State}'s positions and velocities on the device, between steps. The buffers ({@link
 * MirroredBuffer}) keep a host copy of what they hold (after the last upload or read-back), so a step uploads
 * only what the host changed (a drag, a {@code copyFrom}, another solver having run, the particles an edit
 * added); the step's result is read back once. An edit keeps the buffers: the particles that were there stay
 * on the device, only the new ones (splits append) are uploaded.
 */
final class DeviceState implements AutoCloseable {
    private final MirroredBuffer x;
    private final MirroredBuffer v;

    DeviceState(OpenClContext cl) {
        x = new MirroredBuffer(cl, "positions", false);
        v = new MirroredBuffer(cl, "velocities", false);
    }

    /** Room for {@code n} particles (none made for 0), what the device held kept. */
    void bind(int n) {
        if (n > 0) {
            x.reserve(3 * n);
            v.reserve(3 * n);
        }
    }

    /** Uploads the positions and velocities that are not what the device already holds. */
    void uploadIfChanged(State state) {
        x.sync(state.positions());
        v.sync(state.velocities());
    }

    /** Blocking reads: {@code state} holds the device's positions and velocities when this returns. */
    void readBack(State state) {
        x.read(state.positions());
        v.read(state.velocities());
    }

    /** The float3-per-particle position buffer. */
    long xMem() {
        return x.mem();
    }

    /** The float3-per-particle velocity buffer. */
    long vMem() {
        return v.mem();
    }

    @Override
    public void close() {
        x.close();
        v.close();
    }
}
