package dev.weft.render;

import dev.weft.core.InvalidInputException;

/**
 * How a scene is drawn, beyond the camera: overlays, shadow map resolution, and the lights
 * (null = {@link Lighting#around} the scene's bounds).
 */
public record RenderStyle(boolean wireframe, boolean particles, int shadowMapSize, Lighting lighting) {
    public RenderStyle {
        if (shadowMapSize < 64 || shadowMapSize > 8192 || Integer.bitCount(shadowMapSize) != 1) {
            throw new InvalidInputException("shadow map size", "must be a power of two from 64 to 8192, got "
                    + shadowMapSize);
        }
    }

    public static RenderStyle defaults() {
        return new RenderStyle(false, false, 2048, null);
    }

    public RenderStyle withWireframe(boolean on) {
        return new RenderStyle(on, particles, shadowMapSize, lighting);
    }

    public RenderStyle withParticles(boolean on) {
        return new RenderStyle(wireframe, on, shadowMapSize, lighting);
    }

    public RenderStyle withLighting(Lighting l) {
        return new RenderStyle(wireframe, particles, shadowMapSize, l);
    }
}
