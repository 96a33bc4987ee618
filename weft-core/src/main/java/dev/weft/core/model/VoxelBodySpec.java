package dev.weft.core.model;

import dev.weft.core.InvalidInputException;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.util.Check;

/**
 * A volumetric soft body voxelized from a closed triangle mesh (seed 001 §5.3.1): one particle at the
 * centre of every voxel of edge {@code voxelSize} (m) whose centre lies inside the surface, each of
 * mass {@code density} (kg/m³) × voxelSize³, joined to its neighbours by distance constraints.
 *
 * <p>{@code diagonals} false is the seed's construction exactly: the 6 axis neighbours (stretch
 * constraints) and the red-black particle coloring (x + y + z) mod 2. Such a lattice has no shear
 * stiffness: a cube of it folds flat under its own weight. {@code diagonals} true adds the 12 face
 * diagonals and the 4 body diagonals of each cell (shear constraints, of the material's shear
 * stiffness), so the body keeps its shape; its particles are then colored greedily.
 *
 * <p>{@code volume} adds six tetrahedra per full cell (eight particle corners, split along its main
 * diagonal) that keep their signed volume ({@link TetConstraints}, incompressible, XPBD and PBD):
 * a spring lattice compressed past its diagonals by a hard impact stays inverted, a signed volume
 * does not.
 */
public record VoxelBodySpec(String name, TriangleMesh surface, float voxelSize, float density, boolean diagonals,
                            boolean volume) {
    /** Without volume constraints. */
    public VoxelBodySpec(String name, TriangleMesh surface, float voxelSize, float density, boolean diagonals) {
        this(name, surface, voxelSize, density, diagonals, false);
    }

    public VoxelBodySpec {
        if (surface == null || surface.triangleCount() == 0) {
            throw new InvalidInputException(name + ".surface", "needs a closed triangle mesh");
        }
        Check.positive(name + ".voxelSize", voxelSize);
        Check.positive(name + ".density", density);
    }
}
