package dev.weft.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.solver.Solvers;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The flag scene's wind and {@code --wind} reach every solver from the command line. */
class WindCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int weft(String... args) {
        return WeftMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    /** z coordinates of the last frame's OBJ after 10 frames (1/6 s) of the flag scene with this solver. */
    private List<Double> flagZ(Path tmp, String solver, String... extra) throws IOException {
        List<String> args = new ArrayList<>(List.of("run", "flag", "--solver", solver, "--frames", "10",
                "--obj-every", "10", "--threads", "1", "--quiet", "--out", tmp.resolve(solver).toString()));
        if ("mass-spring".equals(solver)) {
            args.addAll(List.of("--substeps", "100")); // explicit: the scene's 16 substeps are far too long a step
        }
        args.addAll(List.of(extra));
        int code = weft(args.toArray(new String[0]));
        assertThat(code).as(solver + ": " + err).isZero();
        List<Double> z = new ArrayList<>();
        for (String line : Files.readAllLines(tmp.resolve(solver).resolve("flag").resolve("frame_00010.obj"))) {
            if (line.startsWith("v ")) {
                z.add(Double.parseDouble(line.trim().split("\\s+")[3]));
            }
        }
        assertThat(z).hasSize(36 * 24);
        return z;
    }

    @Test
    void theFlagScenesWindBlowsTheFlagDownwindWithEverySolver(@TempDir Path tmp) throws IOException {
        for (String solver : Solvers.names()) {
            // the wind's z component (3 m/s) is square to the flag, which starts in the z = 0 plane
            double mean = flagZ(tmp, solver).stream().mapToDouble(Double::doubleValue).average().orElseThrow();
            // after 1/6 s every solver has the flag a few centimetres downwind (0.26–0.30 m after 1 s)
            assertThat(mean).as(solver).isGreaterThan(0.02);
        }
    }

    @Test
    void stillAirFromTheCommandLineLeavesTheFlagInItsPlaneWithEverySolver(@TempDir Path tmp) throws IOException {
        for (String solver : Solvers.names()) {
            // --wind replaces the scene's wind: still air only drags against the flag's in-plane fall, so
            // nothing pushes it out of z = 0 (all forces lie in the plane, exactly)
            for (double z : flagZ(tmp, solver, "--wind", "0,0,0")) {
                assertThat(Math.abs(z)).as(solver).isLessThan(1e-6);
            }
        }
    }
}
