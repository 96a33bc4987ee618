package dev.weft.core.step;

import dev.weft.core.collide.Collider;
import dev.weft.core.util.Check;
import java.util.List;

/**
 * What acts on every body from outside: gravity, the colliders, and the air (wind velocity, density
 * and the drag coefficients of {@code AeroForces}; no air by default). Shared by all solvers.
 */
public final class Environment {
    private final float[] gravity;
    private final Collider[] colliders;
    private final float[] wind;
    private final float airDensity;
    private final float pressureDrag;
    private final float frictionDrag;

    public Environment(float[] gravity, List<? extends Collider> colliders) {
        this(Check.vector3("gravity", gravity).clone(), colliders.toArray(new Collider[0]), new float[3], 0f, 0f, 0f);
    }

    private Environment(float[] gravity, Collider[] colliders, float[] wind, float airDensity, float pressureDrag,
                        float frictionDrag) {
        this.gravity = gravity;
        this.colliders = colliders;
        this.wind = wind;
        this.airDensity = airDensity;
        this.pressureDrag = pressureDrag;
        this.frictionDrag = frictionDrag;
    }

    /** The same environment under another gravity (m/s²). */
    public Environment withGravity(float[] g) {
        return new Environment(Check.vector3("gravity", g).clone(), colliders, wind, airDensity, pressureDrag,
                frictionDrag);
    }

    /**
     * The same environment (gravity, wind, air) with these colliders in place of its own: a collider added
     * while a simulation runs (a thrown cannonball, the viewer's hand), passed to {@code Simulation.setEnvironment}.
     */
    public Environment withColliders(Collider[] replaced) {
        for (Collider c : replaced) {
            java.util.Objects.requireNonNull(c, "collider");
        }
        return new Environment(gravity, replaced.clone(), wind, airDensity, pressureDrag, frictionDrag);
    }

    /** The same environment with a uniform wind of this velocity (m/s). */
    public Environment withWind(float[] windVelocity) {
        return new Environment(gravity, colliders, Check.vector3("wind", windVelocity).clone(), airDensity,
                pressureDrag, frictionDrag);
    }

    /**
     * The same environment with air: density in kg/m³ (1.2 at sea level), the pressure-drag
     * coefficient of a face moving along its normal (about 1 for a flat plate) and the friction-drag
     * coefficient of a face sliding in its own plane (small, ~0.01–0.05). Zero density means no air.
     */
    public Environment withAir(float density, float pressureDragCoefficient, float frictionDragCoefficient) {
        return new Environment(gravity, colliders, wind, Check.nonNegative("airDensity", density),
                Check.nonNegative("pressureDrag", pressureDragCoefficient),
                Check.nonNegative("frictionDrag", frictionDragCoefficient));
    }

    /** True when the air exerts forces: density and some drag coefficient are non-zero. */
    public boolean hasAir() {
        return airDensity > 0f && (pressureDrag > 0f || frictionDrag > 0f);
    }

    public float windX() {
        return wind[0];
    }

    public float windY() {
        return wind[1];
    }

    public float windZ() {
        return wind[2];
    }

    public float airDensity() {
        return airDensity;
    }

    public float pressureDrag() {
        return pressureDrag;
    }

    public float frictionDrag() {
        return frictionDrag;
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
