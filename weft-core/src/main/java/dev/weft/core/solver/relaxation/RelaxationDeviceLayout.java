package dev.weft.core.solver.relaxation;

import dev.weft.core.model.DistanceConstraints;
import dev.weft.core.model.DistanceKind;
import dev.weft.core.model.Model;
import dev.weft.core.step.VerletKeep;

/**
 * The host side of {@link RelaxationSolver} on a device, for one model: which distance constraints seed
 * 002 relaxes (all but BEND, as a flag per constraint in storage order), the colors' launches, and per
 * step length h each particle's Verlet share kept (PositionStep's factor for {@code Damping.VERLET}),
 * computed as the CPU solver computes them so that a device uploads the same values.
 */
public final class RelaxationDeviceLayout {
    private final int[] relaxed;
    private final int[] colorStart;
    private final VerletKeep keep;

    public RelaxationDeviceLayout(Model m) {
        DistanceConstraints d = m.distances();
        relaxed = new int[d.count()];
        byte bend = DistanceKind.BEND.code();
        for (int c = 0; c < relaxed.length; c++) {
            relaxed[c] = d.kind()[c] != bend ? 1 : 0;
        }
        colorStart = d.colorStart();
        keep = new VerletKeep(m);
    }

    /** Per distance constraint: 1 where it is relaxed (structural, shear), 0 for BEND (seed 002 has no bending). */
    public int[] relaxed() {
        return relaxed;
    }

    /** The model's distance colors: color c is constraints [colorStart[c], colorStart[c + 1]). */
    public int[] colorStart() {
        return colorStart;
    }

    /**
     * Computes each particle's Verlet share kept over a step of {@code h} unless it is h's already; true when
     * it computed, so the backend uploads {@link #keep()} again.
     */
    public boolean prepare(float h) {
        return keep.prepare(h);
    }

    /** Each particle's Verlet share kept over a step; by {@link #prepare}. */
    public float[] keep() {
        return keep.keep();
    }
}
