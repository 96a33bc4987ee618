package dev.weft.app;

import dev.weft.core.InvalidInputException;
import dev.weft.core.solver.SolverSettings;
import dev.weft.core.solver.implicit.ImplicitSettings;
import dev.weft.core.solver.implicit.LinearMethod;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.relaxation.RelaxationSettings;
import dev.weft.core.model.SpringLayout;
import dev.weft.core.scene.Scene;
import dev.weft.core.step.Environment;
import picocli.CommandLine.Option;

/** Command-line options of the spring solvers ({@code implicit}, {@code mass-spring}, {@code relaxation}) and the wind. */
final class SpringSolverOptions {
    @Option(names = "--linear", paramLabel = "METHOD",
            description = "implicit: linear solver cg or jacobi (default: cg).")
    String linear = "cg";

    @Option(names = "--tolerance", paramLabel = "TOL",
            description = "implicit: relative residual at which the linear solver stops; 0 runs all --iterations "
                    + "(default: 1e-4).")
    float tolerance = 1e-4f;

    @Option(names = "--springs", paramLabel = "LAYOUT",
            description = "implicit, mass-spring: the model's springs, stencil24 (seed 000), pattern12 (seed 004) "
                    + "or mesh (default: the scene's; drape pattern12, the others stencil24).")
    String springs;

    @Option(names = "--fixed-steps",
            description = "mass-spring: one Verlet step per substep, as seed 004 runs it; a substep longer than "
                    + "the springs' stable step then blows up (default: each substep split into stable steps).")
    boolean fixedSteps;

    @Option(names = "--wind", split = ",", paramLabel = "X,Y,Z",
            description = "Wind velocity in m/s, with sea-level air (density 1.2 kg/m³, pressure drag 1, "
                    + "friction drag 0.02), for every solver; replaces the scene's own wind (the flag scene has one).")
    float[] wind;

    /**
     * {@code base} with these options in the spring solvers' settings; {@code iterations} (may be null)
     * is the implicit solver's maximum linear iterations and the relaxation passes.
     */
    SolverSettings apply(SolverSettings base, Integer iterations) {
        if (iterations != null && iterations < 1) {
            throw new InvalidInputException("--iterations", "must be an integer >= 1, got " + iterations);
        }
        if (!(tolerance >= 0f) || !Float.isFinite(tolerance)) {
            throw new InvalidInputException("--tolerance", "must be a finite number >= 0, got " + tolerance);
        }
        ImplicitSettings implicit = base.implicit().withMethod(LinearMethod.parse("--linear", linear));
        implicit = implicit.withIterations(iterations == null ? implicit.maxIterations() : iterations, tolerance);
        MassSpringSettings massSpring = base.massSpring();
        massSpring = massSpring.withStableSteps(!fixedSteps);
        RelaxationSettings relaxation = new RelaxationSettings(
                iterations == null ? base.relaxation().iterations() : iterations, base.relaxation().tethers());
        return base.withImplicit(implicit).withMassSpring(massSpring).withRelaxation(relaxation);
    }

    /** {@code scene} with its model's springs in the {@code --springs} layout, when one was given. */
    Scene springs(Scene scene) {
        return springs == null ? scene
                : scene.withModel(scene.model().withSpringLayout(SpringLayout.parse("--springs", springs)));
    }

    /** The scene's environment, with the wind when one was given. */
    Environment environment(Environment base) {
        if (wind == null) {
            return base;
        }
        if (wind.length != 3) {
            throw new InvalidInputException("--wind", "needs three numbers X,Y,Z in m/s, got " + wind.length);
        }
        for (float c : wind) {
            if (!Float.isFinite(c)) {
                throw new InvalidInputException("--wind", "components must be finite numbers");
            }
        }
        return base.withWind(wind).withAir(1.2f, 1f, 0.02f);
    }
}
