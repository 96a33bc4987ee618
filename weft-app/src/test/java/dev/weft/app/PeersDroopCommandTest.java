package dev.weft.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.bench.DroopBench;
import dev.weft.bench.JoltRuntime;
import dev.weft.bench.PeerUnavailableException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weft bench --peers --droop} on a strip with two overhanging rows: its CSV, its printout, its flags. */
class PeersDroopCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int weft(String... args) {
        return WeftMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void droopWritesEveryStripOfBothEnginesWithFinitePositiveDrops(@TempDir Path tmp) throws IOException {
        try {
            JoltRuntime.ensureStarted();
        } catch (PeerUnavailableException e) {
            Assumptions.abort("Jolt Physics is not available here: " + e.getMessage());
        }
        int code = weft("bench", "--peers", "--droop", "--size", "2", "--quiet", "--out", tmp.toString());
        assertThat(code).as(err.toString()).isZero();
        CsvTable csv = CsvTable.read(tmp.resolve("bench").resolve("droop.csv"));
        assertThat(csv.header).containsExactly("engine", "bending", "setting", "stiffness", "tip_drop_m", "settled",
                "tip_speed_m_s");
        int sweep = DroopBench.RIGIDITIES.length;
        // Jolt's two bending types over the sweep, then Weft's three models over B = 0 and the sweep
        assertThat(csv.rows).hasSize(2 * sweep + 3 * (sweep + 1));
        assertThat(csv.rows).extracting(r -> csv.cell(r, "engine") + " " + csv.cell(r, "bending")).containsSubsequence(
                "jolt distance", "jolt dihedral", "weft distance", "weft isometric", "weft dihedral");
        double overhang = 2 * dev.weft.bench.DroopStrip.SPACING;
        for (List<String> row : csv.rows) {
            double stiffness = csv.number(row, "stiffness");
            double drop = csv.number(row, "tip_drop_m");
            assertThat(Double.isFinite(stiffness) && stiffness >= 0).as("stiffness in %s", row).isTrue();
            // only Weft's B = 0 row has no stiffness
            assertThat(stiffness > 0 || csv.cell(row, "setting").endsWith("B = 0.00 N·m")).as("%s", row).isTrue();
            assertThat(Double.isFinite(drop) && drop > 0 && drop <= 1.01 * overhang).as("tip drop in %s", row).isTrue();
            assertThat(csv.cell(row, "settled")).isEqualTo("true");
            assertThat(csv.number(row, "tip_speed_m_s")).isBetween(0.0, 1e-3);
        }
        assertThat(out.toString()).contains("matched (log-log interpolation in each sweep):")
                .contains("the B that droops as Jolt's peers setting").contains("wrote ");
    }

    @Test
    void droopRunsTheWeftSettingsGiven(@TempDir Path tmp) throws IOException {
        try {
            JoltRuntime.ensureStarted();
        } catch (PeerUnavailableException e) {
            Assumptions.abort("Jolt Physics is not available here: " + e.getMessage());
        }
        int code = weft("bench", "--peers", "--droop", "--size", "2", "--setting", "3x1:distance:limits:smooth",
                "--quiet", "--out", tmp.toString());
        assertThat(code).as(err.toString()).isZero();
        CsvTable csv = CsvTable.read(tmp.resolve("bench").resolve("droop.csv"));
        int sweep = DroopBench.RIGIDITIES.length;
        // Jolt's two bending types as always, then the one Weft setting over B = 0 and the sweep
        assertThat(csv.rows).hasSize(2 * sweep + sweep + 1);
        assertThat(csv.rows.subList(2 * sweep, csv.rows.size())).allSatisfy(row ->
                assertThat(csv.cell(row, "setting")).startsWith("3x1 distance, limits, smooth, B = "));
        assertThat(out.toString()).contains("Weft 3x1 distance, limits, smooth: the B that droops as Jolt's peers");
        assertThat(weft("bench", "--peers", "--droop", "--setting", "3y1", "--out", tmp.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--setting: expected SxK[:BENDING[:P]][:limits][:smooth]");
    }

    @Test
    void droopTakesItsOwnFlagsOnly(@TempDir Path tmp) {
        assertThat(weft("bench", "--droop", "--out", tmp.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--droop: applies with --peers only");
        assertThat(weft("bench", "--peers", "--droop", "--threads", "2", "--out", tmp.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--threads: does not apply to --peers --droop");
        assertThat(weft("bench", "--peers", "--droop", "--size", "2,3", "--out", tmp.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--size: with --droop takes one number of overhanging rows");
    }
}
