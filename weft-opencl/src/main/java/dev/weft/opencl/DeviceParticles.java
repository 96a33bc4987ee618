package dev.weft.opencl;

import dev.weft.core.collide.ParticleSurface;
import dev.weft.core.model.Model;

/**
 * The bound model's per-particle constants on the device, which every solver's kernels read: inverse
 * masses, and the colliders' grip and offset from its {@link ParticleSurface}. Uploaded when the model
 * is bound: what differs from the model bound before ({@link MirroredBuffer}: an edit uploads its new
 * particles and the few it changed).
 */
final class DeviceParticles implements AutoCloseable {
    private ParticleSurface surface;
    private final MirroredBuffer invMass;
    private final MirroredBuffer grip;
    private final MirroredBuffer offset;

    DeviceParticles(OpenClContext cl) {
        invMass = new MirroredBuffer(cl, "inverse masses", false);
        grip = new MirroredBuffer(cl, "grips", false);
        offset = new MirroredBuffer(cl, "offsets", false);
    }

    /** {@code m}'s surface, and its constants uploaded (no buffers for a model without particles). */
    void bind(Model m) {
        int n = m.particleCount();
        surface = ParticleSurface.of(m);
        if (n == 0) {
            return;
        }
        float[] grips = new float[n];
        float[] offsets = new float[n];
        for (int i = 0; i < n; i++) {
            grips[i] = surface.grip(i);
            offsets[i] = surface.offset(i);
        }
        invMass.sync(m.invMass());
        grip.sync(grips);
        offset.sync(offsets);
    }

    /** The bound model's surface (what the colliders are encoded for). */
    ParticleSurface surface() {
        return surface;
    }

    long invMassMem() {
        return invMass.mem();
    }

    long gripMem() {
        return grip.mem();
    }

    long offsetMem() {
        return offset.mem();
    }

    @Override
    public void close() {
        invMass.close();
        grip.close();
        offset.close();
    }
}
