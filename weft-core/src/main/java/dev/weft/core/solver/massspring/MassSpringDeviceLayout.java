package dev.weft.core.solver.massspring;

import dev.weft.core.model.Model;
import dev.weft.core.springs.SpringSet;
import dev.weft.core.step.VerletKeep;

/**
 * The host side of {@link MassSpringSolver} on a device (OpenCL, GLSL compute), for one model: its springs
 * (with their incidence order), the longest stable Verlet step, how many Verlet steps a step takes and,
 * per Verlet step length h, each particle's Verlet share kept (PositionStep's factor) — computed here as
 * the CPU solver computes them, so every backend uploads the same values.
 */
public final class MassSpringDeviceLayout {
    private final SpringSet springs;
    private final double stableStep;
    private final VerletKeep keep;

    public MassSpringDeviceLayout(Model m) {
        springs = SpringSet.build(m);
        stableStep = StableStep.of(springs, m.invMass());
        keep = new VerletKeep(m);
    }

    /** The model's springs, in the order the device stores them. */
    public SpringSet springs() {
        return springs;
    }

    /** The longest stable Verlet step of the springs, in s (as {@link MassSpringSolver#stableStep}). */
    public double stableStep() {
        return stableStep;
    }

    /** Verlet steps one step of {@code dt} takes under {@code settings} (as MassSpringSolver.verletStepsPer). */
    public int verletSteps(MassSpringSettings settings, float dt) {
        return settings.stableSteps() ? StableStep.count(dt, stableStep) : 1;
    }

    /**
     * Computes each particle's Verlet share kept over a Verlet step of {@code h} unless it is h's already;
     * true when it computed, so the backend uploads {@link #keep()} again.
     */
    public boolean prepare(float h) {
        return keep.prepare(h);
    }

    /** Each particle's Verlet share kept over a Verlet step; by {@link #prepare}. */
    public float[] keep() {
        return keep.keep();
    }
}
