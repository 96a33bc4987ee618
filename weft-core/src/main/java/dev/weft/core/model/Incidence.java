package dev.weft.core.model;

/**
 * Which items touch each particle, in compressed rows: for items of {@code arity} particles stored
 * flat ({@code items[arity·i + k]}: triangles, constraints, pairs), particle p's entries are
 * {@code slots()[start()[p]] .. slots()[start()[p + 1] − 1]}, each a slot s of the flat array (its item
 * is s / arity, the item's other particles are around s), ascending. The order is fixed by the items
 * alone, so a gather over it gives the same bits on any number of threads. Built once per topology
 * ({@link Model#triangleIncidence()}) rather than by every pass that gathers.
 */
public final class Incidence {
    private final int arity;
    private final int[] start;
    private final int[] slots;

    private Incidence(int arity, int[] start, int[] slots) {
        this.arity = arity;
        this.start = start;
        this.slots = slots;
    }

    /** The incidence of {@code items} ({@code arity} particle indices per item) over {@code particleCount} particles. */
    public static Incidence of(int[] items, int arity, int particleCount) {
        if (arity < 1 || items.length % arity != 0) {
            throw new IllegalArgumentException(items.length + " indices are not items of " + arity);
        }
        int[] start = new int[particleCount + 1];
        for (int p : items) {
            start[p + 1]++;
        }
        for (int i = 0; i < particleCount; i++) {
            start[i + 1] += start[i];
        }
        int[] slots = new int[items.length];
        int[] fill = java.util.Arrays.copyOf(start, particleCount);
        for (int s = 0; s < items.length; s++) {
            slots[fill[items[s]]++] = s;
        }
        return new Incidence(arity, start, slots);
    }

    public int arity() {
        return arity;
    }

    /** Row offsets, particleCount + 1 of them. Do not modify. */
    public int[] start() {
        return start;
    }

    /** Slots of the flat item array, row by row. Do not modify. */
    public int[] slots() {
        return slots;
    }

    /** How many items touch particle p. */
    public int count(int p) {
        return start[p + 1] - start[p];
    }

    /** The item indices row by row (slot / arity), a new array. */
    public int[] items() {
        int[] out = new int[slots.length];
        for (int k = 0; k < slots.length; k++) {
            out[k] = slots[k] / arity;
        }
        return out;
    }
}
