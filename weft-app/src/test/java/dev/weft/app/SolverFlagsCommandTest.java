package dev.weft.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A flag that only some solvers use, given with a solver that does not use it, is an error naming the
 * flag, the solver and the solvers that do use it, instead of being silently ignored; given with a
 * solver that uses it, it is taken.
 */
class SolverFlagsCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int weft(String command, Path tmp) {
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.addAll(List.of("--out", tmp.toString()));
        return WeftMain.execute(args.toArray(new String[0]), new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @ParameterizedTest(name = "weft {0}")
    @CsvSource(delimiter = '|', value = {
        "run --solver xpbd --linear jacobi | --linear: does not apply to --solver xpbd (it is used by: implicit)",
        "run --solver pd --tolerance 1e-3 | --tolerance: does not apply to --solver pd (it is used by: implicit)",
        "run --solver xpbd --springs mesh | --springs: does not apply to --solver xpbd (it is used by: implicit, mass-spring)",
        "run --solver relaxation --springs mesh | --springs: does not apply to --solver relaxation (it is used by: implicit, mass-spring)",
        "run --solver pd --mode jacobi | --mode: does not apply to --solver pd (it is used by: xpbd, pbd)",
        "run --solver implicit --mode colored | --mode: does not apply to --solver implicit (it is used by: xpbd, pbd)",
        "run --solver relaxation --stretch-passes 2 | --stretch-passes: does not apply to --solver relaxation (it is used by: xpbd, pbd)",
        "run --solver mass-spring --iterations 4 | --iterations: does not apply to --solver mass-spring (it is used by: xpbd, pbd, pd, implicit, relaxation)",
        "run --solver xpbd --inner-solver gs | --inner-solver: does not apply to --solver xpbd (it is used by: pd)",
        "run --solver implicit --omega 1.5 | --omega: does not apply to --solver implicit (it is used by: pd)",
        "run --solver relaxation --chebyshev | --chebyshev: does not apply to --solver relaxation (it is used by: pd)",
        "run --solver mass-spring --inner-iterations 2 | --inner-iterations: does not apply to --solver mass-spring (it is used by: pd)",
        "run --solver pd --stretch inf | --stretch: inf (rigid) is for xpbd, pbd and relaxation only; the pd solver needs a finite stiffness in N/m (cotton: 2000)",
        "run --solver implicit --shear inf | --shear: inf (rigid) is for xpbd, pbd and relaxation only; the implicit solver needs a finite stiffness in N/m (cotton: 500)",
        "run --render-size 320x200 | --render-size: sets the picture size of --render; give --render too",
        "bench --solvers pd --modes colored | --modes: does not apply to --solvers pd (it is used by: xpbd)",
        "bench --solvers pd --no-contacts | --no-contacts: does not apply to --solvers pd (it is used by: xpbd)",
        "bench --solvers xpbd --pd-inner rbgs | --pd-inner: does not apply to --solvers xpbd (it is used by: pd)",
        "bench --table seed000 --size 10 | --size: does not apply to --table seed000",
        "bench --table seed000 --iterations 5 | --iterations: does not apply to --table seed000",
        "bench --table seed000 --modes colored | --modes: does not apply to --table seed000",
        "bench --big | --big: applies to --table seed000 only",
        "bench --particles 100 | --particles: applies to --table seed000, seed004 and gpu only",
        "bench --device 1 | --device: applies to --table seed000, seed004 and gpu only",
        "bench --table tear --device 1 | --device: applies to --table seed000, seed004 and gpu only",
        "converge --solvers gs,rbgs --omega 1.5 | --omega: does not apply to --solvers gs,rbgs (it is used by: rbgs+sor)",
        "converge --experiment hanging --solvers jacobi --omega 1.5 | --omega: does not apply to --solvers jacobi (it is used by: rbgs+sor)",
        "converge --solvers jacobi --chebyshev-rho 0.9 | --chebyshev-rho: does not apply to --solvers jacobi (it is used by: jacobi+chebyshev)",
        "converge --solvers pbd-jacobi --stiffness 500 | --stiffness: does not apply to --solvers pbd-jacobi",
        "converge --still-size 64x48 | --still-size: sets figure 6.8's still frames, which only --experiment hanging draws",
        "converge --experiment hanging --no-frames --still-frames 2 | --still-frames: sets figure 6.8's still frames, which --no-frames skips",
        "converge --no-frames | --no-frames: does not apply to --experiment enlarged",
        "converge --experiment hanging --still-iterations rbgs=2,gs=2,jacobi=2 --still-budget 4 | --still-budget: does not apply when --still-iterations sets every row"
    })
    void aFlagTheChosenSolverDoesNotUseIsAnError(String command, String expected, @TempDir Path tmp) {
        assertThat(weft(command, tmp)).as(err.toString()).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).startsWith("weft: error: " + expected);
        assertThat(err.toString().lines()).hasSize(1);
        assertThat(tmp.toFile().list()).as("nothing run, nothing written").isEmpty();
    }

    @ParameterizedTest(name = "weft {0}")
    @CsvSource(delimiter = '|', value = {
        "run --solver xpbd --mode jacobi --iterations 2 --stretch inf --tear-strain 0.5",
        "run --solver pbd --iterations 2",
        "run --solver pbd --mode jacobi --stretch-passes 1 --iterations 2",
        "run --solver pd --inner-solver jacobi --chebyshev --inner-iterations 2 --stretch 1500 --shear 400 --iterations 2",
        "run --solver implicit --linear jacobi --tolerance 0 --springs mesh --iterations 5",
        "run --solver relaxation --damping 2 --iterations 4",
        "run --solver mass-spring --springs mesh --bend 2e-4 --damping 1.5 --substeps 400"
    })
    void aFlagTheChosenSolverUsesIsTaken(String command, @TempDir Path tmp) throws IOException {
        String[] common = {"drape", "--frames", "1", "--obj-every", "0", "--threads", "1", "--quiet"};
        String args = command.replaceFirst("^run ", "run " + String.join(" ", common) + " ");
        if (!args.contains("--substeps")) {
            args += " --substeps 2";
        }
        assertThat(weft(args, tmp)).as(err.toString()).isZero();
        assertThat(Files.readAllLines(tmp.resolve("drape").resolve("metrics.csv"))).hasSize(2);
    }
}
