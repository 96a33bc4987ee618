package dev.weft.core.solver.xpbd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.metrics.BodyVolume;
import dev.weft.core.model.Elasticity;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.model.TetBodySpec;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.step.Environment;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue #18's soft body: the 22³-node rubber block of {@code weft bench --table softbody} (10,648 nodes,
 * 55,566 tetrahedra, E = 0.5 MPa, ν = 0.45) dropped 0.1 m onto the floor under XPBD, one iteration a substep.
 * A real block of ν = 0.45 loses well under 1 % of its volume landing (ρ g L / E ≈ 1.4 % strain, (1 − 2ν) of
 * it volumetric); what XPBD loses is its unconverged sweeps. With volume and shape solved together
 * ({@link TetProjection}'s 2 × 2 step) the landing's peak is 9.5 % at 5 substeps and 7.1 % at 6, and after it
 * (frames 40–64, the body rocking) 5.1 % and 3.6 %; projected one after the other the peaks were 10.6 % and
 * 8.1 % (after: 5.5 % and 3.8 %), so the peak bounds fail if the coupling is lost. The bound after landing
 * is issue #18's target (5 %).
 */
@Tag("slow")
class TetLandingVolumeTest {
    /** {largest |V/V₀ − 1| over the first 65 frames at 60 frames/s, largest over frames 40–64 (after landing)}. */
    private static double[] volumeErrors(int substeps) {
        ModelBuilder b = new ModelBuilder();
        b.material(Material.cloth().withDamping(1f).withFriction(1f));
        float side = 0.03f * 21;
        b.addTetBody(TetBodySpec.box("block", new float[] {-side / 2, 0.1f, -side / 2},
                new float[] {side / 2, 0.1f + side, side / 2}, 21, 21, 21, 1100f, new Elasticity(5e5f, 0.45f)));
        Model model = b.build();
        ModelObject body = model.objects().get(0);
        double rest = BodyVolume.of(model, body, model.restPositions());
        double peak = 0;
        double after = 0;
        try (WorkerPool pool = new WorkerPool(2);
             Simulation sim = new Simulation(model, State.atRest(model),
                     new XpbdSolver(XpbdSettings.defaults().withIterations(1), pool),
                     new Environment(new float[] {0f, -9.81f, 0f}, List.of(PlaneCollider.floor(0f, 0.005f, 0.6f))),
                     substeps)) {
            for (int f = 0; f < 65; f++) {
                sim.advance(1f / 60f);
                double error = Math.abs(BodyVolume.of(model, body, sim.state().positions()) / rest - 1);
                peak = Math.max(peak, error);
                if (f >= 40) {
                    after = Math.max(after, error);
                }
            }
        }
        return new double[] {peak, after};
    }

    @Test
    void fiveSubstepsKeepTheLandingWithinTenPercent() {
        double[] e = volumeErrors(5);
        assertThat(e[0]).as("peak volume error, 5 substeps").isLessThan(0.10);
    }

    @Test
    void sixSubstepsKeepTheRestingBodyWithinFivePercent() {
        double[] e = volumeErrors(6);
        assertThat(e[0]).as("peak volume error, 6 substeps").isLessThan(0.075);
        assertThat(e[1]).as("volume error after landing, 6 substeps").isLessThan(0.05);
    }
}
