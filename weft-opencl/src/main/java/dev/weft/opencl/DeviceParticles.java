package dev.weft.opencl;

import dev.weft.core.collide.ParticleSurface;
import dev.weft.core.model.Model;

/**
 * The bound model's per-particle constants on the device, which every solver's kernels read: inverse
 * masses, and the colliders' grip and offset from its {@link ParticleSurface}. Uploaded when the model
 * is bound.
 */
final class DeviceParticles implements AutoCloseable {
    private final OpenClContext cl;
    private ParticleSurface surface;
    private long invMassMem;
    private long gripMem;
    private long offsetMem;

    DeviceParticles(OpenClContext cl) {
        this.cl = cl;
    }

    /** {@code m}'s surface, and its constants uploaded (no buffers for a model without particles). */
    void bind(Model m) {
        close();
        int n = m.particleCount();
        surface = ParticleSurface.of(m);
        if (n == 0) {
            return;
        }
        float[] grip = new float[n];
        float[] offset = new float[n];
        for (int i = 0; i < n; i++) {
            grip[i] = surface.grip(i);
            offset[i] = surface.offset(i);
        }
        invMassMem = cl.upload(m.invMass());
        gripMem = cl.upload(grip);
        offsetMem = cl.upload(offset);
    }

    /** The bound model's surface (what the colliders are encoded for). */
    ParticleSurface surface() {
        return surface;
    }

    long invMassMem() {
        return invMassMem;
    }

    long gripMem() {
        return gripMem;
    }

    long offsetMem() {
        return offsetMem;
    }

    @Override
    public void close() {
        OpenClContext.releaseAll(invMassMem, gripMem, offsetMem);
        invMassMem = gripMem = offsetMem = 0L;
    }
}
