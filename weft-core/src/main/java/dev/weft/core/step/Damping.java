package dev.weft.core.step;

/**
 * How a solver's integrator takes a body's velocity damping rate d (1/s, {@link
 * dev.weft.core.model.Material#damping()}), per particle, so bodies of different materials damp
 * differently in one step ({@link PositionStep}).
 */
public enum Damping {
    /** Not at all: the frame's state before any prediction (every solver names its own form). */
    NONE,
    /** The force −d·m·v in the prediction (Projective Dynamics: seed 001 algorithm 2's drag). */
    DRAG,
    /** Seed 002's Verlet share k = e^(−d/60 s) per 1/60 s of the velocity, in the prediction ({@link VerletDamping}). */
    VERLET,
    /** v ← v·max(0, 1 − d·h) after the step (XPBD). */
    AFTER
}
