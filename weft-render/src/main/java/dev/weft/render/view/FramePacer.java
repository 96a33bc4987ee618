package dev.weft.render.view;

/**
 * Real-time pacing of fixed simulation frames against the wall clock (a fixed time step with an
 * accumulator, as game loops keep one): the clock adds what it asks for, each simulated frame takes
 * one frame's time off, and the simulation steps while at least a frame is owed.
 *
 * <p>A frame now and then that takes longer than it simulates (a collection, the drawing thread's
 * busy moment on a shared core) is caught up by the frames after it, as long as the debt stays within
 * {@link #MAX_BACKLOG_FRAMES} frames; a simulation that cannot keep up at all would only fall further
 * behind by chasing its debt, so time owed beyond that is dropped and {@link #slowdown()} says by how
 * much the simulation runs slower than asked. Catching up moves no picture backwards: the window
 * draws the newest frame, only more simulated time lies between two drawn ones. (The first version
 * dropped everything owed beyond one frame: a single late frame lost up to two frames of time, which
 * read as a slowdown of 1.01–1.02 on a solver that keeps up; docs/viewer-speed.md.)
 *
 * <p>Not thread-safe: the simulating thread owns it.
 */
final class FramePacer {
    /** The most frames' worth of simulated time the pacer keeps owing; more is dropped. */
    static final int MAX_BACKLOG_FRAMES = 3;

    private final double windowSeconds;
    private double owed;
    private double windowStart;
    private double windowAsked;
    private double windowDropped;
    private double slowdown = 1.0;

    /**
     * @param windowSeconds wall time over which {@link #slowdown()} is measured
     * @param nowSeconds    the wall clock now: the first window starts here
     */
    FramePacer(double windowSeconds, double nowSeconds) {
        this.windowSeconds = windowSeconds;
        this.windowStart = nowSeconds;
    }

    /**
     * The clock moved on by {@code wallSeconds}, asking for that times {@code speed} of simulated time
     * (frames of {@code dt} seconds); debt beyond the backlog is dropped.
     */
    void elapse(double wallSeconds, double speed, double dt) {
        double asked = wallSeconds * speed;
        owed += asked;
        windowAsked += asked;
        double backlog = MAX_BACKLOG_FRAMES * dt;
        if (owed > backlog) {
            windowDropped += owed - backlog;
            owed = backlog;
        }
    }

    /** Whether at least one frame of {@code dt} is owed. */
    boolean due(double dt) {
        return owed >= dt;
    }

    /** Wall seconds until a frame of {@code dt} is owed at {@code speed} (0 when one is due). */
    double secondsUntilDue(double dt, double speed) {
        return Math.max(0, (dt - owed) / speed);
    }

    /** A frame of {@code dt} was simulated, finishing at wall time {@code nowSeconds}. */
    void stepped(double dt, double nowSeconds) {
        owed -= dt;
        if (nowSeconds - windowStart >= windowSeconds) {
            // what was asked over what of it was not dropped: time still owed is simulated later, not lost
            slowdown = Math.max(1.0, windowAsked / Math.max(windowAsked - windowDropped, 1e-9));
            windowStart = nowSeconds;
            windowAsked = 0;
            windowDropped = 0;
        }
    }

    /** Paused: nothing is owed and the slowdown's window starts again at {@code nowSeconds}. */
    void restart(double nowSeconds) {
        owed = 0;
        windowStart = nowSeconds;
        windowAsked = 0;
        windowDropped = 0;
    }

    /** Simulated time asked over the part of it not dropped, in the last full window; at least 1. */
    double slowdown() {
        return slowdown;
    }

    /** Simulated seconds owed now. */
    double owed() {
        return owed;
    }
}
