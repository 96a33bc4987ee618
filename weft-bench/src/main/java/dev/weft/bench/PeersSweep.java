package dev.weft.bench;

import dev.weft.core.model.BendingModel;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code weft bench --peers --sweep}: for each size, the fewest substeps (of one iteration, one stretch pass) at
 * which Weft's XPBD leaves no more strain than Jolt, per bending model — issue #17's "cheapest setting with strain
 * ≤ Jolt's", found rather than guessed. Strain does not depend on the thread count (both engines give the same
 * bits on any), so the search runs on one thread and once per setting; the settings it finds are then timed
 * against Jolt by {@link PeersBench}. The scan goes up from 1 substep and stops at the first that matches:
 * strain is not monotone in the substeps (at N = 64, 5 × 1 distance ends at 2.8 % and 6 × 1 at 3.4 %), so a
 * bisection could miss the fewest.
 */
public final class PeersSweep {
    /** The bending models searched, cheapest per constraint first. */
    public static final List<BendingModel> MODELS = List.of(BendingModel.DISTANCE, BendingModel.ISOMETRIC,
            BendingModel.DIHEDRAL);
    public static final int DEFAULT_MAX_SUBSTEPS = 16;

    /**
     * One size's search for one bending model.
     *
     * @param n           vertices per side
     * @param bending     the bending model
     * @param tried       each substep count tried, in order, with its strains (final, peak over the last second)
     * @param joltFinal   Jolt's final strain at this size
     * @param joltPeak    Jolt's peak strain over the last second
     * @param found       the first setting whose final and peak strain are both at or below Jolt's, or null
     */
    public record Result(int n, BendingModel bending, List<Tried> tried, double joltFinal, double joltPeak,
                         WeftSetting found) {
    }

    /** A substep count tried and the strains it left. */
    public record Tried(int substeps, double finalStrain, double peakStrain, boolean matches) {
    }

    private PeersSweep() {
    }

    /**
     * Searches each of {@code models} at size {@code n}, up to {@code maxSubsteps}; {@code progress} is told of each
     * finished run.
     */
    public static List<Result> run(int n, int joltIterations, List<BendingModel> models, int maxSubsteps,
                                   java.util.function.Consumer<String> progress) {
        JoltRuntime.ensureStarted();
        ClothScene scene = new ClothScene(n);
        RunResult jolt;
        try (JoltCloth cloth = new JoltCloth(scene, 1, joltIterations)) {
            jolt = ClothRun.run(cloth, scene, 0);
            progress.accept(cloth.label() + ", N = " + n);
        }
        List<Result> results = new ArrayList<>();
        for (BendingModel bending : models) {
            List<Tried> tried = new ArrayList<>();
            WeftSetting found = null;
            for (int s = 1; s <= maxSubsteps && found == null; s++) {
                WeftSetting setting = new WeftSetting(s, 1, 1, bending);
                try (WeftCloth cloth = new WeftCloth(scene, setting, 1)) {
                    RunResult r = ClothRun.run(cloth, scene, 0);
                    boolean matches = r.finalStrain() <= jolt.finalStrain() && r.peakStrain() <= jolt.peakStrain();
                    tried.add(new Tried(s, r.finalStrain(), r.peakStrain(), matches));
                    found = matches ? setting : null;
                    progress.accept(cloth.label() + ", N = " + n);
                }
            }
            results.add(new Result(n, bending, List.copyOf(tried), jolt.finalStrain(), jolt.peakStrain(), found));
        }
        return results;
    }

    /** The settings found, in {@code results}' order (models with none found left out). */
    public static List<WeftSetting> found(List<Result> results) {
        List<WeftSetting> settings = new ArrayList<>();
        for (Result r : results) {
            if (r.found() != null) {
                settings.add(r.found());
            }
        }
        return settings;
    }

    /** Runs a search makes at most (a progress bar's length): Jolt once, then up to maxSubsteps per model. */
    public static int maxRuns(int models, int maxSubsteps) {
        return 1 + models * maxSubsteps;
    }

    /** The CSV of every substep count tried: one line each, the header first. */
    public static List<String> csv(List<Result> results) {
        List<String> lines = new ArrayList<>();
        lines.add("n,bending,substeps,iterations,final_strain,peak_strain_last_second,jolt_final_strain,"
                + "jolt_peak_strain_last_second,at_or_below_jolt");
        for (Result r : results) {
            for (Tried t : r.tried()) {
                lines.add(String.format(java.util.Locale.ROOT, "%d,%s,%d,1,%.6f,%.6f,%.6f,%.6f,%b", r.n(),
                        r.bending().name().toLowerCase(java.util.Locale.ROOT), t.substeps(), t.finalStrain(),
                        t.peakStrain(), r.joltFinal(), r.joltPeak(), t.matches()));
            }
        }
        return lines;
    }
}
