package dev.weft.core.sim;

/**
 * A step produced a non-finite or runaway position: the method is unstable for these settings. Names
 * the step and particle, so nothing NaN is ever written out as a result.
 */
public final class SimulationDivergedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final long step;
    private final int particle;

    public SimulationDivergedException(long step, double time, int particle, String what) {
        super(String.format("simulation diverged at step %d (t = %.4f s): particle %d %s; "
                + "try a smaller time step, more substeps or iterations, or softer settings",
                step, time, particle, what));
        this.step = step;
        this.particle = particle;
    }

    public long step() {
        return step;
    }

    public int particle() {
        return particle;
    }
}
