package dev.weft.core.solver.xpbd;

import dev.weft.core.model.DistanceConstraints;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelObject;
import dev.weft.core.util.FloatList;
import dev.weft.core.util.IntList;
import java.util.ArrayList;
import java.util.List;

/**
 * Hierarchical stretch limits of grid cloths ({@link XpbdSettings#stretchLimits()}): for k = 2, 4, 8, … and every
 * grid column and row, the chord between particles k apart on it is held no longer than the rest length of the
 * path of structural edges between them — a one-sided constraint that no inextensible cloth can violate, whatever
 * it bends or folds (the chord of a path is never longer than the path), so it adds no bending stiffness and acts
 * only where the cloth is stretched. A colored sweep moves a correction about one edge per pass, so on a large
 * cloth the stretch a hanging column carries converges over as many substeps as it has rows; a limit k rows long
 * carries it k rows at once. Coarse levels come first, as in hierarchical position-based dynamics (Müller 2008).
 * They run between an iteration's first distance pass and its extra stretch passes, which spread the shift a limit
 * leaves on the edges beside its ends.
 *
 * <p>Segments start at multiples of k, so the limits of one level and one line share at most an end: two colors per
 * level and direction (even and odd segments), lines and grid cloths apart from each other. A segment whose path has
 * lost an edge (a tear or a cut: the edge removed, or moved to a split copy) has no limit.
 */
final class StretchLimits {
    /** Pairs (a, b) of particles, two ints each, color by color. */
    final int[] particles;
    /** The rest length of each pair's path: the most its chord may be. */
    final float[] maxLength;
    /** Color c's limits are {@code [colorStart[c], colorStart[c + 1])}. */
    final int[] colorStart;

    private StretchLimits(int[] particles, float[] maxLength, int[] colorStart) {
        this.particles = particles;
        this.maxLength = maxLength;
        this.colorStart = colorStart;
    }

    /** The limits of {@code m}'s grid cloths (none where it has none). */
    static StretchLimits of(Model m) {
        List<ModelObject> grids = new ArrayList<>();
        int n = m.particleCount();
        for (ModelObject o : m.objects()) {
            if (o.isGrid() && o.gridCols() >= 3 && o.gridRows() >= 3
                    && o.gridParticle(o.gridRows() - 1, o.gridCols() - 1) < n) {
                grids.add(o);
            }
        }
        if (grids.isEmpty()) {
            return new StretchLimits(new int[0], new float[0], new int[] {0});
        }
        // the rest length of each grid's structural edge from (r, c) down and to the right; NaN where there is none
        float[] down = new float[n];
        float[] right = new float[n];
        java.util.Arrays.fill(down, Float.NaN);
        java.util.Arrays.fill(right, Float.NaN);
        DistanceConstraints d = m.distances();
        int[] pairs = d.particles();
        float[] rest = d.restLength();
        for (int c = 0; c < rest.length; c++) {
            int a = Math.min(pairs[2 * c], pairs[2 * c + 1]);
            int b = Math.max(pairs[2 * c], pairs[2 * c + 1]);
            int object = m.objectOf(a);
            if (object != m.objectOf(b) || !m.objects().get(object).isGrid()) {
                continue;
            }
            ModelObject o = m.objects().get(object);
            int local = a - o.firstParticle();
            if (local >= o.gridCols() * o.gridRows() || b - o.firstParticle() >= o.gridCols() * o.gridRows()) {
                continue; // a split copy: outside the lattice
            }
            if (b - a == o.gridCols()) {
                down[a] = rest[c];
            } else if (b - a == 1 && local % o.gridCols() != o.gridCols() - 1) {
                right[a] = rest[c];
            }
        }
        int longest = 0;
        for (ModelObject o : grids) {
            longest = Math.max(longest, Math.max(o.gridRows(), o.gridCols()));
        }
        List<int[]> colors = new ArrayList<>();
        List<float[]> lengths = new ArrayList<>();
        int top = 2;
        while (2 * top < longest) {
            top *= 2;
        }
        for (int k = top; k >= 2; k /= 2) {
            for (int direction = 0; direction < 2; direction++) {
                for (int parity = 0; parity < 2; parity++) {
                    IntList color = new IntList();
                    FloatList length = new FloatList();
                    for (ModelObject o : grids) {
                        addLevel(o, direction == 0, k, parity, direction == 0 ? down : right, color, length);
                    }
                    if (color.size() > 0) {
                        colors.add(color.toArray());
                        lengths.add(length.toArray());
                    }
                }
            }
        }
        int total = 0;
        for (float[] l : lengths) {
            total += l.length;
        }
        int[] particles = new int[2 * total];
        float[] maxLength = new float[total];
        int[] colorStart = new int[colors.size() + 1];
        int at = 0;
        for (int c = 0; c < colors.size(); c++) {
            colorStart[c] = at;
            System.arraycopy(colors.get(c), 0, particles, 2 * at, colors.get(c).length);
            System.arraycopy(lengths.get(c), 0, maxLength, at, lengths.get(c).length);
            at += lengths.get(c).length;
        }
        colorStart[colors.size()] = at;
        return new StretchLimits(particles, maxLength, colorStart);
    }

    /**
     * One grid's limits of level k along its columns ({@code columns}) or rows, the segments of one parity: each
     * from position s·k to (s + 1)·k of its line, its length the sum of the path's edges, none where an edge is missing.
     */
    private static void addLevel(ModelObject o, boolean columns, int k, int parity, float[] edge, IntList color,
                                 FloatList length) {
        int lines = columns ? o.gridCols() : o.gridRows();
        int along = columns ? o.gridRows() : o.gridCols();
        for (int line = 0; line < lines; line++) {
            for (int s = parity; (s + 1) * k < along; s += 2) {
                float path = 0f;
                boolean whole = true;
                for (int i = s * k; i < (s + 1) * k; i++) {
                    float e = edge[columns ? o.gridParticle(i, line) : o.gridParticle(line, i)];
                    if (Float.isNaN(e)) {
                        whole = false;
                        break;
                    }
                    path += e;
                }
                if (whole) {
                    color.add(columns ? o.gridParticle(s * k, line) : o.gridParticle(line, s * k));
                    color.add(columns ? o.gridParticle((s + 1) * k, line) : o.gridParticle(line, (s + 1) * k));
                    length.add(path);
                }
            }
        }
    }

    /** Limits [begin, end) on positions y + d: a chord longer than its limit is brought back to it, by inverse mass. */
    static void projectRange(int[] pairs, float[] maxLength, float[] w, float[] y, float[] d, int begin, int end) {
        for (int c = begin; c < end; c++) {
            int ia = pairs[2 * c];
            int ib = pairs[2 * c + 1];
            int a = 3 * ia;
            int b = 3 * ib;
            float dx = (y[b] - y[a]) + (d[b] - d[a]);
            float dy = (y[b + 1] - y[a + 1]) + (d[b + 1] - d[a + 1]);
            float dz = (y[b + 2] - y[a + 2]) + (d[b + 2] - d[a + 2]);
            float wsum = w[ia] + w[ib];
            float d2 = dx * dx + dy * dy + dz * dz;
            float max = maxLength[c];
            if (wsum == 0f || d2 <= max * max) {
                continue; // one-sided: a chord within its path's length moves nothing
            }
            float len = (float) Math.sqrt(d2);
            float scale = (max - len) / (wsum * len);
            float sa = w[ia] * scale;
            float sb = w[ib] * scale;
            d[a] -= sa * dx;
            d[a + 1] -= sa * dy;
            d[a + 2] -= sa * dz;
            d[b] += sb * dx;
            d[b + 1] += sb * dy;
            d[b + 2] += sb * dz;
        }
    }

    /** Count of limits. */
    int count() {
        return maxLength.length;
    }
}
