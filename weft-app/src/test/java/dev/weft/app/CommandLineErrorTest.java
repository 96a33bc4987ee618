package dev.weft.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every command-line mistake, in every command, is one line {@code weft: error: ...} naming the flag
 * and what is allowed, then one line naming the help: no usage dump, no stack trace, status 2.
 */
class CommandLineErrorTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int weft(String... args) {
        return WeftMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    /** Runs {@code args} (plus --out into tmp) and returns the error line, after checking the form of the answer. */
    private String errorLineOf(String command, Path tmp) {
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        if (!args.get(0).startsWith("-") && !args.get(0).equals("scenes") && !args.get(0).equals("nosuchcommand")) {
            args.addAll(List.of("--out", tmp.toString()));
        }
        int code = weft(args.toArray(new String[0]));
        assertThat(code).as("status of weft %s; stderr: %s", command, err).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        List<String> lines = err.toString().lines().toList();
        assertThat(lines).as("stderr of weft %s", command).hasSize(2);
        assertThat(lines.get(0)).startsWith("weft: error: ");
        assertThat(lines.get(1)).matches("try 'weft( [a-z]+)? --help'");
        assertThat(err.toString()).doesNotContain("Usage:", "Exception", "\tat ");
        assertThat(out.toString()).as("nothing on stdout: no usage there either").isEmpty();
        assertThat(tmp.toFile().list()).as("nothing written").isEmpty();
        return lines.get(0);
    }

    @Test
    void aWordWhereAnIntegerBelongsNamesTheFlagAndSaysAnIntegerIsAllowed(@TempDir Path tmp) {
        assertThat(errorLineOf("run --iterations abc", tmp))
                .isEqualTo("weft: error: --iterations: must be an integer such as 4, got 'abc'");
        assertThat(err.toString()).contains("try 'weft run --help'");
    }

    @Test
    void anIntegerTooLargeForTheFlagNamesTheFlagAndTheLargestAllowed(@TempDir Path tmp) {
        assertThat(errorLineOf("run --frames 99999999999", tmp))
                .isEqualTo("weft: error: --frames: must be an integer no larger than 2147483647, got 99999999999");
    }

    @Test
    void anUnknownFlagIsNamedWithTheCommand(@TempDir Path tmp) {
        assertThat(errorLineOf("run --bogus", tmp)).isEqualTo("weft: error: --bogus: unknown option of 'weft run'");
    }

    @Test
    void aMistypedFlagSuggestsTheNearestOne(@TempDir Path tmp) {
        assertThat(errorLineOf("run --frams 3", tmp)).contains("--frams: unknown option of 'weft run'")
                .contains("did you mean --frames?");
    }

    @ParameterizedTest(name = "weft {0}")
    @CsvSource(delimiter = '|', value = {
        "run --fps fast | --fps: must be a number such as 2, 0.5 or 1e-4, got 'fast'",
        "run --frames | --frames: needs a value N after it",
        "run --frames 2 --frames 3 | --frames: given more than once",
        "run drape hanging | 'hanging': unexpected argument; 'weft run' takes at most 1 (SCENE)",
        "run --wind 1,x,3 | --wind: each of X,Y,Z must be a number such as 2, 0.5 or 1e-4, got 'x'",
        "run --quiet=maybe | --quiet: takes no value",
        "run --threads -99999999999 | --threads: must be an integer no smaller than -2147483648",
        "render --width 1e3 | --width: must be an integer such as 4, got '1e3'",
        "render --bogus | --bogus: unknown option of 'weft render'",
        "bench --threads 1,two | --threads: each T must be an integer such as 4, got 'two'",
        "bench --contacts=maybe | --contacts: takes no value",
        "bench --samples 1e9 | --samples: must be an integer such as 4, got '1e9'",
        "converge --budgets 1,y | --budgets: each MS must be a number such as 2, 0.5 or 1e-4, got 'y'",
        "converge --still-iterations rbgs=x | --still-iterations: the value of each SOLVER=N must be an integer",
        "converge --still-iterations rbgs | --still-iterations: each value must have the form SOLVER=N, got 'rbgs'",
        "converge --nope | --nope: unknown option of 'weft converge'",
        "scenes --all | --all: unknown option of 'weft scenes'",
        "scenes extra | 'extra': unexpected argument; 'weft scenes' takes no arguments",
        "nosuchcommand | 'nosuchcommand': unknown command; the commands are run, bench, scenes, render, converge",
        "--bogus | --bogus: unknown option of 'weft'"
    })
    void everyCommandAnswersAParseErrorInOneLine(String command, String expected, @TempDir Path tmp) {
        assertThat(errorLineOf(command, tmp)).startsWith("weft: error: " + expected);
    }

    @ParameterizedTest(name = "weft {0}")
    @CsvSource(delimiter = '|', value = {
        "run --frames 0 | --frames: must be an integer >= 1, got 0",
        "run --solver magic | --solver: unknown solver 'magic'; available: xpbd, pd, pbd",
        "bench --iterations 0 | --iterations: must be an integer >= 1, got 0",
        "bench --warmup -1 | --warmup: must be an integer >= 0, got -1",
        "converge --omega 3 | --omega: must be a number in (0, 2)",
        "converge --chebyshev-rho -1 | --chebyshev-rho: must be a number in (0, 1), or 0 for automatic",
        "converge --stiffness 0 | --stiffness: must be a finite number > 0",
        "run --stretch soft | --stretch: must be a stiffness > 0 in N/m, or inf, got 'soft'",
        "run --shear 0 | --shear: must be a stiffness > 0 in N/m, or inf, got 0",
        "run --bend -1 | --bend: must be a finite number >= 0 (N·m), got -1.0",
        "run --damping NaN | --damping: must be a finite number >= 0 (1/s), got NaN",
        "run --tear-strain 0 | --tear-strain: must be a strain > 0 (0.3: tears at 30 % stretch) or inf, got 0",
        "render --stretch -5 | --stretch: must be a stiffness > 0 in N/m, or inf, got -5",
        "run --friction -1 | --friction: must be a finite number >= 0 (a factor on the contacts' friction",
        "run --thickness -0.01 | --thickness: must be a finite number >= 0 (m), got -0.01",
        "run --stiffness 0 | --stiffness: must be a finite number > 0 (N/m), got 0.0",
        "run --stiffness 500 --shear 400 | --stiffness: sets --stretch and --shear at once; give either it or them",
        "run --verlet-damping 1.5 | --verlet-damping: must be in (0, 1] (1 = undamped), got 1.5"
    })
    void valuesTheCommandRejectsAreNamedByTheirFlagToo(String command, String expected, @TempDir Path tmp) {
        int code = weft((command + " --out " + tmp).split(" "));
        assertThat(code).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString().lines().toList()).hasSize(1)
                .first().asString().startsWith("weft: error: " + expected);
        assertThat(err.toString()).doesNotContain("Usage:", "Exception");
    }
}
