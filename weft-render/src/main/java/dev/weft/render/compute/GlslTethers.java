package dev.weft.render.compute;

import dev.weft.core.model.Model;
import dev.weft.core.model.TetherConstraints;

/**
 * The model's tethers (long-range attachments) in storage buffers, for the GLSL solvers that project them
 * on y + d: pairs and lengths uploaded when the model changes, and one dispatch per tether color of the
 * solver's {@code tethers.comp} program (a color's tethers share no particle, so each invocation writes
 * only its own particle's d), as {@code TetherProjection.project} does on the CPU. Modelled on
 * weft-opencl's {@code DeviceTethers}.
 */
final class GlslTethers {
    // binding points of the tethers' buffers (tethers.comp)
    private static final int PAIRS = 17;
    private static final int LENGTHS = 18;

    private final ComputeContext gl;
    private final int program;
    private final int firstAt;
    private final int countAt;
    private int[] colorStart = new int[0];
    private int colors;
    private int[] buffers = new int[0];

    /** For {@code program} (tethers.comp after the solver's y and d), whose context is current. */
    GlslTethers(ComputeContext gl, int program) {
        this.gl = gl;
        this.program = program;
        this.firstAt = ComputeContext.uniform(program, "first");
        this.countAt = ComputeContext.uniform(program, "count");
    }

    /** The tethers of {@code m} where {@code on} (else none); the context must be entered. */
    void bind(Model m, boolean on) {
        release();
        TetherConstraints t = m.tethers();
        if (!on || t.count() == 0) {
            return;
        }
        colorStart = t.colorStart();
        colors = colorStart.length - 1;
        buffers = new int[] {gl.upload(t.particles(), PAIRS), gl.upload(t.maxLength(), LENGTHS)};
    }

    /** Whether any tether is projected. */
    boolean any() {
        return colors > 0;
    }

    /** Every tether, a color per dispatch, in color order. */
    void project() {
        for (int c = 0; c < colors; c++) {
            int size = colorStart[c + 1] - colorStart[c];
            if (size > 0) {
                ComputeContext.setInt(program, firstAt, colorStart[c]);
                ComputeContext.setInt(program, countAt, size);
                ComputeContext.dispatch(program, size);
            }
        }
    }

    /** The buffers deleted (bind makes them again). */
    void release() {
        gl.delete(buffers);
        buffers = new int[0];
        colorStart = new int[0];
        colors = 0;
    }
}
