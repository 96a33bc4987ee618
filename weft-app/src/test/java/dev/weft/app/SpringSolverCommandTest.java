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

class SpringSolverCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int weft(String... args) {
        return WeftMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void everySpringSolverRunsTheHangingScene(@TempDir Path tmp) throws IOException {
        for (String solver : new String[] {"implicit", "relaxation"}) {
            int code = weft("run", "hanging", "--solver", solver, "--frames", "3", "--substeps", "2", "--obj-every", "0",
                    "--threads", "1", "--quiet", "--out", tmp.resolve(solver).toString());
            assertThat(code).as(solver + ": " + err).isZero();
            List<String> rows = Files.readAllLines(tmp.resolve(solver).resolve("hanging").resolve("metrics.csv"));
            assertThat(rows).hasSize(4);
        }
        // the implicit solver reports its linear solve
        assertThat(out.toString()).containsPattern("last step: \\d+ cg iterations, relative residual");
    }

    @Test
    void explicitMassSpringAtTooLargeAStepExitsWithStatus3NamingStepAndParticle(@TempDir Path tmp) {
        // 100 × 100 particles of 2e-5 kg on 2000 N/m springs at h = 1/120 s: h·√(k/m) ≈ 80; fixed steps
        // (seed 004's algorithm as it stands), where the default would split each into stable steps
        int code = weft("run", "hanging", "--solver", "mass-spring", "--fixed-steps", "--frames", "20", "--substeps", "2",
                "--obj-every", "0", "--threads", "1", "--quiet", "--out", tmp.toString());
        assertThat(code).isEqualTo(WeftMain.EXIT_DIVERGED);
        assertThat(err.toString()).containsPattern("step \\d+").containsPattern("particle \\d+");
    }

    @Test
    void badSpringSolverFlagsExitWithStatus2AndNameTheParameter(@TempDir Path tmp) {
        assertThat(weft("run", "--solver", "implicit", "--linear", "gauss", "--out", tmp.toString()))
                .isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--linear").contains("cg, jacobi");

        err.getBuffer().setLength(0);
        assertThat(weft("run", "--solver", "implicit", "--springs", "hex", "--out", tmp.toString()))
                .isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--springs").contains("stencil24");

        err.getBuffer().setLength(0);
        assertThat(weft("run", "--solver", "mass-spring", "--damping", "-1", "--out", tmp.toString()))
                .isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--damping").contains(">= 0");

        err.getBuffer().setLength(0);
        assertThat(weft("run", "--solver", "implicit", "--wind", "1,2", "--out", tmp.toString()))
                .isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--wind");

        err.getBuffer().setLength(0);
        assertThat(weft("bench", "--table", "seed999", "--out", tmp.toString())).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--table").contains("seed000");
    }
}
