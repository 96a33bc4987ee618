package dev.weft.app;

import dev.weft.core.interact.Tearing;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelEdit;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.scene.Scene;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code weft bench --table tear}: what tearing costs on seed 001's 100 × 100 cloth (the {@code hanging}
 * scene's, made tearable; XPBD at the scene's settings): a frame's step, the scan {@link Tearing#find} makes after every frame
 * of a cloth that tears, and 100 edges torn at once (100 particles of a row split, the cloth cut in
 * two: {@link Simulation#edit}, plus the solver taking the new model, {@link #rebind}). Issue #13 asks the 100
 * tears to cost under 10 % of the frame.
 */
final class TearBench {
    static final int SIZE = 100;
    private static final int WARM_EDITS = 200;
    /** Rounds of the rebind's alternation per trial the table asks for. */
    private static final int REBIND_ROUNDS_PER_SAMPLE = 40;

    private TearBench() {
    }

    static int run(PrintWriter out, Path dir, int[] threads, int warmup, int samples, ProgressBar progress)
            throws IOException {
        out.printf(Locale.ROOT, "weft bench --table tear: %d x %d cloth (scene hanging, xpbd), 100 edges torn in one "
                + "frame; median of %d trials after %d warm-up trials%n", SIZE, SIZE, samples, warmup);
        out.printf(Locale.ROOT, "%7s %12s %12s %12s %12s %12s %14s%n", "threads", "frame ms", "scan ms", "edit ms",
                "rebind ms", "next extra", "tear / frame");
        List<String> rows = new ArrayList<>();
        rows.add("threads,frame_ms,scan_ms,edit_ms,rebind_ms,next_frame_extra_ms,tear_over_frame");
        double cold = Double.NaN;
        for (int t : threads) {
            // the editor's code compiled before the trials, as in a run that tears (each trial tears once, so
            // its 14 trials alone leave it interpreted); the run's very first tear is reported on its own
            double first = warmEdits(t);
            cold = Double.isNaN(cold) ? first : cold;
            double rebind = rebind(t, REBIND_ROUNDS_PER_SAMPLE * Math.max(1, samples));
            double[] frame = new double[samples];
            double[] scan = new double[samples];
            double[] edit = new double[samples];
            double[] next = new double[samples];
            double[] ratio = new double[samples];
            for (int trial = 0; trial < warmup + samples; trial++) {
                double[] m = trial(t);
                if (trial >= warmup) {
                    int k = trial - warmup;
                    frame[k] = m[0];
                    scan[k] = m[1];
                    edit[k] = m[2];
                    next[k] = m[3];
                    ratio[k] = (m[2] + rebind) / m[0];
                }
            }
            double r = median(ratio);
            progress.clear();
            out.printf(Locale.ROOT, "%7d %12.3f %12.3f %12.3f %12.3f %12.3f %13.1f%%%n", t, median(frame), median(scan),
                    median(edit), rebind, median(next), 100 * r);
            out.flush();
            progress.advance("tear, " + t + " thread(s)");
            rows.add(String.format(Locale.ROOT, "%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f", t, median(frame), median(scan),
                    median(edit), rebind, median(next), r));
        }
        out.printf(Locale.ROOT, "the run's first tear (code not yet compiled): %.3f ms to edit%n", cold);
        out.printf(Locale.ROOT, "rebind: the solver taking the torn model, a step on it right after one on the whole "
                + "cloth against one after itself (median of %d); next extra: the frame after the tear against the "
                + "three after it (a check on the rebind, as noisy as frames are)%n",
                REBIND_ROUNDS_PER_SAMPLE * Math.max(1, samples));
        Files.createDirectories(dir);
        Path csv = dir.resolve("tear.csv");
        AtomicTextFile.write(csv, rows);
        out.printf(Locale.ROOT, "wrote %s%n", csv);
        return 0;
    }

    /**
     * Tears the cloth's middle row {@value #WARM_EDITS} times on {@code threads} threads (each time the same
     * model, so nothing accumulates); returns the first edit's milliseconds.
     */
    private static double warmEdits(int threads) {
        Model model = tearableCloth();
        List<ModelEdit> splits = rowSplits(model);
        double first = Double.NaN;
        try (WorkerPool pool = new WorkerPool(threads)) {
            for (int k = 0; k < WARM_EDITS; k++) {
                long t0 = System.nanoTime();
                model.edit(splits, pool);
                first = k == 0 ? (System.nanoTime() - t0) / 1e6 : first;
            }
        }
        return first;
    }

    /**
     * What the solver's taking a torn model costs, in milliseconds: a step of the torn cloth right after a step of
     * the whole one (the solver binds each anew: its colors, lanes and arrays) against two steps of the torn cloth
     * in a row, per bind, median of {@code rounds}. A frame's extra after a tear is this plus what the
     * first step's caches miss, which this counts too (the two models' arrays alternate); measured apart from the
     * frames because one frame's difference from the next is as large as the rebind on a shared machine.
     */
    private static double rebind(int threads, int rounds) {
        Scene scene = HangingCloth.of(SIZE);
        Model whole = tearableCloth();
        float h = 1f / scene.fps() / scene.substeps();
        try (WorkerPool pool = new WorkerPool(threads)) {
            Model torn = whole.edit(rowSplits(whole), pool);
            XpbdSolver solver = new XpbdSolver(scene.xpbd(), pool);
            State a = State.atRest(whole);
            State b = State.atRest(torn);
            Environment env = scene.environment();
            double[] perBind = new double[rounds];
            for (int round = -rounds / 4; round < rounds; round++) {
                long t0 = System.nanoTime();
                solver.step(whole, a, env, h);
                solver.step(torn, b, env, h);
                long t1 = System.nanoTime();
                solver.step(torn, b, env, h);
                solver.step(torn, b, env, h);
                long t2 = System.nanoTime();
                if (round >= 0) {
                    perBind[round] = Math.max(0.0, ((t1 - t0) - (t2 - t1)) / 2e6);
                }
            }
            return median(perBind);
        }
    }

    /** The hanging scene's cloth, made to tear at 100 % stretch (which it never reaches). */
    private static Model tearableCloth() {
        ModelBuilder b = new ModelBuilder();
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", SIZE, SIZE, 1f, 1f).withOrigin(-0.5f, 1.0f, -0.5f));
        b.pinCorners(cloth, "top-left", "top-right");
        b.tearStrain(cloth, 1f);
        return b.build();
    }

    /** One trial on a fresh cloth: {frame ms, scan ms, edit ms, next frame's extra ms}. */
    private static double[] trial(int threads) {
        // the scan runs, finds nothing, and the 100 tears are made by hand
        Scene scene = HangingCloth.of(SIZE);
        Model model = tearableCloth();
        float dt = 1f / scene.fps();
        try (WorkerPool pool = new WorkerPool(threads);
             Simulation sim = new Simulation(model, State.atRest(model), new XpbdSolver(scene.xpbd(), pool),
                     scene.environment(), scene.substeps())) {
            for (int f = 0; f < 10; f++) {
                sim.advance(dt);
            }
            // the frame is the median of five (one frame on a shared machine is often twice another)
            double[] frames = new double[5];
            for (int f = 0; f < frames.length; f++) {
                long t0 = System.nanoTime();
                sim.advance(dt);
                frames[f] = (System.nanoTime() - t0) / 1e6;
            }
            double frame = median(frames);
            long t1 = System.nanoTime();
            List<ModelEdit> found = Tearing.find(model, sim.state().positions());
            double scan = (System.nanoTime() - t1) / 1e6;
            if (!found.isEmpty()) {
                throw new IllegalStateException("the hanging cloth tore by itself at 100 % strain");
            }
            List<ModelEdit> splits = rowSplits(model);
            long t2 = System.nanoTime();
            sim.edit(splits);
            double edit = (System.nanoTime() - t2) / 1e6;
            if (sim.model().edits().size() != splits.size()) {
                throw new IllegalStateException("only " + sim.model().edits().size() + " of " + splits.size()
                        + " splits took");
            }
            // the solver binding the new model: the next frame against the median of the three after it (frames
            // taken back to back drift less with the machine's load than the frames before the edit; one frame
            // alone as the baseline left the difference as noisy as the rebind is long)
            long t3 = System.nanoTime();
            sim.advance(dt);
            double next = (System.nanoTime() - t3) / 1e6;
            double[] after = new double[3];
            for (int f = 0; f < after.length; f++) {
                long t4 = System.nanoTime();
                sim.advance(dt);
                after[f] = (System.nanoTime() - t4) / 1e6;
            }
            return new double[] {frame, scan, edit, Math.max(0.0, next - median(after))};
        }
    }

    /** The particles of the middle row, each split across its edge to the row below: a cut in two. */
    static List<ModelEdit> rowSplits(Model model) {
        ModelObject cloth = model.objects().get(0);
        float[] r = model.restPositions();
        int row = cloth.gridRows() / 2;
        List<ModelEdit> splits = new ArrayList<>();
        for (int c = 0; c < cloth.gridCols(); c++) {
            int p = cloth.gridParticle(row, c);
            int below = cloth.gridParticle(row + 1, c);
            splits.add(new ModelEdit.Split(p, r[3 * below] - r[3 * p], r[3 * below + 1] - r[3 * p + 1],
                    r[3 * below + 2] - r[3 * p + 2]));
        }
        return splits;
    }

    private static double median(double[] a) {
        double[] s = a.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
