package dev.weft.core.step;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.Solver;
import dev.weft.core.solver.Solvers;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A collider that nothing touches changes nothing: a damped cloth swinging from its pins steps to the same bits
 * with a floor far below it as without one, under every position-based solver. (Without colliders or contacts
 * the step's frame settles and finishes the velocities in one pass; with them, in two with the colliders
 * between; the two must agree, a −0 velocity included.)
 */
class UntouchedColliderTest {
    @Test
    void aFloorNothingReachesLeavesEveryPositionBasedSolverBitForBit() {
        ModelBuilder b = new ModelBuilder();
        b.material(Material.cloth().withDamping(0.3f));
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", 12, 12, 1f, 1f).withOrigin(0.1f, 2f, -0.3f));
        b.pinEdge(cloth, "top");
        Model m = b.build();
        Environment bare = Environment.earth();
        Environment floor = bare.withColliders(new dev.weft.core.collide.Collider[] {
                new PlaneCollider("floor", new float[] {0f, -50f, 0f}, new float[] {0f, 1f, 0f}, 0.01f, 0.5f)});
        for (String name : List.of("xpbd", "pbd", "pd", "relaxation", "mass-spring")) {
            float[][] without = run(name, m, bare);
            float[][] with = run(name, m, floor);
            assertThat(with[0]).as(name + " positions").containsExactly(without[0]);
            assertThat(with[1]).as(name + " velocities").containsExactly(without[1]);
            // and the cloth did swing: the comparison is of something that moved
            float fastest = 0f;
            for (float v : without[1]) {
                fastest = Math.max(fastest, Math.abs(v));
            }
            assertThat(fastest).as(name + " fastest velocity component").isGreaterThan(0.1f);
        }
    }

    private static float[][] run(String name, Model m, Environment env) {
        State s = State.atRest(m);
        try (WorkerPool pool = new WorkerPool(1)) {
            Solver solver = Solvers.create(name, pool);
            for (int k = 0; k < 60; k++) {
                solver.step(m, s, env, 1f / 240f);
            }
        }
        return new float[][] {s.positions().clone(), s.velocities().clone()};
    }
}
