package dev.weft.core.model;

import java.util.Arrays;

/**
 * A constraint set's sequential order: each constraint's storage index, in the order the constraints
 * came to be (the builder's, then each edit's additions). Kept as a birth number per stored constraint,
 * which an edit moves with its constraint like any other per-constraint value; the order itself is made
 * on first use, because only the sequential Gauss–Seidel sweeps read it (a tear then costs the colored
 * and Jacobi modes nothing for it).
 */
final class NaturalOrder {
    /** Per stored constraint its birth number: distinct, each below {@link #limit}. */
    private final int[] birth;
    private final int limit;
    private volatile int[] order;

    private NaturalOrder(int[] birth, int limit, int[] order) {
        this.birth = birth;
        this.limit = limit;
        this.order = order;
    }

    /** From an order: {@code order[i]} is the storage index of the i-th constraint made. */
    static NaturalOrder of(int[] order) {
        int[] birth = new int[order.length];
        for (int i = 0; i < order.length; i++) {
            birth[order[i]] = i;
        }
        return new NaturalOrder(birth, order.length, order);
    }

    /** From birth numbers per stored constraint (distinct, below {@code limit}). */
    static NaturalOrder ofBirths(int[] birth, int limit) {
        return new NaturalOrder(birth, limit, null);
    }

    int count() {
        return birth.length;
    }

    /** Birth numbers per stored constraint. Do not modify. */
    int[] births() {
        return birth;
    }

    /** One more than the largest birth number: where an edit's new constraints start numbering. */
    int limit() {
        return limit;
    }

    int[] get() {
        int[] o = order;
        if (o == null) {
            int[] at = new int[limit];
            Arrays.fill(at, -1);
            for (int c = 0; c < birth.length; c++) {
                at[birth[c]] = c;
            }
            o = new int[birth.length];
            int n = 0;
            for (int c : at) {
                if (c >= 0) {
                    o[n++] = c;
                }
            }
            order = o;
        }
        return o;
    }
}
