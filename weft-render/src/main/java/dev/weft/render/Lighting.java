package dev.weft.render;

import dev.weft.core.util.Check;

/**
 * Two point lights (seed 001 §5.4.2 uses two in every scene) and an ambient term. The key light
 * casts the shadows; the fill light, dimmer and cooler, lights what the key light misses.
 */
public record Lighting(float[] keyPosition, float[] keyColor, float[] fillPosition, float[] fillColor,
                       float[] ambient) {
    public Lighting {
        keyPosition = Check.vector3("key light position", keyPosition).clone();
        keyColor = Check.vector3("key light colour", keyColor).clone();
        fillPosition = Check.vector3("fill light position", fillPosition).clone();
        fillColor = Check.vector3("fill light colour", fillColor).clone();
        ambient = Check.vector3("ambient colour", ambient).clone();
    }

    /** The default rig for a scene in these bounds: key above front-left, fill above right-back. */
    public static Lighting around(SceneBounds bounds) {
        float[] c = bounds.center();
        float r = Math.max(bounds.radius(), 0.1f);
        return new Lighting(
                new float[] {c[0] - 1.2f * r, c[1] + 3.2f * r, c[2] + 1.4f * r}, new float[] {0.95f, 0.90f, 0.82f},
                new float[] {c[0] + 2.6f * r, c[1] + 1.6f * r, c[2] - 1.2f * r}, new float[] {0.30f, 0.34f, 0.42f},
                new float[] {0.22f, 0.23f, 0.26f});
    }
}
