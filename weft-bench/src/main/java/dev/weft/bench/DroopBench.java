package dev.weft.bench;

import com.github.stephengold.joltjni.enumerate.EBendType;
import dev.weft.core.model.BendingModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code weft bench --peers --droop}: what bending stiffness each engine's setting is, measured by how far
 * a {@link DroopStrip} droops. Jolt runs its distance and dihedral bending at the peers bench's iterations
 * over a sweep of compliances, Weft its distance, isometric and dihedral bending at the peers bench's 10 × 1
 * over a sweep of bending rigidities B (and B = 0, the hanging limit); then each curve is read backwards:
 * which Weft B droops as far as Jolt's peers-bench setting, and which Jolt compliance droops as far as Weft
 * at cotton's B.
 *
 * <p>Jolt's sweep is indexed by the same B: distance bending gets the compliance the peers bench derives
 * from B ({@link JoltCloth#distanceBendCompliance}); dihedral bending 1/B, the hinge stiffness k_θ = B·l²/A
 * Weft's dihedral model gives a grid edge along an axis (l = d, A = d²).
 */
public final class DroopBench {
    /** 10⁻⁶ to 10⁻¹ N·m in half decades: from nearly limp to a card-like strip over this overhang. */
    public static final double[] RIGIDITIES = sweep(-6, -1);
    /** The peers bench's Weft settings (10 substeps of one iteration, Jolt's count), one per bending model. */
    public static final List<WeftSetting> WEFT_SETTINGS = List.of(
            new WeftSetting(10, 1, 1, BendingModel.DISTANCE),
            new WeftSetting(10, 1, 1, BendingModel.ISOMETRIC),
            new WeftSetting(10, 1, 1, BendingModel.DIHEDRAL));
    public static final List<EBendType> JOLT_BENDING = List.of(EBendType.Distance, EBendType.Dihedral);

    /** Told of each finished strip. */
    public interface Listener {
        void runFinished(String what);
    }

    private final DroopStrip strip;
    private final double[] rigidities;
    private final int joltIterations;
    private final List<WeftSetting> weftSettings;

    public DroopBench(DroopStrip strip, double[] rigidities, int joltIterations, List<WeftSetting> weftSettings) {
        this.strip = strip;
        this.rigidities = rigidities.clone();
        this.joltIterations = joltIterations;
        this.weftSettings = List.copyOf(weftSettings);
    }

    public static DroopBench defaults(DroopStrip strip) {
        return new DroopBench(strip, RIGIDITIES, PeersBench.DEFAULT_JOLT_ITERATIONS, WEFT_SETTINGS);
    }

    public DroopStrip strip() {
        return strip;
    }

    public int joltIterations() {
        return joltIterations;
    }

    /** Strips {@link #run} settles (for a progress bar). */
    public int runs() {
        return JOLT_BENDING.size() * rigidities.length + weftSettings.size() * (rigidities.length + 1);
    }

    /** Jolt first, so that a missing native library fails before anything runs. */
    public DroopReport run(Listener listener) {
        JoltRuntime.ensureStarted();
        List<DroopRow> rows = new ArrayList<>();
        List<List<DroopRow>> jolt = new ArrayList<>();
        for (EBendType type : JOLT_BENDING) {
            List<DroopRow> sweep = new ArrayList<>();
            for (double b : rigidities) {
                sweep.add(joltRow(strip, type, (float) b, joltIterations));
                listener.runFinished("Jolt " + type.name().toLowerCase(Locale.ROOT) + " bending as B = "
                        + String.format(Locale.ROOT, "%.3g", b));
            }
            jolt.add(sweep);
            rows.addAll(sweep);
        }
        List<List<DroopRow>> weft = new ArrayList<>();
        for (WeftSetting s : weftSettings) {
            List<DroopRow> sweep = new ArrayList<>();
            sweep.add(weftRow(strip, s, 0f));
            listener.runFinished("Weft " + s.label() + " at B = 0");
            for (double b : rigidities) {
                sweep.add(weftRow(strip, s, (float) b));
                listener.runFinished("Weft " + s.label() + " at B = " + String.format(Locale.ROOT, "%.3g", b));
            }
            weft.add(sweep);
            rows.addAll(sweep);
        }
        return new DroopReport(rows, matches(jolt, weft));
    }

    private List<DroopMatch> matches(List<List<DroopRow>> jolt, List<List<DroopRow>> weft) {
        List<DroopMatch> out = new ArrayList<>();
        for (List<DroopRow> joltSweep : jolt) {
            for (DroopRow peer : joltSweep) {
                if (!peer.peers()) {
                    continue;
                }
                for (List<DroopRow> weftSweep : weft) {
                    DroopRow any = weftSweep.get(0);
                    out.add(new DroopMatch("Weft " + any.setting().replaceFirst(", B = .*", "") + ": the B that "
                            + "droops as Jolt's peers setting (" + peer.bending() + ", " + peer.setting() + ")",
                            peer.result().tipDrop(), DroopMatch.stiffnessFor(weftSweep, peer.result().tipDrop()),
                            "N·m"));
                }
            }
        }
        for (List<DroopRow> weftSweep : weft) {
            for (DroopRow cotton : weftSweep) {
                if (!cotton.peers()) {
                    continue;
                }
                for (List<DroopRow> joltSweep : jolt) {
                    String bending = joltSweep.get(0).bending();
                    out.add(new DroopMatch("Jolt " + joltIterations + " iterations, " + bending + " bending: the "
                            + "compliance that droops as Weft " + cotton.setting(), cotton.result().tipDrop(),
                            1.0 / DroopMatch.stiffnessFor(joltSweep, cotton.result().tipDrop()),
                            "distance".equals(bending) ? "m/N" : "rad²/(N·m)"));
                }
            }
        }
        return out;
    }

    /** One Jolt strip with the bend compliance this bench gives bending rigidity {@code b} (class comment). */
    public static DroopRow joltRow(DroopStrip strip, EBendType type, float b, int iterations) {
        float compliance = type == EBendType.Distance ? JoltCloth.distanceBendCompliance(b, DroopStrip.SPACING)
                : 1f / b;
        String unit = type == EBendType.Distance ? "m/N" : "rad²/(N·m)";
        try (JoltStrip s = new JoltStrip(strip, type, compliance, iterations)) {
            DroopResult r = DroopRun.run(s, strip);
            // the peers bench runs Jolt's distance bending at cotton's B
            boolean peers = type == EBendType.Distance && b == ClothScene.BEND_RIGIDITY;
            return new DroopRow("jolt", type.name().toLowerCase(Locale.ROOT), String.format(Locale.ROOT,
                    "%d iterations, compliance %.3g %s (as B = %.3g N·m)", iterations, compliance, unit, b),
                    1.0 / compliance, peers, r);
        }
    }

    public static DroopRow weftRow(DroopStrip strip, WeftSetting setting, float b) {
        try (WeftStrip s = new WeftStrip(strip, setting, b)) {
            DroopResult r = DroopRun.run(s, strip);
            return new DroopRow("weft", setting.bending().name().toLowerCase(Locale.ROOT), String.format(Locale.ROOT,
                    "%s, B = %.3g N·m", setting.label(), b), b, b == ClothScene.BEND_RIGIDITY, r);
        }
    }

    private static double[] sweep(int fromDecade, int toDecade) {
        double[] b = new double[2 * (toDecade - fromDecade) + 1];
        for (int i = 0; i < b.length; i++) {
            b[i] = Math.pow(10, fromDecade + 0.5 * i);
        }
        return b;
    }
}
