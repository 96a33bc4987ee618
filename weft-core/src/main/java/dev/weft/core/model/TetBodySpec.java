package dev.weft.core.model;

import dev.weft.core.InvalidInputException;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.util.Check;
import dev.weft.core.util.IntList;

/**
 * An elastic solid made of tetrahedra ({@link TetConstraints}): its nodes become particles, each with a
 * quarter of the mass ρ V₀ of every tetrahedron it is a corner of, and its surface (the faces that belong
 * to one tetrahedron only) is what is drawn and exported. Tetrahedra may come in either orientation; each
 * is stored positively oriented. Made from any tetrahedral mesh ({@link dev.weft.core.mesh.TetGenReader}),
 * a box of cubes ({@link #box}) or the voxels of a closed surface ({@link #voxelized}).
 *
 * @param nodes      x, y, z per node (m)
 * @param tets       four node indices per tetrahedron
 * @param density    ρ in kg/m³ (rubber 1100, gelatin 1000)
 * @param elasticity Young's modulus and Poisson's ratio
 * @param skin       a surface to draw instead of the tetrahedra's boundary, embedded in them ({@link Skin});
 *                   null: the boundary
 */
public record TetBodySpec(String name, float[] nodes, int[] tets, float density, Elasticity elasticity,
                          TriangleMesh skin) {
    /** Drawn as its tetrahedra's boundary. */
    public TetBodySpec(String name, float[] nodes, int[] tets, float density, Elasticity elasticity) {
        this(name, nodes, tets, density, elasticity, null);
    }

    /** This body drawn as {@code surface}, embedded in its tetrahedra. */
    public TetBodySpec withSkin(TriangleMesh surface) {
        return new TetBodySpec(name, nodes, tets, density, elasticity, surface);
    }

    public TetBodySpec {
        if (nodes == null || nodes.length == 0 || nodes.length % 3 != 0) {
            throw new InvalidInputException(name + ".nodes", "needs x, y, z per node");
        }
        if (tets == null || tets.length == 0 || tets.length % 4 != 0) {
            throw new InvalidInputException(name + ".tets", "needs four node indices per tetrahedron");
        }
        int n = nodes.length / 3;
        for (int i = 0; i < tets.length; i++) {
            if (tets[i] < 0 || tets[i] >= n) {
                throw new InvalidInputException(name + ".tets", "tetrahedron " + i / 4 + " names node " + tets[i]
                        + ", outside 0.." + (n - 1));
            }
        }
        for (float c : nodes) {
            if (!Float.isFinite(c)) {
                throw new InvalidInputException(name + ".nodes", "holds a coordinate that is not a finite number: " + c);
            }
        }
        Check.positive(name + ".density", density);
        if (elasticity == null) {
            throw new InvalidInputException(name + ".elasticity", "needs Young's modulus and Poisson's ratio");
        }
    }

    /** Three axes in each of their six orders: a cube's six tetrahedra around its main diagonal (Kuhn's split). */
    static final int[][] AXIS_ORDERS = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

    /**
     * A box from {@code min} to {@code max} (m) of nx × ny × nz cubes, six tetrahedra each (the same split in
     * every cube, so neighbours' faces match).
     */
    public static TetBodySpec box(String name, float[] min, float[] max, int nx, int ny, int nz, float density,
                                  Elasticity elasticity) {
        if (nx < 1 || ny < 1 || nz < 1) {
            throw new InvalidInputException(name + ".cells", "needs at least one cube along each axis");
        }
        int[] n = {nx + 1, ny + 1, nz + 1};
        float[] nodes = new float[3 * n[0] * n[1] * n[2]];
        for (int k = 0; k < n[2]; k++) {
            for (int j = 0; j < n[1]; j++) {
                for (int i = 0; i < n[0]; i++) {
                    int p = 3 * (i + n[0] * (j + n[1] * k));
                    int[] at = {i, j, k};
                    for (int d = 0; d < 3; d++) {
                        nodes[p + d] = (float) (min[d] + (max[d] - min[d]) * (double) at[d] / (n[d] - 1));
                    }
                }
            }
        }
        IntList tets = new IntList();
        for (int k = 0; k < nz; k++) {
            for (int j = 0; j < ny; j++) {
                for (int i = 0; i < nx; i++) {
                    addCube(tets, i, j, k, (a, b, c) -> a + n[0] * (b + n[1] * c));
                }
            }
        }
        return new TetBodySpec(name, nodes, tets.toArray(), density, elasticity);
    }

    /**
     * The voxels of a closed surface (seed 001 §5.3.1, as {@link VoxelBodySpec}): a node at the centre of every
     * voxel of edge {@code voxelSize} inside the surface, the tetrahedra of Kuhn's split of the cubes between
     * them ({@link #latticeTetrahedra}). Its nodes lie half a voxel inside the surface; the surface itself is
     * drawn, embedded in the tetrahedra.
     */
    public static TetBodySpec voxelized(String name, TriangleMesh surface, float voxelSize, float density,
                                        Elasticity elasticity) {
        VoxelLattice v = VoxelLattice.of(new VoxelBodySpec(name, surface, voxelSize, density, true));
        IntList cells = latticeTetrahedra(v, 0, false);
        if (cells.size() == 0) {
            throw new InvalidInputException(name + ".voxelSize", "no four neighbouring voxels lie inside the "
                    + "surface; use smaller voxels");
        }
        // the nodes of those tetrahedra (a voxel in none of them, alone in a thin part, is left out), renumbered
        int[] node = new int[v.count];
        java.util.Arrays.fill(node, -1);
        int count = 0;
        int[] t = cells.toArray();
        for (int i = 0; i < t.length; i++) {
            if (node[t[i]] < 0) {
                node[t[i]] = count++;
            }
            t[i] = node[t[i]];
        }
        float[] nodes = new float[3 * count];
        for (int p = 0; p < v.count; p++) {
            if (node[p] >= 0) {
                nodes[3 * node[p]] = v.x0 + v.cell[3 * p] * v.h;
                nodes[3 * node[p] + 1] = v.y0 + v.cell[3 * p + 1] * v.h;
                nodes[3 * node[p] + 2] = v.z0 + v.cell[3 * p + 2] * v.h;
            }
        }
        return new TetBodySpec(name, nodes, t, density, elasticity, surface);
    }

    /**
     * Every tetrahedron of Kuhn's split ({@link #addCube}) of every cube of the lattice whose four corners are
     * voxels inside: with {@code fullCubesOnly}, only the six of each cube whose eight corners are; else also
     * those of cubes at the surface that have them. Voxels' particle indices plus {@code first}.
     */
    static IntList latticeTetrahedra(VoxelLattice v, int first, boolean fullCubesOnly) {
        IntList all = new IntList();
        IntList out = new IntList();
        for (int k = 0; k + 1 < v.nz; k++) {
            for (int j = 0; j + 1 < v.ny; j++) {
                for (int i = 0; i + 1 < v.nx; i++) {
                    if (fullCubesOnly && !v.fullCell(i, j, k)) {
                        continue;
                    }
                    all.clear();
                    addCube(all, i, j, k, v::at);
                    for (int t = 0; t < all.size(); t += 4) {
                        if (all.get(t) >= 0 && all.get(t + 1) >= 0 && all.get(t + 2) >= 0 && all.get(t + 3) >= 0) {
                            out.add(first + all.get(t), first + all.get(t + 1));
                            out.add(first + all.get(t + 2), first + all.get(t + 3));
                        }
                    }
                }
            }
        }
        return out;
    }

    /** Node index of lattice point (i, j, k). */
    interface LatticeIndex {
        int at(int i, int j, int k);
    }

    /**
     * Kuhn's six tetrahedra of the cube at (i, j, k): from one corner to the opposite one along the axes in
     * each order. The diagonal alternates with the cube's parity along each axis (mirrored cubes), which
     * keeps shared faces matching and makes the mesh symmetric: one diagonal everywhere is stiffer in bending
     * one way than the other.
     */
    static void addCube(IntList tets, int i, int j, int k, LatticeIndex index) {
        int[] start = {i + (i & 1), j + (j & 1), k + (k & 1)};
        int[] step = {1 - 2 * (i & 1), 1 - 2 * (j & 1), 1 - 2 * (k & 1)};
        for (int[] order : AXIS_ORDERS) {
            int[] at = start.clone();
            int p0 = index.at(at[0], at[1], at[2]);
            at[order[0]] += step[order[0]];
            int p1 = index.at(at[0], at[1], at[2]);
            at[order[1]] += step[order[1]];
            int p2 = index.at(at[0], at[1], at[2]);
            at[order[2]] += step[order[2]];
            tets.add(p0, p1);
            tets.add(p2, index.at(at[0], at[1], at[2]));
        }
    }

    public int nodeCount() {
        return nodes.length / 3;
    }

    public int tetCount() {
        return tets.length / 4;
    }
}
