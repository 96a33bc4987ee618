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
    /** The rows before the batch (null for {@link #rowsOf}: only the rows it gathered are kept). */
    private final int[] start;
    private final int[] slots;
    /** The particles before the batch. */
    private final int particleCount;
    /** Per particle its row once an edit changed it, else null (grows with the particles edits add). */
    private IntList[] changed;

    /** The incidence of {@code items} ({@code arity} particle indices per item) over {@code particleCount} particles. */
    public MutableIncidence(int[] items, int arity, int particleCount) {
        this(items, arity, particleCount, 16);
    }

    /** As {@link #MutableIncidence(int[], int, int)}, with room for {@code room} particles that edits add. */
    public MutableIncidence(int[] items, int arity, int particleCount, int room) {
        this(Incidence.of(items, arity, particleCount), particleCount, room);
    }

    /**
     * Over {@code base}, the incidence of the items before the batch (read, never written: a model's own), with
     * room for {@code room} particles that edits add.
     */
    MutableIncidence(Incidence base, int particleCount, int room) {
        this.arity = base.arity();
        this.start = base.start();
        this.slots = base.slots();
        this.particleCount = particleCount;
        this.changed = new IntList[particleCount + room];
    }

    private MutableIncidence(int arity, int particleCount, int room) {
        this.arity = arity;
        this.start = null;
        this.slots = null;
        this.particleCount = particleCount;
        this.changed = new IntList[particleCount + room];
    }

    /**
     * Only the rows of the {@code kept} particles (and of the particles edits add), gathered in one pass over
     * {@code items} of which the first {@code corners} of each {@code arity} particles list it: for a batch
     * that reads the rows of the particles it splits and of its copies only (the stencils', the tethers'),
     * which is cheaper than every row. Adding to or removing from another particle's row does nothing (nobody
     * reads it); reading one is an error.
     */
    static MutableIncidence rowsOf(int[] items, int arity, int corners, int particleCount, int room, boolean[] kept) {
        MutableIncidence m = new MutableIncidence(arity, particleCount, room);
        IntList[] rows = m.changed;
        for (int i = 0; i < items.length; i += arity) {
            int item = i / arity;
            for (int k = i; k < i + corners; k++) {
                int p = items[k];
                if (kept[p]) {
                    IntList row = rows[p];
                    if (row == null) {
                        row = new IntList(8);
                        rows[p] = row;
                    }
                    if (row.size() == 0 || row.get(row.size() - 1) != item) { // an item naming p twice: once
                        row.add(item);
                    }
                }
            }
        }
        for (int p = 0; p < particleCount; p++) {
            if (kept[p] && rows[p] == null) {
                rows[p] = new IntList(4);
            }
        }
        return m;
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
        if (start == null) {
            if (p < particleCount) {
                throw new IllegalStateException("the row of particle " + p + " was not gathered");
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
        IntList l = row(p);
        if (l != null) {
            l.add(item);
        }
    }

    /** Records that {@code item} no longer touches p. */
    public void remove(int p, int item) {
        IntList l = row(p);
        if (l != null) {
            l.removeValue(item);
        }
    }

    private IntList row(int p) {
        if (p >= changed.length) {
            changed = Arrays.copyOf(changed, Math.max(2 * changed.length, p + 1));
        }
        IntList l = changed[p];
        if (l == null) {
            if (start == null && p < particleCount) {
                return null; // a row rowsOf did not keep: nobody reads it
            }
            l = itemsOf(p);
            changed[p] = l;
        }
        return l;
    }
}
