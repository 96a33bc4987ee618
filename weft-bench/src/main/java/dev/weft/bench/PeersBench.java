package dev.weft.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code weft bench --peers}: the {@link ClothScene} on Jolt and on Weft in one process. For every size
 * and thread count, each repetition runs Jolt and then each Weft setting, so slow phases of a noisy
 * machine fall on every engine alike; each row is the median over the repetitions.
 */
public final class PeersBench {
    public static final int[] DEFAULT_SIZES = {64, 100};
    public static final int DEFAULT_REPETITIONS = 3;
    /** The first second of each run: Weft's JIT and both engines' threads settle in it. */
    public static final int DEFAULT_WARMUP_FRAMES = 60;
    /** Jolt's soft-body iterations in the comparison: 10 substeps of one pass. */
    public static final int DEFAULT_JOLT_ITERATIONS = 10;

    /** Told of each finished run, and of each size and thread count's rows when its repetitions are done. */
    public interface Listener {
        void runFinished(String what);

        void rowsFinished(List<PeersRow> rows);
    }

    private final int[] sizes;
    private final int[] threads;
    private final int repetitions;
    private final int warmupFrames;
    private final int joltIterations;
    /** Weft's rows per size (the same list for every size unless a sweep chose them per size). */
    private final java.util.Map<Integer, List<WeftSetting>> weftSettings;

    /**
     * @param sizes          vertices per side
     * @param threads        thread counts (both engines get the same)
     * @param repetitions    runs per engine setting, interleaved
     * @param warmupFrames   frames of each run left out of its median frame time
     * @param joltIterations Jolt's soft-body iterations (substeps of one pass)
     * @param weftSettings   Weft's rows
     */
    public PeersBench(int[] sizes, int[] threads, int repetitions, int warmupFrames, int joltIterations,
                      List<WeftSetting> weftSettings) {
        this(sizes, threads, repetitions, warmupFrames, joltIterations, sameForEach(sizes, weftSettings));
    }

    /** As above with Weft's rows chosen per size ({@code weftSettings} has an entry for each of {@code sizes}). */
    public PeersBench(int[] sizes, int[] threads, int repetitions, int warmupFrames, int joltIterations,
                      java.util.Map<Integer, List<WeftSetting>> weftSettings) {
        this.sizes = sizes.clone();
        this.threads = threads.clone();
        this.repetitions = repetitions;
        this.warmupFrames = warmupFrames;
        this.joltIterations = joltIterations;
        java.util.Map<Integer, List<WeftSetting>> copy = new java.util.HashMap<>();
        for (int n : sizes) {
            List<WeftSetting> rows = weftSettings.get(n);
            if (rows == null) {
                throw new IllegalArgumentException("no Weft settings for N = " + n);
            }
            copy.put(n, List.copyOf(rows));
        }
        this.weftSettings = copy;
    }

    private static java.util.Map<Integer, List<WeftSetting>> sameForEach(int[] sizes, List<WeftSetting> settings) {
        java.util.Map<Integer, List<WeftSetting>> each = new java.util.HashMap<>();
        for (int n : sizes) {
            each.put(n, settings);
        }
        return each;
    }

    public static PeersBench defaults(int[] sizes, int[] threads) {
        return new PeersBench(sizes, threads, DEFAULT_REPETITIONS, DEFAULT_WARMUP_FRAMES, DEFAULT_JOLT_ITERATIONS,
                WeftSetting.DEFAULTS);
    }

    public int repetitions() {
        return repetitions;
    }

    public int warmupFrames() {
        return warmupFrames;
    }

    /** How many runs {@link #run} makes (for a progress bar). */
    public int runs() {
        int runs = 0;
        for (int n : sizes) {
            runs += threads.length * repetitions * (1 + weftSettings.get(n).size());
        }
        return runs;
    }

    /** Runs everything; Jolt first, so a missing native library fails before any time is spent. */
    public List<PeersRow> run(Listener listener) {
        JoltRuntime.ensureStarted();
        List<PeersRow> all = new ArrayList<>();
        for (int n : sizes) {
            ClothScene scene = new ClothScene(n);
            List<WeftSetting> settings = weftSettings.get(n);
            for (int t : threads) {
                List<RunResult> jolt = new ArrayList<>();
                List<List<RunResult>> weft = new ArrayList<>();
                for (int s = 0; s < settings.size(); s++) {
                    weft.add(new ArrayList<>());
                }
                for (int rep = 0; rep < repetitions; rep++) {
                    String where = "N = " + n + ", " + t + " thread(s), repetition " + (rep + 1) + "/" + repetitions;
                    try (JoltCloth cloth = new JoltCloth(scene, t, joltIterations)) {
                        jolt.add(ClothRun.run(cloth, scene, warmupFrames));
                        listener.runFinished(cloth.label() + ", " + where);
                    }
                    for (int s = 0; s < settings.size(); s++) {
                        try (WeftCloth cloth = new WeftCloth(scene, settings.get(s), t)) {
                            weft.get(s).add(ClothRun.run(cloth, scene, warmupFrames));
                            listener.runFinished(cloth.label() + ", " + where);
                        }
                    }
                }
                List<PeersRow> rows = new ArrayList<>();
                PeersRow joltRow = row(n, t, "jolt", joltIterations + " iterations", jolt, Double.NaN);
                rows.add(joltRow);
                for (int s = 0; s < settings.size(); s++) {
                    rows.add(row(n, t, "weft", settings.get(s).label(), weft.get(s), joltRow.msPerFrame()));
                }
                listener.rowsFinished(rows);
                all.addAll(rows);
            }
        }
        return all;
    }

    private PeersRow row(int n, int threads, String engine, String setting, List<RunResult> runs, double joltMs) {
        double ms = median(runs, RunResult::msPerFrame);
        return new PeersRow(n, threads, engine, setting, ms, median(runs, RunResult::meanMsPerFrame),
                median(runs, RunResult::finalStrain), median(runs, RunResult::peakStrain),
                Double.isNaN(joltMs) ? 1.0 : ms / joltMs, runs.size());
    }

    private static double median(List<RunResult> runs, java.util.function.ToDoubleFunction<RunResult> value) {
        return ClothRun.median(runs.stream().mapToDouble(value).toArray());
    }
}
