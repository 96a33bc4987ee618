package dev.weft.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** {@code weft run --solver pd|pbd} and its flags. */
class RunPdCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int weft(String... args) {
        return WeftMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @ParameterizedTest
    @ValueSource(strings = {"pd --inner-solver gs", "pd --inner-solver jacobi --chebyshev --iterations 8 --inner-iterations 1",
            "pd --inner-solver rbgs --omega 1.7", "pd --inner-solver cholesky --iterations 1", "pbd"})
    void projectiveDynamicsAndPbdRunTheDefaultScene(String flags, @TempDir Path tmp) throws IOException {
        List<String> args = new java.util.ArrayList<>(List.of("run", "--frames", "4", "--obj-every", "0", "--threads",
                "2", "--substeps", "4", "--quiet", "--out", tmp.toString(), "--solver"));
        args.addAll(List.of(flags.split(" ")));
        int code = weft(args.toArray(new String[0]));
        assertThat(code).as(err.toString()).isZero();
        List<String> rows = Files.readAllLines(tmp.resolve("drape").resolve("metrics.csv"));
        assertThat(rows).hasSize(5);
        for (String row : rows.subList(1, rows.size())) {
            String[] c = row.split(",");
            assertThat(Double.isFinite(Double.parseDouble(c[3]))).as(row).isTrue();
            // falling from rest, it gains kinetic energy
            assertThat(Double.parseDouble(c[5])).as(row).isGreaterThan(0.0);
        }
        assertThat(out.toString()).contains("solver " + flags.split(" ")[0]);
    }

    @Test
    void badProjectiveDynamicsFlagsExitWithStatus2(@TempDir Path tmp) {
        assertThat(weft("run", "--solver", "pd", "--inner-solver", "sor", "--out", tmp.toString()))
                .isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--inner-solver").contains("gs, jacobi, rbgs").contains("cholesky");
        err.getBuffer().setLength(0);
        assertThat(weft("run", "--solver", "pd", "--omega", "2", "--out", tmp.toString()))
                .isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--omega").contains("(0, 2)");
        err.getBuffer().setLength(0);
        assertThat(weft("run", "--solver", "pd", "--chebyshev", "--out", tmp.toString()))
                .isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--chebyshev").contains("jacobi");
        err.getBuffer().setLength(0);
        assertThat(weft("run", "--solver", "pd", "--inner-solver", "cholesky", "--omega", "1.5", "--out",
                tmp.toString())).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--omega").contains("cholesky");
        err.getBuffer().setLength(0);
        assertThat(weft("run", "--solver", "xpbd", "--inner-solver", "gs", "--out", tmp.toString()))
                .isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--inner-solver: does not apply to --solver xpbd (it is used by: pd)");
        assertThat(tmp.resolve("drape").resolve("metrics.csv")).doesNotExist();
    }
}
