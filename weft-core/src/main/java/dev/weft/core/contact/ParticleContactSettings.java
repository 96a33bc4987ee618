package dev.weft.core.contact;

import dev.weft.core.util.Check;

/**
 * Self- and inter-cloth contact (see {@link ParticleContacts}).
 *
 * @param distanceFactor   contact distance as a multiple of the mean stretch rest length (the particle
 *                         spacing); seed 001 uses one rest length. Above √2/2 no particle fits through
 *                         the middle of a grid square of another cloth.
 * @param iterations       Jacobi contact sweeps per step
 * @param staticFriction   cloth–cloth static coefficient
 * @param kineticFriction  cloth–cloth kinetic coefficient (≤ static)
 * @param vertexTriangle   also keep particles half a contact distance off the faces of other
 *                         triangles ({@link VertexTriangleContacts}; off by default): thin cloth with
 *                         triangles larger than the contact distance does not pass through itself
 *                         between particles
 */
public record ParticleContactSettings(float distanceFactor, int iterations, float staticFriction,
                                      float kineticFriction, boolean vertexTriangle) {
    /** Particle–particle contact only. */
    public ParticleContactSettings(float distanceFactor, int iterations, float staticFriction, float kineticFriction) {
        this(distanceFactor, iterations, staticFriction, kineticFriction, false);
    }

    public ParticleContactSettings {
        Check.positive("selfCollision.distanceFactor", distanceFactor);
        Check.atLeast("selfCollision.iterations", iterations, 1);
        Check.nonNegative("selfCollision.staticFriction", staticFriction);
        Check.nonNegative("selfCollision.kineticFriction", kineticFriction);
        if (kineticFriction > staticFriction) {
            throw new dev.weft.core.InvalidInputException("selfCollision.kineticFriction",
                    "must not exceed the static friction " + staticFriction + ", got " + kineticFriction);
        }
    }

    /** One rest length, two sweeps, cotton on cotton (μs 0.5, μk 0.4). */
    public static ParticleContactSettings defaults() {
        return new ParticleContactSettings(1f, 2, 0.5f, 0.4f);
    }

    public ParticleContactSettings withFriction(float staticCoefficient, float kineticCoefficient) {
        return new ParticleContactSettings(distanceFactor, iterations, staticCoefficient, kineticCoefficient,
                vertexTriangle);
    }

    public ParticleContactSettings withIterations(int n) {
        return new ParticleContactSettings(distanceFactor, n, staticFriction, kineticFriction, vertexTriangle);
    }

    public ParticleContactSettings withDistanceFactor(float f) {
        return new ParticleContactSettings(f, iterations, staticFriction, kineticFriction, vertexTriangle);
    }

    /** With vertex–triangle contacts on or off. */
    public ParticleContactSettings withVertexTriangle(boolean on) {
        return new ParticleContactSettings(distanceFactor, iterations, staticFriction, kineticFriction, on);
    }
}
