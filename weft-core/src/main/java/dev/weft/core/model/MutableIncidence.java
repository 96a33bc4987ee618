package dev.weft.core.model;

import dev.weft.core.util.IntList;
import java.util.Arrays;

/**
 * Which items (constraints, springs) touch each particle, while a batch of edits changes them: the
 * incidence of the items before the batch, with the rows of the particles an edit touched kept apart.
 * An edit costs what it touches, not a rebuild. Items are numbered as the caller numbers them.
 */
public final class MutableIncidence {
    private final int arity;
    private final int[] start;
    private final int[] slots;
    /** Per particle its row once an edit changed it, else null (grows with the particles edits add). */
    private IntList[] changed;

    /** The incidence of {@code items} ({@code arity} particle indices per item) over {@code particleCount} particles. */
    public MutableIncidence(int[] items, int arity, int particleCount) {
        this(items, arity, particleCount, 16);
    }

    /** As {@link #MutableIncidence(int[], int, int)}, with room for {@code room} particles that edits add. */
    public MutableIncidence(int[] items, int arity, int particleCount, int room) {
        Incidence base = Incidence.of(items, arity, particleCount);
        this.arity = arity;
        this.start = base.start();
        this.slots = base.slots();
        this.changed = new IntList[particleCount + room];
    }

    /** The items touching particle p (a copy; ascending for untouched rows, in edit order otherwise). */
    public IntList itemsOf(int p) {
        IntList l = p < changed.length ? changed[p] : null;
        IntList out = new IntList(8);
        if (l != null) {
            for (int k = 0; k < l.size(); k++) {
                out.add(l.get(k));
            }
            return out;
        }
        if (p + 1 < start.length) {
            for (int s = start[p]; s < start[p + 1]; s++) {
                int item = slots[s] / arity;
                if (!out.contains(item)) { // an item naming p twice is listed once
                    out.add(item);
                }
            }
        }
        return out;
    }

    /** Records that {@code item} now touches p. */
    public void add(int p, int item) {
        row(p).add(item);
    }

    /** Records that {@code item} no longer touches p. */
    public void remove(int p, int item) {
        row(p).removeValue(item);
    }

    private IntList row(int p) {
        if (p >= changed.length) {
            changed = Arrays.copyOf(changed, Math.max(2 * changed.length, p + 1));
        }
        IntList l = changed[p];
        if (l == null) {
            l = itemsOf(p);
            changed[p] = l;
        }
        return l;
    }
}
