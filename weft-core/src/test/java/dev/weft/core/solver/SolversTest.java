package dev.weft.core.solver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.InvalidInputException;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.implicit.ImplicitSolver;
import dev.weft.core.solver.massspring.MassSpringSolver;
import dev.weft.core.solver.pd.PdSolver;
import dev.weft.core.solver.relaxation.RelaxationSolver;
import dev.weft.core.solver.xpbd.IterationMode;
import dev.weft.core.solver.xpbd.XpbdSolver;
import org.junit.jupiter.api.Test;

/** The one registry: every name makes its solver, with its own part of the settings. */
class SolversTest {
    @Test
    void everyNameMakesItsSolverAndAnUnknownNameListsThem() {
        try (WorkerPool pool = new WorkerPool(1)) {
            assertThat(Solvers.create("xpbd", pool)).isInstanceOf(XpbdSolver.class);
            assertThat(Solvers.create("pbd", pool)).isInstanceOf(XpbdSolver.class);
            assertThat(Solvers.create("pd", pool)).isInstanceOf(PdSolver.class);
            assertThat(Solvers.create("implicit", pool)).isInstanceOf(ImplicitSolver.class);
            assertThat(Solvers.create("mass-spring", pool)).isInstanceOf(MassSpringSolver.class);
            assertThat(Solvers.create("relaxation", pool)).isInstanceOf(RelaxationSolver.class);
            assertThat(Solvers.names()).hasSize(6).doesNotHaveDuplicates();
            assertThatThrownBy(() -> Solvers.create("verlet", pool)).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("verlet").hasMessageContaining("xpbd, pd, pbd, implicit, mass-spring, relaxation");
        }
    }

    @Test
    void iterationsGoToTheNamedSolverInItsOwnSense() {
        SolverSettings d = SolverSettings.defaults();
        assertThat(d.withIterations("xpbd", 7).xpbd().iterations()).isEqualTo(7);
        assertThat(d.withIterations("pd", 7).pd().outerIterations()).isEqualTo(7);
        assertThat(d.withIterations("pd", 7).pd().innerIterations()).isEqualTo(d.pd().innerIterations());
        assertThat(d.withIterations("implicit", 7).implicit().maxIterations()).isEqualTo(7);
        assertThat(d.withIterations("implicit", 7).implicit().tolerance()).isEqualTo(d.implicit().tolerance());
        assertThat(d.withIterations("relaxation", 7).relaxation().iterations()).isEqualTo(7);
        // nothing else changes
        assertThat(d.withIterations("relaxation", 7).xpbd()).isEqualTo(d.xpbd());
        assertThatThrownBy(() -> d.withIterations("mass-spring", 7)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("mass-spring");
        // pbd is XPBD with rigid distances in the given mode (colored by default); seed 001's is its Jacobi mode
        assertThat(Solvers.pbd(d.xpbd()).mode()).isEqualTo(IterationMode.COLORED);
        assertThat(Solvers.pbd(d.xpbd()).rigid()).isTrue();
        assertThat(Solvers.jacobiPbd(d.xpbd()).mode()).isEqualTo(IterationMode.JACOBI);
        assertThat(Solvers.jacobiPbd(d.xpbd()).rigid()).isTrue();
        assertThat(Solvers.jacobiPbd(d.xpbd()).stretchPasses()).isEqualTo(1);
    }
}
