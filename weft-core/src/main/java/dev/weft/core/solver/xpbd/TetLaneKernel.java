package dev.weft.core.solver.xpbd;

/**
 * {@link TetProjection}'s colored Gauss–Seidel step (volume and shape solved together) for eight tetrahedra at
 * once. Within one color no two tetrahedra share a node, so eight of them can be projected side by side: their
 * corners' edges, inverse masses and multipliers are gathered into lanes, the projection's float operations run
 * lane by lane in the same order (IEEE single precision, no fused multiply-add), and the corrections are added
 * back one by one, so the results are the scalar step's bits. The implementation uses the JDK's Vector API
 * ({@code jdk.incubator.vector}) and is made only where that module is present ({@link #create}); elsewhere the
 * projection keeps its scalar loop.
 */
interface TetLaneKernel {
    /** Tetrahedra per lane step. */
    int WIDTH = 8;

    /**
     * Takes the bound model's tetrahedra: {@code tets} (4 corners each), {@code data} the per-tetrahedron values
     * of {@link TetProjection#packed()} field by field ({@link TetProjection#PACKED} fields of {@code count}
     * floats: field k of tetrahedron c at {@code k * count + c}), the multipliers (volume's at 2c, shape's at
     * 2c + 1), inverse masses, predictions y and corrections d (particle-indexed, x, y, z each). All are read at
     * each call, so a later write to them (new compliances) is seen.
     */
    void bind(int[] tets, float[] data, int count, float[] lambda, float[] invMass, float[] y, float[] d);

    /**
     * Projects the tetrahedra [begin, begin + 8 ⌊(end − begin) / 8⌋) of one color (or of a part of one) and
     * returns where it stopped: the tail, fewer than {@link #WIDTH}, is the scalar step's.
     */
    int project(int begin, int end);

    /**
     * The Vector API kernel where {@code jdk.incubator.vector} is in the boot layer (java --add-modules), else null;
     * null too with the system property {@code weft.noSimd=true} (the scalar loop, for comparison).
     */
    static TetLaneKernel create() {
        if (Boolean.getBoolean("weft.noSimd") || ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            return null;
        }
        try {
            return (TetLaneKernel) Class.forName("dev.weft.core.solver.xpbd.VectorTetKernel")
                    .getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError e) {
            return null; // the module is there but unusable (another JDK's API): the scalar loop stays
        }
    }
}
