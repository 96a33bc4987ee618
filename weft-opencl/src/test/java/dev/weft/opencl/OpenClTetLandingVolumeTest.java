package dev.weft.opencl;

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
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.step.Environment;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * weft-core's TetLandingVolumeTest on the OpenCL XPBD solver: the 22³-node rubber block (10,648 nodes, 55,566
 * tetrahedra, E = 0.5 MPa, ν = 0.45) dropped 0.1 m onto the floor, one iteration a substep, 65 frames at 60
 * frames/s, the whole frame's substeps on the device. The same bounds as on the CPU: at 6 substeps the peak
 * volume error under 7.5 % and, after the landing (frames 40–64), under 5 % (issue #18's target). On PoCL the
 * device computes the CPU's bits (OpenClXpbdTetTest), so it measures what the CPU does; on another device it
 * must keep the bounds on its own.
 */
@Tag("slow")
class OpenClTetLandingVolumeTest {
    @Test
    void sixSubstepsKeepTheRestingBodyWithinFivePercentOnTheDevice() {
        OpenClDevice device = OpenClAvailable.firstDevice();
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
        float lowest = Float.POSITIVE_INFINITY;
        try (Simulation sim = new Simulation(model, State.atRest(model),
                new OpenClXpbdSolver(XpbdSettings.defaults().withIterations(1), device),
                new Environment(new float[] {0f, -9.81f, 0f}, List.of(PlaneCollider.floor(0f, 0.005f, 0.6f))), 6)) {
            for (int f = 0; f < 65; f++) {
                sim.advance(1f / 60f);
                float[] x = sim.state().positions();
                double error = Math.abs(BodyVolume.of(model, body, x) / rest - 1);
                peak = Math.max(peak, error);
                if (f >= 40) {
                    after = Math.max(after, error);
                }
                for (int i = 1; i < x.length; i += 3) {
                    lowest = Math.min(lowest, x[i]);
                }
            }
        }
        System.out.printf("OpenCL: the rubber block's volume error, 6 substeps: peak %.2f %%, after landing %.2f %%%n",
                100 * peak, 100 * after);
        assertThat(lowest).as("it landed: its lowest node reached the floor's 5 mm").isLessThan(0.0051f);
        assertThat(peak).as("peak volume error, 6 substeps").isLessThan(0.075);
        assertThat(after).as("volume error after landing, 6 substeps").isLessThan(0.05);
    }
}
