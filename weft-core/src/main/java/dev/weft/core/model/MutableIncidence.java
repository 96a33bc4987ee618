package dev.weft.core.model;

import dev.weft.core.util.IntList;
import java.util.HashMap;
import java.util.Map;

/**
 * Which items (constraints, springs) touch each particle, while a batch of edits changes them: the
 * incidence of the items before the batch, with the rows of the particles an edit touched kept apart.
 * An edit costs what it touches, not a rebuild. Items are numbered as the caller numbers them.
 */
public final class MutableIncidence {
    private final int arity;
    private final int[] start;
    private final int[] slots;
    private final Map<Integer, IntList> changed = new HashMap<>();

    /** The incidence of {@code items} ({@code arity} particle indices per item) over {@code particleCount} particles. */
    public MutableIncidence(int[] items, int arity, int particleCount) {
        Incidence base = Incidence.of(items, arity, particleCount);
        this.arity = arity;
        this.start = base.start();
        this.slots = base.slots();
    }

    /** The items touching particle p (a copy; ascending for untouched rows, in edit order otherwise). */
    public IntList itemsOf(int p) {
        IntList l = changed.get(p);
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
        IntList l = changed.get(p);
        if (l == null) {
            l = itemsOf(p);
            changed.put(p, l);
        }
        return l;
    }
}
