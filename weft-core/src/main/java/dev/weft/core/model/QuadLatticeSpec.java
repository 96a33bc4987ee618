package dev.weft.core.model;

import dev.weft.core.util.Check;

/**
 * Seed 001's particle lattice for cloth (§5.3.1, §6.1): {@code cols × rows} particles of equal mass,
 * {@code spacing} metres apart, each joined to its 4 neighbours (up, down, left, right) by one
 * structural spring and nothing else: no shear diagonals, no bending. 100 × 100 gives the seed's
 * 10,000 particles and 19,800 constraints. Its particle graph is bipartite, so it has the red-black
 * coloring of seed 001 algorithm 7 ({@link Model#particleColoring()}).
 *
 * <p>Particle (row, col) is {@code origin + col·spacing·u + row·spacing·v}, index {@code row·cols + col}.
 *
 * @param particleMass mass of every particle in kg
 */
public record QuadLatticeSpec(String name, int cols, int rows, float spacing, float[] origin, float[] u,
                              float[] v, float particleMass) {
    public QuadLatticeSpec {
        Check.atLeast(name + ".cols", cols, 2);
        Check.atLeast(name + ".rows", rows, 2);
        Check.positive(name + ".spacing", spacing);
        Check.vector3(name + ".origin", origin);
        Check.positive(name + ".particleMass", particleMass);
        origin = origin.clone();
    }

    /**
     * A horizontal lattice spanning {@code size × size} metres in the XZ plane from the origin, with the
     * mass of a cotton-like cloth ({@link Material#COTTON_DENSITY}) shared equally.
     */
    public static QuadLatticeSpec of(String name, int cols, int rows, float size) {
        float spacing = size / (Math.max(cols, rows) - 1);
        float area = spacing * spacing * (cols - 1) * (rows - 1);
        return new QuadLatticeSpec(name, cols, rows, spacing, new float[3], GridClothSpec.HORIZONTAL[0],
                GridClothSpec.HORIZONTAL[1], Material.COTTON_DENSITY * area / (cols * rows));
    }

    public QuadLatticeSpec withOrigin(float x, float y, float z) {
        return new QuadLatticeSpec(name, cols, rows, spacing, new float[] {x, y, z}, u, v, particleMass);
    }

    public QuadLatticeSpec withSpacing(float metres) {
        return new QuadLatticeSpec(name, cols, rows, metres, origin, u, v, particleMass);
    }

    /** Lays the lattice out as a {@link GridClothSpec} would (u along columns, v along rows). */
    GridClothSpec asGrid() {
        return new GridClothSpec(name, cols, rows, spacing * (cols - 1), spacing * (rows - 1), origin, u, v, false);
    }

    public int particleCount() {
        return cols * rows;
    }

    /** 2·cols·rows − cols − rows: (cols − 1)·rows horizontal plus cols·(rows − 1) vertical springs. */
    public int constraintCount() {
        return (cols - 1) * rows + cols * (rows - 1);
    }
}
