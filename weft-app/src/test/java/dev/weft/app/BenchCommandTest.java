package dev.weft.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

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

/** {@code weft bench} and {@code weft bench --table seed000} on tiny sizes: the CSV files they write. */
class BenchCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int weft(String... args) {
        return WeftMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    /** A timing or rate: a positive, finite number. */
    private static void assertPositive(CsvTable csv, List<String> row, String... columns) {
        for (String c : columns) {
            double v = csv.number(row, c);
            assertThat(Double.isFinite(v) && v > 0).as("%s = %s in %s", c, v, row).isTrue();
        }
    }

    @Test
    void benchTimesXpbdPdAndContactsOnATinyClothIntoThreeCsvFiles(@TempDir Path tmp) throws IOException {
        int code = weft("bench", "--size", "8", "--threads", "1,2", "--iterations", "2", "--samples", "2", "--warmup",
                "1", "--out", tmp.toString());
        assertThat(code).as(err.toString()).isZero();
        Path dir = tmp.resolve("bench");
        // progress on standard error, a line per measurement here: 3 xpbd modes and 5 pd rows (Gauss-Seidel on one
        // thread) and 2 contact rows and 4 hash builds, each on 1 and 2 threads
        assertThat(err.toString().lines().reduce((x, y) -> y)).hasValueSatisfying(last ->
                assertThat(last).startsWith("  17/17 (100 %) hash build of 1000000, 2 thread(s)"));

        CsvTable xpbd = CsvTable.read(dir.resolve("xpbd.csv"));
        assertThat(xpbd.header).containsExactly("mode", "threads", "particles", "distance_constraints",
                "bending_constraints", "ms_per_iteration_all", "ms_per_iteration_distance",
                "distance_projections_per_s", "ms_per_iteration_bending", "bending_projections_per_s", "jdk", "cpu");
        // every mode on every thread count
        assertThat(xpbd.rows).extracting(r -> xpbd.cell(r, "mode") + "/" + xpbd.cell(r, "threads")).containsExactly(
                "colored/1", "colored/2", "jacobi/1", "jacobi/2", "gauss-seidel/1", "gauss-seidel/2");
        for (List<String> row : xpbd.rows) {
            assertThat(xpbd.number(row, "particles")).isEqualTo(64);
            assertPositive(xpbd, row, "distance_constraints", "bending_constraints", "ms_per_iteration_all",
                    "ms_per_iteration_distance", "distance_projections_per_s", "ms_per_iteration_bending",
                    "bending_projections_per_s");
            // the rate is the constraint count over the time of one pass
            assertThat(xpbd.number(row, "distance_projections_per_s")).isCloseTo(
                    xpbd.number(row, "distance_constraints") / (xpbd.number(row, "ms_per_iteration_distance") / 1e3),
                    within(0.01 * xpbd.number(row, "distance_projections_per_s")));
            assertThat(xpbd.cell(row, "jdk")).isNotBlank();
            assertThat(xpbd.cell(row, "cpu")).isNotBlank();
        }

        CsvTable pd = CsvTable.read(dir.resolve("pd.csv"));
        assertThat(pd.header).containsExactly("inner", "threads", "particles", "springs", "ms_per_iteration",
                "particle_iterations_per_s", "jdk", "cpu");
        // sequential Gauss-Seidel runs on one thread only
        assertThat(pd.rows).extracting(r -> pd.cell(r, "inner") + "/" + pd.cell(r, "threads")).containsExactly(
                "rbgs/1", "rbgs/2", "jacobi/1", "jacobi/2", "gs/1");
        for (List<String> row : pd.rows) {
            assertThat(pd.number(row, "particles")).isEqualTo(64);
            assertPositive(pd, row, "springs", "ms_per_iteration", "particle_iterations_per_s");
            assertThat(pd.number(row, "particle_iterations_per_s")).isCloseTo(
                    64 / (pd.number(row, "ms_per_iteration") / 1e3),
                    within(0.01 * pd.number(row, "particle_iterations_per_s")));
        }

        CsvTable contacts = CsvTable.read(dir.resolve("contacts.csv"));
        assertThat(contacts.header).containsExactly("measurement", "threads", "particles", "ms_step_without_contacts",
                "ms_step_with_contacts", "ms_contact_pass", "contact_share_of_step");
        assertThat(contacts.rows).extracting(r -> contacts.cell(r, "measurement") + "/" + contacts.cell(r, "threads")
                + "/" + contacts.cell(r, "particles")).containsExactly("self_collision/1/64", "self_collision/2/64",
                "hash_build/1/100000", "hash_build/2/100000", "hash_build/1/1000000", "hash_build/2/1000000");
        for (List<String> row : contacts.rows) {
            if (contacts.cell(row, "measurement").equals("self_collision")) {
                assertPositive(contacts, row, "ms_step_without_contacts", "ms_step_with_contacts", "ms_contact_pass",
                        "contact_share_of_step");
            } else {
                assertPositive(contacts, row, "ms_contact_pass"); // the build time, in the pass column
            }
        }
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("xpbd.csv", "pd.csv",
                    "contacts.csv");
        }
    }

    @Test
    void seed000TableTimesEveryCellOnTinyClothsBesideTheSeedsFigures(@TempDir Path tmp) throws IOException {
        int code = weft("bench", "--table", "seed000", "--particles", "16,100", "--threads", "1", "--samples", "2",
                "--warmup", "1", "--out", tmp.toString());
        assertThat(code).as(err.toString()).isZero();
        Path dir = tmp.resolve("bench");
        CsvTable csv = CsvTable.read(dir.resolve("seed000.csv"));
        assertThat(csv.header).containsExactly("particles", "solver", "iterations", "threads", "failed", "steps_per_s",
                "cpu_steps_per_s", "seed_cpu_fps", "seed_cpu_rendering", "seed_gpu_fps", "ratio_to_seed_cpu",
                "ratio_to_seed_gpu", "assembly_ms", "solve_ms", "matvec_ms", "vector_reduction_ms",
                "relative_residual", "opencl_steps_per_s", "opencl_ratio_to_seed_gpu", "opencl_device", "jdk", "cpu");
        boolean openCl = OpenClDevices.unavailableReason() == null;
        // 2 sizes x {cg, jacobi} x {10, 30, 50, 70} iterations x 1 thread count
        assertThat(csv.rows).hasSize(16);
        assertThat(csv.rows).extracting(r -> csv.cell(r, "particles")).containsOnly("16", "100");
        for (List<String> row : csv.rows) {
            String cellName = csv.cell(row, "particles") + " " + csv.cell(row, "solver") + " "
                    + csv.cell(row, "iterations");
            // seed 000's Jacobi fails (its "X") from 900 particles at 10 iterations; these small cloths all run
            assertThat(csv.cell(row, "failed")).as(cellName).isEqualTo("false");
            assertPositive(csv, row, "steps_per_s", "cpu_steps_per_s", "assembly_ms", "solve_ms", "matvec_ms");
            boolean cg = csv.cell(row, "solver").equals("cg");
            if (openCl) {
                // the same cell on the OpenCL implicit solver
                assertPositive(csv, row, "opencl_steps_per_s");
                assertThat(csv.cell(row, "opencl_device")).as(cellName).isNotEmpty();
            } else {
                // without OpenCL nothing is measured
                assertThat(csv.cell(row, "opencl_steps_per_s")).as(cellName).isEmpty();
                assertThat(csv.cell(row, "opencl_device")).as(cellName).isEmpty();
            }
            if (cg) {
                assertPositive(csv, row, "vector_reduction_ms");
            } else {
                // Jacobi fuses its vector update into the product pass: nothing to time apart
                assertThat(csv.number(row, "vector_reduction_ms")).as(cellName).isZero();
            }
            double residual = csv.number(row, "relative_residual");
            assertThat(residual).as(cellName + ": relative residual").isBetween(0.0, 1.0);
            if (csv.cell(row, "particles").equals("16")) {
                // not a size of the seed's table: no seed figures
                assertThat(csv.cell(row, "seed_cpu_fps")).isEmpty();
                assertThat(csv.cell(row, "seed_gpu_fps")).isEmpty();
                assertThat(csv.cell(row, "ratio_to_seed_cpu")).isEmpty();
            } else {
                assertPositive(csv, row, "seed_cpu_fps", "seed_gpu_fps", "ratio_to_seed_cpu", "ratio_to_seed_gpu");
                assertThat(csv.number(row, "ratio_to_seed_gpu")).as(cellName).isCloseTo(
                        csv.number(row, "steps_per_s") / csv.number(row, "seed_gpu_fps"), within(0.01));
            }
        }
        // seed 000 appendix C.1, 100 particles at 30 CG iterations: 257 frames/s on its CPU, 32 on its GPU
        List<String> cg30 = csv.rows.stream().filter(r -> csv.cell(r, "particles").equals("100")
                && csv.cell(r, "solver").equals("cg") && csv.cell(r, "iterations").equals("30")).findFirst().orElseThrow();
        assertThat(csv.cell(cg30, "seed_cpu_fps")).isEqualTo("257");
        assertThat(csv.cell(cg30, "seed_gpu_fps")).isEqualTo("32");
        byte[] png = Files.readAllBytes(dir.resolve("seed000.png"));
        assertThat(new String(png, 1, 3, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }

    @Test
    void softBodyTableTimesTheBlockAndTheJellyIntoACsv(@TempDir Path tmp) throws IOException {
        // one frame a row: what is checked is the table, not the speed
        int code = weft("bench", "--table", "softbody", "--threads", "1", "--samples", "1", "--warmup", "0", "--out",
                tmp.toString());
        assertThat(code).as(err.toString()).isZero();
        CsvTable table = CsvTable.read(tmp.resolve("bench").resolve("softbody.csv"));
        assertThat(table.header).containsExactly("body", "solver", "threads", "substeps", "iterations", "particles",
                "ms_per_frame", "frames_per_s", "volume_error", "volume_error_timed");
        // the block under xpbd at each substep count, under pd's sweeps and its Cholesky solve, then the jelly
        // under every solver
        assertThat(table.rows).hasSize(SoftBodyBench.BLOCK_SUBSTEPS.length + 2 + SoftBodyBench.SOLVERS.size());
        for (List<String> row : table.rows) {
            assertPositive(table, row, "threads", "substeps", "particles", "ms_per_frame", "frames_per_s");
            // a frame in, the block is still falling and the jelly has not landed: volumes within a few %
            assertThat(table.number(row, "volume_error")).isBetween(0.0, 0.05);
        }
        assertThat(table.rows.get(0)).startsWith("tet block 22^3", "xpbd");
        assertThat(table.rows.get(SoftBodyBench.BLOCK_SUBSTEPS.length)).startsWith("tet block 22^3", "pd");
        assertThat(table.rows.get(SoftBodyBench.BLOCK_SUBSTEPS.length + 1)).startsWith("tet block 22^3",
                "pd cholesky");
        assertThat(table.number(table.rows.get(0), "particles")).isEqualTo(10648.0);
    }

    @Test
    void tearTableTimesAHundredTearsIntoACsv(@TempDir Path tmp) throws IOException {
        int code = weft("bench", "--table", "tear", "--threads", "1", "--samples", "1", "--warmup", "0", "--out",
                tmp.toString());
        assertThat(code).as(err.toString()).isZero();
        CsvTable tear = CsvTable.read(tmp.resolve("bench").resolve("tear.csv"));
        assertThat(tear.header).containsExactly("threads", "frame_ms", "scan_ms", "edit_ms", "rebind_ms",
                "next_frame_extra_ms", "tear_over_frame");
        assertThat(tear.rows).hasSize(1);
        List<String> row = tear.rows.get(0);
        assertPositive(tear, row, "threads", "frame_ms", "scan_ms", "edit_ms", "tear_over_frame");
        // differences of timings, clamped at 0: a noisy machine can make the step after a rebind the faster one
        assertThat(tear.number(row, "rebind_ms")).isGreaterThanOrEqualTo(0.0);
        assertThat(tear.number(row, "next_frame_extra_ms")).isGreaterThanOrEqualTo(0.0);
        assertThat(tear.number(row, "tear_over_frame")).isCloseTo(
                (tear.number(row, "edit_ms") + tear.number(row, "rebind_ms")) / tear.number(row, "frame_ms"),
                within(1e-3));
        // the 100 tears took (the bench fails otherwise) and the table says what it timed
        assertThat(out.toString()).contains("100 edges torn in one frame");
        assertThat(weft("bench", "--table", "tear", "--particles", "100", "--out", tmp.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--particles").contains("seed000, seed004 and gpu only");
    }
    @Test
    void peersRunsTheClothOnJoltAndWeftIntoACsvAndAMarkdownTable(@TempDir Path tmp) throws IOException {
        int code = weft("bench", "--peers", "--size", "8", "--threads", "1", "--samples", "1", "--warmup", "10",
                "--out", tmp.toString());
        assertThat(code).as(err.toString()).isZero();
        Path dir = tmp.resolve("bench");
        CsvTable peers = CsvTable.read(dir.resolve("peers.csv"));
        assertThat(peers.header).containsExactly("n", "threads", "particles", "engine", "setting", "ms_per_frame",
                "mean_ms_per_frame", "ratio_to_jolt", "final_strain", "peak_strain_last_second", "repetitions", "jdk",
                "cpu");
        // Jolt first, then each Weft setting, at the one size and thread count
        assertThat(peers.rows).extracting(r -> peers.cell(r, "engine") + " " + peers.cell(r, "setting"))
                .containsExactly("jolt 10 iterations", "weft 6x1 dihedral", "weft 10x1 dihedral", "weft 6x1 distance",
                        "weft 10x1 distance", "weft 10x1 isometric",
                        "weft 2x1 distance, 2 stretch passes, limits", "weft 3x1 distance, limits, smooth");
        double joltMs = peers.number(peers.rows.get(0), "ms_per_frame");
        for (List<String> row : peers.rows) {
            assertThat(peers.number(row, "particles")).isEqualTo(64);
            assertPositive(peers, row, "ms_per_frame", "mean_ms_per_frame", "ratio_to_jolt", "final_strain",
                    "peak_strain_last_second");
            assertThat(peers.number(row, "ratio_to_jolt")).isCloseTo(peers.number(row, "ms_per_frame") / joltMs,
                    within(0.01 * peers.number(row, "ratio_to_jolt") + 1e-3));
            // the peak over the last second includes the last frame
            assertThat(peers.number(row, "peak_strain_last_second"))
                    .isGreaterThanOrEqualTo(peers.number(row, "final_strain"));
            assertThat(peers.number(row, "final_strain")).isLessThan(0.1);
        }
        String md = Files.readString(dir.resolve("peers.md"));
        assertThat(md).contains("| N | threads | engine | setting | ms/frame | Weft / Jolt |")
                .contains("| 8 | 1 | Jolt | 10 iterations |");
        assertThat(err.toString().lines().reduce((x, y) -> y)).hasValueSatisfying(last ->
                assertThat(last).startsWith("  8/8 (100 %)"));

        // its flags only
        assertThat(weft("bench", "--peers", "--modes", "jacobi", "--out", tmp.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--modes: does not apply to --peers");
        assertThat(weft("bench", "--peers", "--warmup", "600", "--out", tmp.toString())).isEqualTo(2);
        assertThat(weft("bench", "--size", "8,16", "--out", tmp.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--size: takes one size without --peers");
    }

    @Test
    void peersRunsTheSettingsGivenInsteadOfTheDefaultRows(@TempDir Path tmp) throws IOException {
        int code = weft("bench", "--peers", "--size", "6", "--threads", "1", "--samples", "1", "--warmup", "10",
                "--setting", "3x1:distance,2x2:isometric:2,2x1:distance:2:limits:smooth", "--quiet", "--out",
                tmp.toString());
        assertThat(code).as(err.toString()).isZero();
        CsvTable peers = CsvTable.read(tmp.resolve("bench").resolve("peers.csv"));
        assertThat(peers.rows).extracting(r -> peers.cell(r, "engine") + " " + peers.cell(r, "setting"))
                .containsExactly("jolt 10 iterations", "weft 3x1 distance", "weft 2x2 isometric, 2 stretch passes",
                        "weft 2x1 distance, 2 stretch passes, limits, smooth");

        // a bad setting names the flag, the text and what is allowed; --setting belongs to --peers
        assertThat(weft("bench", "--peers", "--setting", "6y1", "--out", tmp.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--setting: expected SxK[:BENDING[:P]]").contains("'6y1'");
        assertThat(weft("bench", "--peers", "--setting", "6x1:curly", "--out", tmp.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--setting: bending must be dihedral, distance or isometric, got 'curly'");
        assertThat(weft("bench", "--peers", "--setting", "0x1", "--out", tmp.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--setting: substeps S must be a whole number from 1 to 1000, got '0'");
        assertThat(weft("bench", "--setting", "6x1", "--out", tmp.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--setting: applies with --peers only");
    }

    @Test
    void peersSweepFindsTheFewestSubstepsAtJoltsStrainAndTimesThem(@TempDir Path tmp) throws IOException {
        int code = weft("bench", "--peers", "--sweep", "--size", "6", "--threads", "1", "--samples", "1", "--warmup",
                "10", "--quiet", "--out", tmp.toString());
        assertThat(code).as(err.toString()).isZero();
        CsvTable sweep = CsvTable.read(tmp.resolve("bench").resolve("peers-sweep.csv"));
        assertThat(sweep.header).containsExactly("n", "bending", "substeps", "iterations", "final_strain",
                "peak_strain_last_second", "jolt_final_strain", "jolt_peak_strain_last_second", "at_or_below_jolt");
        List<String> timed = new ArrayList<>();
        for (String bending : List.of("distance", "isometric", "dihedral")) {
            List<List<String>> tried = new ArrayList<>();
            for (List<String> row : sweep.rows) {
                if (sweep.cell(row, "bending").equals(bending)) {
                    tried.add(row);
                }
            }
            assertThat(tried).as(bending).isNotEmpty();
            // tried from 1 substep up, every one below the last failing Jolt's strain, the last one (if any) meeting it
            for (int k = 0; k < tried.size(); k++) {
                List<String> row = tried.get(k);
                assertThat(sweep.number(row, "substeps")).isEqualTo(k + 1);
                boolean meets = sweep.number(row, "final_strain") <= sweep.number(row, "jolt_final_strain")
                        && sweep.number(row, "peak_strain_last_second") <= sweep.number(row, "jolt_peak_strain_last_second");
                assertThat(sweep.cell(row, "at_or_below_jolt")).isEqualTo(Boolean.toString(meets));
                assertThat(meets).as(bending + " at " + (k + 1)).isEqualTo(k == tried.size() - 1 && meets);
            }
            List<String> last = tried.get(tried.size() - 1);
            if (Boolean.parseBoolean(sweep.cell(last, "at_or_below_jolt"))) {
                timed.add("weft " + tried.size() + "x1 " + bending);
            }
        }
        // the settings found are the timed rows, after Jolt's
        CsvTable peers = CsvTable.read(tmp.resolve("bench").resolve("peers.csv"));
        List<String> expected = new ArrayList<>(List.of("jolt 10 iterations"));
        expected.addAll(timed);
        assertThat(peers.rows).extracting(r -> peers.cell(r, "engine") + " " + peers.cell(r, "setting"))
                .containsExactlyElementsOf(expected);
        assertThat(out.toString()).contains("N = 6, distance");

        assertThat(weft("bench", "--peers", "--sweep", "--setting", "3x1", "--out", tmp.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--sweep: chooses Weft's settings itself");
        assertThat(weft("bench", "--sweep", "--out", tmp.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--sweep: applies with --peers only");
    }
}
