package dev.weft.render.compute;

import dev.weft.core.model.Model;
import dev.weft.core.solver.xpbd.XpbdDeviceLayout;

/**
 * The soft bodies' tetrahedra in storage buffers, for {@link GlslXpbdSolver}'s colored mode: one dispatch per
 * tetrahedron color of {@code xpbd_tets.comp} (TetProjection's coupled volume and shape step), after each
 * iteration's bending colors as {@code XpbdSolver.sweep} does. The corners are uploaded when the model changes
 * (a model a tear edited is another model, bound again); the packed rest values and compliances the CPU's own
 * pass computed ({@link XpbdDeviceLayout#tetPacked()}) when h changes; the two multipliers per tetrahedron are
 * cleared every step. Modelled on weft-opencl's tetrahedron launches in {@code OpenClXpbdSolver}.
 */
final class GlslTets {
    // binding points of the tetrahedra's buffers (xpbd_tets.comp; 24-29 are the renderer's, DeviceSurface)
    private static final int CORNERS = 30;
    private static final int PACKED = 31;
    private static final int MULTIPLIERS = 32;

    private final ComputeContext gl;
    private final int program;
    private final int firstAt;
    private final int countAt;

    private XpbdDeviceLayout layout;
    private int count;
    private int[] buffers = new int[0];
    private int packedBuffer;
    private int lambdaBuffer;

    /** For {@code program} (xpbd_tets.comp after xpbd.glsl), whose context is current. */
    GlslTets(ComputeContext gl, int program) {
        this.gl = gl;
        this.program = program;
        this.firstAt = ComputeContext.uniform(program, "first");
        this.countAt = ComputeContext.uniform(program, "count");
    }

    /** The tetrahedra of {@code m} as {@code layout} colors and packs them; the context must be entered. */
    void bind(Model m, XpbdDeviceLayout layout) {
        release();
        this.layout = layout;
        count = layout.tetCount();
        if (count == 0) {
            return;
        }
        packedBuffer = gl.buffer(4L * XpbdDeviceLayout.TET_PACKED * count, PACKED); // written with h's α̃
        lambdaBuffer = gl.buffer(8L * count, MULTIPLIERS);
        buffers = new int[] {gl.upload(m.tets().particles(), CORNERS), packedBuffer, lambdaBuffer};
    }

    /** Whether the model has tetrahedra. */
    boolean any() {
        return count > 0;
    }

    /** The packed rest values and compliances, after {@link XpbdDeviceLayout#prepare} computed them for a new h. */
    void uploadPacked() {
        if (count > 0) {
            ComputeContext.write(packedBuffer, layout.tetPacked());
        }
    }

    /** The multipliers set to zero, as every step begins (TetProjection.begin). */
    void clearMultipliers() {
        if (count > 0) {
            ComputeContext.clear(lambdaBuffer, 2 * count);
        }
    }

    /** Every tetrahedron, a color per dispatch, in color order (TetProjection.sweep, colored). */
    void project() {
        if (count == 0) {
            return;
        }
        int[] start = layout.tetColorStart();
        for (int c = 0; c + 1 < start.length; c++) {
            int size = start[c + 1] - start[c];
            if (size > 0) {
                ComputeContext.setInt(program, firstAt, start[c]);
                ComputeContext.setInt(program, countAt, size);
                ComputeContext.dispatch(program, size);
            }
        }
    }

    /** The buffers deleted (bind makes them again). */
    void release() {
        gl.delete(buffers);
        buffers = new int[0];
        packedBuffer = lambdaBuffer = 0;
        count = 0;
        layout = null;
    }
}
