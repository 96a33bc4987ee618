package dev.weft.render.compute;

import dev.weft.core.model.BendingModel;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.massspring.MassSpringSolver;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.testing.DeviceTestScenes;
import dev.weft.core.testing.HandDrag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The viewer's hand ({@code DragHandle}) in the GLSL compute solvers: a collider record ({@code COLLIDER_HAND}
 * in colliders.glsl, rewritten every step) pulling its three particles to their target points in the collider
 * pass as the CPU's collide does; a held pinned corner is moved on the host and uploaded. On llvmpipe the
 * CPU's bits (the shaders' operations are the CPU's, division correctly rounded); elsewhere within 1 mm under
 * XPBD, and mass-spring, whose dragged cloth is chaotic, held to following the hand.
 */
class GlslDragHandleTest {
    private static final float DT = 1f / 240f;
    private static final int N = 16;

    @ParameterizedTest(name = "{0}, compliance {1}, corner {2}")
    @CsvSource({"xpbd, 0, false", "xpbd, 0.001, false", "xpbd, 0, true", "mass-spring, 0, false",
        "mass-spring, 0.001, true"})
    void aHandDraggingTheClothGivesTheCpusBitsAndHoldsThePickedPointOnItsTarget(String name, float compliance,
                                                                                 boolean corner) {
        Model m = DeviceTestScenes.hangingCloth(new ModelBuilder().bendingModel(BendingModel.DISTANCE), N);
        int triangle = corner ? 0 : m.triangles().length / 6 + N;
        boolean xpbd = name.equals("xpbd");
        HandDrag d = HandDrag.run(
                pool -> xpbd ? new XpbdSolver(XpbdSettings.defaults(), pool)
                        : new MassSpringSolver(MassSpringSettings.defaults(), pool),
                () -> xpbd ? new GlslXpbdSolver(XpbdSettings.defaults())
                        : new GlslMassSpringSolver(MassSpringSettings.defaults()),
                m, DeviceTestScenes.earthWith(DeviceTestScenes.ball()), triangle, compliance, DT);
        if (xpbd || GlslDriver.cpuBits()) {
            d.assertAgreesAndFollowed(GlslDriver.cpuBits(), compliance);
        } else {
            d.assertFollowed(compliance); // chaotic under the hand: see HandDrag.assertFollowed
        }
    }
}
