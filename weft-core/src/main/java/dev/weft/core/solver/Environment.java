package dev.weft.core.solver;

import dev.weft.core.collide.Collider;
import dev.weft.core.util.Check;
import java.util.List;

/** What acts on every body from outside: gravity and the colliders. Shared by all solvers. */
public final class Environment {
    private final float[] gravity;
    private final Collider[] colliders;

    public Environment(float[] gravity, List<? extends Collider> colliders) {
        this.gravity = Check.vector3("gravity", gravity).clone();
        this.colliders = colliders.toArray(new Collider[0]);
    }

    /** Standard gravity along −Y and no colliders. */
    public static Environment earth() {
        return new Environment(new float[] {0f, -9.81f, 0f}, List.of());
    }

    public float[] gravity() {
        return gravity.clone();
    }

    public float gravityX() {
        return gravity[0];
    }

    public float gravityY() {
        return gravity[1];
    }

    public float gravityZ() {
        return gravity[2];
    }

    /**
     * Moves every moving collider to its poses for the step [time, time + dt] (its pose at the start
     * and at the end of the step, which its swept test and friction use). Call before each step.
     */
    public void advanceColliders(double time, float dt) {
        for (Collider c : colliders) {
            c.advance(time, dt);
        }
    }

    /**
     * As {@link #advanceColliders(double, float)}, then lets each collider place the particles it
     * drives (attachment points on an animated body) in {@code positions}.
     */
    public void advanceColliders(double time, float dt, float[] positions) {
        for (Collider c : colliders) {
            c.advance(time, dt);
            c.driveParticles(positions);
        }
    }

    /** The colliders (do not modify the array). */
    public Collider[] colliders() {
        return colliders;
    }
}
