package dev.weft.core.lab;

import dev.weft.core.InvalidInputException;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.QuadLatticeSpec;
import dev.weft.core.model.State;
import dev.weft.core.step.Environment;
import java.util.List;

/**
 * Seed 001's two convergence experiments (§6.1) on its 4-neighbour lattice ({@link QuadLatticeSpec},
 * 1 m across, 100 × 100 in the seed), 8 physics steps per 60 Hz frame:
 * <ul>
 *   <li>{@link #ENLARGED}: every spring starts at 5 times its rest length, integration off, no
 *       gravity: only the solver moves particles (figures 6.3–6.5);</li>
 *   <li>{@link #HANGING}: held at its two top corners and dropped from horizontal under gravity
 *       (figures 6.6–6.9).</li>
 * </ul>
 */
public enum ConvergenceExperiment {
    ENLARGED("enlarged"),
    HANGING("hanging");

    public static final int STEPS_PER_FRAME = 8;
    public static final float STEP = 1f / (60f * STEPS_PER_FRAME);
    /** The enlarged cloth's spacing over its rest length. */
    public static final float ENLARGEMENT = 5f;

    private final String label;

    ConvergenceExperiment(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Whether a step integrates (Verlet, gravity) or only runs the solver on the current positions. */
    public boolean integrates() {
        return this == HANGING;
    }

    /**
     * The lattice of {@code size × size} particles with springs of {@code stiffness} k (N/m; the seed's
     * PD weight, XPBD's compliance 1/k), velocity damping 1/s; the hanging one pinned at its top corners.
     */
    public Model model(int size, float stiffness) {
        ModelBuilder b = new ModelBuilder().tethers(false)
                .material(Material.cloth().withStretch(stiffness).withShear(stiffness));
        ModelObject cloth = b.addQuadLattice(QuadLatticeSpec.of("cloth", size, size, 1f).withOrigin(-0.5f, 1f, -0.5f));
        if (this == HANGING) {
            b.pinCorners(cloth, "top-left", "top-right");
        }
        return b.build();
    }

    /** At rest (hanging), or spread {@link #ENLARGEMENT} times about the first particle (enlarged). */
    public State initialState(Model model) {
        State s = State.atRest(model);
        if (this == ENLARGED) {
            float[] x = s.positions();
            float ox = x[0];
            float oy = x[1];
            float oz = x[2];
            for (int i = 0; i < x.length; i += 3) {
                x[i] = ox + ENLARGEMENT * (x[i] - ox);
                x[i + 1] = oy + ENLARGEMENT * (x[i + 1] - oy);
                x[i + 2] = oz + ENLARGEMENT * (x[i + 2] - oz);
            }
        }
        return s;
    }

    public Environment environment() {
        return this == HANGING ? Environment.earth() : new Environment(new float[3], List.of());
    }

    public static ConvergenceExperiment parse(String source, String text) {
        for (ConvergenceExperiment e : values()) {
            if (e.label.equals(text)) {
                return e;
            }
        }
        throw new InvalidInputException(source, "unknown experiment '" + text + "'; allowed: enlarged, hanging");
    }
}
