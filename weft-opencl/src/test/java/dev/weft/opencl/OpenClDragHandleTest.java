package dev.weft.opencl;

import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.Solver;
import dev.weft.core.solver.Solvers;
import dev.weft.core.solver.implicit.ImplicitSettings;
import dev.weft.core.solver.implicit.ImplicitSolver;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.massspring.MassSpringSolver;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.pd.PdSolver;
import dev.weft.core.solver.relaxation.RelaxationSettings;
import dev.weft.core.solver.relaxation.RelaxationSolver;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.testing.DeviceTestScenes;
import dev.weft.core.testing.HandDrag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The viewer's hand ({@code DragHandle}, seed 001 §5.3.8's picking and dragging) on the device: it is a
 * collider record of colliders.cl ({@code COLLIDER_HAND}) that pulls its three particles towards the target
 * in the collider pass, as the CPU's collide does, and a pinned corner it holds is moved on the host before the
 * step ({@code driveParticles}), which the device solver uploads. The hand grabs a triangle of the hanging
 * cloth, moves its target 0.3 m sideways and 0.2 m up over 60 steps, holds, and lets go at step 90.
 */
class OpenClDragHandleTest {
    private static final float DT = 1f / 240f;
    private static final int N = 16;

    @ParameterizedTest(name = "{0}, compliance {1}, corner {2}")
    @CsvSource({
        "xpbd, 0, false", "xpbd, 0.001, false", "xpbd, 0, true", "pbd, 0, false", "pd, 0, false",
        "relaxation, 0, true", "mass-spring, 0.001, false", "implicit, 0, false"})
    void aHandDraggingTheClothGivesTheCpusBitsAndHoldsThePickedPointOnItsTarget(String name, float compliance,
                                                                                 boolean corner) {
        OpenClDevice device = OpenClAvailable.firstDevice();
        Model m = DeviceTestScenes.hangingCloth(new ModelBuilder(), N);
        // a triangle in the middle, or the first one (the pinned top-left corner is one of its particles)
        int triangle = corner ? 0 : m.triangles().length / 6 + N;
        HandDrag d = HandDrag.run(pool -> cpuSolver(name, pool), () -> deviceSolver(name, device), m,
                DeviceTestScenes.earthWith(DeviceTestScenes.ball()), triangle, compliance, DT);
        d.assertAgreesAndFollowed(OpenClAvailable.isPocl(device), compliance);
    }

    private static Solver cpuSolver(String name, WorkerPool pool) {
        switch (name) {
            case "xpbd":
                return new XpbdSolver(XpbdSettings.defaults(), pool);
            case "pbd":
                return new XpbdSolver(Solvers.jacobiPbd(XpbdSettings.defaults()), pool);
            case "pd":
                return new PdSolver(PdSettings.defaults(), pool);
            case "relaxation":
                return new RelaxationSolver(RelaxationSettings.defaults(), pool);
            case "mass-spring":
                return new MassSpringSolver(MassSpringSettings.defaults(), pool);
            default:
                return new ImplicitSolver(ImplicitSettings.defaults(), pool);
        }
    }

    private static Solver deviceSolver(String name, OpenClDevice device) {
        switch (name) {
            case "xpbd":
                return new OpenClXpbdSolver(XpbdSettings.defaults(), device);
            case "pbd":
                return new OpenClXpbdSolver(Solvers.jacobiPbd(XpbdSettings.defaults()), device);
            case "pd":
                return new OpenClPdSolver(PdSettings.defaults(), device);
            case "relaxation":
                return new OpenClRelaxationSolver(RelaxationSettings.defaults(), device);
            case "mass-spring":
                return new OpenClMassSpringSolver(MassSpringSettings.defaults(), device);
            default:
                return new OpenClImplicitSolver(ImplicitSettings.defaults(), device);
        }
    }
}
