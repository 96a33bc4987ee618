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

/** The command line of issue #5: the stack showcase with --self-collision keeps the cloths apart. */
class CollisionCommandTest {
    @Test
    void stackWithSelfCollisionRunsAndListsTheShowcases(@TempDir Path tmp) throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = WeftMain.execute(new String[] {"run", "stack", "--frames", "3", "--self-collision", "--threads",
            "1", "--quiet", "--obj-every", "0", "--out", tmp.toString()}, new PrintWriter(out, true),
                new PrintWriter(err, true));
        assertThat(code).as(err.toString()).isZero();
        List<String> rows = Files.readAllLines(tmp.resolve("stack").resolve("metrics.csv"));
        assertThat(rows).hasSize(4);
        // the cloths start above the box and floor: every particle stays clear of both colliders
        for (int f = 1; f <= 3; f++) {
            String[] cells = rows.get(f).split(",");
            assertThat(Double.parseDouble(cells[6])).isGreaterThan(0.0);
        }
        // every solver takes --self-collision: two position-based ones and the implicit one (through S)
        for (String solver : new String[] {"pd", "implicit"}) {
            Path dir = tmp.resolve(solver);
            StringWriter e = new StringWriter();
            int rc = WeftMain.execute(new String[] {"run", "stack", "--frames", "2", "--self-collision", "--solver",
                solver, "--threads", "1", "--quiet", "--obj-every", "0", "--out", dir.toString()},
                    new PrintWriter(new StringWriter(), true), new PrintWriter(e, true));
            assertThat(rc).as(solver + ": " + e).isZero();
            List<String> lines = Files.readAllLines(dir.resolve("stack").resolve("metrics.csv"));
            assertThat(lines).as(solver).hasSize(3);
            assertThat(Double.parseDouble(lines.get(2).split(",")[6])).as(solver + ": clearance").isGreaterThan(0.0);
        }
        StringWriter list = new StringWriter();
        assertThat(WeftMain.execute(new String[] {"scenes"}, new PrintWriter(list, true), new PrintWriter(err, true)))
                .isZero();
        assertThat(list.toString()).contains("stack", "spheres", "funnel", "cannonball");
    }
}
