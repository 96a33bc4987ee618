package dev.weft.core.testing;

import dev.weft.core.collide.Icosphere;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.model.Elasticity;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.TetBodySpec;
import dev.weft.core.model.VoxelBodySpec;
import dev.weft.core.step.Environment;
import dev.weft.core.util.IntList;

/** The device solvers' soft-body scenes (OpenCL and GLSL compute tetrahedra tests): blocks, a jelly, a notched bar. */
public final class DeviceTetScenes {
    private DeviceTetScenes() {
    }

    /**
     * A 4 × 4 × 4-cell block (3 cm cells, E = 100 kPa) 2 cm above the floor's 5 mm, and beside it a 16 × 16,
     * 0.6 m cloth pinned by two corners, 0.5 m up: distances, dihedral stencils, tetrahedra and tethers in one
     * model, every pass of an iteration.
     */
    public static Model blockBesideACloth(Elasticity e) {
        ModelBuilder b = new ModelBuilder();
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", 16, 16, 0.6f, 0.6f).withOrigin(-0.8f, 0.5f,
                -0.3f));
        b.pinCorners(cloth, "top-left", "top-right");
        return block(b, e, 4);
    }

    /** {@code b} with a block of n³ cells of 3 cm, rubber-dense, its underside 2.5 cm up, damped 1/s. */
    public static Model block(ModelBuilder b, Elasticity e, int n) {
        b.material(Material.cloth().withDamping(1f).withFriction(0.8f));
        float side = 0.03f * n;
        b.addTetBody(TetBodySpec.box("block", new float[] {0f, 0.025f, 0f}, new float[] {side, 0.025f + side, side},
                n, n, n, 1100f, e));
        return b.build();
    }

    /** A voxel ball of 0.1 m radius in 4 cm voxels, 2 cm above the floor, with its volume tetrahedra (μ = 0). */
    public static Model voxelJelly() {
        ModelBuilder b = new ModelBuilder();
        b.material(Material.cloth().withDamping(1f));
        b.addVoxelBody(new VoxelBodySpec("jelly", translated(Icosphere.of(0.1f, 2), 0.12f), 0.04f, 1000f, true,
                true));
        return b.build();
    }

    public static Environment floorEnvironment() {
        return DeviceTestScenes.earthWith(DeviceTestScenes.floor());
    }

    private static TriangleMesh translated(TriangleMesh m, float dy) {
        float[] p = m.positions().clone();
        for (int k = 1; k < p.length; k += 3) {
            p[k] += dy;
        }
        return new TriangleMesh(p, m.uvs(), m.triangles());
    }

    /**
     * TetTearingTest's notched bar: 0.4 × 0.08 × 0.08 m of 10 × 2 × 2 cubes (E = 100 kPa, ν = 0.3), the cube on
     * its lower front edge at x ∈ [0, 0.04] left out, tearing past 10 % strain.
     */
    public static Model notchedBar() {
        ModelBuilder b = new ModelBuilder();
        b.material(Material.cloth().withDamping(0.5f));
        TetBodySpec box = TetBodySpec.box("bar", new float[] {-0.2f, 0.96f, -0.04f}, new float[] {0.2f, 1.04f, 0.04f},
                10, 2, 2, 1000f, new Elasticity(1e5f, 0.3f));
        IntList kept = new IntList();
        float[] x = box.nodes();
        int[] t = box.tets();
        for (int c = 0; c < t.length / 4; c++) {
            float cx = 0f;
            float cy = 0f;
            float cz = 0f;
            for (int k = 0; k < 4; k++) {
                cx += x[3 * t[4 * c + k]] / 4f;
                cy += x[3 * t[4 * c + k] + 1] / 4f;
                cz += x[3 * t[4 * c + k] + 2] / 4f;
            }
            if (!(cx > 0f && cx < 0.04f && cy < 1f && cz < 0f)) {
                kept.add(t[4 * c], t[4 * c + 1]);
                kept.add(t[4 * c + 2], t[4 * c + 3]);
            }
        }
        ModelObject body = b.addTetBody(new TetBodySpec("bar", x, kept.toArray(), 1000f, box.elasticity()));
        b.tearStrain(body, 0.1f);
        return b.build();
    }
}
