package dev.weft.scene;

import dev.weft.core.solver.SolverSettings;
import dev.weft.core.solver.Solvers;
import dev.weft.core.solver.implicit.ImplicitSettings;
import dev.weft.core.solver.implicit.LinearMethod;
import dev.weft.core.solver.massspring.MassSpringSettings;
import dev.weft.core.solver.pd.InnerSolver;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.relaxation.RelaxationSettings;
import dev.weft.core.solver.xpbd.IterationMode;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.scene.SolverSteps;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A scene file's {@code solvers} (each family's method settings: iterations, modes, ω; materials are the
 * bodies') and {@code steps} (steps per frame and iterations per solver name, where a solver needs its own
 * to keep the scene's cloth within its strain).
 */
final class SolverReader {
    static final String[] FAMILIES = {"xpbd", "pd", "implicit", "relaxation", "massSpring"};
    static final String[] XPBD_KEYS = {"mode", "iterations", "stretchPasses", "rigid", "tethers", "stretchLimits",
            "stretchSmoothing"};
    static final String[] PD_KEYS = {"outer", "inner", "solver", "omega", "tethers"};
    static final String[] IMPLICIT_KEYS = {"method", "iterations", "tolerance", "tethers"};
    static final String[] RELAXATION_KEYS = {"iterations", "tethers"};
    static final String[] MASS_SPRING_KEYS = {"stableSteps", "tethers"};
    static final String[] STEP_KEYS = {"substeps", "iterations"};

    private SolverReader() {
    }

    static SolverSettings settings(JsonValue v) {
        SolverSettings s = SolverSettings.defaults();
        if (v == null) {
            return s;
        }
        Fields f = Fields.of(v, "solvers", FAMILIES);
        if (f.has("xpbd")) {
            Fields x = Fields.of(f.get("xpbd"), "xpbd's settings", XPBD_KEYS);
            XpbdSettings d = s.xpbd();
            s = s.withXpbd(BodyReader.at(x.value(), () -> new XpbdSettings(
                    mode(x, d.mode()), x.integer("iterations", d.iterations(), 1, 10_000), x.bool("tethers", d.tethers()),
                    x.integer("stretchPasses", d.stretchPasses(), 0, 100), x.bool("rigid", d.rigid()),
                    x.bool("stretchLimits", d.stretchLimits()), x.bool("stretchSmoothing", d.stretchSmoothing()))));
        }
        if (f.has("pd")) {
            Fields p = Fields.of(f.get("pd"), "pd's settings", PD_KEYS);
            PdSettings d = s.pd();
            PdSettings pd = d.withIterations(p.integer("outer", d.outerIterations(), 1, 10_000),
                    p.integer("inner", d.innerIterations(), 1, 10_000));
            if (p.has("solver")) {
                pd = pd.withInner(inner(p.get("solver")));
            }
            float omega = (float) p.number("omega", pd.omega(), Double.MIN_VALUE, 1.999, "(over-relaxation, < 2)");
            PdSettings chosen = pd;
            // inside at(): an omega the inner solver takes none of (cholesky) is named with the file's place
            s = s.withPd(BodyReader.at(p.value(), () -> {
                PdSettings withOmega = chosen.withOmega(omega);
                return withOmega.withTethers(p.bool("tethers", withOmega.tethers()));
            }));
        }
        if (f.has("implicit")) {
            Fields i = Fields.of(f.get("implicit"), "implicit's settings", IMPLICIT_KEYS);
            ImplicitSettings d = s.implicit();
            ImplicitSettings im = d.withIterations(i.integer("iterations", d.maxIterations(), 1, 1_000_000),
                    (float) i.number("tolerance", d.tolerance(), Double.MIN_VALUE, 1, ""));
            if (i.has("method")) {
                String m = Fields.choice(i.get("method"), "cg", "jacobi");
                im = im.withMethod("cg".equals(m) ? LinearMethod.CG : LinearMethod.JACOBI);
            }
            s = s.withImplicit(im.withTethers(i.bool("tethers", im.tethers())));
        }
        if (f.has("relaxation")) {
            Fields r = Fields.of(f.get("relaxation"), "relaxation's settings", RELAXATION_KEYS);
            RelaxationSettings d = s.relaxation();
            s = s.withRelaxation(d.withIterations(r.integer("iterations", d.iterations(), 1, 10_000))
                    .withTethers(r.bool("tethers", d.tethers())));
        }
        if (f.has("massSpring")) {
            Fields m = Fields.of(f.get("massSpring"), "mass-spring's settings", MASS_SPRING_KEYS);
            MassSpringSettings d = s.massSpring();
            s = s.withMassSpring(d.withStableSteps(m.bool("stableSteps", d.stableSteps()))
                    .withTethers(m.bool("tethers", d.tethers())));
        }
        return s;
    }

    private static IterationMode mode(Fields x, IterationMode fallback) {
        if (!x.has("mode")) {
            return fallback;
        }
        String[] labels = new String[IterationMode.values().length];
        for (int k = 0; k < labels.length; k++) {
            labels[k] = IterationMode.values()[k].label();
        }
        String m = Fields.choice(x.get("mode"), labels);
        for (IterationMode mode : IterationMode.values()) {
            if (mode.label().equals(m)) {
                return mode;
            }
        }
        throw new AssertionError(m);
    }

    private static InnerSolver inner(JsonValue v) {
        String[] labels = new String[InnerSolver.values().length];
        for (int k = 0; k < labels.length; k++) {
            labels[k] = InnerSolver.values()[k].label();
        }
        String m = Fields.choice(v, labels);
        for (InnerSolver s : InnerSolver.values()) {
            if (s.label().equals(m)) {
                return s;
            }
        }
        throw new AssertionError(m);
    }

    static Map<String, SolverSteps> steps(JsonValue v) {
        Map<String, SolverSteps> out = new LinkedHashMap<>();
        if (v == null) {
            return out;
        }
        Fields f = Fields.of(v, "steps per solver", Solvers.names().toArray(new String[0]));
        for (String name : Solvers.names()) {
            if (f.has(name)) {
                Fields s = Fields.of(f.get(name), name + "'s steps", STEP_KEYS);
                out.put(name, new SolverSteps(
                        Fields.integer(s.required("substeps", "steps per frame for " + name), 1, 100_000),
                        s.integer("iterations", 0, 0, 100_000)));
            }
        }
        return out;
    }
}
