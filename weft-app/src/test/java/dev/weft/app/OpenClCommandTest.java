package dev.weft.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.weft.opencl.OpenClDevices;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weft devices} and {@code weft bench --table seed004} on a tiny cloth. Where there is no OpenCL
 * both still run as far as they can: devices fails naming what to install, the table has its CPU rows.
 */
class OpenClCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    /** Null where OpenCL is usable here, else why not. */
    private final String missing = OpenClDevices.unavailableReason();

    private int weft(String... args) {
        return WeftMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void devicesListsThePlatformsAndDevicesOrSaysWhatToInstall() {
        int code = weft("devices");
        if (missing != null) {
            assertThat(code).isEqualTo(RenderCommand.EXIT_MISSING_DEPENDENCY);
            assertThat(err.toString()).contains("pocl-opencl-icd ocl-icd-libopencl1").doesNotContain("\tat ");
            return;
        }
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("platform: ").contains("device 0: ").contains("compute units")
                .contains("global memory");
    }

    @Test
    void seed004TableTimesTheCpuOpenClAndGlslIntoACsv(@TempDir Path tmp) throws IOException {
        int code = weft("bench", "--table", "seed004", "--particles", "64", "--threads", "1,2", "--samples", "2",
                "--warmup", "1", "--out", tmp.toString());
        assertThat(code).as(err.toString()).isZero();
        CsvTable csv = CsvTable.read(tmp.resolve("bench").resolve("seed004.csv"));
        assertThat(csv.header).containsExactly("particles", "springs", "backend", "threads", "device",
                "verlet_steps_per_readback", "steps_per_s", "ms_per_step", "stable_step_s", "jdk", "cpu");
        // GLSL: the test command installs Mesa, whose llvmpipe runs the compute shaders
        List<String> expected = missing == null
                ? List.of("cpu/1/1", "cpu/2/1", "opencl/-/1", "opencl/-/10", "glsl/-/1", "glsl/-/10")
                : List.of("cpu/1/1", "cpu/2/1", "glsl/-/1", "glsl/-/10");
        assertThat(csv.rows).extracting(r -> csv.cell(r, "backend") + "/" + csv.cell(r, "threads") + "/"
                + csv.cell(r, "verlet_steps_per_readback")).containsExactlyElementsOf(expected);
        for (List<String> row : csv.rows) {
            assertThat(csv.number(row, "particles")).isEqualTo(64);
            // seed 004's 12 springs per particle on an 8 x 8 grid: 2*8*7 axis, 2*7*7 diagonal, 2*8*6 bend
            assertThat(csv.number(row, "springs")).isEqualTo(2 * 8 * 7 + 2 * 7 * 7 + 2 * 8 * 6);
            for (String c : List.of("steps_per_s", "ms_per_step", "stable_step_s")) {
                double v = csv.number(row, c);
                assertThat(Double.isFinite(v) && v > 0).as("%s = %s in %s", c, v, row).isTrue();
            }
            assertThat(csv.number(row, "ms_per_step")).isCloseTo(1e3 / csv.number(row, "steps_per_s"),
                    within(1e-3 * csv.number(row, "ms_per_step")));
            assertThat(csv.cell(row, "device")).isNotBlank();
        }
        // the device timed: the first GPU, else device 0 (its index in `weft devices`)
        assertThat(out.toString()).contains(missing == null ? "OpenCL: " + OpenClDevices.pick(OpenClDevices.PREFERRED)
                .index() + ": " : "OpenCL: not measured").contains("GLSL: EGL ");
        assertPlot(tmp.resolve("bench").resolve("seed004.png"));
    }

    /** The table's plot: a whole PNG (written after the CSV), XChart's 900 × 600. */
    private static void assertPlot(Path png) throws IOException {
        java.awt.image.BufferedImage image = javax.imageio.ImageIO.read(png.toFile());
        assertThat(image).as("%s is a PNG", png).isNotNull();
        assertThat(image.getWidth()).isEqualTo(900);
        assertThat(image.getHeight()).isEqualTo(600);
    }

    @Test
    void gpuTableTimesXpbdRelaxationAndPdOnTheCpuAndOpenClIntoACsv(@TempDir Path tmp) throws IOException {
        int code = weft("bench", "--table", "gpu", "--particles", "256", "--threads", "1", "--samples", "1",
                "--warmup", "0", "--out", tmp.toString());
        assertThat(code).as(err.toString()).isZero();
        CsvTable csv = CsvTable.read(tmp.resolve("bench").resolve("gpu.csv"));
        List<String> expected = missing == null
                ? List.of("xpbd/cpu/1/1", "xpbd/opencl/-/1", "xpbd/opencl/-/10", "xpbd-jacobi/cpu/1/1",
                        "xpbd-jacobi/opencl/-/1", "xpbd-jacobi/opencl/-/10", "relaxation/cpu/1/1",
                        "relaxation/opencl/-/1", "relaxation/opencl/-/10", "pd/cpu/1/1", "pd/opencl/-/1",
                        "pd/opencl/-/10")
                : List.of("xpbd/cpu/1/1", "xpbd-jacobi/cpu/1/1", "relaxation/cpu/1/1", "pd/cpu/1/1");
        assertThat(csv.rows).extracting(r -> csv.cell(r, "solver") + "/" + csv.cell(r, "backend") + "/"
                + csv.cell(r, "threads") + "/" + csv.cell(r, "steps_per_readback")).containsExactlyElementsOf(expected);
        for (List<String> row : csv.rows) {
            assertThat(csv.number(row, "particles")).isEqualTo(256);
            assertThat(csv.number(row, "iterations")).isEqualTo(10);
            boolean xpbd = !csv.cell(row, "solver").equals("pd");
            // xpbd and relaxation: a 60 frames/s frame in ten substeps; pd: seed 001's 8 steps a frame
            assertThat(csv.number(row, "step_s")).isCloseTo(xpbd ? 1.0 / 600 : 1.0 / 480, within(1e-6));
            // xpbd's cloth (relaxation's too) has stretch, shear and bending constraints; seed 001's lattice its 4
            // neighbours
            assertThat(csv.number(row, "constraints")).isEqualTo(xpbd ? 2 * 16 * 15 + 2 * 15 * 15 + 2 * 16 * 14
                    : 2 * 16 * 15);
            assertThat(csv.number(row, "steps_per_s")).isPositive();
            assertThat(csv.number(row, "ms_per_step")).isCloseTo(1e3 / csv.number(row, "steps_per_s"),
                    within(1e-3 * csv.number(row, "ms_per_step")));
        }
        assertPlot(tmp.resolve("bench").resolve("gpu.png"));
    }
}
