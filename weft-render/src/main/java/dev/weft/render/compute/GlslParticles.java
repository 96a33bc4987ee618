package dev.weft.render.compute;

import dev.weft.core.collide.ParticleSurface;
import dev.weft.core.model.Model;

/**
 * The bound model's per-particle constants in storage buffers, which every solver's shaders read:
 * inverse masses, and the colliders' grip and offset from its {@link ParticleSurface}. Uploaded when
 * the model is bound.
 */
final class GlslParticles {
    private final ComputeContext gl;
    private ParticleSurface surface;
    private int invMassBuffer;
    private int gripBuffer;
    private int offsetBuffer;

    GlslParticles(ComputeContext gl) {
        this.gl = gl;
    }

    /** {@code m}'s surface, and its constants uploaded at their binding points. */
    void bind(Model m) {
        release();
        int n = m.particleCount();
        surface = ParticleSurface.of(m);
        float[] grip = new float[n];
        float[] offset = new float[n];
        for (int i = 0; i < n; i++) {
            grip[i] = surface.grip(i);
            offset[i] = surface.offset(i);
        }
        invMassBuffer = gl.upload(m.invMass(), GlslSolver.INVERSE_MASSES);
        gripBuffer = gl.upload(grip, GlslSolver.GRIPS);
        offsetBuffer = gl.upload(offset, GlslSolver.OFFSETS);
    }

    /** The bound model's surface (what the colliders are encoded for). */
    ParticleSurface surface() {
        return surface;
    }

    void release() {
        gl.delete(invMassBuffer, gripBuffer, offsetBuffer);
        invMassBuffer = gripBuffer = offsetBuffer = 0;
    }
}
