package dev.weft.render.compute;

import dev.weft.core.model.BendingConstraints;
import dev.weft.core.model.Model;
import dev.weft.core.solver.xpbd.XpbdDeviceLayout;

/**
 * The model's bending stencils (dihedral and isometric) in storage buffers, for {@link GlslXpbdSolver}'s
 * colored mode: one dispatch per stencil color of {@code xpbd_bending.comp}, after each iteration's
 * distance passes as {@code XpbdSolver.sweepBending} does. A model whose stencils are all isometric takes
 * the {@code ISOMETRIC} program (the CPU's inlined {@code projectIsometricRange}), any other the plain one
 * ({@code projectStencil}: each stencil by its own model). The stencils, their models (after the stencils,
 * in the same buffer), the isometric weights and the rest angles are uploaded when the model changes; the
 * compliances over h² when h changes ({@link XpbdDeviceLayout#bendingCompliances()}); the multipliers are
 * cleared every step. Modelled on weft-opencl's bending launches in {@code OpenClXpbdSolver}.
 */
final class GlslBending {
    // binding points of the bending buffers (xpbd_bending.comp)
    private static final int STENCILS = 19;
    private static final int WEIGHTS = 20;
    private static final int REST = 21;
    private static final int COMPLIANCES = 22;
    private static final int MULTIPLIERS = 23;

    private final ComputeContext gl;
    private final int stencilProgram;
    private final int isometricProgram;
    private final int[] firstAt = new int[2];
    private final int[] countAt = new int[2];
    private final int totalAt;
    private final int anyIsometricAt;

    private XpbdDeviceLayout layout;
    private int count;
    private int[] buffers = new int[0];
    private int alphaBuffer;
    private int lambdaBuffer;

    /** For the two programs from {@code xpbd_bending.comp} (plain and ISOMETRIC), whose context is current. */
    GlslBending(ComputeContext gl, int stencilProgram, int isometricProgram) {
        this.gl = gl;
        this.stencilProgram = stencilProgram;
        this.isometricProgram = isometricProgram;
        int[] programs = {stencilProgram, isometricProgram};
        for (int k = 0; k < 2; k++) {
            firstAt[k] = ComputeContext.uniform(programs[k], "first");
            countAt[k] = ComputeContext.uniform(programs[k], "count");
        }
        totalAt = ComputeContext.uniform(stencilProgram, "total");
        anyIsometricAt = ComputeContext.uniform(stencilProgram, "anyIsometric");
    }

    /** The stencils of {@code m} as {@code layout} colors them; the context must be entered. */
    void bind(Model m, XpbdDeviceLayout layout) {
        release();
        this.layout = layout;
        count = layout.bendingCount();
        if (count == 0) {
            return;
        }
        BendingConstraints b = m.bending();
        // the stencils' four particles, then each stencil's model (read only where some stencil is isometric)
        int[] stencils = b.particles();
        int[] packed = new int[5 * count];
        System.arraycopy(stencils, 0, packed, 0, 4 * count);
        System.arraycopy(layout.bendingModels(), 0, packed, 4 * count, count);
        alphaBuffer = gl.buffer(4L * count, COMPLIANCES);
        lambdaBuffer = gl.buffer(4L * count, MULTIPLIERS);
        buffers = new int[] {
            gl.upload(packed, STENCILS),
            // the isometric weights K (zero for dihedral stencils), only where some stencil needs them
            layout.anyIsometric() ? gl.upload(m.isometricWeights(), WEIGHTS) : gl.buffer(4L, WEIGHTS),
            gl.upload(b.restAngle(), REST),
            alphaBuffer, lambdaBuffer,
        };
        ComputeContext.setInt(stencilProgram, totalAt, count);
        ComputeContext.setInt(stencilProgram, anyIsometricAt, layout.anyIsometric() ? 1 : 0);
    }

    /** Whether the model has stencils. */
    boolean any() {
        return count > 0;
    }

    /** The compliances over h², after {@link XpbdDeviceLayout#prepare} computed them for a new h. */
    void uploadCompliances() {
        if (count > 0) {
            ComputeContext.write(alphaBuffer, layout.bendingCompliances());
        }
    }

    /** The multipliers set to zero, as every step begins (XpbdSolver.iterate). */
    void clearMultipliers() {
        if (count > 0) {
            ComputeContext.clear(lambdaBuffer, count);
        }
    }

    /** Every stencil, a color per dispatch, in color order (XpbdSolver.sweepBending, colored). */
    void project() {
        if (count == 0) {
            return;
        }
        // as XpbdSolver.projectBendingRange: all isometric takes the inlined pass, else a choice per stencil
        int k = layout.allIsometric() ? 1 : 0;
        int program = k == 1 ? isometricProgram : stencilProgram;
        int[] start = layout.bendingColorStart();
        for (int c = 0; c + 1 < start.length; c++) {
            int size = start[c + 1] - start[c];
            if (size > 0) {
                ComputeContext.setInt(program, firstAt[k], start[c]);
                ComputeContext.setInt(program, countAt[k], size);
                ComputeContext.dispatch(program, size);
            }
        }
    }

    /** The buffers deleted (bind makes them again). */
    void release() {
        gl.delete(buffers);
        buffers = new int[0];
        alphaBuffer = lambdaBuffer = 0;
        count = 0;
        layout = null;
    }
}
