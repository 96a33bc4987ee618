package dev.weft.core.model;

/**
 * One body inside a {@link Model}: its particles are {@code [firstParticle, firstParticle + particleCount)}
 * and its triangles {@code [firstTriangle, firstTriangle + triangleCount)} of the model's arrays.
 * A grid cloth also has its lattice size (particle (row, col) is {@code firstParticle + row * gridCols + col}).
 */
public record ModelObject(String name, Type type, int firstParticle, int particleCount,
                          int firstTriangle, int triangleCount, int gridCols, int gridRows) {
    public enum Type { GRID_CLOTH, MESH_CLOTH, ROPE, VOXEL_BODY, TET_BODY }

    public boolean isGrid() {
        return type == Type.GRID_CLOTH;
    }

    /** Global particle index of grid particle (row, col). */
    public int gridParticle(int row, int col) {
        if (!isGrid()) {
            throw new IllegalStateException(name + " is not a grid");
        }
        return firstParticle + row * gridCols + col;
    }
}
