package dev.weft.core.model;

import dev.weft.core.InvalidInputException;
import dev.weft.core.util.Check;

/**
 * A rope: {@code particles} particles spaced evenly (by arc length) along a polyline of at least two
 * points, with stretch constraints between neighbours and distance bending between every second one.
 */
public record RopeSpec(String name, float[] polyline, int particles, float massPerLength) {
    public RopeSpec {
        if (polyline == null || polyline.length < 6 || polyline.length % 3 != 0) {
            throw new InvalidInputException(name + ".points", "needs at least two points of 3 coordinates");
        }
        for (float c : polyline) {
            Check.finite(name + ".points", c);
        }
        Check.atLeast(name + ".particles", particles, 2);
        Check.positive(name + ".massPerLength", massPerLength);
        polyline = polyline.clone();
        if (length(polyline) <= 0f) {
            throw new InvalidInputException(name + ".points", "the polyline has zero length");
        }
    }

    static float length(float[] p) {
        float len = 0f;
        for (int i = 3; i < p.length; i += 3) {
            float dx = p[i] - p[i - 3];
            float dy = p[i + 1] - p[i - 2];
            float dz = p[i + 2] - p[i - 1];
            len += (float) Math.sqrt(dx * dx + dy * dy + dz * dz);
        }
        return len;
    }

    public float length() {
        return length(polyline);
    }
}
