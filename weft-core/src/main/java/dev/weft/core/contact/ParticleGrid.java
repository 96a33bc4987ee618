package dev.weft.core.contact;

import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.util.Check;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A uniform grid over particles, stored as a spatial hash sorted by cell (seed 001 §3.4, after
 * Green's CUDA particles): each particle's cell is hashed into a table of 2^k buckets; a counting
 * sort by bucket (count, prefix sum, scatter) lists the particles of each bucket contiguously. Every
 * phase runs in parallel on the {@link WorkerPool}: counts and scatter slots are claimed with atomic
 * increments, and each bucket's list is then sorted by particle index, so the result is the same
 * whatever the thread count or the order the atomics were won in.
 *
 * <p>Neighbours of a point lie in its cell's 27-cell block; a bucket may hold particles of several
 * cells whose hashes collide, so callers compare the stored cell coordinates ({@link #cellX} etc.).
 */
public final class ParticleGrid {
    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);
    /** Particles per prefix-sum block; the block totals are scanned sequentially. */
    private static final int SCAN_BLOCK = 1 << 14;

    private final float cellSize;
    private final float invCell;
    private final int particles;
    private final int mask;
    private final int[] cell;       // 3 ints per particle: cell coordinates
    private final int[] bucketOf;   // per particle
    private final int[] start;      // per bucket + 1: where its particles begin in sorted
    private final int[] sorted;     // particle indices grouped by bucket, ascending within a bucket
    private final int[] blockSum;

    private float[] x;

    private final RangeBody cellBody = this::assignCells;
    private final RangeBody clearBody = this::clear;
    private final RangeBody countBody = this::count;
    private final RangeBody blockScanBody = this::scanBlocks;
    private final RangeBody blockOffsetBody = this::offsetBlocks;
    private final RangeBody scatterBody = this::scatter;
    private final RangeBody sortBody = this::sortBuckets;

    /** A grid for {@code particles} particles with cubic cells of edge {@code cellSize}. */
    public ParticleGrid(int particles, float cellSize) {
        this.cellSize = Check.positive("grid cell size", cellSize);
        this.invCell = 1f / cellSize;
        this.particles = Check.atLeast("grid particle count", particles, 0);
        int size = Integer.highestOneBit(Math.max(1024, particles - 1)) << 1;
        mask = size - 1;
        cell = new int[3 * particles];
        bucketOf = new int[particles];
        start = new int[size + 1];
        sorted = new int[particles];
        blockSum = new int[(size + SCAN_BLOCK - 1) / SCAN_BLOCK];
    }

    public float cellSize() {
        return cellSize;
    }

    /** Sorts the particles of {@code positions} (xyz interleaved) into the grid. */
    public void build(float[] positions, WorkerPool pool) {
        x = positions;
        pool.parallelFor(0, particles, cellBody);
        pool.parallelFor(0, mask + 1, clearBody);
        pool.parallelFor(0, particles, countBody);
        // counts sit in start[b + 1]; exclusive prefix sum in blocks, then the block offsets (a block is
        // SCAN_BLOCK buckets: two blocks are worth splitting)
        pool.parallelFor(0, blockSum.length, 2, blockScanBody);
        int run = 0;
        for (int k = 0; k < blockSum.length; k++) {
            int s = blockSum[k];
            blockSum[k] = run;
            run += s;
        }
        pool.parallelFor(0, blockSum.length, 2, blockOffsetBody);
        // scatter claims slots by advancing start[b] itself (one array to miss in, not two); after it
        // start[b] holds bucket b's end, which is bucket b + 1's begin: shift back by one
        pool.parallelFor(0, particles, scatterBody);
        System.arraycopy(start, 0, start, 1, mask + 1);
        start[0] = 0;
        pool.parallelFor(0, mask + 1, sortBody);
        x = null;
    }

    /** The hash table's size, a power of two: bucket indices are 0 .. bucketCount() - 1. */
    public int bucketCount() {
        return mask + 1;
    }

    /** The bucket of cell (cx, cy, cz). */
    public int bucket(int cx, int cy, int cz) {
        return ((cx * 73856093) ^ (cy * 19349663) ^ (cz * 83492791)) & mask;
    }

    /** First index in {@link #sorted()} of bucket b's particles; they end at {@code start(b + 1)}. */
    public int start(int b) {
        return start[b];
    }

    public int end(int b) {
        return start[b + 1];
    }

    /** Particle indices grouped by bucket (do not modify). */
    public int[] sorted() {
        return sorted;
    }

    public int cellX(int particle) {
        return cell[3 * particle];
    }

    public int cellY(int particle) {
        return cell[3 * particle + 1];
    }

    public int cellZ(int particle) {
        return cell[3 * particle + 2];
    }

    /** The cell coordinate of a position along one axis. */
    public int cellOf(float coordinate) {
        return (int) Math.floor(coordinate * invCell);
    }

    private void assignCells(int begin, int end) {
        for (int i = begin; i < end; i++) {
            int cx = (int) Math.floor(x[3 * i] * invCell);
            int cy = (int) Math.floor(x[3 * i + 1] * invCell);
            int cz = (int) Math.floor(x[3 * i + 2] * invCell);
            cell[3 * i] = cx;
            cell[3 * i + 1] = cy;
            cell[3 * i + 2] = cz;
            bucketOf[i] = bucket(cx, cy, cz);
        }
    }

    private void clear(int begin, int end) {
        for (int b = begin; b < end; b++) {
            start[b + 1] = 0;
        }
        if (begin == 0) {
            start[0] = 0;
        }
    }

    private void count(int begin, int end) {
        for (int i = begin; i < end; i++) {
            INTS.getAndAdd(start, bucketOf[i] + 1, 1);
        }
    }

    /** Turns each block's counts (in start[b + 1]) into block-local inclusive sums. */
    private void scanBlocks(int begin, int end) {
        int size = mask + 1;
        for (int k = begin; k < end; k++) {
            int from = k * SCAN_BLOCK;
            int to = Math.min(size, from + SCAN_BLOCK);
            int run = 0;
            for (int b = from; b < to; b++) {
                run += start[b + 1];
                start[b + 1] = run;
            }
            blockSum[k] = run;
        }
    }

    private void offsetBlocks(int begin, int end) {
        int size = mask + 1;
        for (int k = begin; k < end; k++) {
            int off = blockSum[k];
            if (off == 0) {
                continue;
            }
            int to = Math.min(size, (k + 1) * SCAN_BLOCK);
            for (int b = k * SCAN_BLOCK; b < to; b++) {
                start[b + 1] += off;
            }
        }
    }

    private void scatter(int begin, int end) {
        for (int i = begin; i < end; i++) {
            sorted[(int) INTS.getAndAdd(start, bucketOf[i], 1)] = i;
        }
    }

    /** Insertion sort of each bucket's few particles: the order the atomics were won in is erased. */
    private void sortBuckets(int begin, int end) {
        for (int b = begin; b < end; b++) {
            int from = start[b];
            int to = start[b + 1];
            for (int k = from + 1; k < to; k++) {
                int v = sorted[k];
                int m = k - 1;
                while (m >= from && sorted[m] > v) {
                    sorted[m + 1] = sorted[m];
                    m--;
                }
                sorted[m + 1] = v;
            }
        }
    }
}
