package dev.weft.bench;

import dev.weft.core.model.BendingModel;
import java.util.List;
import java.util.Locale;

/**
 * How Weft's XPBD solver runs the scene: substeps per frame, iterations per substep, sweeps over the
 * stretch constraints per iteration (1: plain XPBD, every constraint once, as Jolt does) and the bending
 * model (dihedral angles, distance constraints across two edges as Jolt's, or isometric: Bergou et al.'s
 * constant-weight curvature on the dihedral stencils).
 */
public record WeftSetting(int substeps, int iterations, int stretchPasses, BendingModel bending) {
    /**
     * The default rows: the cheapest setting that matched Jolt's strain at N = 64 (6 × 1, dihedral),
     * the same at Jolt's 10 substeps, 10 × 1 with Jolt's kind of bending, and 10 × 1 isometric (issue #17's
     * lever 1: bending at about a distance constraint's cost).
     */
    public static final List<WeftSetting> DEFAULTS = List.of(
            new WeftSetting(6, 1, 1, BendingModel.DIHEDRAL),
            new WeftSetting(10, 1, 1, BendingModel.DIHEDRAL),
            new WeftSetting(10, 1, 1, BendingModel.DISTANCE),
            new WeftSetting(10, 1, 1, BendingModel.ISOMETRIC));

    public WeftSetting {
        if (substeps < 1 || iterations < 1 || stretchPasses < 1 || bending == null) {
            throw new IllegalArgumentException("substeps, iterations and stretch passes must be >= 1, bending given");
        }
    }

    /** E.g. "6x1 dihedral", "10x1 distance, 2 stretch passes". */
    public String label() {
        String s = substeps + "x" + iterations + " " + bending.name().toLowerCase(Locale.ROOT);
        return stretchPasses == 1 ? s : s + ", " + stretchPasses + " stretch passes";
    }
}
