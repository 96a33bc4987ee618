package dev.weft.core.model;

/**
 * What changes every step: positions and velocities (xyz per particle) and the simulated time.
 * Cheap to copy; a checkpoint is a copy.
 */
public final class State {
    private final float[] positions;
    private final float[] velocities;
    private double time;
    private long steps;

    public State(int particleCount) {
        positions = new float[3 * particleCount];
        velocities = new float[3 * particleCount];
    }

    /** The model's rest shape, at rest, at time 0. */
    public static State atRest(Model model) {
        State s = new State(model.particleCount());
        System.arraycopy(model.restPositions(), 0, s.positions, 0, s.positions.length);
        return s;
    }

    public int particleCount() {
        return positions.length / 3;
    }

    public float[] positions() {
        return positions;
    }

    public float[] velocities() {
        return velocities;
    }

    public double time() {
        return time;
    }

    public long steps() {
        return steps;
    }

    /** Advances the clock after a step of {@code dt} seconds. */
    public void advance(double dt) {
        time += dt;
        steps++;
    }

    /** Sets the clock (resuming from a checkpoint). */
    public void setClock(double time, long steps) {
        if (!(time >= 0.0) || steps < 0) {
            throw new IllegalArgumentException("time and steps must be >= 0, got " + time + " and " + steps);
        }
        this.time = time;
        this.steps = steps;
    }

    public State copy() {
        State s = new State(particleCount());
        s.copyFrom(this);
        return s;
    }

    public void copyFrom(State other) {
        if (other.positions.length != positions.length) {
            throw new IllegalArgumentException("states of different sizes");
        }
        System.arraycopy(other.positions, 0, positions, 0, positions.length);
        System.arraycopy(other.velocities, 0, velocities, 0, velocities.length);
        time = other.time;
        steps = other.steps;
    }
}
