package dev.weft.core.model;

import dev.weft.core.coloring.Coloring;
import java.util.List;

/**
 * What does not change every step: particles at rest, their inverse masses (0 = pinned), topology
 * and the colored constraint sets. All arrays are flat and shared with solvers and backends without
 * copying; treat them as read-only. Built by {@link ModelBuilder}.
 */
public final class Model {
    private final float[] restPositions;
    private final float[] invMass;
    private final int[] triangles;
    private final float[] uvs;
    private final DistanceConstraints distances;
    private final BendingConstraints bending;
    private final TetherConstraints tethers;
    private final List<ModelObject> objects;
    private final Coloring particleColoring;
    /** Built on first use (volatile: a racing second build gives an equal one). */
    private volatile Incidence triangleIncidence;

    Model(float[] restPositions, float[] invMass, int[] triangles, float[] uvs,
          DistanceConstraints distances, BendingConstraints bending, TetherConstraints tethers,
          List<ModelObject> objects, Coloring particleColoring) {
        this.restPositions = restPositions;
        this.invMass = invMass;
        this.triangles = triangles;
        this.uvs = uvs;
        this.distances = distances;
        this.bending = bending;
        this.tethers = tethers;
        this.objects = List.copyOf(objects);
        this.particleColoring = particleColoring;
    }

    public int particleCount() {
        return invMass.length;
    }

    /** xyz per particle at rest (also the initial state). */
    public float[] restPositions() {
        return restPositions;
    }

    /** 1/mass per particle; 0 marks a pinned (kinematic) particle. */
    public float[] invMass() {
        return invMass;
    }

    public boolean isPinned(int particle) {
        return invMass[particle] == 0f;
    }

    public int pinnedCount() {
        int n = 0;
        for (float w : invMass) {
            if (w == 0f) {
                n++;
            }
        }
        return n;
    }

    /** Three particle indices per triangle (for rendering, export, bending, drag). */
    public int[] triangles() {
        return triangles;
    }

    public int triangleCount() {
        return triangles.length / 3;
    }

    /** Which triangles touch each particle ({@link Incidence} of arity 3), built once. */
    public Incidence triangleIncidence() {
        Incidence t = triangleIncidence;
        if (t == null) {
            t = Incidence.of(triangles, 3, particleCount());
            triangleIncidence = t;
        }
        return t;
    }

    /** uv per particle (zeros for bodies without texture coordinates). */
    public float[] uvs() {
        return uvs;
    }

    public DistanceConstraints distances() {
        return distances;
    }

    public BendingConstraints bending() {
        return bending;
    }

    public TetherConstraints tethers() {
        return tethers;
    }

    /**
     * Colors of the particles such that no distance constraint joins two particles of one color:
     * red-black (2 colors) on 4-neighbour lattices (seed 001 algorithm 7), greedy on any other body.
     * Per-particle solvers (Projective Dynamics) update one color in parallel.
     */
    public Coloring particleColoring() {
        return particleColoring;
    }

    public List<ModelObject> objects() {
        return objects;
    }

    public ModelObject object(String name) {
        for (ModelObject o : objects) {
            if (o.name().equals(name)) {
                return o;
            }
        }
        throw new IllegalArgumentException("no object named " + name);
    }

    /** Total mass of the free particles in kg. */
    public double totalFreeMass() {
        double m = 0;
        for (float w : invMass) {
            if (w > 0f) {
                m += 1.0 / w;
            }
        }
        return m;
    }
}
