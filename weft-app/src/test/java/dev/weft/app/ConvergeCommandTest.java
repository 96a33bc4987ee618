package dev.weft.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConvergeCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int weft(String... args) {
        return WeftMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void enlargedExperimentWritesCurvesBudgetsAndSeedFigures(@TempDir Path tmp) throws IOException {
        int code = weft("converge", "--experiment", "enlarged", "--size", "12", "--frames", "1", "--iterations", "3",
                "--budgets", "1,8", "--solvers", "gs,jacobi,rbgs,rbgs+sor", "--samples", "1", "--threads", "1",
                "--out", tmp.toString());
        assertThat(code).as(err.toString()).isZero();
        Path dir = tmp.resolve("converge").resolve("enlarged");
        List<String> iter = Files.readAllLines(dir.resolve("residual_vs_iteration.csv"));
        assertThat(iter.get(0)).isEqualTo("solver,iteration,residual_m2");
        assertThat(iter).hasSize(1 + 4 * 8 * 3); // 4 solvers x 8 steps x 3 iterations
        // progress on standard error (not a terminal: plain lines): the last one is every solver's 8 steps for the
        // iteration curve and for each of the 2 budgets done
        assertThat(err.toString().lines().reduce((x, y) -> y)).hasValueSatisfying(last ->
                assertThat(last).startsWith("  96/96 (100 %) rbgs+sor: 8 ms per step").doesNotContain("\r"));
        // only the solver moves the enlarged cloth: every solver's residual falls, iteration after iteration
        for (String solver : List.of("gs", "jacobi", "rbgs")) {
            double previous = Double.MAX_VALUE;
            for (String row : iter) {
                String[] c = row.split(",");
                if (c[0].equals(solver)) {
                    double r = Double.parseDouble(c[2]);
                    assertThat(r).as("%s iteration %s", solver, c[1]).isLessThan(previous);
                    previous = r;
                }
            }
        }
        List<String> budgets = Files.readAllLines(dir.resolve("budgets.csv"));
        assertThat(budgets).hasSize(1 + 4 * 2);
        assertThat(budgets).anyMatch(r -> r.startsWith("rbgs,") && r.contains(",1,") && r.contains(",5,"));
        for (String row : budgets.subList(1, budgets.size())) {
            assertThat(Integer.parseInt(row.split(",")[4])).as(row).isGreaterThanOrEqualTo(1);
        }
        // the larger budget fits at least as many iterations
        for (String solver : List.of("gs", "jacobi", "rbgs", "rbgs+sor")) {
            int[] n = budgets.stream().filter(r -> r.startsWith(solver + ",")).mapToInt(r -> Integer.parseInt(r.split(",")[4]))
                    .toArray();
            assertThat(n[1]).isGreaterThanOrEqualTo(n[0]);
        }
        assertThat(Files.readAllLines(dir.resolve("residual_vs_time.csv")).get(0))
                .isEqualTo("budget_ms,solver,iterations_per_step,step,solver_time_ms,residual_m2");
        for (String png : List.of("fig6_3_residual_vs_iteration.png", "fig6_4_residual_vs_time_1ms.png",
                "fig6_4_residual_vs_time_8ms.png", "fig6_5_sor_residual_vs_iteration.png",
                "fig6_5_sor_residual_vs_time_8ms.png", "all_residual_vs_iteration.png")) {
            byte[] bytes = Files.readAllBytes(dir.resolve(png));
            assertThat(bytes.length).as(png).isGreaterThan(1000);
            assertThat(new String(bytes, 1, 3, java.nio.charset.StandardCharsets.US_ASCII)).as(png).isEqualTo("PNG");
        }
        try (var files = Files.list(dir)) {
            assertThat(files.map(Path::toString)).noneMatch(p -> p.endsWith(".part"));
        }
        assertThat(out.toString()).contains("seed 001, GTX 970").contains("5/11/22/45").contains("1/2/4/9")
                .contains("9/19/32/70");
    }

    @Test
    void badFlagsExitWithStatus2AndNameTheParameter(@TempDir Path tmp) {
        assertThat(weft("converge", "--experiment", "falling", "--out", tmp.toString()))
                .isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--experiment").contains("enlarged, hanging");
        err.getBuffer().setLength(0);
        assertThat(weft("converge", "--solvers", "rbgs,magic", "--out", tmp.toString()))
                .isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--solvers").contains("magic").contains("jacobi+chebyshev");
        err.getBuffer().setLength(0);
        assertThat(weft("converge", "--budgets", "0", "--out", tmp.toString())).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--budgets");
        err.getBuffer().setLength(0);
        assertThat(weft("converge", "--omega", "2.5", "--out", tmp.toString())).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("omega");
        assertThat(tmp.resolve("converge")).doesNotExist();
    }
}
