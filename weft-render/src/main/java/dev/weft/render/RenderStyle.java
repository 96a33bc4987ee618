package dev.weft.render;

import dev.weft.core.InvalidInputException;

/**
 * How a scene is drawn, beyond the camera: overlays, shadow map resolution, the lights
 * (null = {@link Lighting#around} the scene's bounds), and whether cloth shows a checker pattern over
 * its texture coordinates (so stretching shows, as in seeds 000 and 004).
 */
public record RenderStyle(boolean wireframe, boolean particles, int shadowMapSize, Lighting lighting,
                          boolean checker) {
    public RenderStyle {
        if (shadowMapSize < 64 || shadowMapSize > 8192 || Integer.bitCount(shadowMapSize) != 1) {
            throw new InvalidInputException("shadow map size", "must be a power of two from 64 to 8192, got "
                    + shadowMapSize);
        }
    }

    public static RenderStyle defaults() {
        return new RenderStyle(false, false, 2048, null, false);
    }

    public RenderStyle withWireframe(boolean on) {
        return new RenderStyle(on, particles, shadowMapSize, lighting, checker);
    }

    public RenderStyle withParticles(boolean on) {
        return new RenderStyle(wireframe, on, shadowMapSize, lighting, checker);
    }

    public RenderStyle withLighting(Lighting l) {
        return new RenderStyle(wireframe, particles, shadowMapSize, l, checker);
    }

    /** Shadow map of {@code size} × {@code size} texels (a power of two, 64 to 8192). */
    public RenderStyle withShadowMapSize(int size) {
        return new RenderStyle(wireframe, particles, size, lighting, checker);
    }

    /** Cloth drawn with a checker of {@link #CHECKER_SQUARES} squares across its texture's unit square. */
    public RenderStyle withChecker(boolean on) {
        return new RenderStyle(wireframe, particles, shadowMapSize, lighting, on);
    }

    /** Squares of the checker across one unit of texture coordinates (a grid cloth's width). */
    public static final int CHECKER_SQUARES = 16;
}
