package dev.weft.core.solver;

import dev.weft.core.model.Model;
import dev.weft.core.model.TetherConstraints;
import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.step.StepPositions;

/**
 * Projection of a model's long-range attachments ({@link TetherConstraints}, Kim, Chentanez and
 * Müller 2012): a free particle further than its rest geodesic distance L from a pinned anchor is put
 * back onto the sphere of radius L about the anchor. Only the particle moves (the anchor is pinned), so
 * a tether acts like the pin itself and takes momentum only through it. The tethers are the model's,
 * so every solver that honours them holds the same cloth; they bound how far a few iterations let a
 * hanging cloth stretch away from its pins, which is where a whipping or heavily loaded cloth
 * stretches most (issue #12: xpbd on the default scene peaks at 17.9 % strain without them, 7.7 % with).
 *
 * <p>Two forms: {@link #project(WorkerPool, float[], float[])} on a step's prediction + corrections
 * ({@link StepPositions}: only d is written), {@link #projectWorld(WorkerPool, float[])} on world
 * positions (the force-based solvers, after their integration). The tethers of one color share no
 * particle, so each color runs in parallel and the result does not depend on the thread count.
 */
public final class TetherProjection {
    private Model model;
    private int[] pairs;
    private float[] maxLength;
    private int[] colorStart;
    private float[] y;
    private float[] d;
    private final RangeBody splitBody = (b, e) -> projectRange(pairs, maxLength, y, d, b, e);
    private final RangeBody worldBody = (b, e) -> projectWorldRange(pairs, maxLength, y, b, e);

    /** Takes the tethers of {@code m} (again only when the model changed). */
    public void bind(Model m) {
        if (m == model) {
            return;
        }
        model = m;
        TetherConstraints t = m.tethers();
        pairs = t.particles();
        maxLength = t.maxLength();
        colorStart = t.colorStart();
    }

    /** Whether the bound model has any tether. */
    public boolean any() {
        return pairs.length > 0;
    }

    /** Projects every tether, color by color, on positions y + d; writes d. */
    public void project(WorkerPool pool, float[] predicted, float[] corrections) {
        y = predicted;
        d = corrections;
        for (int c = 0; c + 1 < colorStart.length; c++) {
            pool.parallelFor(colorStart[c], colorStart[c + 1], splitBody);
        }
    }

    /** Projects every tether, color by color, on world positions x; writes x. */
    public void projectWorld(WorkerPool pool, float[] x) {
        y = x;
        for (int c = 0; c + 1 < colorStart.length; c++) {
            pool.parallelFor(colorStart[c], colorStart[c + 1], worldBody);
        }
    }

    /** Tethers [begin, end) of (particle, anchor) {@code pairs}, on positions y + d; writes d of the particle. */
    public static void projectRange(int[] pairs, float[] maxLength, float[] y, float[] d, int begin, int end) {
        for (int c = begin; c < end; c++) {
            int p = 3 * pairs[2 * c];
            int a = 3 * pairs[2 * c + 1];
            float dx = (y[p] - y[a]) + (d[p] - d[a]);
            float dy = (y[p + 1] - y[a + 1]) + (d[p + 1] - d[a + 1]);
            float dz = (y[p + 2] - y[a + 2]) + (d[p + 2] - d[a + 2]);
            float d2 = dx * dx + dy * dy + dz * dz;
            // onto the sphere of radius max about the anchor; a tether within its length moves nothing (s = 0)
            float s = taut(d2, maxLength[c]);
            d[p] += dx * s;
            d[p + 1] += dy * s;
            d[p + 2] += dz * s;
        }
    }

    /**
     * The factor a tether of length {@code max} moves its particle by, along the anchor-to-particle vector whose squared
     * length is {@code d2}: max/√d2 − 1 where that is negative (the tether is taut), else 0. Written as a minimum,
     * without a branch: on a hanging cloth about half the tethers are taut, a branch the CPU cannot predict
     * (docs/viewer-speed.md), and the vector lanes compute the same bits (the {@code MIN_NORMAL} floor makes a
     * tether of length 0 with its particle on the anchor −1, which moves it by 0, rather than 0/0 = NaN; it changes
     * nothing where d2 is a normal float).
     */
    public static float taut(float d2, float max) {
        return Math.min(max / (float) Math.sqrt(Math.max(d2, Float.MIN_NORMAL)) - 1f, 0f);
    }

    /** As {@link #projectRange} on world positions x; writes x of the particle. */
    public static void projectWorldRange(int[] pairs, float[] maxLength, float[] x, int begin, int end) {
        for (int c = begin; c < end; c++) {
            int p = 3 * pairs[2 * c];
            int a = 3 * pairs[2 * c + 1];
            float dx = x[p] - x[a];
            float dy = x[p + 1] - x[a + 1];
            float dz = x[p + 2] - x[a + 2];
            float d2 = dx * dx + dy * dy + dz * dz;
            float max = maxLength[c];
            if (d2 > max * max) {
                float s = max / (float) Math.sqrt(d2) - 1f;
                x[p] += dx * s;
                x[p + 1] += dy * s;
                x[p + 2] += dz * s;
            }
        }
    }
}
