package dev.weft.app;

import dev.weft.core.lab.ConvergenceExperiment;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.pd.InnerSolver;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.pd.PdSolver;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The Projective Dynamics part of {@code weft bench}: time per iteration (one local step and one inner
 * sweep) on seed 001's 4-neighbour lattice, per inner solver and thread count. Each sample restores
 * the enlarged cloth (every spring 5x its rest length, so every iteration has work) and runs a batch
 * of iterations without integration; the median over samples after a warm-up is reported.
 */
final class PdBench {
    /** Seed 001: RBGS fits 45 iterations in 8 ms on a GTX 970, 0.18 ms per iteration. */
    static final double SEED_RBGS_MS = 8.0 / 45.0;

    private final int size;
    private final int[] threads;
    private final List<InnerSolver> inner;
    private final int iterations;
    private final int samples;
    private final int warmup;

    PdBench(int size, int[] threads, List<InnerSolver> inner, int iterations, int samples, int warmup) {
        this.size = size;
        this.threads = threads;
        this.inner = inner;
        this.iterations = iterations;
        this.samples = samples;
        this.warmup = warmup;
    }

    /** The rows {@link #run} measures (Gauss–Seidel runs on one thread only). */
    int rows() {
        int n = 0;
        for (InnerSolver s : inner) {
            for (int t : threads) {
                n += s == InnerSolver.GAUSS_SEIDEL && t > 1 ? 0 : 1;
            }
        }
        return n;
    }

    void run(PrintWriter out, Path dir, String jdk, String cpu, ProgressBar progress) throws IOException {
        Model model = ConvergenceExperiment.ENLARGED.model(size, 1000f);
        State start = ConvergenceExperiment.ENLARGED.initialState(model);
        out.printf(Locale.ROOT, "%nProjective Dynamics on seed 001's %dx%d lattice: %d particles, %d springs, %d particle "
                + "colors%n", size, size, model.particleCount(), model.distances().count(),
                model.particleColoring().colorCount());
        out.printf(Locale.ROOT, "%-8s %7s %12s %16s%n", "inner", "threads", "ms/iteration", "particle-it/s");
        List<String> rows = new ArrayList<>();
        rows.add("inner,threads,particles,springs,ms_per_iteration,particle_iterations_per_s,jdk,cpu");
        for (InnerSolver s : inner) {
            for (int t : threads) {
                if (s == InnerSolver.GAUSS_SEIDEL && t > 1) {
                    continue; // sequential by definition: a second thread would only add dispatch
                }
                PdSettings settings = PdSettings.defaults().withInner(s).withIterations(1, 1);
                double ms;
                try (WorkerPool pool = new WorkerPool(t)) {
                    ms = msPerIteration(new PdSolver(settings, pool), model, start);
                }
                double rate = model.particleCount() / (ms / 1e3);
                progress.clear();
                out.printf(Locale.ROOT, "%-8s %7d %12.4f %16.3e%n", s.label(), t, ms, rate);
                out.flush();
                progress.advance("pd " + s.label() + ", " + t + " thread(s)");
                rows.add(String.format(Locale.ROOT, "%s,%d,%d,%d,%.5f,%.4e,\"%s\",\"%s\"", s.label(), t,
                        model.particleCount(), model.distances().count(), ms, rate, jdk, cpu));
            }
        }
        out.printf(Locale.ROOT, "(seed 001, RBGS on a GTX 970: %.3f ms per iteration; target here: <= 0.09 ms with "
                + "2 threads)%n", SEED_RBGS_MS);
        Path csv = dir.resolve("pd.csv");
        AtomicTextFile.write(csv, rows);
        out.printf(Locale.ROOT, "wrote %s%n", csv);
    }

    private double msPerIteration(PdSolver solver, Model model, State start) {
        State work = start.copy();
        for (int i = 0; i < warmup; i++) {
            work.copyFrom(start);
            solver.relax(model, work, ConvergenceExperiment.STEP, iterations);
        }
        double[] ms = new double[samples];
        for (int i = 0; i < samples; i++) {
            work.copyFrom(start);
            long t0 = System.nanoTime();
            solver.relax(model, work, ConvergenceExperiment.STEP, iterations);
            ms[i] = (System.nanoTime() - t0) / 1e6 / iterations;
        }
        Arrays.sort(ms);
        return ms[samples / 2];
    }
}
