package dev.weft.core.solver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.implicit.ImplicitSettings;
import dev.weft.core.solver.implicit.ImplicitSolver;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.massspring.MassSpringSolver;
import dev.weft.core.solver.relaxation.RelaxationSettings;
import dev.weft.core.solver.relaxation.RelaxationSolver;
import java.util.List;
import org.junit.jupiter.api.Test;

class AeroForcesTest {
    private static final float RHO = 1.2f;

    /** A horizontal 2 × 2 particle square of 1 m² (two triangles), normal ±y. */
    private static Model square() {
        ModelBuilder b = new ModelBuilder();
        b.addGridCloth(GridClothSpec.of("sq", 2, 2, 1f, 1f));
        return b.build();
    }

    private static double[] total(AeroForces aero, int n) {
        double[] t = new double[3];
        for (int i = 0; i < n; i++) {
            t[0] += aero.fx(i);
            t[1] += aero.fy(i);
            t[2] += aero.fz(i);
        }
        return t;
    }

    @Test
    void aFaceParallelToTheWindGetsNoPressureForce() {
        Model m = square();
        AeroForces aero = new AeroForces(m);
        Environment env = Environment.earth().withWind(new float[] {7f, 0f, 3f}).withAir(RHO, 1f, 0f);
        try (WorkerPool pool = new WorkerPool(1)) {
            aero.compute(pool, m.restPositions(), new float[12], env);
        }
        for (double f : aero.forces()) {
            assertThat(f).isZero(); // cos θ = 0 exactly: the wind lies in the face's plane
        }
        // with friction drag the face is dragged along the wind, still with nothing along its normal
        Environment withFriction = env.withAir(RHO, 1f, 0.05f);
        try (WorkerPool pool = new WorkerPool(1)) {
            aero.compute(pool, m.restPositions(), new float[12], withFriction);
        }
        double[] t = total(aero, 4);
        assertThat(t[1]).isZero();
        double speed = Math.sqrt(49 + 9);
        // ½ ρ C_f A |w| w: along the wind
        assertThat(t[0]).isCloseTo(0.5 * RHO * 0.05 * 1.0 * speed * 7, within(1e-6));
        assertThat(t[2]).isCloseTo(0.5 * RHO * 0.05 * 1.0 * speed * 3, within(1e-6));
    }

    @Test
    void pressureFollowsTheAngleBetweenWindAndNormal() {
        Model m = square();
        AeroForces aero = new AeroForces(m);
        try (WorkerPool pool = new WorkerPool(1)) {
            for (double deg : new double[] {90, 60, 30}) { // angle between the wind and the face
                double a = Math.toRadians(deg);
                float[] wind = {(float) (10 * Math.cos(a)), (float) (-10 * Math.sin(a)), 0f};
                aero.compute(pool, m.restPositions(), new float[12],
                        Environment.earth().withWind(wind).withAir(RHO, 1f, 0f));
                double[] t = total(aero, 4);
                // ½ ρ C A |w|² sin(angle to face): along the normal, in the wind's sense (down here)
                assertThat(t[1]).isCloseTo(-0.5 * RHO * 1.0 * 100 * Math.sin(a), within(1e-4));
                assertThat(t[0]).isCloseTo(0.0, within(1e-9));
                // a third of each triangle's force on each corner: the corners of the diagonal get 2/6
                assertThat(aero.fy(0)).isCloseTo(t[1] * 2 / 6, within(1e-6));
                assertThat(aero.fy(1)).isCloseTo(t[1] / 6, within(1e-6));
            }
        }
    }

    @Test
    void stillAirDragsAgainstTheFacesMotion() {
        Model m = square();
        AeroForces aero = new AeroForces(m);
        float[] v = new float[12];
        for (int i = 0; i < 4; i++) {
            v[3 * i + 1] = -2f; // falling at 2 m/s
        }
        try (WorkerPool pool = new WorkerPool(1)) {
            aero.compute(pool, m.restPositions(), v, Environment.earth().withAir(RHO, 1f, 0f));
        }
        assertThat(total(aero, 4)[1]).isCloseTo(0.5 * RHO * 1.0 * 4, within(1e-6)); // upward
        // and no air, no force
        try (WorkerPool pool = new WorkerPool(1)) {
            aero.compute(pool, m.restPositions(), v, Environment.earth());
        }
        assertThat(total(aero, 4)).containsExactly(0, 0, 0);
    }

    /** A 0.6 × 0.4 m flag hanging in the XY plane from a pole along its left edge. */
    private static Model flag() {
        ModelBuilder b = new ModelBuilder();
        ModelObject f = b.addGridCloth(new GridClothSpec("flag", 13, 9, 0.6f, 0.4f, new float[] {0f, 2f, 0f},
                GridClothSpec.VERTICAL[0], GridClothSpec.VERTICAL[1], GridClothSpec.DEFAULT_MASS_PER_AREA, true));
        b.pinEdge(f, "left");
        return b.build();
    }

    @Test
    void windPushesAPinnedFlagDownwindWithEverySolver() {
        // wind of 8 m/s along +z, square to the flag; a slight x component so it streams out too
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of())
                .withWind(new float[] {2f, 0f, 8f}).withAir(RHO, 1f, 0.02f);
        for (String solver : new String[] {"implicit", "mass-spring", "relaxation"}) {
            Model m = flag();
            double calm = meanZ(m, solver, Environment.earth());
            double windy = meanZ(m, solver, env);
            assertThat(calm).as(solver).isCloseTo(0.0, within(1e-6)); // hangs in its plane
            // downwind by a good part of its 0.6 m length
            assertThat(windy).as(solver).isGreaterThan(0.1);
        }
    }

    private static double meanZ(Model m, String solver, Environment env) {
        try (WorkerPool pool = new WorkerPool(1)) {
            Solver s;
            int substeps;
            switch (solver) {
                case "implicit": s = new ImplicitSolver(ImplicitSettings.defaults(), pool); substeps = 2; break;
                case "mass-spring": s = new MassSpringSolver(MassSpringSettings.defaults(), pool); substeps = 200; break; // explicit: h·√(k/m) new MassSpringSolver(MassSpringSettings.defaults(), pool); substeps = 40; break;lt; 2
                default: s = new RelaxationSolver(RelaxationSettings.defaults(), pool); substeps = 2; break;
            }
            try (Simulation sim = new Simulation(m, State.atRest(m), s, env, substeps)) {
                for (int f = 0; f < 60; f++) {
                    sim.advance(1f / 30f);
                }
                float[] x = sim.state().positions();
                double z = 0;
                for (int i = 0; i < m.particleCount(); i++) {
                    z += x[3 * i + 2];
                }
                return z / m.particleCount();
            }
        }
    }
}
