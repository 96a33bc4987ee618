package dev.weft.core.model;

/**
 * A change to a {@link Model}'s topology, applied with {@link Model#edit}. Edits are data: a model keeps
 * the log of those it applied ({@link Model#edits()}), so a checkpoint replays them onto the model it
 * started from, and a solver that derives its own structures from the topology (the spring solvers'
 * springs) replays them too.
 *
 * <p>Sides are decided in the rest shape (material coordinates), never from current positions: the
 * same log gives the same model whatever the state it is replayed next to.
 */
public sealed interface ModelEdit permits ModelEdit.Split, ModelEdit.Detach, ModelEdit.AddDistance {
    /**
     * Separates the surface at {@code particle}: a new particle (appended, index = the particle count
     * before the edit) takes the triangles around it whose rest centroid lies on the positive side of
     * the plane through its rest position with normal {@code (nx, ny, nz)}, with their share of its
     * mass (by rest area). Each constraint at the particle follows the triangles it borders, or, where
     * it borders none, the side whose particles its other particle shares triangles with (by its rest
     * position when that is not one side); an edge between the two sides is kept on both
     * (the two sides are separate surfaces, each with its own edge). A dihedral stencil whose two
     * triangles end up on different sides is removed. A pinned particle stays pinned on both sides;
     * the copy gets the particle's tethers, and tethers whose particle no longer reaches its anchor
     * through the constraints are dropped (or moved to a copy of the anchor it does reach). A split that
     * would separate nothing (all triangles, or all constraints of a particle without triangles, on one
     * side) is skipped and not logged.
     *
     * <p>A node of an elastic tetrahedral body splits by its tetrahedra instead ({@link TetSplitter}): those whose
     * rest centroid lies on the positive side go to the copy, with their quarter of ρ V₀ each (the node's mass
     * times their share of its tetrahedra's rest volume); its boundary triangles on that side go with them and
     * each face between the sides becomes two boundary triangles (appended to the body's triangles, so a later
     * body's triangles move up); the skin vertices riding on moved tetrahedra follow them. Skipped and not
     * logged when a side would be empty or the surface would not stay a manifold at the node. A volume-keeping
     * voxel body's tetrahedra refuse a split, and a {@link Detach} refuses any tetrahedral node.
     */
    record Split(int particle, float nx, float ny, float nz) implements ModelEdit {
    }

    /**
     * As {@link Split}, with the triangles that go to the copy named ({@code triangles}, indices into
     * the model's triangles, each holding the particle) rather than found by a plane through the
     * particle: a cut decides them by the side of the cut's own plane, which need not pass through the
     * particle. The rest-space normal sorts the pairs that border none of the particle's triangles.
     */
    record Detach(int particle, int[] triangles, float nx, float ny, float nz) implements ModelEdit {
        public Detach {
            triangles = triangles.clone();
        }

        @Override
        public int[] triangles() {
            return triangles.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Detach && ((Detach) o).particle == particle
                    && java.util.Arrays.equals(((Detach) o).triangles, triangles) && ((Detach) o).nx == nx
                    && ((Detach) o).ny == ny && ((Detach) o).nz == nz;
        }

        @Override
        public int hashCode() {
            return 31 * (31 * particle + java.util.Arrays.hashCode(triangles)) + Float.hashCode(nx + 3 * ny + 7 * nz);
        }

        @Override
        public String toString() {
            return "Detach[particle=" + particle + ", triangles=" + java.util.Arrays.toString(triangles) + ", n=("
                    + nx + ", " + ny + ", " + nz + ")]";
        }
    }

    /**
     * A new distance constraint between two particles (a seam pair, an attachment): rest length in
     * metres (0 pulls them together), and its kind, which picks its stiffness in every solver.
     */
    record AddDistance(int a, int b, float restLength, DistanceKind kind) implements ModelEdit {
    }
}
