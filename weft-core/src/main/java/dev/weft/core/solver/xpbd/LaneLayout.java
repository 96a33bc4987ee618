package dev.weft.core.solver.xpbd;

import dev.weft.core.model.Model;
import dev.weft.core.model.ModelObject;
import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;
import java.util.Arrays;

/**
 * Where XPBD's colored distance sweep in vector lanes keeps particles (their index in the axis arrays) and in
 * which order it takes each color's constraints. In a grid cloth's row-major order a horizontal color (the edges
 * (c, c + 1) of one parity of c) has its first particles two apart, and a horizontal skip color (c, c + 2)
 * pairs of them four apart, which eight lanes cannot load at once; the vertical, diagonal and vertical skip colors
 * have them one apart. Keeping each grid row's columns by their residue mod 4, one block per residue
 * ({@link #residueRows}), puts a horizontal color's first particles one apart within a block, each at a fixed
 * offset from its second; the vertical and diagonal colors stay runs once each color's constraints are taken in
 * the order of their first particle's new place ({@link #order}).
 *
 * <p>Reordering changes no result: the constraints of one color share no particle, so each one's projection
 * reads and writes what no other in its color touches, in any order (the solver's bits are the same).
 */
final class LaneLayout {
    /**
     * Columns are kept by their residue mod 4: a horizontal edge color (c, c + 1) and a horizontal skip color
     * (c, c + 2) take every second or every fourth column, and each residue class is one block.
     */
    static final int CLASSES = 4;
    /** Particle p's index in the axis arrays. */
    final int[] slot;

    private LaneLayout(int[] slot) {
        this.slot = slot;
    }

    /**
     * Every row of every grid cloth of {@code m} by column residue mod {@link #CLASSES} (other particles where
     * they are); null when the model has no grid cloth.
     */
    static LaneLayout residueRows(Model m) {
        int n = m.particleCount();
        int[] slot = null;
        for (ModelObject o : m.objects()) {
            if (!o.isGrid() || o.gridCols() < 2 || o.gridParticle(o.gridRows() - 1, o.gridCols() - 1) >= n) {
                continue;
            }
            if (slot == null) {
                slot = new int[n];
                for (int p = 0; p < n; p++) {
                    slot[p] = p;
                }
            }
            int cols = o.gridCols();
            // the columns of each residue class mod CLASSES, one block after another
            int[] blockStart = new int[CLASSES];
            for (int j = 1; j < CLASSES; j++) {
                blockStart[j] = blockStart[j - 1] + (cols - (j - 1) + CLASSES - 1) / CLASSES;
            }
            for (int r = 0; r < o.gridRows(); r++) {
                int row = o.gridParticle(r, 0);
                for (int c = 0; c < cols; c++) {
                    slot[row + c] = row + blockStart[c % CLASSES] + c / CLASSES;
                }
            }
        }
        return slot == null ? null : new LaneLayout(slot);
    }

    /** The per-particle values {@code perParticle} at their slots. */
    float[] atSlots(float[] perParticle) {
        float[] out = new float[perParticle.length];
        for (int p = 0; p < perParticle.length; p++) {
            out[slot[p]] = perParticle[p];
        }
        return out;
    }

    /** Distance constraints in the lanes' storage order ({@link #order}). */
    static final class Ordered {
        /** Two particles per constraint. */
        final int[] pairs;
        /** The same pairs as slots: what the lanes index the axis arrays with. */
        final int[] slotted;
        final float[] rest;
        final byte[] kind;
        final float[] stiffness;
        /** Per constraint the exclusive end of the run of {@code slotted} it lies in, or −1 ({@link XpbdSolver#runs}). */
        final int[] runEnd;
        /** Constraints in runs. */
        final int inRuns;

        private Ordered(int[] pairs, int[] slotted, float[] rest, byte[] kind, float[] stiffness, int[] runEnd,
                        int inRuns) {
            this.pairs = pairs;
            this.slotted = slotted;
            this.rest = rest;
            this.kind = kind;
            this.stiffness = stiffness;
            this.runEnd = runEnd;
            this.inRuns = inRuns;
        }
    }

    /**
     * The distance constraints ({@code pairs} and their per-constraint values, colored by {@code colorStart}), each
     * color's in the order of its first particles' slots (unique within a color): placed at their slot and read back
     * in slot order, no sort, straight into the reordered arrays, with the runs of at least {@code minRun} found as
     * each color is written. The colors are shared out over the pool's threads by constraint count (each writes
     * only its colors' ranges, so the result is the same on any number of threads); a rebind after every tear pays
     * for this.
     */
    Ordered order(int[] pairs, float[] rest, byte[] kind, float[] stiffness, int[] colorStart, int minRun,
                  WorkerPool pool) {
        int count = rest.length;
        int[] ordered = new int[2 * count];
        int[] slotted = new int[2 * count];
        float[] restOut = new float[count];
        byte[] kindOut = new byte[count];
        float[] stiffnessOut = new float[count];
        int[] runEnd = new int[count];
        int colors = colorStart.length - 1;
        int[] inRunsOfColor = new int[colors];
        int shares = pool.threads();
        RangeBody share = (from, to) -> {
            int[] atSlot = new int[slot.length];
            Arrays.fill(atSlot, -1);
            for (int part = from; part < to; part++) {
                // the colors whose first constraint lies in this share of the constraints
                long lo = (long) count * part / shares;
                long hi = (long) count * (part + 1) / shares;
                for (int color = 0; color < colors; color++) {
                    if (colorStart[color] >= lo && colorStart[color] < hi) {
                        inRunsOfColor[color] = orderColor(pairs, rest, kind, stiffness, colorStart[color],
                                colorStart[color + 1], atSlot, ordered, slotted, restOut, kindOut, stiffnessOut, minRun,
                                runEnd);
                    }
                }
            }
        };
        pool.parallelFor(0, shares, 1, share);
        int inRuns = 0;
        for (int r : inRunsOfColor) {
            inRuns += r;
        }
        return new Ordered(ordered, slotted, restOut, kindOut, stiffnessOut, runEnd, inRuns);
    }

    /** One color [from, to) of {@link #order}; returns its constraints in runs. {@code atSlot} is all −1, and is left so. */
    private int orderColor(int[] pairs, float[] rest, byte[] kind, float[] stiffness, int from, int to, int[] atSlot,
                           int[] ordered, int[] slotted, float[] restOut, byte[] kindOut, float[] stiffnessOut,
                           int minRun, int[] runEnd) {
        int low = atSlot.length;
        int high = -1;
        for (int c = from; c < to; c++) {
            int s = slot[pairs[2 * c]];
            atSlot[s] = c;
            low = Math.min(low, s);
            high = Math.max(high, s);
        }
        int k = from;
        for (int s = low; s <= high; s++) {
            int c = atSlot[s];
            if (c >= 0) {
                atSlot[s] = -1;
                int a = pairs[2 * c];
                int b = pairs[2 * c + 1];
                ordered[2 * k] = a;
                ordered[2 * k + 1] = b;
                slotted[2 * k] = slot[a];
                slotted[2 * k + 1] = slot[b];
                restOut[k] = rest[c];
                kindOut[k] = kind[c];
                stiffnessOut[k] = stiffness[c];
                k++;
            }
        }
        return XpbdSolver.runsOfColor(slotted, from, to, minRun, runEnd);
    }
}
