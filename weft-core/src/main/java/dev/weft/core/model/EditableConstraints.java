package dev.weft.core.model;

import java.util.Arrays;

/**
 * A colored constraint set while a batch of edits changes it, kept in its storage order: particles of
 * a constraint are rewired in place, removed constraints are marked, new ones are appended with a color.
 * {@link #layout} then lays the result out color by color (the kept constraints of a color in their old
 * order, the new ones after them) and keeps the sequential order (old natural order, then the new ones),
 * in a few passes over flat arrays: an edit copies the set once, it does not rebuild its coloring.
 */
final class EditableConstraints {
    final int arity;
    private final int[] oldNatural;
    private final int baseCount;
    int[] particles;
    float[] param;
    byte[] kind;
    int[] color;
    private boolean[] removed;
    private int count;
    private boolean changed;

    /** The constraints of {@code set}, with their per-constraint parameter and kind (null if none), in storage order. */
    EditableConstraints(ColoredConstraints set, float[] param, byte[] kind) {
        arity = set.arity();
        baseCount = set.count();
        count = baseCount;
        oldNatural = set.naturalOrder();
        int room = baseCount + 64;
        particles = Arrays.copyOf(set.particles(), arity * room);
        this.param = Arrays.copyOf(param, room);
        this.kind = kind == null ? null : Arrays.copyOf(kind, room);
        color = new int[room];
        int[] start = set.colorStart();
        for (int c = 0; c + 1 < start.length; c++) {
            Arrays.fill(color, start[c], start[c + 1], c);
        }
        removed = new boolean[room];
    }

    int count() {
        return count;
    }

    int particle(int c, int k) {
        return particles[arity * c + k];
    }

    void setParticle(int c, int k, int p) {
        particles[arity * c + k] = p;
    }

    boolean removed(int c) {
        return removed[c];
    }

    void remove(int c) {
        removed[c] = true;
        changed = true;
    }

    /** Appends a constraint on {@code ps} with its parameter, kind and color; returns its index. */
    int add(int[] ps, float p, byte k, int c) {
        if (count == param.length) {
            int room = 2 * count;
            particles = Arrays.copyOf(particles, arity * room);
            param = Arrays.copyOf(param, room);
            kind = kind == null ? null : Arrays.copyOf(kind, room);
            color = Arrays.copyOf(color, room);
            removed = Arrays.copyOf(removed, room);
        }
        int i = count++;
        System.arraycopy(ps, 0, particles, arity * i, arity);
        param[i] = p;
        if (kind != null) {
            kind[i] = k;
        }
        color[i] = c;
        changed = true;
        return i;
    }

    /**
     * A laid-out set: storage-order particles, parameter and kind (or null), color ranges, natural order, and
     * where each constraint of the set before the edits went ({@code place[c]}, −1 when removed; null when
     * nothing changed and every constraint kept its index).
     */
    record Layout(int[] particles, float[] param, byte[] kind, int[] colorStart, int[] naturalOrder, int[] place) {
        /** {@code before}, one value per constraint of the set before the edits, moved with its constraints. */
        float[] carry(float[] before, int count) {
            if (place == null) {
                return before;
            }
            float[] after = new float[count];
            for (int c = 0; c < before.length; c++) {
                if (place[c] >= 0) {
                    after[place[c]] = before[c];
                }
            }
            return after;
        }
    }

    Layout layout() {
        if (!changed) {
            return new Layout(Arrays.copyOf(particles, arity * count), Arrays.copyOf(param, count),
                    kind == null ? null : Arrays.copyOf(kind, count), colorStarts(), oldNatural.clone(), null);
        }
        int colors = 0;
        int kept = 0;
        for (int c = 0; c < count; c++) {
            if (!removed[c]) {
                colors = Math.max(colors, color[c] + 1);
                kept++;
            }
        }
        int[] size = new int[colors + 1];
        for (int c = 0; c < count; c++) {
            if (!removed[c]) {
                size[color[c] + 1]++;
            }
        }
        // empty colors are dropped, so every color range holds a constraint
        int[] start = new int[colors + 1];
        int[] slot = new int[colors];
        int used = 0;
        int at = 0;
        for (int c = 0; c < colors; c++) {
            if (size[c + 1] > 0) {
                start[used++] = at;
                slot[c] = at;
                at += size[c + 1];
            }
        }
        start[used] = at;
        int[] place = new int[count];
        int[] outParticles = new int[arity * kept];
        float[] outParam = new float[kept];
        byte[] outKind = kind == null ? null : new byte[kept];
        for (int c = 0; c < count; c++) {
            if (removed[c]) {
                place[c] = -1;
                continue;
            }
            int s = slot[color[c]]++;
            place[c] = s;
            for (int k = 0; k < arity; k++) { // a loop, not arraycopy: two or four ints per call
                outParticles[arity * s + k] = particles[arity * c + k];
            }
            outParam[s] = param[c];
            if (outKind != null) {
                outKind[s] = kind[c];
            }
        }
        int[] natural = new int[kept];
        int k = 0;
        for (int stored : oldNatural) {
            if (place[stored] >= 0) {
                natural[k++] = place[stored];
            }
        }
        for (int c = baseCount; c < count; c++) {
            if (place[c] >= 0) {
                natural[k++] = place[c];
            }
        }
        return new Layout(outParticles, outParam, outKind, Arrays.copyOf(start, used + 1), natural, place);
    }

    private int[] colorStarts() {
        int colors = 0;
        for (int c = 0; c < count; c++) {
            colors = Math.max(colors, color[c] + 1);
        }
        int[] start = new int[colors + 1];
        for (int c = 0; c < count; c++) {
            start[color[c] + 1]++;
        }
        for (int c = 0; c < colors; c++) {
            start[c + 1] += start[c];
        }
        return start;
    }
}
