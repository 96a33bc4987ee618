package dev.weft.core.solver.xpbd;

import dev.weft.core.model.BendingConstraints;
import dev.weft.core.model.DistanceConstraints;
import dev.weft.core.model.DistanceKind;
import dev.weft.core.model.Incidence;
import dev.weft.core.model.MaterialParameters;
import dev.weft.core.model.Model;

/**
 * The host side of {@link XpbdSolver} on a device (OpenCL, GLSL compute), for one model: the colors of the
 * distance constraints, the stretch constraints grouped by color (XpbdSolver.bindStretchOrder) with where
 * each color's extra stretch pass starts, the bending stencils' colors, in {@link IterationMode#JACOBI} the
 * weights each constraint's corrections share ({@link JacobiGather#sharedWeights}), the soft bodies'
 * tetrahedra (their colors and, from {@link TetProjection} itself, the packed rest values the coupled
 * volume–shape step reads), and, per step length h, the compliances over h² of the distance constraints (and
 * which colors are all rigid), of the bending stencils and of the tetrahedra, and PositionStep's damping
 * factors for {@code Damping.AFTER} — computed here in the CPU solver's float operations, so every backend
 * uploads the same values.
 */
public final class XpbdDeviceLayout {
    /** The floats per tetrahedron in {@link #tetPacked()}. */
    public static final int TET_PACKED = TetProjection.PACKED;
    private final boolean rigidSetting;
    private final int count;
    private final int colors;
    private final int[] colorStart;
    private final byte[] kind;
    private final float[] stiffness;
    private final int[] stretchOrder;
    private final int[] stretchColorStart;
    private final boolean[] stretchContiguous;
    private final int[] stretchFirst;
    private final boolean[] colorRigid;
    private final float[] alpha;
    private final float[] rate;
    private final float[] damp;
    private final int bendCount;
    private final int[] bendColorStart;
    private final float[] hingeStiffness;
    private final float[] bendAlpha;
    private final int[] bendModels;
    private final boolean anyIsometric;
    private final boolean allIsometric;
    private final int[] stretchFlags;
    private final float[] distanceWeights;
    private final float[] bendingWeights;
    private final int tetCount;
    private final int[] tetColorStart;
    /** The CPU's own tetrahedron pass, for its packed rest values and α̃ (null without tetrahedra). */
    private final TetProjection tetPass;
    /** Jacobi mode: the particle → tetrahedron-corner incidence TetProjection gathers over, and its weights. */
    private final Incidence tetIncidence;
    private final float[] tetWeights;
    private float preparedStep = Float.NaN;

    /** {@code m}'s layout under {@code settings} (its {@link XpbdSettings#rigid()} and mode). */
    public XpbdDeviceLayout(Model m, XpbdSettings settings) {
        DistanceConstraints dc = m.distances();
        rigidSetting = settings.rigid();
        count = dc.count();
        colorStart = dc.colorStart();
        colors = colorStart.length - 1;
        kind = dc.kind();
        stiffness = m.distanceStiffness();
        alpha = new float[count];
        colorRigid = new boolean[colors];
        stretchColorStart = new int[colors + 1];
        stretchContiguous = new boolean[colors];
        stretchOrder = groupStretches();
        stretchFirst = new int[colors];
        for (int c = 0; c < colors; c++) {
            int from = stretchColorStart[c];
            stretchFirst[c] = stretchContiguous[c] && from < stretchOrder.length ? stretchOrder[from] : from;
        }
        rate = MaterialParameters.particleDamping(m);
        damp = new float[m.particleCount()];
        BendingConstraints b = m.bending();
        bendCount = b.count();
        bendColorStart = b.colorStart();
        hingeStiffness = m.hingeStiffness();
        bendAlpha = new float[bendCount];
        bendModels = new int[bendCount];
        byte[] models = b.models();
        for (int c = 0; c < bendCount; c++) {
            bendModels[c] = models[c];
        }
        anyIsometric = b.anyIsometric();
        allIsometric = b.allIsometric();
        stretchFlags = new int[count];
        for (int c = 0; c < count; c++) {
            stretchFlags[c] = kind[c] == DistanceKind.STRETCH.code() ? 1 : 0;
        }
        boolean jacobi = settings.mode() == IterationMode.JACOBI;
        distanceWeights = jacobi ? new JacobiGather(dc.particles(), m.distanceIncidence()).sharedWeights() : null;
        bendingWeights = jacobi ? new JacobiGather(b.particles(), m.bendingIncidence()).sharedWeights() : null;
        tetCount = m.tets().count();
        tetColorStart = m.tets().colorStart();
        // colored: the pass only computes (no positions bound, no pool needed); it is never swept here
        tetPass = tetCount > 0 ? new TetProjection(m, null, null, m.invMass(), IterationMode.COLORED, null) : null;
        // as TetProjection builds its gather in Jacobi mode
        tetIncidence = jacobi && tetCount > 0 ? Incidence.of(m.tets().particles(), 4, m.particleCount()) : null;
        tetWeights = tetIncidence != null ? new JacobiGather(m.tets().particles(), tetIncidence).sharedWeights()
                : null;
    }

    /**
     * XpbdSolver.bindStretchOrder: the stretch constraints grouped by color (into {@link #stretchColorStart}),
     * and per color whether they are one run of the storage; returns the order.
     */
    private int[] groupStretches() {
        int stretches = 0;
        for (int c = 0; c < count; c++) {
            stretches += kind[c] == DistanceKind.STRETCH.code() ? 1 : 0;
        }
        int[] order = new int[stretches];
        int k = 0;
        for (int color = 0; color < colors; color++) {
            stretchColorStart[color] = k;
            for (int c = colorStart[color]; c < colorStart[color + 1]; c++) {
                if (kind[c] == DistanceKind.STRETCH.code()) {
                    order[k++] = c;
                }
            }
        }
        stretchColorStart[colors] = k;
        for (int color = 0; color < colors; color++) {
            boolean run = true;
            for (int j = stretchColorStart[color] + 1; j < stretchColorStart[color + 1] && run; j++) {
                run = order[j] == order[j - 1] + 1;
            }
            stretchContiguous[color] = run;
        }
        return order;
    }

    /**
     * Computes the compliances over h² (and which colors are all rigid) and the damping factors for h =
     * {@code dt} unless they are h's already; true when it computed, so the backend uploads {@link
     * #compliances()} and {@link #damping()} again.
     */
    public boolean prepare(float dt) {
        if (dt == preparedStep) {
            return false;
        }
        float invH2 = 1f / (dt * dt);
        for (int c = 0; c < count; c++) {
            boolean rigid = rigidSetting && kind[c] != DistanceKind.BEND.code();
            alpha[c] = rigid ? 0f : Math.min(compliance(stiffness[c]) * invH2, Float.MAX_VALUE);
        }
        for (int k = 0; k < colors; k++) {
            boolean rigid = true;
            for (int c = colorStart[k]; c < colorStart[k + 1] && rigid; c++) {
                rigid = alpha[c] == 0f;
            }
            colorRigid[k] = rigid;
        }
        for (int c = 0; c < bendCount; c++) {
            bendAlpha[c] = Math.min(compliance(hingeStiffness[c]) * invH2, Float.MAX_VALUE);
        }
        for (int i = 0; i < damp.length; i++) {
            damp[i] = Math.max(0f, 1f - rate[i] * dt);
        }
        if (tetPass != null) {
            tetPass.begin(dt); // α̃ of volume and shape into the packed stream, as XpbdSolver's step begins
        }
        preparedStep = dt;
        return true;
    }

    /** 1/k, with 0 for a rigid (infinite) stiffness and +∞ for none (as XpbdSolver). */
    private static float compliance(float k) {
        return k == Float.POSITIVE_INFINITY ? 0f : 1f / k;
    }

    /** How many distance constraints. */
    public int count() {
        return count;
    }

    /** How many colors. */
    public int colors() {
        return colors;
    }

    /** Where color c's constraints start in storage: {@code colorStart()[c]} to {@code colorStart()[c + 1]}. */
    public int[] colorStart() {
        return colorStart;
    }

    /** The stretch constraints' indices, grouped by color. */
    public int[] stretchOrder() {
        return stretchOrder;
    }

    /** Where color c's stretch constraints start in {@link #stretchOrder()}, one past the last color's at the end. */
    public int[] stretchColorStart() {
        return stretchColorStart;
    }

    /** Per color: its stretch constraints are one run of the storage (XpbdSolver sweeps those in place). */
    public boolean[] stretchContiguous() {
        return stretchContiguous;
    }

    /**
     * Per color: the first index of its extra stretch pass, in storage where {@link #stretchContiguous()},
     * else in {@link #stretchOrder()}.
     */
    public int[] stretchFirst() {
        return stretchFirst;
    }

    /** Per color: every constraint in it has zero compliance (XpbdSolver's multiplier-free pass); by prepare. */
    public boolean[] colorRigid() {
        return colorRigid;
    }

    /** The compliances over h², per constraint; by {@link #prepare}. */
    public float[] compliances() {
        return alpha;
    }

    /** The damping factors, per particle; by {@link #prepare}. */
    public float[] damping() {
        return damp;
    }

    /** How many bending stencils. */
    public int bendingCount() {
        return bendCount;
    }

    /** Where bending color c's stencils start in storage: {@code bendingColorStart()[c]} to {@code [c + 1]}. */
    public int[] bendingColorStart() {
        return bendColorStart;
    }

    /** The bending stencils' compliances over h² (from the material's hinge stiffness); by {@link #prepare}. */
    public float[] bendingCompliances() {
        return bendAlpha;
    }

    /** Per stencil (storage order) {@link BendingConstraints#DIHEDRAL} or {@link BendingConstraints#ISOMETRIC}. */
    public int[] bendingModels() {
        return bendModels;
    }

    /** Whether some stencil is isometric (the model's {@code isometricWeights()} are then needed). */
    public boolean anyIsometric() {
        return anyIsometric;
    }

    /**
     * Whether every stencil is isometric: XpbdSolver's colored mode then takes its inlined isometric pass
     * (projectIsometricRange, its own sum order), not the per-stencil choice.
     */
    public boolean allIsometric() {
        return allIsometric;
    }

    /** Per distance constraint: 1 where it is a stretch constraint (Jacobi's extra stretch passes), else 0. */
    public int[] stretchFlags() {
        return stretchFlags;
    }

    /**
     * Jacobi mode: per distance constraint, the weight both its particles' corrections share (1 / the larger
     * of their constraint counts); null in the other modes.
     */
    public float[] distanceJacobiWeights() {
        return distanceWeights;
    }

    /** Jacobi mode: per bending stencil, the weight its four corrections share; null in the other modes. */
    public float[] bendingJacobiWeights() {
        return bendingWeights;
    }

    /** How many tetrahedra (soft bodies' volume and shape, {@code Model.tets()}). */
    public int tetCount() {
        return tetCount;
    }

    /** Where tetrahedron color c starts in storage: {@code tetColorStart()[c]} to {@code [c + 1]}. */
    public int[] tetColorStart() {
        return tetColorStart;
    }

    /**
     * Per tetrahedron, {@link #TET_PACKED} floats: D_m⁻¹ row by row (9), Green's strain of the rest shape as
     * the projection computes it (xx, yy, zz, xy, yz, zx), 6 V₀, and α̃ of volume and shape (Float.MAX_VALUE for
     * an absent one) for the h of the last {@link #prepare}: what XpbdSolver's colored pass reads, the same
     * bits (its own code computed them); empty without tetrahedra.
     */
    public float[] tetPacked() {
        return tetPass == null ? new float[0] : tetPass.packed();
    }

    /**
     * Jacobi mode with tetrahedra: per particle its tetrahedron corners (slot 4c + k: corner k of tetrahedron
     * c), in the order TetProjection's gather sums them; null otherwise.
     */
    public Incidence tetIncidence() {
        return tetIncidence;
    }

    /** Jacobi mode with tetrahedra: per tetrahedron, the weight its corners' corrections share; null otherwise. */
    public float[] tetJacobiWeights() {
        return tetWeights;
    }
}
