package dev.weft.core.solver.xpbd;

import dev.weft.core.model.Model;
import dev.weft.core.model.ModelObject;

/**
 * Where XPBD's colored distance sweep in vector lanes keeps particles (their index in the axis arrays) and in
 * which order it takes each color's constraints. In a grid cloth's row-major order a horizontal color (the edges
 * (c, c + 1) of one parity of c) has its first particles two apart, and a horizontal skip color (c, c + 2)
 * pairs of them four apart, which eight lanes cannot load at once; the vertical, diagonal and vertical skip colors
 * have them one apart. Keeping each grid row's columns by their residue mod 4, one block per residue
 * ({@link #residueRows}), puts a horizontal color's first particles one apart within a block, each at a fixed
 * offset from its second; the vertical and diagonal colors stay runs once each color's constraints are taken in
 * the order of their first particle's new place ({@link #constraintOrder}).
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
    /** Particle p's index in the axis arrays, or null for p itself. */
    final int[] slot;
    /** Position k of the solver's constraint storage holds the model's constraint {@code constraintOrder[k]}. */
    final int[] constraintOrder;

    private LaneLayout(int[] slot, int[] constraintOrder) {
        this.slot = slot;
        this.constraintOrder = constraintOrder;
    }

    /**
     * Every row of every grid cloth of {@code m} by column residue mod {@link #CLASSES} (other particles where
     * they are), and each color's constraints ({@code pairs}, colored by {@code colorStart}) by their first particle's
     * slot; null when the model has no grid cloth.
     */
    static LaneLayout residueRows(Model m, int[] pairs, int[] colorStart) {
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
        if (slot == null) {
            return null;
        }
        // each color's constraints by their first particle's slot, which is unique within a color: placed at
        // their slot and read back in slot order (no sort: a rebind after every tear pays for this)
        int count = pairs.length / 2;
        int[] order = new int[count];
        int[] atSlot = new int[n];
        java.util.Arrays.fill(atSlot, -1);
        for (int color = 0; color + 1 < colorStart.length; color++) {
            int from = colorStart[color];
            int to = colorStart[color + 1];
            int low = n;
            int high = -1;
            for (int c = from; c < to; c++) {
                int s = slot[pairs[2 * c]];
                atSlot[s] = c;
                low = Math.min(low, s);
                high = Math.max(high, s);
            }
            int k = from;
            for (int s = low; s <= high; s++) {
                if (atSlot[s] >= 0) {
                    order[k++] = atSlot[s];
                    atSlot[s] = -1;
                }
            }
        }
        return new LaneLayout(slot, order);
    }

    /** The per-particle values {@code perParticle} at their slots. */
    float[] atSlots(float[] perParticle) {
        float[] out = new float[perParticle.length];
        for (int p = 0; p < perParticle.length; p++) {
            out[slot[p]] = perParticle[p];
        }
        return out;
    }

    /**
     * The model's constraint pairs in storage order into {@code ordered}, and the same with their particles as
     * slots (what the lanes index the axis arrays with) into {@code slotted}: one pass.
     */
    void orderPairs(int[] pairs, int[] ordered, int[] slotted) {
        for (int k = 0; k < constraintOrder.length; k++) {
            int c = constraintOrder[k];
            int a = pairs[2 * c];
            int b = pairs[2 * c + 1];
            ordered[2 * k] = a;
            ordered[2 * k + 1] = b;
            slotted[2 * k] = slot[a];
            slotted[2 * k + 1] = slot[b];
        }
    }

    /** Three per-constraint arrays of the model into storage order, one pass ({@code out} arrays sized as theirs). */
    void order(float[] rest, float[] restOut, byte[] kind, byte[] kindOut, float[] stiffness, float[] stiffnessOut) {
        for (int k = 0; k < constraintOrder.length; k++) {
            int c = constraintOrder[k];
            restOut[k] = rest[c];
            kindOut[k] = kind[c];
            stiffnessOut[k] = stiffness[c];
        }
    }
}
