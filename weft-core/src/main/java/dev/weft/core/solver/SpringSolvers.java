package dev.weft.core.solver;

import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.implicit.ImplicitSettings;
import dev.weft.core.solver.implicit.ImplicitSolver;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.massspring.MassSpringSolver;
import dev.weft.core.solver.relaxation.RelaxationSettings;
import dev.weft.core.solver.relaxation.RelaxationSolver;
import java.util.List;

/** The spring-based solvers by name: {@code implicit} (seed 000), {@code mass-spring} (seed 004), {@code relaxation} (seed 002). */
public final class SpringSolvers {
    private SpringSolvers() {
    }

    public static List<String> names() {
        return List.of("implicit", "mass-spring", "relaxation");
    }

    public static boolean handles(String name) {
        return names().contains(name);
    }

    /** Creates one of {@link #names()} with the given settings (the others are ignored). */
    public static Solver create(String name, ImplicitSettings implicit, MassSpringSettings massSpring,
                                RelaxationSettings relaxation, WorkerPool pool) {
        switch (name) {
            case "implicit":
                return new ImplicitSolver(implicit, pool);
            case "mass-spring":
                return new MassSpringSolver(massSpring, pool);
            case "relaxation":
                return new RelaxationSolver(relaxation, pool);
            default:
                throw new IllegalArgumentException("not a spring solver: " + name);
        }
    }

    /** With default settings. */
    public static Solver create(String name, WorkerPool pool) {
        return create(name, ImplicitSettings.defaults(), MassSpringSettings.defaults(), RelaxationSettings.defaults(), pool);
    }
}
