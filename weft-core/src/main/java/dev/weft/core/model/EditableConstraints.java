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
    /** Per constraint its own material's index (−1: its bodies'), or null when no constraint has one. */
    short[] own;
    int[] color;
    private boolean[] removed;
    private int count;
    private boolean changed;
    /** The storage ranges of the colors before the edits. */
    private final int[] baseStart;
    /**
     * Per color: how many constraints it holds now, and whether a constraint of its old range was removed
     * (a color that only gained keeps its old range as a block, the new ones after it).
     */
    private int[] colorSize;
    private boolean[] colorLost;

    /**
     * The constraints of {@code set}, with their per-constraint parameter, kind and own material index (each
     * null if none), in storage order.
     */
    EditableConstraints(ColoredConstraints set, float[] param, byte[] kind, short[] own) {
        arity = set.arity();
        baseCount = set.count();
        count = baseCount;
        oldNatural = set.naturalOrder();
        int room = baseCount + 64;
        particles = Arrays.copyOf(set.particles(), arity * room);
        this.param = Arrays.copyOf(param, room);
        this.kind = kind == null ? null : Arrays.copyOf(kind, room);
        this.own = own == null ? null : Arrays.copyOf(own, room);
        color = new int[room];
        baseStart = set.colorStart();
        int colors = baseStart.length - 1;
        colorSize = new int[colors];
        colorLost = new boolean[colors];
        for (int c = 0; c < colors; c++) {
            Arrays.fill(color, baseStart[c], baseStart[c + 1], c);
            colorSize[c] = baseStart[c + 1] - baseStart[c];
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
        if (!removed[c]) {
            removed[c] = true;
            colorSize[color[c]]--;
            colorLost[color[c]] |= c < baseCount;
            changed = true;
        }
    }

    /** Appends a constraint on {@code ps} with its parameter, kind and color (no own material); returns its index. */
    int add(int[] ps, float p, byte k, int c) {
        return add(ps, p, k, (short) -1, c);
    }

    /** Appends a constraint on {@code ps} with its parameter, kind, own material index and color; returns its index. */
    int add(int[] ps, float p, byte k, short material, int c) {
        if (count == param.length) {
            int room = 2 * count;
            particles = Arrays.copyOf(particles, arity * room);
            param = Arrays.copyOf(param, room);
            kind = kind == null ? null : Arrays.copyOf(kind, room);
            own = own == null ? null : Arrays.copyOf(own, room);
            color = Arrays.copyOf(color, room);
            removed = Arrays.copyOf(removed, room);
        }
        int i = count++;
        System.arraycopy(ps, 0, particles, arity * i, arity);
        param[i] = p;
        if (kind != null) {
            kind[i] = k;
        }
        if (own != null) {
            own[i] = material;
        } else if (material >= 0) {
            throw new IllegalStateException("a constraint set without own materials cannot take one");
        }
        color[i] = c;
        if (c >= colorSize.length) {
            colorSize = Arrays.copyOf(colorSize, c + 1);
            colorLost = Arrays.copyOf(colorLost, c + 1);
        }
        colorSize[c]++;
        changed = true;
        return i;
    }

    /**
     * A laid-out set: storage-order particles, parameter, kind and own material index (each or null), color
     * ranges, natural order, and
     * where each constraint of the set before the edits went ({@code place[c]}, −1 when removed; null when
     * nothing changed and every constraint kept its index).
     */
    record Layout(int[] particles, float[] param, byte[] kind, short[] own, int[] colorStart, int[] naturalOrder,
                  int[] place) {
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

        /** As {@link #carry(float[], int)} with {@code stride} values per constraint. */
        float[] carry(float[] before, int count, int stride) {
            if (place == null) {
                return before;
            }
            float[] after = new float[stride * count];
            for (int c = 0; c < place.length; c++) {
                if (place[c] >= 0) {
                    System.arraycopy(before, stride * c, after, stride * place[c], stride);
                }
            }
            return after;
        }
    }

    /**
     * Lays the set out color by color. Work is one copy of the arrays, in blocks: a color's old range is
     * moved whole, or in the runs between the constraints removed from it; only new constraints are
     * copied one at a time.
     */
    Layout layout() {
        if (!changed) {
            return new Layout(Arrays.copyOf(particles, arity * count), Arrays.copyOf(param, count),
                    kind == null ? null : Arrays.copyOf(kind, count), own == null ? null : Arrays.copyOf(own, count),
                    baseStart.clone(), oldNatural.clone(), null);
        }
        int colors = colorSize.length;
        // empty colors are dropped, so every color range holds a constraint
        int[] start = new int[colors + 1];
        int[] slot = new int[colors];
        int used = 0;
        int kept = 0;
        for (int c = 0; c < colors; c++) {
            if (colorSize[c] > 0) {
                start[used++] = kept;
                slot[c] = kept;
                kept += colorSize[c];
            }
        }
        start[used] = kept;
        int[] place = new int[count];
        int[] outParticles = new int[arity * kept];
        float[] outParam = new float[kept];
        byte[] outKind = kind == null ? null : new byte[kept];
        short[] outOwn = own == null ? null : new short[kept];
        // the old constraints, color by color (their storage order): a color's kept ones in their old order,
        // as blocks between the few removed ones
        for (int c = 0; c + 1 < baseStart.length; c++) {
            int from = baseStart[c];
            int to = baseStart[c + 1];
            int s = slot[c];
            int k = from;
            while (k < to) {
                int run = k;
                if (colorLost[c]) {
                    while (run < to && !removed[run]) {
                        run++;
                    }
                } else {
                    run = to;
                }
                copy(k, run, s, outParticles, outParam, outKind, outOwn);
                for (int j = k; j < run; j++) {
                    place[j] = s + j - k;
                }
                s += run - k;
                k = run;
                while (k < to && removed[k]) {
                    place[k++] = -1;
                }
            }
            slot[c] = s;
        }
        // then the new ones, after the old ones of their color
        for (int k = baseCount; k < count; k++) {
            place[k] = removed[k] ? -1 : put(k, slot[color[k]]++, outParticles, outParam, outKind, outOwn);
        }
        int[] natural = new int[kept];
        int n = 0;
        for (int stored : oldNatural) {
            int p = place[stored];
            if (p >= 0) {
                natural[n++] = p;
            }
        }
        for (int k = baseCount; k < count; k++) {
            if (place[k] >= 0) {
                natural[n++] = place[k];
            }
        }
        return new Layout(outParticles, outParam, outKind, outOwn, Arrays.copyOf(start, used + 1), natural, place);
    }

    /** Copies constraints [from, to) to slots from s on of the laid-out arrays. */
    private void copy(int from, int to, int s, int[] outParticles, float[] outParam, byte[] outKind, short[] outOwn) {
        System.arraycopy(particles, arity * from, outParticles, arity * s, arity * (to - from));
        System.arraycopy(param, from, outParam, s, to - from);
        if (outKind != null) {
            System.arraycopy(kind, from, outKind, s, to - from);
        }
        if (outOwn != null) {
            System.arraycopy(own, from, outOwn, s, to - from);
        }
    }

    /** Copies constraint k to slot s of the laid-out arrays; returns s. */
    private int put(int k, int s, int[] outParticles, float[] outParam, byte[] outKind, short[] outOwn) {
        for (int j = 0; j < arity; j++) { // a loop, not arraycopy: two or four ints per call
            outParticles[arity * s + j] = particles[arity * k + j];
        }
        outParam[s] = param[k];
        if (outKind != null) {
            outKind[s] = kind[k];
        }
        if (outOwn != null) {
            outOwn[s] = own[k];
        }
        return s;
    }
}
