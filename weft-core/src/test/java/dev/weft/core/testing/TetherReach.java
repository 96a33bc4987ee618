package dev.weft.core.testing;

import dev.weft.core.model.Model;
import dev.weft.core.model.TetherConstraints;

/** How well a model's tethers (long-range attachments) hold positions: what the device tests compare. */
public final class TetherReach {
    private TetherReach() {
    }

    /** How far the particle furthest beyond its tether's length is (m; ≤ 0 where every tether holds). */
    public static float beyond(Model m, float[] x) {
        TetherConstraints t = m.tethers();
        int[] pairs = t.particles();
        float[] max = t.maxLength();
        float worst = Float.NEGATIVE_INFINITY;
        for (int k = 0; k < max.length; k++) {
            int p = 3 * pairs[2 * k];
            int a = 3 * pairs[2 * k + 1];
            float dx = x[p] - x[a];
            float dy = x[p + 1] - x[a + 1];
            float dz = x[p + 2] - x[a + 2];
            worst = Math.max(worst, (float) Math.sqrt(dx * dx + dy * dy + dz * dz) - max[k]);
        }
        return worst;
    }
}
