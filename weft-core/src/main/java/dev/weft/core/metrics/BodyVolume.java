package dev.weft.core.metrics;

import dev.weft.core.model.Model;
import dev.weft.core.model.ModelObject;

/**
 * The volume a body's closed surface encloses (a voxel body's, or a closed mesh's), by the divergence
 * theorem: the sum over its triangles of the signed volume of the tetrahedron each makes with the
 * origin. Independent of where the body is only when the surface is closed; summed in double.
 */
public final class BodyVolume {
    private BodyVolume() {
    }

    /** m³ enclosed by {@code body}'s triangles of {@code model} at positions {@code x}; positive when wound outwards. */
    public static double of(Model model, ModelObject body, float[] x) {
        int[] t = model.triangles();
        double v = 0;
        for (int f = body.firstTriangle(); f < body.firstTriangle() + body.triangleCount(); f++) {
            int a = 3 * t[3 * f];
            int b = 3 * t[3 * f + 1];
            int c = 3 * t[3 * f + 2];
            v += x[a] * ((double) x[b + 1] * x[c + 2] - (double) x[b + 2] * x[c + 1])
                    - x[a + 1] * ((double) x[b] * x[c + 2] - (double) x[b + 2] * x[c])
                    + x[a + 2] * ((double) x[b] * x[c + 1] - (double) x[b + 1] * x[c]);
        }
        return v / 6.0;
    }
}
