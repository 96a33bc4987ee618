package dev.weft.core.solver.xpbd;

import dev.weft.core.parallel.WorkerPool;

/** Solvers made with the vector lanes or without them, for tests that hold the two paths to the same bits. */
final class LaneChoice {
    private LaneChoice() {
    }

    /**
     * A solver with the lanes (where the JVM has the Vector API module, as the tests run) or without them: the
     * property the kernels' factories read while the solver is made, restored afterwards.
     */
    static XpbdSolver solver(XpbdSettings s, WorkerPool pool, boolean lanes) {
        String before = System.getProperty("weft.noSimd");
        System.setProperty("weft.noSimd", Boolean.toString(!lanes));
        try {
            return new XpbdSolver(s, pool);
        } finally {
            if (before == null) {
                System.clearProperty("weft.noSimd");
            } else {
                System.setProperty("weft.noSimd", before);
            }
        }
    }
}
