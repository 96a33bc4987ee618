package dev.weft.core.sparse;

import java.util.Arrays;

/**
 * A fill-reducing elimination order for a sparse symmetric matrix whose rows are points in space (George 1973's
 * nested dissection, with geometric bisection): split the vertices at the median of their widest coordinate,
 * take the vertices of the upper half that touch the lower half as the separator, order both halves
 * recursively first and the separator last. A cloth grid or a tetrahedral block then factors with
 * O(n log n) or O(n^(4/3)) nonzeros instead of a banded order's O(n^(3/2)) or O(n^(5/3)).
 *
 * <p>The coordinates only steer the split: the separator is taken from the graph itself, so the order is a
 * true dissection (no edge between the two halves) whatever the positions are; poor positions cost fill, not
 * correctness. Because the halves share no edge, the factor has no entry between them, and a triangular
 * solve can do the halves at once: {@link #phases()} lists, for {@code parallelDepth} levels of the tree, the
 * index ranges that are independent of one another.
 */
public final class NestedDissection {
    /** Sets at most this large are ordered as they come (by their split coordinate) without further dissection. */
    private static final int LEAF = 48;

    private final int[] order;
    private final int[][] phases;

    private NestedDissection(int[] order, int[][] phases) {
        this.order = order;
        this.phases = phases;
    }

    /**
     * Orders the graph of {@code n} vertices whose neighbours of v are {@code adjacency[adjacencyStart[v] ..
     * adjacencyStart[v+1])} (symmetric, no self-loops) with positions {@code xyz} (3 floats per vertex).
     *
     * @param parallelDepth levels of the dissection tree whose halves {@link #phases()} separates (0: one phase)
     */
    public static NestedDissection of(int n, int[] adjacencyStart, int[] adjacency, float[] xyz, int parallelDepth) {
        Builder b = new Builder(n, adjacencyStart, adjacency, xyz, parallelDepth);
        for (int v = 0; v < n; v++) {
            b.vertices[v] = v;
        }
        b.dissect(0, n, 0);
        int[][] phases = new int[parallelDepth + 1][];
        for (int p = 0; p <= parallelDepth; p++) {
            phases[p] = Arrays.copyOf(b.phaseRanges[p], b.phaseLength[p]);
        }
        return new NestedDissection(b.vertices, phases);
    }

    /** {@code order()[k]}: the vertex eliminated k-th. */
    public int[] order() {
        return order;
    }

    /**
     * The elimination order's ranges in dependency order: phase 0 holds disjoint subtrees (their whole
     * ranges), phase j ≥ 1 the separators at tree depth {@code parallelDepth − j}, pairs [begin, end) of
     * positions in {@link #order()}. Rows of one phase depend only on rows of earlier phases and themselves, so
     * a forward substitution runs the phases in order (their ranges in parallel) and a backward one in reverse.
     * Every position belongs to exactly one range.
     */
    public int[][] phases() {
        return phases;
    }

    private static final class Builder {
        final int[] start;
        final int[] adjacency;
        final float[] xyz;
        final int depthLimit;
        final int[] vertices;
        /** The call that last claimed a vertex (its set) and which half it is in. */
        final int[] setOf;
        final boolean[] upper;
        int calls;
        long[] keys = new long[0];
        final int[][] phaseRanges;
        final int[] phaseLength;

        Builder(int n, int[] start, int[] adjacency, float[] xyz, int depthLimit) {
            this.start = start;
            this.adjacency = adjacency;
            this.xyz = xyz;
            this.depthLimit = depthLimit;
            vertices = new int[n];
            setOf = new int[n];
            Arrays.fill(setOf, -1);
            upper = new boolean[n];
            phaseRanges = new int[depthLimit + 1][8];
            phaseLength = new int[depthLimit + 1];
        }

        void addRange(int phase, int begin, int end) {
            if (begin == end) {
                return;
            }
            int[] r = phaseRanges[phase];
            if (phaseLength[phase] + 2 > r.length) {
                r = phaseRanges[phase] = Arrays.copyOf(r, 2 * r.length);
            }
            r[phaseLength[phase]++] = begin;
            r[phaseLength[phase]++] = end;
        }

        /** Orders vertices[lo, hi) in place: lower half, upper half, separator. */
        void dissect(int lo, int hi, int depth) {
            int size = hi - lo;
            if (depth == depthLimit) {
                addRange(0, lo, hi); // the deepest level the phases see: its whole subtree is one task
            }
            int axis = widestAxis(lo, hi);
            sortBy(axis, lo, hi);
            if (size <= LEAF || axis < 0) {
                leaf(lo, hi, depth);
                return;
            }
            // the cut lies between two distinct coordinate values, so a lattice's plane is not split in two
            float median = coordinate(vertices[lo + size / 2], axis);
            int cut = lo;
            while (cut < hi && coordinate(vertices[cut], axis) < median) {
                cut++;
            }
            if (cut == lo) {
                while (cut < hi && coordinate(vertices[cut], axis) <= median) {
                    cut++;
                }
            }
            if (cut == hi) {
                leaf(lo, hi, depth);
                return;
            }
            int id = calls++;
            for (int i = lo; i < hi; i++) {
                setOf[vertices[i]] = id;
                upper[vertices[i]] = i >= cut;
            }
            // the upper half's vertices with a neighbour in the lower half, moved (stably) to the end
            int[] separator = new int[hi - cut];
            int separatorCount = 0;
            int write = cut;
            for (int i = cut; i < hi; i++) {
                int v = vertices[i];
                if (touchesLower(v, id)) {
                    separator[separatorCount++] = v;
                } else {
                    vertices[write++] = v;
                }
            }
            System.arraycopy(separator, 0, vertices, write, separatorCount);
            if (2 * separatorCount > size) {
                leaf(lo, hi, depth); // no small separator: a dense block, dissecting it gains nothing
                return;
            }
            if (depth < depthLimit) {
                addRange(depthLimit - depth, write, hi);
            }
            dissect(lo, cut, depth + 1);
            dissect(cut, write, depth + 1);
        }

        private boolean touchesLower(int v, int id) {
            for (int k = start[v]; k < start[v + 1]; k++) {
                int c = adjacency[k];
                if (setOf[c] == id && !upper[c]) {
                    return true;
                }
            }
            return false;
        }

        /** A set no longer dissected: above the deepest level, one independent range in phase 0 (a whole subtree). */
        private void leaf(int lo, int hi, int depth) {
            if (depth < depthLimit) {
                addRange(0, lo, hi);
            }
        }

        private float coordinate(int v, int axis) {
            return xyz[3 * v + axis];
        }

        /** The axis along which vertices[lo, hi) spread most, or −1 when they all coincide. */
        private int widestAxis(int lo, int hi) {
            float[] min = {Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY};
            float[] max = {Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY};
            for (int i = lo; i < hi; i++) {
                int v = vertices[i];
                for (int a = 0; a < 3; a++) {
                    float c = xyz[3 * v + a];
                    min[a] = Math.min(min[a], c);
                    max[a] = Math.max(max[a], c);
                }
            }
            int best = -1;
            float widest = 0f;
            for (int a = 0; a < 3; a++) {
                float span = max[a] - min[a];
                if (span > widest) {
                    widest = span;
                    best = a;
                }
            }
            return best;
        }

        /** Sorts vertices[lo, hi) by their coordinate on {@code axis} (ties by index); keeps them when axis < 0. */
        private void sortBy(int axis, int lo, int hi) {
            if (axis < 0) {
                return;
            }
            int size = hi - lo;
            if (keys.length < size) {
                keys = new long[size];
            }
            for (int i = 0; i < size; i++) {
                int v = vertices[lo + i];
                keys[i] = ((long) sortable(coordinate(v, axis)) << 32) | v;
            }
            Arrays.sort(keys, 0, size);
            for (int i = 0; i < size; i++) {
                vertices[lo + i] = (int) keys[i];
            }
        }

        /** An int whose signed order is the float's order (−0 and 0 apart, which does not matter here). */
        private static int sortable(float f) {
            int bits = Float.floatToIntBits(f);
            return bits >= 0 ? bits : bits ^ 0x7fffffff;
        }
    }
}
