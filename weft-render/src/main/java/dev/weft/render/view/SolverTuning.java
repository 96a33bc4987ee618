package dev.weft.render.view;

import dev.weft.core.solver.pd.InnerSolver;
import dev.weft.core.solver.xpbd.IterationMode;

/**
 * The panel's choices beyond the solver's name: XPBD's iteration mode, Projective Dynamics' inner solver
 * and relaxation factor ω. Each null keeps the scene's (or the command's) own.
 */
public record SolverTuning(IterationMode mode, InnerSolver inner, Float omega) {
    /** Everything as the scene has it. */
    public static final SolverTuning SCENE = new SolverTuning(null, null, null);

    public SolverTuning withMode(IterationMode m) {
        return new SolverTuning(m, inner, omega);
    }

    public SolverTuning withInner(InnerSolver s) {
        return new SolverTuning(mode, s, omega);
    }

    public SolverTuning withOmega(Float w) {
        return new SolverTuning(mode, inner, w);
    }
}
