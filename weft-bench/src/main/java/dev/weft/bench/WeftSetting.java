package dev.weft.bench;

import dev.weft.core.model.BendingModel;
import java.util.List;
import java.util.Locale;

/**
 * How Weft's XPBD solver runs the scene: substeps per frame, iterations per substep, sweeps over the
 * stretch constraints per iteration (1: plain XPBD, every constraint once, as Jolt does) and the bending
 * model (dihedral angles, distance constraints across two edges as Jolt's, or isometric: Bergou et al.'s
 * constant-weight curvature on the dihedral stencils), and whether the hierarchical stretch limits
 * ({@code XpbdSettings.stretchLimits}) and the stretch smoothing ({@code XpbdSettings.stretchSmoothing}) run.
 */
public record WeftSetting(int substeps, int iterations, int stretchPasses, BendingModel bending, boolean limits,
                          boolean smoothing) {
    /**
     * The default rows: the cheapest setting that matched Jolt's strain at N = 64 (6 × 1, dihedral),
     * the same at Jolt's 10 substeps, 6 × 1 with Jolt's kind of bending (the fewest substeps whose final and
     * peak strain stay at or below Jolt's at N = 64 and 100: 5 × 1 peaks above it), 10 × 1 distance, and
     * 10 × 1 isometric (issue #17's lever 1: bending at about a distance constraint's cost), and the two cheapest
     * found under Jolt's strain at N = 64 and 100 with the stretch limits: 2 × 1 with two stretch passes (N = 64
     * peaks at 6.36 % against Jolt's 6.66 %), and 3 × 1 with the smoothing (4.08 %, the margin). Those two bend
     * more softly than Jolt's setting (their strips droop as Jolt's at 18 and 4.2 times its compliance,
     * {@code --droop --setting}); 6 × 1 distance is the one at Jolt's bending stiffness.
     */
    public static final List<WeftSetting> DEFAULTS = List.of(
            new WeftSetting(6, 1, 1, BendingModel.DIHEDRAL),
            new WeftSetting(10, 1, 1, BendingModel.DIHEDRAL),
            new WeftSetting(6, 1, 1, BendingModel.DISTANCE),
            new WeftSetting(10, 1, 1, BendingModel.DISTANCE),
            new WeftSetting(10, 1, 1, BendingModel.ISOMETRIC),
            new WeftSetting(2, 1, 2, BendingModel.DISTANCE, true),
            new WeftSetting(3, 1, 1, BendingModel.DISTANCE, true, true));

    /** Without the stretch limits and smoothing. */
    public WeftSetting(int substeps, int iterations, int stretchPasses, BendingModel bending) {
        this(substeps, iterations, stretchPasses, bending, false, false);
    }

    /** Without the stretch smoothing. */
    public WeftSetting(int substeps, int iterations, int stretchPasses, BendingModel bending, boolean limits) {
        this(substeps, iterations, stretchPasses, bending, limits, false);
    }

    public WeftSetting {
        if (substeps < 1 || iterations < 1 || stretchPasses < 1 || bending == null) {
            throw new IllegalArgumentException("substeps, iterations and stretch passes must be >= 1, bending given");
        }
    }

    /**
     * A setting as a user writes it: {@code SxK[:BENDING[:P]][:limits][:smooth]}, e.g. {@code 5x1:distance},
     * {@code 6x1:isometric:2}, {@code 8x1:distance:limits} or {@code 7x1:distance:2:limits:smooth} (S substeps of K
     * iterations, BENDING dihedral, distance or isometric, default dihedral; P stretch passes, default 1; {@code
     * limits}: the stretch limits on; {@code smooth}: the stretch smoothing on).
     *
     * @throws IllegalArgumentException naming what is wrong and what is allowed
     */
    public static WeftSetting parse(String text) {
        String[] parts = text.trim().split(":", -1);
        boolean smoothing = parts.length > 1 && parts[parts.length - 1].equals("smooth");
        if (smoothing) {
            parts = java.util.Arrays.copyOf(parts, parts.length - 1);
        }
        boolean limits = parts.length > 1 && parts[parts.length - 1].equals("limits");
        if (limits) {
            parts = java.util.Arrays.copyOf(parts, parts.length - 1);
        }
        String[] sk = parts[0].split("x", -1);
        if (parts.length > 3 || sk.length != 2) {
            throw new IllegalArgumentException("expected SxK[:BENDING[:P]][:limits][:smooth] (e.g. 5x1:distance), got '"
                    + text + "'");
        }
        int substeps = positive(sk[0], "substeps S", text);
        int iterations = positive(sk[1], "iterations K", text);
        BendingModel bending = BendingModel.DIHEDRAL;
        if (parts.length > 1) {
            try {
                bending = BendingModel.valueOf(parts[1].toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("bending must be dihedral, distance or isometric, got '" + parts[1]
                        + "' in '" + text + "'");
            }
        }
        int passes = parts.length > 2 ? positive(parts[2], "stretch passes P", text) : 1;
        return new WeftSetting(substeps, iterations, passes, bending, limits, smoothing);
    }

    private static int positive(String number, String what, String text) {
        try {
            int value = Integer.parseInt(number);
            if (value >= 1 && value <= 1000) {
                return value;
            }
        } catch (NumberFormatException e) {
            // the message below says what is allowed
        }
        throw new IllegalArgumentException(what + " must be a whole number from 1 to 1000, got '" + number + "' in '"
                + text + "'");
    }

    /** E.g. "6x1 dihedral", "10x1 distance, 2 stretch passes", "8x1 distance, limits", "7x1 distance, limits, smooth". */
    public String label() {
        String s = substeps + "x" + iterations + " " + bending.name().toLowerCase(Locale.ROOT);
        s = stretchPasses == 1 ? s : s + ", " + stretchPasses + " stretch passes";
        s = limits ? s + ", limits" : s;
        return smoothing ? s + ", smooth" : s;
    }
}
