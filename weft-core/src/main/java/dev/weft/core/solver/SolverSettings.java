package dev.weft.core.solver;

import dev.weft.core.solver.implicit.ImplicitSettings;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.relaxation.RelaxationSettings;
import dev.weft.core.solver.xpbd.XpbdSettings;
import java.util.Objects;

/**
 * The settings of every solver family together, so that a solver can be created by name alone
 * ({@link Solvers#create(String, SolverSettings, dev.weft.core.parallel.WorkerPool)}) with whatever a
 * scene or the command line set; each solver reads only its own part ({@code pbd} reads the XPBD
 * settings, see {@link Solvers#pbd}).
 */
public record SolverSettings(XpbdSettings xpbd, PdSettings pd, ImplicitSettings implicit,
                             MassSpringSettings massSpring, RelaxationSettings relaxation) {
    public SolverSettings {
        Objects.requireNonNull(xpbd, "xpbd");
        Objects.requireNonNull(pd, "pd");
        Objects.requireNonNull(implicit, "implicit");
        Objects.requireNonNull(massSpring, "massSpring");
        Objects.requireNonNull(relaxation, "relaxation");
    }

    /** Every solver's defaults. */
    public static SolverSettings defaults() {
        return new SolverSettings(XpbdSettings.defaults(), PdSettings.defaults(), ImplicitSettings.defaults(),
                MassSpringSettings.defaults(), RelaxationSettings.defaults());
    }

    public SolverSettings withXpbd(XpbdSettings s) {
        return new SolverSettings(s, pd, implicit, massSpring, relaxation);
    }

    public SolverSettings withPd(PdSettings s) {
        return new SolverSettings(xpbd, s, implicit, massSpring, relaxation);
    }

    public SolverSettings withImplicit(ImplicitSettings s) {
        return new SolverSettings(xpbd, pd, s, massSpring, relaxation);
    }

    public SolverSettings withMassSpring(MassSpringSettings s) {
        return new SolverSettings(xpbd, pd, implicit, s, relaxation);
    }

    public SolverSettings withRelaxation(RelaxationSettings s) {
        return new SolverSettings(xpbd, pd, implicit, massSpring, s);
    }

    /**
     * {@code iterations} per step for solver {@code name}, in that solver's sense: XPBD/PBD iterations, PD
     * local/global alternations (its inner sweeps kept), the implicit solver's most linear iterations
     * (its tolerance kept), relaxation passes. Mass-spring has no iterations: an error.
     */
    public SolverSettings withIterations(String name, int iterations) {
        switch (Solvers.check(name)) {
            case "xpbd":
            case "pbd":
                return withXpbd(xpbd.withIterations(iterations));
            case "pd":
                return withPd(pd.withIterations(iterations, pd.innerIterations()));
            case "implicit":
                return withImplicit(implicit.withIterations(iterations, implicit.tolerance()));
            case "relaxation":
                return withRelaxation(relaxation.withIterations(iterations));
            default:
                throw new dev.weft.core.InvalidInputException("iterations",
                        "does not apply to the " + name + " solver (it has none)");
        }
    }
}
