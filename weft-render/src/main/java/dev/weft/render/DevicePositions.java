package dev.weft.render;

/**
 * Particle positions that live in an OpenGL buffer (a GLSL compute solver's storage buffer), for the
 * renderer to draw from without them crossing to the host: the renderer draws in the buffer's own
 * context, binding the buffer as its vertex positions.
 */
public interface DevicePositions {
    /** The context the buffer belongs to; a renderer drawing from it is made in it and draws in it. */
    EglHeadlessContext context();

    /** The buffer's OpenGL name: xyz per particle, packed (12 bytes a particle, std430's float[]). */
    int positionsBuffer();

    /**
     * The particles whose positions the buffer holds: those of the model last stepped, 0 before the first
     * step (a buffer made but not written yet holds none).
     */
    int heldParticles();
}
