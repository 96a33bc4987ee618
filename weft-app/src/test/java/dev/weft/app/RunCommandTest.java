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

class RunCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int weft(String... args) {
        return WeftMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void runWritesOneMetricsRowPerFrameAndObjFrames(@TempDir Path tmp) throws IOException {
        int code = weft("run", "--frames", "6", "--obj-every", "3", "--threads", "1", "--quiet",
                "--out", tmp.toString());
        assertThat(code).as(err.toString()).isZero();
        Path dir = tmp.resolve("drape");
        List<String> rows = Files.readAllLines(dir.resolve("metrics.csv"));
        assertThat(rows.get(0)).startsWith("frame,time_s,step_ms,residual,max_strain,kinetic_energy");
        assertThat(rows).hasSize(7);
        double previousTime = 0;
        for (int f = 1; f <= 6; f++) {
            String[] cells = rows.get(f).split(",");
            assertThat(Integer.parseInt(cells[0])).isEqualTo(f);
            double time = Double.parseDouble(cells[1]);
            assertThat(time).isCloseTo(f / 60.0, org.assertj.core.data.Offset.offset(1e-5));
            assertThat(time).isGreaterThan(previousTime);
            previousTime = time;
            for (int c = 2; c < cells.length; c++) {
                assertThat(Double.isFinite(Double.parseDouble(cells[c]))).as("column %d of frame %d", c, f).isTrue();
            }
            // the cloth starts at rest and falls: it gains kinetic energy every frame
            assertThat(Double.parseDouble(cells[5])).isGreaterThan(0.0);
        }
        assertThat(dir.resolve("frame_00003.obj")).exists();
        assertThat(dir.resolve("frame_00006.obj")).exists();
        assertThat(dir.resolve("metrics.csv.part")).doesNotExist();
        assertThat(Files.readString(dir.resolve("frame_00006.obj"))).contains("\nv ", "\nvt ", "\nf ");
        assertThat(out.toString()).contains("done: 6 frames");
    }

    @Test
    void materialFlagsChangeEveryBodyOfTheSceneAndTheRunSaysWhatItIsMadeOf(@TempDir Path tmp) {
        assertThat(weft("run", "--frames", "1", "--threads", "1", "--out", tmp.toString())).isZero();
        assertThat(out.toString()).contains("cloth: stretch 2000 N/m, shear 500 N/m, bend 1e-04 N·m, damping 1 1/s");
        out.getBuffer().setLength(0);
        assertThat(weft("run", "--solver", "pd", "--stretch", "1500", "--shear", "300", "--bend", "2.5e-4", "--damping",
                "0.5", "--friction", "0.5", "--thickness", "0.002", "--frames", "1", "--threads", "1", "--out",
                tmp.toString())).isZero();
        assertThat(out.toString())
                .contains("cloth: stretch 1500 N/m, shear 300 N/m, bend 2.5e-04 N·m, damping 0.5 1/s, grip 0.5, "
                        + "2 mm thick");
        out.getBuffer().setLength(0);
        assertThat(weft("run", "tear", "--stretch", "inf", "--tear-strain", "0.25", "--frames", "1", "--threads", "1",
                "--out", tmp.toString())).isZero();
        assertThat(out.toString()).contains("curtain: stretch inf N/m").contains("tears at strain 0.25")
                .contains("pulled: stretch inf N/m");
        // the flags the material replaced: pd's --stiffness (stretch and shear at once) and seed 002's k
        out.getBuffer().setLength(0);
        assertThat(weft("run", "--solver", "relaxation", "--stiffness", "800", "--verlet-damping", "0.99", "--frames",
                "1", "--threads", "1", "--out", tmp.toString())).isZero();
        assertThat(out.toString()).contains("cloth: stretch 800 N/m, shear 800 N/m, bend 1e-04 N·m, damping 0.603 1/s");
    }

    @Test
    void eachSolverRunsTheSceneWithItsOwnStepsUnlessTold(@TempDir Path tmp) {
        // the default scene gives pd 17 steps per frame and xpbd 30 (BuiltInScenes.drape); 'weft scenes' says so
        assertThat(weft("run", "--solver", "pd", "--frames", "1", "--threads", "1", "--out", tmp.toString())).isZero();
        assertThat(out.toString()).containsPattern("solver pd .* x 17 substeps")
                .contains("rbgs+sor(1.4)").contains("2 x 3 iterations");
        // another inner solver starts from pd's defaults, not the scene's over-relaxation for rbgs
        out.getBuffer().setLength(0);
        assertThat(weft("run", "--solver", "pd", "--inner-solver", "gs", "--frames", "1", "--threads", "1",
                "--out", tmp.toString())).isZero();
        assertThat(out.toString()).doesNotContain("sor").contains("4 x 4 iterations");
        out.getBuffer().setLength(0);
        assertThat(weft("run", "--solver", "pd", "--substeps", "3", "--frames", "1", "--threads", "1",
                "--out", tmp.toString())).isZero();
        assertThat(out.toString()).containsPattern("solver pd .* x 3 substeps");
        out.getBuffer().setLength(0);
        assertThat(weft("run", "--solver", "mass-spring", "--frames", "1", "--threads", "1", "--out", tmp.toString()))
                .isZero();
        assertThat(out.toString()).contains("solver mass-spring, 16 substeps").contains("Verlet step(s) per substep; the springs' stable step is");
        out.getBuffer().setLength(0);
        // relaxation: the scene's 3 passes per substep, unless --iterations says otherwise
        assertThat(weft("run", "--solver", "relaxation", "--frames", "1", "--threads", "1", "--out", tmp.toString()))
                .isZero();
        assertThat(out.toString()).contains("solver relaxation, 3 passes x 48 substeps");
        out.getBuffer().setLength(0);
        assertThat(weft("run", "--solver", "relaxation", "--iterations", "5", "--frames", "1", "--threads", "1",
                "--out", tmp.toString())).isZero();
        assertThat(out.toString()).contains("solver relaxation, 5 passes x 48 substeps");
        out.getBuffer().setLength(0);
        assertThat(weft("scenes")).isZero();
        assertThat(out.toString()).contains("steps per frame: 30; pd 17, pbd 36")
                .contains("made of: stretch 2000 N/m, shear 500 N/m, bend 1e-04 N·m, damping 1 1/s, 0.2 kg/m²")
                .contains("tears at strain 0.2")
                // a voxel body's mass is its own density's, not a cloth's per area: the jelly's 1000 voxels of
                // 0.03 m at 1000 kg/m³ weigh 27 kg; drawn as its OBJ, it is a voxel thick (its particles keep
                // half a voxel off the floor)
                .contains("grip 0.8, 30 mm thick, 27 kg");
        // xpbd: the scene's 30 substeps with two stretch passes; --stretch-passes 1 is plain XPBD
        out.getBuffer().setLength(0);
        assertThat(weft("run", "--frames", "1", "--threads", "1", "--out", tmp.toString())).isZero();
        assertThat(out.toString()).contains("solver xpbd, mode colored, 1 iterations (2 stretch passes each) x 30 substeps")
                .contains("(1 rows)");
        out.getBuffer().setLength(0);
        assertThat(weft("run", "--stretch-passes", "1", "--frames", "1", "--threads", "1", "--out", tmp.toString()))
                .isZero();
        assertThat(out.toString()).contains("solver xpbd, mode colored, 1 iterations x 30 substeps");
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        assertThat(weft("run", "--stretch-passes", "0", "--frames", "1", "--out", tmp.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--stretch-passes").contains(">= 1");
        err.getBuffer().setLength(0);
        assertThat(weft("run", "--solver", "pd", "--stretch-passes", "2", "--frames", "1", "--out", tmp.toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--stretch-passes: does not apply to --solver pd");
        // --stretch-limits: xpbd's hierarchical stretch limits, said in the run's solver line
        out.getBuffer().setLength(0);
        assertThat(weft("run", "--stretch-limits", "--frames", "1", "--threads", "1", "--out", tmp.toString()))
                .isZero();
        assertThat(out.toString()).contains("(2 stretch passes each) with stretch limits x 30 substeps");
        err.getBuffer().setLength(0);
        assertThat(weft("run", "--solver", "pd", "--stretch-limits", "--frames", "1", "--out", tmp.toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--stretch-limits: does not apply to --solver pd");
        // --stretch-smoothing: xpbd's half pass, said in the solver line; the colored mode's only
        out.getBuffer().setLength(0);
        assertThat(weft("run", "--stretch-limits", "--stretch-smoothing", "--frames", "1", "--threads", "1", "--out",
                tmp.toString())).isZero();
        assertThat(out.toString()).contains("(2 stretch passes each) with stretch limits and stretch smoothing x 30");
        err.getBuffer().setLength(0);
        assertThat(weft("run", "--mode", "jacobi", "--stretch-smoothing", "--frames", "1", "--out", tmp.toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--stretch-smoothing: needs --mode colored").contains("jacobi");
        err.getBuffer().setLength(0);
        assertThat(weft("run", "--solver", "pd", "--stretch-smoothing", "--frames", "1", "--out", tmp.toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--stretch-smoothing: does not apply to --solver pd");
    }

    @Test
    void aSoftBodyRunSaysWhatItsBodiesAreMadeOfAndTheVolumeTheyHeld(@TempDir Path tmp) {
        // tetrahedral bodies have no distance constraints: their elasticity and volume are what a run reports
        assertThat(weft("run", "rubber", "--solver", "pd", "--frames", "3", "--threads", "1", "--out", tmp.toString()))
                .isZero();
        assertThat(out.toString()).contains("2712 tetrahedra)")
                .contains("ball: E 300 kPa, Poisson 0.45, 1944 tetrahedra")
                .contains("cushion: E 50 kPa, Poisson 0.3")
                .containsPattern("ball held \\d+\\.\\d–\\d+\\.\\d % of its rest volume")
                .doesNotContain("largest strain seen");
    }

    @Test
    void theSpringSolversRunTheRubberScene(@TempDir Path tmp) {
        // implicit and mass-spring apply the tetrahedra's co-rotated FEM forces, relaxation relaxes them with
        // XPBD's projection (issue #18)
        for (String solver : new String[] {"implicit", "mass-spring", "relaxation"}) {
            out.getBuffer().setLength(0);
            assertThat(weft("run", "rubber", "--solver", solver, "--frames", "3", "--threads", "1", "--out",
                    tmp.toString())).as(solver + ": " + err).isZero();
            assertThat(out.toString()).as(solver)
                    .containsPattern("ball held \\d+\\.\\d–\\d+\\.\\d % of its rest volume");
        }
    }

    @Test
    void theRubberBarTearsInARunAndItsFramesShowTheCrack(@TempDir Path tmp) throws IOException {
        // rubber-tear: the notched bar tears in its first tenth of a second; the OBJ frames grow the crack's copies
        // and faces, and the two halves' closed surfaces hold the bar's volume (not a torn body's stale range)
        assertThat(weft("run", "rubber-tear", "--frames", "12", "--obj-every", "1", "--threads", "2", "--out",
                tmp.toString())).as(err.toString()).isZero();
        Path frames = tmp.resolve("rubber-tear");
        String first = Files.readString(frames.resolve("frame_00001.obj"));
        String last = Files.readString(frames.resolve("frame_00012.obj"));
        assertThat(last.lines().filter(l -> l.startsWith("v ")).count())
                .isGreaterThan(first.lines().filter(l -> l.startsWith("v ")).count());
        assertThat(last.lines().filter(l -> l.startsWith("f ")).count())
                .isGreaterThan(first.lines().filter(l -> l.startsWith("f ")).count());
        assertThat(out.toString()).containsPattern("bar held (9\\d|10\\d)\\.\\d–(9\\d|10\\d)\\.\\d % of its rest volume");
    }

    @Test
    void aRunResumedFromItsCheckpointEndsOnTheSameBits(@TempDir Path tmp) throws IOException {
        assertThat(weft("run", "--frames", "12", "--checkpoint-every", "6", "--obj-every", "12", "--threads", "2",
                "--quiet", "--out", tmp.resolve("whole").toString())).as(err.toString()).isZero();
        Path checkpoint = tmp.resolve("whole/drape/checkpoint_00006.weft");
        assertThat(checkpoint).exists();
        assertThat(tmp.resolve("whole/drape/checkpoint_00012.weft")).exists();
        assertThat(weft("run", "--frames", "12", "--resume", checkpoint.toString(), "--obj-every", "12", "--threads", "1",
                "--quiet", "--out", tmp.resolve("resumed").toString())).as(err.toString()).isZero();
        assertThat(Files.readAllBytes(tmp.resolve("resumed/drape/frame_00012.obj")))
                .isEqualTo(Files.readAllBytes(tmp.resolve("whole/drape/frame_00012.obj")));
        List<String> rows = Files.readAllLines(tmp.resolve("resumed/drape/metrics.csv"));
        assertThat(rows).hasSize(7);
        assertThat(rows.get(1)).startsWith("7,");
        // resumed into the run's own folder, its rows of frames 1..6 stay and 7..12 are the resumed run's
        List<String> whole = Files.readAllLines(tmp.resolve("whole/drape/metrics.csv"));
        assertThat(weft("run", "--frames", "12", "--resume", checkpoint.toString(), "--obj-every", "12", "--threads", "1",
                "--quiet", "--out", tmp.resolve("whole").toString())).as(err.toString()).isZero();
        List<String> again = Files.readAllLines(tmp.resolve("whole/drape/metrics.csv"));
        assertThat(again).hasSize(13);
        assertThat(again.subList(0, 7)).isEqualTo(whole.subList(0, 7));
        for (int f = 1; f <= 12; f++) {
            assertThat(again.get(f)).startsWith(f + ",");
        }
        // another solver, or a file that is not a checkpoint: status 2, naming the file, and the run's
        // metrics.csv is left as it was
        err.getBuffer().setLength(0);
        assertThat(weft("run", "--solver", "pd", "--frames", "12", "--resume", checkpoint.toString(),
                "--out", tmp.resolve("whole").toString())).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("checkpoint_00006.weft").contains("xpbd solver");
        assertThat(Files.readAllLines(tmp.resolve("whole/drape/metrics.csv"))).isEqualTo(again);
        Path junk = tmp.resolve("junk.weft");
        Files.writeString(junk, "not one");
        err.getBuffer().setLength(0);
        assertThat(weft("run", "--frames", "12", "--resume", junk.toString(), "--out", tmp.resolve("j").toString()))
                .isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("junk.weft").contains("not a Weft checkpoint");
    }

    @Test
    void badFlagsExitWithStatus2AndNameTheParameter(@TempDir Path tmp) {
        assertThat(weft("run", "--frames", "0", "--out", tmp.toString())).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--frames").contains(">= 1");

        err.getBuffer().setLength(0);
        assertThat(weft("run", "--mode", "fastest", "--out", tmp.toString())).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--mode").contains("colored");

        err.getBuffer().setLength(0);
        assertThat(weft("run", "nosuchscene", "--out", tmp.toString())).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("nosuchscene").contains("drape");

        err.getBuffer().setLength(0);
        assertThat(weft("run", "--fps", "NaN", "--out", tmp.toString())).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--fps");

        err.getBuffer().setLength(0);
        assertThat(weft("run", "--solver", "magic", "--frames", "1", "--out", tmp.toString()))
                .isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--solver").contains("xpbd");

        err.getBuffer().setLength(0);
        assertThat(weft("run", "--bogus")).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--bogus");
        // nothing was simulated for any of these
        assertThat(tmp.resolve("drape").resolve("metrics.csv")).doesNotExist();
    }
}
