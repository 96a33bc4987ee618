package dev.weft.core.parallel;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Persistent worker threads for data-parallel loops. {@link #parallelFor} splits a range into one
 * contiguous chunk per thread; the calling thread runs chunk 0, so {@code threads = 1} runs inline and
 * starts nothing. Dispatch allocates nothing: a solver keeps its {@link RangeBody} objects in fields.
 *
 * <p>A solver issues a few dozen short passes per iteration (one per color), so workers spin briefly
 * between passes and only then park; waking a parked thread costs tens of microseconds, spinning one
 * costs nothing that the pass would not. Results never depend on the split: every body writes only
 * what its indices own.
 *
 * <p>The pool counts what it did, so a test can tell that a pass really split (a "1 and N threads give
 * the same bits" test proves nothing if every pass ran on the calling thread): {@link
 * #rangesRunOnWorkers}, {@link #passesSplit} and {@link #passesInline}. Each counter is a plain field
 * written by one thread (a worker counts its own ranges), so counting costs one increment per pass
 * and thread; read them on the thread that calls {@link #parallelFor}, between passes.
 */
public final class WorkerPool implements AutoCloseable {
    /** Ranges shorter than this run on the calling thread: dispatch would cost more than it saves. */
    public static final int MIN_PARALLEL_ITEMS = 256;
    /** Busy-wait iterations before a waiting thread starts yielding its core. */
    private static final int SPINS_BEFORE_YIELD = 256;
    /** Idle time after which a worker parks instead of yielding. */
    private static final long YIELD_NANOS_BEFORE_PARK = 200_000L;

    private final int threads;
    private final Worker[] workers;
    private final AtomicInteger pending = new AtomicInteger();
    private volatile long generation;
    private volatile boolean closed;
    private RangeBody body;
    private int begin;
    private int end;
    private volatile Throwable failure;
    /** Non-empty passes handed to the workers, and passes of two or more items run whole on the calling thread. */
    private long passesSplit;
    private long passesInline;
    /** The workers' range counts at the last {@link #resetCounters}. */
    private long rangesRunOnWorkersAtReset;

    public WorkerPool(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        }
        this.threads = threads;
        this.workers = new Worker[threads - 1];
        for (int i = 0; i < workers.length; i++) {
            workers[i] = new Worker(i + 1);
            workers[i].thread.start();
        }
    }

    public int threads() {
        return threads;
    }

    /** Runs {@code body} over [begin, end) on all threads and returns when every chunk is done. */
    public void parallelFor(int from, int to, RangeBody work) {
        parallelFor(from, to, MIN_PARALLEL_ITEMS, work);
    }

    /**
     * As {@link #parallelFor(int, int, RangeBody)} for items that are each a lot of work (rows of a
     * lattice): ranges shorter than {@code minItems} run on the calling thread.
     */
    public void parallelFor(int from, int to, int minItems, RangeBody work) {
        int n = to - from;
        if (n <= 0) {
            return;
        }
        if (threads == 1 || n < minItems) {
            if (n > 1) {
                passesInline++;
            }
            work.run(from, to);
            return;
        }
        if (closed) {
            throw new IllegalStateException("worker pool is closed");
        }
        passesSplit++;
        body = work;
        begin = from;
        end = to;
        pending.set(workers.length);
        generation = generation + 1; // volatile write publishes body/begin/end
        for (Worker w : workers) {
            if (w.parked) {
                LockSupport.unpark(w.thread);
            }
        }
        Throwable mine = null;
        try {
            runChunk(0);
        } catch (Throwable t) {
            mine = t;
        }
        int spins = 0;
        while (pending.get() != 0) {
            if (++spins < SPINS_BEFORE_YIELD) {
                Thread.onSpinWait();
            } else {
                // Where cores are shared (or fewer than threads) the worker may need this very core.
                Thread.yield();
            }
        }
        body = null;
        Throwable theirs = failure;
        failure = null;
        if (mine != null) {
            rethrow(mine);
        }
        if (theirs != null) {
            rethrow(theirs);
        }
    }

    /**
     * Ranges (chunks of passes) that worker threads, not the calling thread, ran since the pool was
     * made or {@link #resetCounters} was last called. Zero for a pool of one thread and for passes too
     * short to split. Exact once {@link #parallelFor} has returned: each worker counts a range before
     * it reports the range done.
     */
    public long rangesRunOnWorkers() {
        return workerRangeTotal() - rangesRunOnWorkersAtReset;
    }

    /** Non-empty passes that were split over the threads since construction or {@link #resetCounters}. */
    public long passesSplit() {
        return passesSplit;
    }

    /**
     * Passes of two or more items that ran whole on the calling thread (the pool has one thread, or the
     * range was shorter than its {@code minItems}) since construction or {@link #resetCounters}. A pass
     * of one item cannot split on any number of threads and is not counted.
     */
    public long passesInline() {
        return passesInline;
    }

    /** Sets {@link #rangesRunOnWorkers}, {@link #passesSplit} and {@link #passesInline} back to zero. */
    public void resetCounters() {
        passesSplit = 0;
        passesInline = 0;
        rangesRunOnWorkersAtReset = workerRangeTotal();
    }

    private long workerRangeTotal() {
        long sum = 0;
        for (Worker w : workers) {
            sum += w.rangesRun;
        }
        return sum;
    }

    /** Runs chunk {@code index} of the current pass; returns whether it was non-empty. */
    private boolean runChunk(int index) {
        int n = end - begin;
        int lo = begin + (int) ((long) n * index / threads);
        int hi = begin + (int) ((long) n * (index + 1) / threads);
        if (hi > lo) {
            body.run(lo, hi);
            return true;
        }
        return false;
    }

    private static void rethrow(Throwable t) {
        if (t instanceof RuntimeException) {
            throw (RuntimeException) t;
        }
        if (t instanceof Error) {
            throw (Error) t;
        }
        throw new IllegalStateException(t);
    }

    @Override
    public void close() {
        closed = true;
        for (Worker w : workers) {
            LockSupport.unpark(w.thread);
        }
        for (Worker w : workers) {
            try {
                w.thread.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private final class Worker implements Runnable {
        final int index;
        final Thread thread;
        volatile boolean parked;
        /** Non-empty ranges this worker ran; written only by this worker, read by the caller after a pass. */
        long rangesRun;
        /** The last generation this worker ran; read here, before the thread starts, so the first
         * dispatch (which may come before the thread is scheduled) is never mistaken for old work. */
        private long seen;

        Worker(int index) {
            this.index = index;
            this.seen = generation;
            this.thread = new Thread(this, "weft-worker-" + index);
            this.thread.setDaemon(true);
        }

        @Override
        public void run() {
            while (true) {
                int spins = 0;
                long idleSince = 0L;
                long g;
                while ((g = generation) == seen && !closed) {
                    if (++spins < SPINS_BEFORE_YIELD) {
                        Thread.onSpinWait();
                    } else if (idleSince == 0L) {
                        idleSince = System.nanoTime();
                    } else if (System.nanoTime() - idleSince < YIELD_NANOS_BEFORE_PARK) {
                        Thread.yield();
                    } else {
                        // Announce the park, then re-check, so a dispatch in between is never missed.
                        parked = true;
                        if (generation == seen && !closed) {
                            LockSupport.parkNanos(1_000_000L);
                        }
                        parked = false;
                    }
                }
                if (closed) {
                    return;
                }
                seen = g;
                boolean ran;
                try {
                    ran = runChunk(index);
                } catch (Throwable t) {
                    ran = true;
                    failure = t;
                }
                if (ran) {
                    rangesRun++; // before pending falls, so the caller sees it once the pass returns
                }
                pending.decrementAndGet();
            }
        }
    }
}
