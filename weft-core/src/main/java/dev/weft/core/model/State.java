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

    /**
     * This state for {@code edited}, a model an edit made from this state's: this state itself when the
     * particle count is the same, else a new state whose new particles (copies made by splits) start
     * where, and as fast as, the particle they were split from. The clock carries over.
     */
    public State resizedFor(Model edited) {
        int n = edited.particleCount();
        int old = particleCount();
        if (n == old) {
            return this;
        }
        if (n < old) {
            throw new IllegalArgumentException("the model has " + n + " particles, fewer than this state's " + old);
        }
        State s = new State(n);
        System.arraycopy(positions, 0, s.positions, 0, positions.length);
        System.arraycopy(velocities, 0, s.velocities, 0, velocities.length);
        for (int i = old; i < n; i++) {
            int from = edited.sourceOf(i); // a lower index, so already filled
            System.arraycopy(s.positions, 3 * from, s.positions, 3 * i, 3);
            System.arraycopy(s.velocities, 3 * from, s.velocities, 3 * i, 3);
        }
        s.time = time;
        s.steps = steps;
        return s;
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
