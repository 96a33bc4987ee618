package dev.weft.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.opencl.OpenClDevice;
import dev.weft.opencl.OpenClDevices;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weft converge --backend opencl}: seed 001's hanging experiment with OpenClPdSolver taken apart into
 * iterations, against {@code --backend cpu}, on a small lattice for 8 steps.
 *
 * <p>Tolerance: on PoCL the device solver gives PdSolver's bits after every iteration (OpenClPdIterationsTest),
 * so the residual CSV must be the cpu's character for character; on another device each residual within 1 %
 * of the cpu's, OpenClPdSolverTest's bound for the residual after 100 steps of a relaxed build.
 */
class ConvergeBackendTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int weft(String... args) {
        return WeftMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    private static List<String> shortRun(Path dir, String... more) {
        List<String> args = new ArrayList<>(List.of("converge", "--experiment", "hanging", "--size", "10",
                "--frames", "1", "--iterations", "4", "--budgets", "1", "--samples", "1", "--threads", "1",
                "--no-frames", "--no-plots", "--quiet", "--out", dir.toString()));
        args.addAll(List.of(more));
        return args;
    }

    @Test
    void openClWritesTheCpusResidualsAfterEveryIteration(@TempDir Path tmp) throws IOException {
        String missing = OpenClDevices.unavailableReason();
        assumeTrue(missing == null, () -> "skipped: no OpenCL device here (" + missing + ")");
        OpenClDevice device = OpenClDevices.pick(OpenClDevices.PREFERRED);
        boolean pocl = device.platformName().contains("Portable Computing Language");

        Path cpuDir = tmp.resolve("cpu");
        Path deviceDir = tmp.resolve("opencl");
        assertThat(weft(shortRun(cpuDir, "--backend", "cpu", "--solvers",
                "rbgs,rbgs+sor,jacobi,jacobi+chebyshev,jacobi-seed").toArray(String[]::new)))
                .as(err.toString()).isZero();
        assertThat(weft(shortRun(deviceDir, "--backend", "opencl", "--solvers",
                "rbgs,rbgs+sor,jacobi,jacobi+chebyshev,jacobi-seed").toArray(String[]::new)))
                .as(err.toString()).isZero();
        assertThat(out.toString()).contains("backend opencl: " + device.describe());

        List<String> cpu = Files.readAllLines(cpuDir.resolve("converge/hanging/residual_vs_iteration.csv"));
        List<String> gpu = Files.readAllLines(deviceDir.resolve("converge/hanging/residual_vs_iteration.csv"));
        assertThat(cpu).hasSize(1 + 5 * 8 * 4); // 5 solvers x 8 steps x 4 iterations
        assertThat(gpu).hasSameSizeAs(cpu);
        // a falling cloth: its springs stretch, the residual is not zero
        assertThat(cpu.subList(1, cpu.size())).allSatisfy(r -> assertThat(Double.parseDouble(r.split(",")[2]))
                .isGreaterThan(0.0));
        if (pocl) {
            assertThat(gpu).as("PoCL: the cpu's residuals, character for character").containsExactlyElementsOf(cpu);
        } else {
            for (int i = 1; i < cpu.size(); i++) {
                double c = Double.parseDouble(cpu.get(i).split(",")[2]);
                assertThat(gpu.get(i)).startsWith(cpu.get(i).substring(0, cpu.get(i).lastIndexOf(',')));
                assertThat(Double.parseDouble(gpu.get(i).split(",")[2])).as(cpu.get(i)).isCloseTo(c, within(0.01 * c));
            }
        }
        List<String> budgets = Files.readAllLines(deviceDir.resolve("converge/hanging/budgets.csv"));
        assertThat(budgets).hasSize(1 + 5);
    }

    @Test
    void withoutSolversOpenClRunsTheFourDeviceSolversOfTheDefaults(@TempDir Path tmp) throws IOException {
        String missing = OpenClDevices.unavailableReason();
        assumeTrue(missing == null, () -> "skipped: no OpenCL device here (" + missing + ")");
        assertThat(weft(shortRun(tmp, "--backend", "opencl").toArray(String[]::new))).as(err.toString()).isZero();
        List<String> iter = Files.readAllLines(tmp.resolve("converge/hanging/residual_vs_iteration.csv"));
        assertThat(iter.stream().skip(1).map(r -> r.split(",")[0]).distinct())
                .containsExactly("jacobi", "rbgs", "rbgs+sor", "jacobi+chebyshev");
    }

    @Test
    void aSolverTheDeviceDoesNotRunIsRefusedInOneLine(@TempDir Path tmp) {
        // refused before a device is looked for: the same answer with or without OpenCL
        int code = weft(shortRun(tmp, "--backend", "opencl", "--solvers", "rbgs,gs,xpbd-colored")
                .toArray(String[]::new));
        assertThat(code).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString().lines()).containsExactly("weft: error: --backend: opencl runs --solvers rbgs, "
                + "rbgs+sor, jacobi, jacobi+chebyshev, jacobi-seed, not gs, xpbd-colored; use --backend cpu for those");
        assertThat(tmp.resolve("converge")).doesNotExist();
    }

    @Test
    void glslAndBadBackendsAreRefusedNamingTheFlag(@TempDir Path tmp) {
        assertThat(weft(shortRun(tmp, "--backend", "glsl").toArray(String[]::new))).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString().lines()).singleElement().asString()
                .startsWith("weft: error: --backend: weft converge runs on cpu, opencl or opencl:N, not glsl");
        err.getBuffer().setLength(0);
        assertThat(weft(shortRun(tmp, "--backend", "cuda").toArray(String[]::new))).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString().lines()).singleElement().asString().startsWith("weft: error: --backend: must be cpu");
    }
}
