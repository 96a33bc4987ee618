package dev.weft.core.solver.xpbd;

/**
 * XPBD's distance projection on positions held one array per coordinate (structure of arrays), so that a run
 * of constraints whose first particles are consecutive, each to the particle a fixed offset away (a lattice
 * color's row: vertical, diagonal and skip edges), loads eight neighbours per instruction. The arithmetic per
 * constraint is {@link XpbdSolver}'s, lane by lane in IEEE single precision, so the results are the scalar
 * path's bits. The implementation uses the JDK's Vector API ({@code jdk.incubator.vector}) and is made only
 * where that module is present ({@link #create}); elsewhere the solver keeps its scalar loops.
 */
interface SoaDistanceKernel {
    /**
     * Takes the bound model's constraints: {@code pairs} (a, b per constraint), rest lengths, inverse masses,
     * α/h² and multipliers per constraint (the arrays the solver keeps; read at each call), and
     * {@code runEnd}: per constraint the exclusive end of the run it starts or lies in, or −1 outside runs.
     */
    void bind(int[] pairs, float[] rest, float[] invMass, float[] alpha, float[] lambda, int[] runEnd);

    /** The positions' coordinates: predicted y and corrections d, one array per axis, particle-indexed. */
    void positions(float[] yx, float[] yy, float[] yz, float[] dx, float[] dy, float[] dz);

    /** Zero compliance (the λ-free update) over constraints [begin, end) of one color. */
    void rigid(int begin, int end);

    /** The multiplier update over constraints [begin, end) of one color. */
    void compliant(int begin, int end);

    /** {@link #compliant} with each multiplier step halved (the stretch smoothing's pass). */
    void compliantHalf(int begin, int end);

    /**
     * One-sided limits over constraints [begin, end) of one color, the rest lengths being the most each chord may
     * be: {@link StretchLimits#projectRange}'s arithmetic (a chord within its limit moves nothing).
     */
    void limit(int begin, int end);

    /**
     * Takes the tethers by slot: {@code anchorSlot[s]} the slot of slot s's pinned anchor ({@code s} itself for none)
     * and {@code maxLength[s]} its length ({@link Float#MAX_VALUE} for none); one tether per particle at most.
     */
    void bindTethers(int[] anchorSlot, float[] maxLength);

    /**
     * The tethers of slots [begin, end): {@link dev.weft.core.solver.TetherProjection#projectRange}'s arithmetic on
     * the axis arrays (a slot without a tether keeps its correction).
     */
    void tethers(int begin, int end);

    /**
     * The Vector API kernel where {@code jdk.incubator.vector} is in the boot layer (java --add-modules), else null;
     * null too with the system property {@code weft.noSimd=true} (the scalar loops, for comparison).
     */
    static SoaDistanceKernel create() {
        if (Boolean.getBoolean("weft.noSimd") || ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            return null;
        }
        try {
            return (SoaDistanceKernel) Class.forName("dev.weft.core.solver.xpbd.VectorDistanceKernel")
                    .getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError e) {
            return null; // the module is there but unusable (another JDK's API): the scalar loops stay
        }
    }
}
