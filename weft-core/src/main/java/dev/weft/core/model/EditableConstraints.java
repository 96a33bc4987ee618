package dev.weft.core.model;

import java.util.Arrays;

/**
 * A colored constraint set while a batch of edits changes it, kept in its storage order: particles of
 * a constraint are rewired, removed constraints are marked, new ones are appended with a color.
 * {@link #layout} then lays the result out color by color (the kept constraints of a color in their old
 * order, the new ones after them) and keeps the sequential order (old natural order, then the new ones),
 * in a few passes over flat arrays: an edit copies the set once, it does not rebuild its coloring.
 *
 * <p>The set's own arrays are read, never copied up front: a rewired particle of an old constraint is a
 * patch beside them (a tear rewires a few hundred of tens of thousands), applied when the set is laid out.
 */
final class EditableConstraints {
    final int arity;
    private final NaturalOrder oldSequence;
    private final int[] baseBirth;
    private final int baseCount;
    private final int[] baseParticles;
    private final float[] baseParam;
    private final byte[] baseKind;
    private final short[] baseOwn;
    /** The storage ranges of the colors before the edits. */
    private final int[] baseStart;

    /** Old constraints with a rewired particle, and the rewiring: slot (arity·c + k) → particle. */
    private final boolean[] patched;
    private final SlotPatches patches = new SlotPatches();

    /** The new constraints, appended: constraint baseCount + i is entry i. */
    private int[] addedParticles;
    private float[] addedParam;
    private byte[] addedKind;
    private short[] addedOwn;
    private int[] addedColor;
    private int added;

    private boolean[] removed;
    private boolean changed;
    /**
     * Per color: how many constraints it holds now, and whether a constraint of its old range was removed
     * (a color that only gained keeps its old range as a block, the new ones after it).
     */
    private int[] colorSize;
    private boolean[] colorLost;

    /**
     * The constraints of {@code set}, with their per-constraint parameter, kind and own material index (each
     * null if none), in storage order. Reads the arrays; does not modify them.
     */
    EditableConstraints(ColoredConstraints set, float[] param, byte[] kind, short[] own) {
        arity = set.arity();
        baseCount = set.count();
        oldSequence = set.sequence();
        baseBirth = oldSequence.births();
        baseParticles = set.particles();
        baseParam = param;
        baseKind = kind;
        baseOwn = own;
        baseStart = set.colorStart();
        int colors = baseStart.length - 1;
        colorSize = new int[colors];
        colorLost = new boolean[colors];
        for (int c = 0; c < colors; c++) {
            colorSize[c] = baseStart[c + 1] - baseStart[c];
        }
        patched = new boolean[baseCount];
        removed = new boolean[baseCount + 64];
        int room = 64;
        addedParticles = new int[arity * room];
        addedParam = new float[room];
        addedKind = kind == null ? null : new byte[room];
        addedOwn = own == null ? null : new short[room];
        addedColor = new int[room];
    }

    int count() {
        return baseCount + added;
    }

    int particle(int c, int k) {
        if (c >= baseCount) {
            return addedParticles[arity * (c - baseCount) + k];
        }
        return patched[c] ? patches.get(arity * c + k, baseParticles[arity * c + k]) : baseParticles[arity * c + k];
    }

    void setParticle(int c, int k, int p) {
        if (c >= baseCount) {
            addedParticles[arity * (c - baseCount) + k] = p;
        } else {
            patched[c] = true;
            patches.put(arity * c + k, p);
            changed = true;
        }
    }

    float param(int c) {
        return c >= baseCount ? addedParam[c - baseCount] : baseParam[c];
    }

    /** The constraint's kind code (0 for a set without kinds). */
    byte kind(int c) {
        if (baseKind == null) {
            return 0;
        }
        return c >= baseCount ? addedKind[c - baseCount] : baseKind[c];
    }

    /** Its own material's index, −1 for its bodies' (and for a set without own materials). */
    short own(int c) {
        if (baseOwn == null) {
            return -1;
        }
        return c >= baseCount ? addedOwn[c - baseCount] : baseOwn[c];
    }

    int color(int c) {
        if (c >= baseCount) {
            return addedColor[c - baseCount];
        }
        // the last color whose range starts at or before c
        int lo = 0;
        int hi = baseStart.length - 2;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (baseStart[mid] <= c) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    boolean removed(int c) {
        return removed[c];
    }

    void remove(int c) {
        if (!removed[c]) {
            removed[c] = true;
            int color = color(c);
            colorSize[color]--;
            colorLost[color] |= c < baseCount;
            changed = true;
        }
    }

    /** Appends a constraint on {@code ps} with its parameter, kind and color (no own material); returns its index. */
    int add(int[] ps, float p, byte k, int c) {
        return add(ps, p, k, (short) -1, c);
    }

    /** Appends a constraint on {@code ps} with its parameter, kind, own material index and color; returns its index. */
    int add(int[] ps, float p, byte k, short material, int c) {
        if (added == addedParam.length) {
            int room = 2 * added;
            addedParticles = Arrays.copyOf(addedParticles, arity * room);
            addedParam = Arrays.copyOf(addedParam, room);
            addedKind = addedKind == null ? null : Arrays.copyOf(addedKind, room);
            addedOwn = addedOwn == null ? null : Arrays.copyOf(addedOwn, room);
            addedColor = Arrays.copyOf(addedColor, room);
        }
        if (baseCount + added == removed.length) {
            removed = Arrays.copyOf(removed, removed.length + Math.max(64, added));
        }
        int i = added++;
        System.arraycopy(ps, 0, addedParticles, arity * i, arity);
        addedParam[i] = p;
        if (addedKind != null) {
            addedKind[i] = k;
        }
        if (addedOwn != null) {
            addedOwn[i] = material;
        } else if (material >= 0) {
            throw new IllegalStateException("a constraint set without own materials cannot take one");
        }
        addedColor[i] = c;
        if (c >= colorSize.length) {
            colorSize = Arrays.copyOf(colorSize, c + 1);
            colorLost = Arrays.copyOf(colorLost, c + 1);
        }
        colorSize[c]++;
        changed = true;
        return baseCount + i;
    }

    /**
     * Joins in {@code sets} the two particles of every pair (arity 2) the edits added and did not remove, but
     * those of kind {@code skippedKind}.
     */
    void joinAddedPairs(ParticleSets sets, byte skippedKind) {
        if (arity != 2) {
            throw new IllegalStateException("pairs only, not constraints of " + arity);
        }
        for (int i = 0; i < added; i++) {
            if (!removed[baseCount + i] && (addedKind == null || addedKind[i] != skippedKind)) {
                sets.union(addedParticles[2 * i], addedParticles[2 * i + 1]);
            }
        }
    }

    /**
     * A laid-out set: storage-order particles, parameter, kind and own material index (each or null), color
     * ranges, natural order, and
     * where each constraint of the set before the edits went ({@code place[c]}, −1 when removed; null when
     * nothing changed and every constraint kept its index).
     */
    record Layout(int[] particles, float[] param, byte[] kind, short[] own, int[] colorStart,
                  NaturalOrder naturalOrder, int[] place) {
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
     * moved whole, or in the runs between the constraints removed from it; then the rewired particles are
     * patched in, and the new constraints copied one at a time.
     */
    Layout layout() {
        if (!changed) {
            return new Layout(baseParticles.clone(), baseParam.clone(), baseKind == null ? null : baseKind.clone(),
                    baseOwn == null ? null : baseOwn.clone(), baseStart.clone(), oldSequence, null);
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
        int count = count();
        int[] place = new int[count];
        int[] outParticles = new int[arity * kept];
        float[] outParam = new float[kept];
        byte[] outKind = baseKind == null ? null : new byte[kept];
        short[] outOwn = baseOwn == null ? null : new short[kept];
        int[] outBirth = new int[kept];
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
                copyOld(k, run, s, outParticles, outParam, outKind, outOwn);
                System.arraycopy(baseBirth, k, outBirth, s, run - k);
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
        patches.applyTo(outParticles, place, arity);
        // then the new ones, after the old ones of their color
        // (born after every old one, in the order they were added)
        for (int k = baseCount; k < count; k++) {
            place[k] = removed[k] ? -1 : putAdded(k - baseCount, slot[addedColor[k - baseCount]]++, outParticles,
                    outParam, outKind, outOwn);
            if (place[k] >= 0) {
                outBirth[place[k]] = oldSequence.limit() + k - baseCount;
            }
        }
        // the sequential order itself only when a Gauss–Seidel sweep asks for it
        return new Layout(outParticles, outParam, outKind, outOwn, Arrays.copyOf(start, used + 1),
                NaturalOrder.ofBirths(outBirth, oldSequence.limit() + added), place);
    }

    /** Copies old constraints [from, to) to slots from s on of the laid-out arrays. */
    private void copyOld(int from, int to, int s, int[] outParticles, float[] outParam, byte[] outKind,
                         short[] outOwn) {
        System.arraycopy(baseParticles, arity * from, outParticles, arity * s, arity * (to - from));
        System.arraycopy(baseParam, from, outParam, s, to - from);
        if (outKind != null) {
            System.arraycopy(baseKind, from, outKind, s, to - from);
        }
        if (outOwn != null) {
            System.arraycopy(baseOwn, from, outOwn, s, to - from);
        }
    }

    /** Copies new constraint i to slot s of the laid-out arrays; returns s. */
    private int putAdded(int i, int s, int[] outParticles, float[] outParam, byte[] outKind, short[] outOwn) {
        for (int j = 0; j < arity; j++) { // a loop, not arraycopy: two or four ints per call
            outParticles[arity * s + j] = addedParticles[arity * i + j];
        }
        outParam[s] = addedParam[i];
        if (outKind != null) {
            outKind[s] = addedKind[i];
        }
        if (outOwn != null) {
            outOwn[s] = addedOwn[i];
        }
        return s;
    }

    /** Rewired particles of old constraints: slot → particle, open addressing (a batch holds a few hundred). */
    private static final class SlotPatches {
        private int[] keys = filled(64);
        private int[] values = new int[64];
        private int size;

        private static int[] filled(int n) {
            int[] a = new int[n];
            Arrays.fill(a, -1);
            return a;
        }

        private int index(int key) {
            int mask = keys.length - 1;
            int i = (key * 0x9E3779B1) >>> 7 & mask;
            while (keys[i] != -1 && keys[i] != key) {
                i = (i + 1) & mask;
            }
            return i;
        }

        int get(int key, int otherwise) {
            int i = index(key);
            return keys[i] == key ? values[i] : otherwise;
        }

        void put(int key, int value) {
            if (2 * (size + 1) > keys.length) {
                int[] oldKeys = keys;
                int[] oldValues = values;
                keys = filled(2 * oldKeys.length);
                values = new int[keys.length];
                size = 0;
                for (int j = 0; j < oldKeys.length; j++) {
                    if (oldKeys[j] != -1) {
                        put(oldKeys[j], oldValues[j]);
                    }
                }
            }
            int i = index(key);
            if (keys[i] != key) {
                keys[i] = key;
                size++;
            }
            values[i] = value;
        }

        /** Writes every patch of a kept constraint into its laid-out place. */
        void applyTo(int[] outParticles, int[] place, int arity) {
            for (int j = 0; j < keys.length; j++) {
                int key = keys[j];
                if (key != -1 && place[key / arity] >= 0) {
                    outParticles[arity * place[key / arity] + key % arity] = values[j];
                }
            }
        }
    }
}
