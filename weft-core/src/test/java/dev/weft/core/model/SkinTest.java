package dev.weft.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.collide.Icosphere;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.metrics.BodyVolume;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.Solvers;
import dev.weft.core.step.Environment;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A soft body drawn as the surface it was made from, embedded in its tetrahedra (issue #18 item 1). */
class SkinTest {
    private static final float FRAME = 1f / 60f;

    @Test
    void aVoxelBodyIsDrawnAsItsMeshRidingOnItsCells() {
        TriangleMesh sphere = Icosphere.of(0.2f, 3);
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("cloth", 4, 4, 0.5f, 0.5f).withOrigin(-0.25f, 0.8f, -0.25f));
        ModelObject ball = b.addVoxelBody(new VoxelBodySpec("ball", translated(sphere, 0f, 0.3f, 0f), 0.04f, 500f,
                true));
        Model m = b.build();
        DrawnSurface drawn = m.drawnSurface();
        assertThat(drawn.skinned()).isTrue();
        // the particles keep their indices; the sphere's vertices follow; the cloth keeps its triangles, the
        // ball is drawn with the sphere's instead of its voxel hull
        assertThat(drawn.vertexCount()).isEqualTo(m.particleCount() + sphere.vertexCount());
        assertThat(drawn.triangleCount(0)).isEqualTo(m.objects().get(0).triangleCount());
        assertThat(drawn.triangleCount(1)).isEqualTo(sphere.triangleCount());
        assertThat(drawn.objectOf(m.particleCount())).isEqualTo(1);
        // at rest it is the mesh, to float rounding
        float[] x = drawn.positions(m.restPositions());
        float[] p = sphere.positions();
        for (int v = 0; v < sphere.vertexCount(); v++) {
            for (int d = 0; d < 3; d++) {
                float expected = p[3 * v + d] + (d == 1 ? 0.3f : 0f);
                assertThat(x[3 * (m.particleCount() + v) + d]).isCloseTo(expected, within(2e-6f));
            }
        }
        // the sphere encloses more than the voxel hull it is drawn instead of (its nodes lie half a voxel in)
        assertThat(BodyVolume.of(m, ball, m.restPositions())).isLessThan(4.0 / 3 * Math.PI * 0.008 * 0.9);
    }

    @Test
    void theSkinStaysWithinAVoxelOfTheParticlesItRidesOnAsTheBodyMoves() {
        // a voxel ball dropped onto the floor, squashed on landing. The seed's particles sit at voxel centres, and
        // a centre a hair inside the surface is inside: the surface lies up to one voxel (along an axis) outside
        // the particles' tetrahedra, half a voxel only where it runs half-way between centres (measured at rest
        // 0.0406 m at h = 0.04 m). Embedded, each vertex keeps that offset as the body moves: within one voxel
        // all along (measured 0.0416 m at worst while it lands)
        float h = 0.04f;
        TriangleMesh sphere = translated(Icosphere.of(0.2f, 3), 0f, 0.3f, 0f);
        ModelBuilder b = new ModelBuilder();
        b.material(Material.cloth().withStretch(800f).withShear(800f));
        b.addVoxelBody(new VoxelBodySpec("ball", sphere, h, 500f, true, true));
        Model m = b.build();
        Skin skin = m.skins().get(0);
        float atRest = farthestOutside(skin, m.restPositions(), m.drawnSurface().positions(m.restPositions()),
                m.particleCount());
        assertThat(atRest).isBetween(h / 2, 1.05f * h);
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of(PlaneCollider.floor(0f, 0.005f, 0.5f)));
        float worst = 0f;
        float lowest = Float.MAX_VALUE;
        try (WorkerPool pool = new WorkerPool(2);
             Simulation sim = new Simulation(m, State.atRest(m), Solvers.create("xpbd", pool), env, 10)) {
            for (int f = 0; f < 45; f++) {
                sim.advance(FRAME);
                float[] x = sim.state().positions();
                float[] drawn = m.drawnSurface().positions(x);
                worst = Math.max(worst, farthestOutside(skin, x, drawn, m.particleCount()));
                for (int v = m.particleCount(); v < drawn.length / 3; v++) {
                    lowest = Math.min(lowest, drawn[3 * v + 1]);
                }
            }
        }
        assertThat(worst).isLessThanOrEqualTo(1.05f * h);
        // it did land: the drawn surface reached the floor's 5 mm (the skin is drawn, not collided: it may dip a
        // little under the shell the particles keep)
        assertThat(lowest).isLessThan(0.03f);
    }

    /** The largest distance along an axis by which a skin vertex lies outside its tetrahedron's bounding box. */
    private static float farthestOutside(Skin skin, float[] x, float[] drawn, int first) {
        float worst = 0f;
        int[] c = skin.corners();
        for (int v = 0; v < skin.vertexCount(); v++) {
            for (int d = 0; d < 3; d++) {
                float lo = Float.MAX_VALUE;
                float hi = -Float.MAX_VALUE;
                for (int k = 0; k < 4; k++) {
                    lo = Math.min(lo, x[3 * c[4 * v + k] + d]);
                    hi = Math.max(hi, x[3 * c[4 * v + k] + d]);
                }
                float p = drawn[3 * (first + v) + d];
                worst = Math.max(worst, Math.max(lo - p, p - hi));
            }
        }
        return worst;
    }

    @Test
    void aTetBodyVoxelizedFromAMeshIsDrawnAsTheMesh() {
        TriangleMesh sphere = Icosphere.of(0.2f, 3);
        ModelBuilder b = new ModelBuilder();
        b.addTetBody(TetBodySpec.voxelized("ball", sphere, 0.04f, 1000f, new Elasticity(1e5f, 0.45f)));
        Model m = b.build();
        assertThat(m.skins()).hasSize(1);
        assertThat(m.drawnSurface().triangles()).hasSize(3 * sphere.triangleCount());
        // a body without a skin is drawn as itself: the model's own arrays
        ModelBuilder plain = new ModelBuilder();
        plain.addTetBody(TetBodySpec.box("block", new float[3], new float[] {1, 1, 1}, 1, 1, 1, 1000f,
                new Elasticity(1e5f, 0.45f)));
        Model p = plain.build();
        assertThat(p.drawnSurface().skinned()).isFalse();
        assertThat(p.drawnSurface().triangles()).isSameAs(p.triangles());
        assertThat(p.drawnSurface().positions(p.restPositions())).isSameAs(p.restPositions());
    }

    private static TriangleMesh translated(TriangleMesh mesh, float dx, float dy, float dz) {
        float[] x = mesh.positions().clone();
        for (int i = 0; i < x.length; i += 3) {
            x[i] += dx;
            x[i + 1] += dy;
            x[i + 2] += dz;
        }
        return new TriangleMesh(x, mesh.uvs(), mesh.triangles());
    }
}
