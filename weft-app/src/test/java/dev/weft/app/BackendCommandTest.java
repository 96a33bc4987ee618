package dev.weft.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.opencl.OpenClDevices;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --backend cpu|opencl|opencl:N|glsl} on {@code run} and {@code render}: a scene the device runs
 * gives the cpu's metrics (PoCL and llvmpipe compute the CPU's bits); what the device does not run is one
 * line naming the flag and what turns the feature off, exit 2, before anything is written.
 */
class BackendCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    /** Null where OpenCL is usable here, else why not. */
    private final String missing = OpenClDevices.unavailableReason();

    private int weft(String... args) {
        return WeftMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    /**
     * The default scene (a cloth swinging onto a sphere and the floor, distance bending) at 16 × 16
     * particles and without tethers: a small scene for the quick comparisons, on the solvers' paths
     * without tethers (mass-spring's fused Verlet step); the default scene as shipped has its own tests.
     */
    private static Path untetheredDrape(Path dir) throws IOException {
        String json;
        try (InputStream in = Files.newInputStream(Path.of("..", "scenes", "drape.json"))) {
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String edited = json.replace("\"springs\": \"pattern12\" }", "\"springs\": \"pattern12\", \"tethers\": false }")
                .replace("\"cols\": 64, \"rows\": 64", "\"cols\": 16, \"rows\": 16")
                .replace("\"name\": \"drape\"", "\"name\": \"drape16\"");
        assertThat(edited).contains("\"tethers\": false", "\"cols\": 16", "drape16");
        Path file = dir.resolve("drape16.json");
        Files.writeString(file, edited);
        return file;
    }

    /** metrics.csv without its step_ms column (a wall time), one string per row. */
    private static List<String> metricsWithoutTimes(Path csv) throws IOException {
        List<String> rows = new ArrayList<>();
        for (String line : Files.readAllLines(csv)) {
            String[] cells = line.split(",");
            List<String> kept = new ArrayList<>(List.of(cells));
            kept.remove(2);
            rows.add(String.join(",", kept));
        }
        return rows;
    }

    @ParameterizedTest(name = "--solver {0}")
    @CsvSource({"mass-spring", "xpbd", "pd", "pbd", "relaxation", "implicit"})
    void openClWritesTheCpusMetricsAndFrames(String solver, @TempDir Path tmp) throws IOException {
        assumeTrue(missing == null, () -> "no OpenCL here: " + missing);
        Path scene = untetheredDrape(tmp);
        for (String backend : List.of("cpu", "opencl")) {
            int code = weft("run", scene.toString(), "--solver", solver, "--backend", backend, "--frames", "3",
                    "--threads", "1", "--quiet", "--out", tmp.resolve(backend).toString());
            assertThat(code).as(err.toString()).isZero();
        }
        assertThat(out.toString()).contains("backend opencl: 0: ");
        Path cpu = tmp.resolve("cpu").resolve("drape16");
        Path device = tmp.resolve("opencl").resolve("drape16");
        List<String> cpuRows = metricsWithoutTimes(cpu.resolve("metrics.csv"));
        assertThat(cpuRows).hasSize(4);
        assertThat(metricsWithoutTimes(device.resolve("metrics.csv"))).containsExactlyElementsOf(cpuRows);
        // the last frame's mesh: every position printed the same
        assertThat(Files.readString(device.resolve("frame_00003.obj")))
                .isEqualTo(Files.readString(cpu.resolve("frame_00003.obj")));
    }

    /**
     * {@code weft run stack --self-collision} (five cloths dropped onto a box, here 16 × 16 each, 30 frames: the
     * second lands on the first) on the device: the cpu run's metrics, every row; without contacts the metrics
     * are others (the contacts acted). The implicit solver holds its cloth contacts through its filter S and
     * projects the rest, as on the cpu.
     */
    @ParameterizedTest(name = "--solver {0}")
    @CsvSource({"xpbd", "pd", "implicit"})
    void theStackWithSelfCollisionOnOpenClWritesTheCpusMetrics(String solver, @TempDir Path tmp) throws IOException {
        assumeTrue(missing == null, () -> "no OpenCL here: " + missing);
        Path scene = editedScene(tmp, "stack", "stack16", "\"cols\": 32,\n      \"rows\": 32,",
                "\"cols\": 16,\n      \"rows\": 16,");
        for (String backend : List.of("cpu", "opencl")) {
            int code = weft("run", scene.toString(), "--solver", solver, "--self-collision", "--backend", backend,
                    "--frames", "30", "--threads", "1", "--quiet", "--obj-every", "0", "--out",
                    tmp.resolve(backend).toString());
            assertThat(code).as(err.toString()).isZero();
        }
        int code = weft("run", scene.toString(), "--solver", solver, "--backend", "opencl", "--frames", "30", "--quiet",
                "--obj-every", "0", "--out", tmp.resolve("apart").toString());
        assertThat(code).as(err.toString()).isZero();
        List<String> cpuRows = metricsWithoutTimes(tmp.resolve("cpu").resolve("stack16").resolve("metrics.csv"));
        assertThat(cpuRows).hasSize(31);
        assertThat(metricsWithoutTimes(tmp.resolve("opencl").resolve("stack16").resolve("metrics.csv")))
                .containsExactlyElementsOf(cpuRows);
        assertThat(metricsWithoutTimes(tmp.resolve("apart").resolve("stack16").resolve("metrics.csv")).get(30))
                .as("the last frame without contacts").isNotEqualTo(cpuRows.get(30));
    }

    /**
     * Scenes with the colliders the device runs besides planes and spheres, as shipped but for the frame count:
     * funnel (the funnel and a box; 24 frames, the first cloth meets the funnel's wall around frame 18), spheres
     * (a ball moving at 10 m/s through four hanging cloths; 12 frames, it passes the first two) and chair (a
     * cloth dropped on a triangle-mesh chair from meshes/chair.obj, a MeshCollider; 30 frames, it lands on the
     * seat around frame 18) and poncho (a poncho 6 cm over an animated figure, an AnimatedMeshCollider of 12 OBJ
     * frames played at 6 fps, with self-collision; 40 frames: it falls onto the shoulders around frame 7, and from
     * frame 26 on a run whose contacts' support test took the meshes' distance wrongly parted from the cpu's), on
     * XPBD, the scenes' default solver: the cpu run's metrics and last frame.
     */
    @ParameterizedTest(name = "{0}, {1} frames")
    @CsvSource({"funnel, 24", "spheres, 12", "chair, 30", "poncho, 40"})
    void theFunnelAndAMovingColliderOnOpenClWriteTheCpusMetrics(String scene, int frames, @TempDir Path tmp)
            throws IOException {
        assumeTrue(missing == null, () -> "no OpenCL here: " + missing);
        for (String backend : List.of("cpu", "opencl")) {
            int code = weft("run", scene, "--backend", backend, "--frames", Integer.toString(frames), "--threads", "1",
                    "--quiet", "--out", tmp.resolve(backend).toString());
            assertThat(code).as(err.toString()).isZero();
        }
        Path cpu = tmp.resolve("cpu").resolve(scene);
        Path device = tmp.resolve("opencl").resolve(scene);
        List<String> cpuRows = metricsWithoutTimes(cpu.resolve("metrics.csv"));
        assertThat(cpuRows).hasSize(frames + 1);
        assertThat(metricsWithoutTimes(device.resolve("metrics.csv"))).containsExactlyElementsOf(cpuRows);
        String last = String.format("frame_%05d.obj", frames);
        assertThat(Files.readString(device.resolve(last))).isEqualTo(Files.readString(cpu.resolve(last)));
    }

    /**
     * Soft bodies of tetrahedra on the device's XPBD (colored mode) and pbd (colored, rigid): the rubber scene (a
     * tetrahedral ball dropped onto a tetrahedral cushion, 30 frames: the ball lands on the cushion around frame
     * 18) with particle contacts only (as shipped, vertex-triangle ones on: the test below), and the jelly scene with
     * its voxel body's volume tetrahedra on (24 frames: it lands around frame 16). The cpu run's metrics, its last
     * frame's mesh and its soft bodies' volume line.
     */
    @ParameterizedTest(name = "{0} --solver {1}")
    @CsvSource(delimiter = '|', value = {
        "rubber | xpbd | 30 | \"selfCollision\": { \"vertexTriangle\": true }, | \"selfCollision\": true,",
        "jelly | xpbd | 24 | \"density\": 1000, | \"density\": 1000, \"volume\": true,",
        "jelly | pbd | 24 | \"density\": 1000, | \"density\": 1000, \"volume\": true,"
    })
    void tetrahedralSoftBodiesRunOnOpenClWithTheCpusMetrics(String name, String solver, int frames, String from,
                                                            String to, @TempDir Path tmp) throws IOException {
        assumeTrue(missing == null, () -> "no OpenCL here: " + missing);
        Path scene = editedScene(tmp, name, name + "-tets", from, to);
        Path meshes = Files.createDirectories(tmp.resolve("meshes"));
        for (String mesh : List.of("ball.obj", "cube.obj", "cushion.node", "cushion.ele")) {
            Files.copy(Path.of("..", "scenes", "meshes", mesh), meshes.resolve(mesh));
        }
        List<String> volumes = new ArrayList<>();
        for (String backend : List.of("cpu", "opencl")) {
            out.getBuffer().setLength(0);
            int code = weft("run", scene.toString(), "--solver", solver, "--backend", backend, "--frames",
                    Integer.toString(frames), "--threads", "1", "--out", tmp.resolve(backend).toString());
            assertThat(code).as(err.toString()).isZero();
            volumes.add(out.toString().lines().filter(l -> l.contains("of its rest volume")).toList().toString());
        }
        assertThat(volumes.get(0)).as("the soft bodies' volume line").contains("of its rest volume");
        assertThat(volumes.get(1)).isEqualTo(volumes.get(0));
        Path cpu = tmp.resolve("cpu").resolve(name + "-tets");
        Path device = tmp.resolve("opencl").resolve(name + "-tets");
        List<String> cpuRows = metricsWithoutTimes(cpu.resolve("metrics.csv"));
        assertThat(cpuRows).hasSize(frames + 1);
        assertThat(metricsWithoutTimes(device.resolve("metrics.csv"))).containsExactlyElementsOf(cpuRows);
        String last = String.format("frame_%05d.obj", frames);
        assertThat(Files.readString(device.resolve(last))).isEqualTo(Files.readString(cpu.resolve(last)));
    }

    /**
     * The rubber scene as shipped, vertex–triangle contacts on (its {@code "selfCollision": {"vertexTriangle":
     * true}}), on the device with the scene's own solver (xpbd), pbd and pd (its elastic tetrahedra projected on
     * the device, docs/opencl-pd-tets.md): 30 frames, the ball lands on the cushion around frame 18. The cpu run's
     * metrics and last frame's mesh, on one thread.
     */
    @ParameterizedTest(name = "--solver {0}")
    @CsvSource({"xpbd", "pbd", "pd"})
    void theRubberSceneRunsAsShippedOnOpenClWithTheCpusMetrics(String solver, @TempDir Path tmp) throws IOException {
        assumeTrue(missing == null, () -> "no OpenCL here: " + missing);
        int frames = 30;
        for (String backend : List.of("cpu", "opencl")) {
            int code = weft("run", "rubber", "--solver", solver, "--backend", backend, "--frames",
                    Integer.toString(frames), "--threads", "1", "--quiet", "--out", tmp.resolve(backend).toString());
            assertThat(code).as(err.toString()).isZero();
        }
        Path cpu = tmp.resolve("cpu").resolve("rubber");
        Path device = tmp.resolve("opencl").resolve("rubber");
        List<String> cpuRows = metricsWithoutTimes(cpu.resolve("metrics.csv"));
        assertThat(cpuRows).hasSize(frames + 1);
        assertThat(metricsWithoutTimes(device.resolve("metrics.csv"))).containsExactlyElementsOf(cpuRows);
        String last = String.format("frame_%05d.obj", frames);
        assertThat(Files.readString(device.resolve(last))).isEqualTo(Files.readString(cpu.resolve(last)));
    }

    /**
     * The rubber-tear scene as shipped (a notched bar of 117 nodes and 282 tetrahedra pulled apart by grips on
     * its pinned end layers; 30 frames, by which it has torn at the notch): its grips hold pinned particles
     * only, which the host drives, so the device runs it. The cpu run's metrics and last frame, which has more
     * vertices than the bar has nodes (split nodes: it tore, on both).
     */
    @ParameterizedTest(name = "--solver {0}")
    @CsvSource({"xpbd", "pbd"})
    void theRubberTearSceneTearsOnOpenClAsOnTheCpu(String solver, @TempDir Path tmp) throws IOException {
        assumeTrue(missing == null, () -> "no OpenCL here: " + missing);
        int frames = 30;
        for (String backend : List.of("cpu", "opencl")) {
            int code = weft("run", "rubber-tear", "--solver", solver, "--backend", backend, "--frames",
                    Integer.toString(frames), "--threads", "1", "--quiet", "--out", tmp.resolve(backend).toString());
            assertThat(code).as(err.toString()).isZero();
        }
        Path cpu = tmp.resolve("cpu").resolve("rubber-tear");
        Path device = tmp.resolve("opencl").resolve("rubber-tear");
        List<String> cpuRows = metricsWithoutTimes(cpu.resolve("metrics.csv"));
        assertThat(cpuRows).hasSize(frames + 1);
        assertThat(metricsWithoutTimes(device.resolve("metrics.csv"))).containsExactlyElementsOf(cpuRows);
        String last = Files.readString(device.resolve(String.format("frame_%05d.obj", frames)));
        assertThat(last).isEqualTo(Files.readString(cpu.resolve(String.format("frame_%05d.obj", frames))));
        assertThat(last.lines().filter(l -> l.startsWith("v ")).count()).as("split nodes: it tore").isGreaterThan(117);
    }

    /**
     * Soft bodies of tetrahedra on the GLSL XPBD solver (one dispatch per tetrahedron color after the bending
     * colors): the jelly scene with its voxel body's volume tetrahedra on (24 frames: it lands around frame 16).
     * On Mesa's llvmpipe the cpu run's metrics and last frame's mesh. (The rubber scenes stay refused on glsl for
     * other reasons: rubber's particle contacts, rubber-tear's grips; see the refusal table.)
     */
    @Test
    void tetrahedralSoftBodiesRunOnGlslWithTheCpusMetrics(@TempDir Path tmp) throws IOException {
        int frames = 24;
        Path scene = editedScene(tmp, "jelly", "jelly-tets", "\"density\": 1000,",
                "\"density\": 1000, \"volume\": true,");
        Path meshes = Files.createDirectories(tmp.resolve("meshes"));
        Files.copy(Path.of("..", "scenes", "meshes", "cube.obj"), meshes.resolve("cube.obj"));
        for (String backend : List.of("cpu", "glsl")) {
            int code = weft("run", scene.toString(), "--solver", "xpbd", "--backend", backend, "--frames",
                    Integer.toString(frames), "--threads", "1", "--out", tmp.resolve(backend).toString());
            assertThat(code).as(err.toString()).isZero();
        }
        assertThat(out.toString()).contains("backend glsl: EGL ").contains("of its rest volume");
        Path cpu = tmp.resolve("cpu").resolve("jelly-tets");
        Path device = tmp.resolve("glsl").resolve("jelly-tets");
        List<String> cpuRows = metricsWithoutTimes(cpu.resolve("metrics.csv"));
        assertThat(cpuRows).hasSize(frames + 1);
        List<String> glslRows = metricsWithoutTimes(device.resolve("metrics.csv"));
        assertThat(glslRows).hasSize(frames + 1);
        if (out.toString().contains("llvmpipe")) {
            assertThat(glslRows).containsExactlyElementsOf(cpuRows);
            String last = String.format("frame_%05d.obj", frames);
            assertThat(Files.readString(device.resolve(last))).isEqualTo(Files.readString(cpu.resolve(last)));
        }
    }

    /** The implicit solver's Jacobi method on the device: the cpu run's metrics and last frame too. */
    @Test
    void implicitJacobiOnOpenClWritesTheCpusMetrics(@TempDir Path tmp) throws IOException {
        assumeTrue(missing == null, () -> "no OpenCL here: " + missing);
        Path scene = untetheredDrape(tmp);
        for (String backend : List.of("cpu", "opencl")) {
            int code = weft("run", scene.toString(), "--solver", "implicit", "--linear", "jacobi", "--backend",
                    backend, "--frames", "3", "--threads", "1", "--quiet", "--out", tmp.resolve(backend).toString());
            assertThat(code).as(err.toString()).isZero();
        }
        Path cpu = tmp.resolve("cpu").resolve("drape16");
        Path device = tmp.resolve("opencl").resolve("drape16");
        List<String> cpuRows = metricsWithoutTimes(cpu.resolve("metrics.csv"));
        assertThat(cpuRows).hasSize(4);
        assertThat(metricsWithoutTimes(device.resolve("metrics.csv"))).containsExactlyElementsOf(cpuRows);
        assertThat(Files.readString(device.resolve("frame_00003.obj")))
                .isEqualTo(Files.readString(cpu.resolve("frame_00003.obj")));
    }

    /**
     * The hanging scene as shipped (dihedral bending, tethers), here at 32 × 32, and the same with isometric
     * bending: XPBD colored and the pbd solver in its Jacobi mode (seed 001's, {@code --mode jacobi}) on the device
     * project both as the CPU does.
     */
    @ParameterizedTest(name = "--solver {0}, {1} bending")
    @CsvSource({"xpbd, dihedral", "pbd, dihedral", "xpbd, isometric", "pbd, isometric"})
    void bendingStencilsAndJacobiRunOnOpenClWithTheCpusMetrics(String solver, String bending, @TempDir Path tmp)
            throws IOException {
        assumeTrue(missing == null, () -> "no OpenCL here: " + missing);
        String name = "hanging32-" + bending;
        Path scene = editedScene(tmp, "hanging", name, "\"substeps\": 16,\n  \"bodies\": [\n    {\n      "
                + "\"type\": \"grid\",\n      \"name\": \"cloth\",\n      \"cols\": 100,\n      \"rows\": 100,",
                "\"substeps\": 16,\n  \"model\": { \"bending\": \"" + bending + "\" },\n  \"bodies\": [\n    {\n      "
                + "\"type\": \"grid\",\n      \"name\": \"cloth\",\n      \"cols\": 32,\n      \"rows\": 32,");
        String mode = solver.equals("pbd") ? "jacobi" : "colored";
        for (String backend : List.of("cpu", "opencl")) {
            int code = weft("run", scene.toString(), "--solver", solver, "--mode", mode, "--backend", backend,
                    "--frames", "3", "--threads", "1", "--quiet", "--out", tmp.resolve(backend).toString());
            assertThat(code).as(err.toString()).isZero();
        }
        Path cpu = tmp.resolve("cpu").resolve(name);
        Path device = tmp.resolve("opencl").resolve(name);
        List<String> cpuRows = metricsWithoutTimes(cpu.resolve("metrics.csv"));
        assertThat(cpuRows).hasSize(4);
        assertThat(metricsWithoutTimes(device.resolve("metrics.csv"))).containsExactlyElementsOf(cpuRows);
        assertThat(Files.readString(device.resolve("frame_00003.obj")))
                .isEqualTo(Files.readString(cpu.resolve("frame_00003.obj")));
    }

    /**
     * The tear scene (a cannonball through a tearing curtain, grips on pinned particles pulling a cloth
     * apart; 12 frames: the ball meets the curtain near frame 5) and the cut scene (a blade through a hanging cloth;
     * 24 frames: it cuts its top 0.2 m) as shipped, on --backend cpu and --backend opencl: the same metrics.csv
     * (wall time removed), so the same tears, cuts and motion (docs/opencl-interact.md).
     */
    @ParameterizedTest(name = "{0}, {1} frames")
    @CsvSource({"tear, 12", "cut, 24"})
    void projectilesGripsAndBladesOnOpenClWriteTheCpusMetrics(String scene, int frames, @TempDir Path tmp)
            throws IOException {
        assumeTrue(missing == null, () -> "no OpenCL here: " + missing);
        for (String backend : List.of("cpu", "opencl")) {
            int code = weft("run", scene, "--backend", backend, "--frames", Integer.toString(frames), "--threads", "1",
                    "--quiet", "--out", tmp.resolve(backend).toString());
            assertThat(code).as(err.toString()).isZero();
        }
        List<String> cpuRows = metricsWithoutTimes(tmp.resolve("cpu").resolve(scene).resolve("metrics.csv"));
        assertThat(cpuRows).hasSize(frames + 1);
        assertThat(metricsWithoutTimes(tmp.resolve("opencl").resolve(scene).resolve("metrics.csv")))
                .containsExactlyElementsOf(cpuRows);
    }

    /** Built-in scene {@code name} renamed {@code rename}, {@code from} replaced by {@code to}, written in {@code dir}. */
    private static Path editedScene(Path dir, String name, String rename, String from, String to) throws IOException {
        String json;
        try (InputStream in = Files.newInputStream(Path.of("..", "scenes", name + ".json"))) {
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String edited = json.replace(from, to).replace("\"name\": \"" + name + "\"", "\"name\": \"" + rename + "\"");
        assertThat(edited).contains(to, rename);
        Path file = dir.resolve(rename + ".json");
        Files.writeString(file, edited);
        return file;
    }

    /**
     * The flag scene as shipped (a flag pinned on its pole in a 6.7 m/s wind, sea-level air, the floor): every
     * solver on the device computes the air as the CPU does (OpenCL's air.cl), so metrics and the last frame's
     * mesh are the cpu run's.
     */
    @ParameterizedTest(name = "--solver {0}")
    @CsvSource({"xpbd", "pbd", "relaxation", "pd", "mass-spring", "implicit"})
    void theFlagSceneInTheWindRunsOnOpenClWithTheCpusMetrics(String solver, @TempDir Path tmp) throws IOException {
        assumeTrue(missing == null, () -> "no OpenCL here: " + missing);
        for (String backend : List.of("cpu", "opencl")) {
            int code = weft("run", "flag", "--solver", solver, "--backend", backend, "--frames", "3", "--threads",
                    "1", "--quiet", "--out", tmp.resolve(backend).toString());
            assertThat(code).as(err.toString()).isZero();
        }
        Path cpu = tmp.resolve("cpu").resolve("flag");
        Path device = tmp.resolve("opencl").resolve("flag");
        List<String> cpuRows = metricsWithoutTimes(cpu.resolve("metrics.csv"));
        assertThat(cpuRows).hasSize(4);
        assertThat(metricsWithoutTimes(device.resolve("metrics.csv"))).containsExactlyElementsOf(cpuRows);
        assertThat(Files.readString(device.resolve("frame_00003.obj")))
                .isEqualTo(Files.readString(cpu.resolve("frame_00003.obj")));
    }

    /**
     * The default scene as shipped (tethers on, the sphere and the floor): XPBD, relaxation (the scene's 48
     * steps of 3 relaxation steps a frame), PD (17 steps of 2 alternations of 3 SOR sweeps), mass-spring (16
     * steps of 24 Verlet steps) and the implicit solver (which holds the floor through its filter S) on the
     * device project the tethers as the CPU does.
     */
    @ParameterizedTest(name = "--solver {0}")
    @CsvSource({"xpbd", "relaxation", "pd", "mass-spring", "implicit"})
    void theDefaultSceneRunsOnOpenClWithTheCpusMetrics(String solver, @TempDir Path tmp) throws IOException {
        assumeTrue(missing == null, () -> "no OpenCL here: " + missing);
        for (String backend : List.of("cpu", "opencl")) {
            int code = weft("run", "drape", "--solver", solver, "--backend", backend, "--frames", "3", "--threads",
                    "1", "--quiet", "--out", tmp.resolve(backend).toString());
            assertThat(code).as(err.toString()).isZero();
        }
        List<String> cpuRows = metricsWithoutTimes(tmp.resolve("cpu").resolve("drape").resolve("metrics.csv"));
        assertThat(cpuRows).hasSize(4);
        assertThat(metricsWithoutTimes(tmp.resolve("opencl").resolve("drape").resolve("metrics.csv")))
                .containsExactlyElementsOf(cpuRows);
    }

    /**
     * The default scene as shipped (tethers on, distance bending, the sphere and the floor) on the GLSL
     * solvers: XPBD (30 steps a frame, the tethers after each iteration's distance passes) and mass-spring
     * (16 steps of 24 Verlet steps, each with the tethers between its prediction and its finish) project the tethers as the CPU does, so on Mesa's
     * llvmpipe the metrics are the cpu run's.
     */
    @ParameterizedTest(name = "--solver {0}")
    @CsvSource({"xpbd", "mass-spring"})
    void theDefaultSceneRunsOnGlslWithTheCpusMetrics(String solver, @TempDir Path tmp) throws IOException {
        for (String backend : List.of("cpu", "glsl")) {
            int code = weft("run", "drape", "--solver", solver, "--backend", backend, "--frames", "3", "--threads",
                    "1", "--quiet", "--out", tmp.resolve(backend).toString());
            assertThat(code).as(err.toString()).isZero();
        }
        assertThat(out.toString()).contains("backend glsl: EGL ");
        List<String> cpuRows = metricsWithoutTimes(tmp.resolve("cpu").resolve("drape").resolve("metrics.csv"));
        assertThat(cpuRows).hasSize(4);
        List<String> glslRows = metricsWithoutTimes(tmp.resolve("glsl").resolve("drape").resolve("metrics.csv"));
        assertThat(glslRows).hasSize(4);
        if (out.toString().contains("llvmpipe")) {
            assertThat(glslRows).containsExactlyElementsOf(cpuRows);
        }
    }

    /**
     * The hanging scene as shipped (100 × 100, dihedral bending, tethers), and the same with isometric bending:
     * the GLSL XPBD solver projects both kinds of stencils as the CPU does (one dispatch per bending color after
     * the distance colors), so on Mesa's llvmpipe the metrics and the last frame's mesh are the cpu run's.
     */
    @ParameterizedTest(name = "{0} bending")
    @CsvSource({"dihedral", "isometric"})
    void bendingStencilsRunOnGlslWithTheCpusMetrics(String bending, @TempDir Path tmp) throws IOException {
        String name = bending.equals("dihedral") ? "hanging" : "hanging-isometric";
        String scene = bending.equals("dihedral") ? "hanging" : editedScene(tmp, "hanging", name,
                "\"substeps\": 16,\n  \"bodies\"", "\"substeps\": 16,\n  \"model\": { \"bending\": \"isometric\" },\n"
                + "  \"bodies\"").toString();
        for (String backend : List.of("cpu", "glsl")) {
            int code = weft("run", scene, "--solver", "xpbd", "--backend", backend, "--frames", "3", "--threads", "1",
                    "--quiet", "--out", tmp.resolve(backend).toString());
            assertThat(code).as(err.toString()).isZero();
        }
        assertThat(out.toString()).contains("backend glsl: EGL ");
        Path cpu = tmp.resolve("cpu").resolve(name);
        Path device = tmp.resolve("glsl").resolve(name);
        List<String> cpuRows = metricsWithoutTimes(cpu.resolve("metrics.csv"));
        assertThat(cpuRows).hasSize(4);
        List<String> glslRows = metricsWithoutTimes(device.resolve("metrics.csv"));
        assertThat(glslRows).hasSize(4);
        if (out.toString().contains("llvmpipe")) {
            assertThat(glslRows).containsExactlyElementsOf(cpuRows);
            assertThat(Files.readString(device.resolve("frame_00003.obj")))
                    .isEqualTo(Files.readString(cpu.resolve("frame_00003.obj")));
        }
    }

    /**
     * GLSL on Mesa's llvmpipe (which the test command installs) computes the CPU's bits, so the metrics
     * and the last frame's mesh are the cpu run's.
     */
    @ParameterizedTest(name = "--solver {0}")
    @CsvSource({"mass-spring", "xpbd"})
    void glslWritesTheCpusMetricsAndFrames(String solver, @TempDir Path tmp) throws IOException {
        Path scene = untetheredDrape(tmp);
        for (String backend : List.of("cpu", "glsl")) {
            int code = weft("run", scene.toString(), "--solver", solver, "--backend", backend, "--frames", "3",
                    "--threads", "1", "--quiet", "--out", tmp.resolve(backend).toString());
            assertThat(code).as(err.toString()).isZero();
        }
        assertThat(out.toString()).contains("backend glsl: EGL ");
        Path cpu = tmp.resolve("cpu").resolve("drape16");
        Path device = tmp.resolve("glsl").resolve("drape16");
        List<String> cpuRows = metricsWithoutTimes(cpu.resolve("metrics.csv"));
        assertThat(cpuRows).hasSize(4);
        if (out.toString().contains("llvmpipe")) {
            assertThat(metricsWithoutTimes(device.resolve("metrics.csv"))).containsExactlyElementsOf(cpuRows);
            assertThat(Files.readString(device.resolve("frame_00003.obj")))
                    .isEqualTo(Files.readString(cpu.resolve("frame_00003.obj")));
        }
    }

    /**
     * render --backend glsl draws the cloth from the solver's storage buffer, in the solver's context: on
     * llvmpipe (the solvers give the CPU's bits, the normals shader SmoothNormals' bits) the cpu run's
     * pictures pixel for pixel, its metrics.csv (but the wall times) and the summary it prints; the state
     * read back once a frame (for the metrics), not once a substep; the first picture, before any step, from
     * the host's positions.
     */
    @ParameterizedTest(name = "--solver {0}")
    @CsvSource({"mass-spring", "xpbd"})
    void renderDrawsTheGlslSolversBufferAsTheCpuRunsPictures(String solver, @TempDir Path tmp) throws IOException {
        Path scene = untetheredDrape(tmp);
        List<String> summaries = new ArrayList<>();
        for (String backend : List.of("cpu", "glsl")) {
            int from = out.getBuffer().length();
            int code = weft("render", scene.toString(), "--solver", solver, "--backend", backend, "--frames", "3",
                    "--width", "96", "--height", "54", "--threads", "1", "--quiet", "--out",
                    tmp.resolve(backend).toString());
            assertThat(code).as(err.toString()).isZero();
            StringBuilder summary = new StringBuilder();
            for (String line : out.getBuffer().substring(from).split("\n")) {
                if (line.startsWith("  final residual") || line.contains("(") && line.startsWith("  wrote ")
                        && line.contains("rows")) {
                    summary.append(line.replace(tmp.resolve(backend).toString(), "OUT")).append('\n');
                }
            }
            summaries.add(summary.toString());
        }
        assertThat(out.toString()).contains("  glsl: 3 of 4 pictures drawn from the solver's storage buffer; "
                + "the state read back 3 time(s) (once a frame, for the metrics; not between substeps)");
        assertThat(summaries.get(0)).contains("final residual");
        Path cpu = tmp.resolve("cpu").resolve("drape16");
        Path device = tmp.resolve("glsl").resolve("drape16");
        assertThat(device.resolve("render").resolve("frame_00003.png")).exists();
        if (out.toString().contains("llvmpipe")) {
            assertThat(summaries.get(1)).isEqualTo(summaries.get(0));
            assertThat(metricsWithoutTimes(device.resolve("metrics.csv")))
                    .containsExactlyElementsOf(metricsWithoutTimes(cpu.resolve("metrics.csv")));
            for (int f = 0; f <= 3; f++) {
                String name = String.format("frame_%05d.png", f);
                java.awt.image.BufferedImage a = javax.imageio.ImageIO.read(cpu.resolve("render").resolve(name)
                        .toFile());
                java.awt.image.BufferedImage b = javax.imageio.ImageIO.read(device.resolve("render").resolve(name)
                        .toFile());
                int differing = 0;
                for (int y = 0; y < a.getHeight(); y++) {
                    for (int x = 0; x < a.getWidth(); x++) {
                        differing += a.getRGB(x, y) != b.getRGB(x, y) ? 1 : 0;
                    }
                }
                assertThat(differing).as("pixels of %s that differ from the cpu run's", name).isZero();
            }
        }
    }

    @ParameterizedTest(name = "weft {0}")
    @CsvSource(delimiter = '|', value = {
        "run drape --solver mass-spring --wind 1,0,0 --backend glsl | --backend: glsl does not run wind and air "
                + "drag yet; use --backend cpu, or run without --wind",
        "run drape --solver pd --inner-solver gs --backend opencl | --backend: opencl does not run --solver pd with "
                + "--inner-solver gs yet (sequential Gauss-Seidel is one thread by definition), only rbgs, jacobi and "
                + "jacobi-seed; use --inner-solver rbgs or --backend cpu",
        "run drape --solver pd --inner-solver cholesky --backend opencl | --backend: opencl does not run --solver pd "
                + "with --inner-solver cholesky yet (its sparse factor is solved on the cpu only), only rbgs, jacobi "
                + "and jacobi-seed; use --inner-solver rbgs or --backend cpu",
        "run drape --stretch-limits --backend opencl | --backend: opencl does not run --stretch-limits yet; use "
                + "--backend cpu, or run without --stretch-limits (and without the scene's \"stretchLimits\")",
        "run drape --stretch-smoothing --backend glsl | --backend: glsl does not run --stretch-smoothing yet; use "
                + "--backend cpu, or run without --stretch-smoothing (and without the scene's \"stretchSmoothing\")",
        "run drape --solver xpbd --mode gauss-seidel --backend opencl | --backend: opencl does not run --solver xpbd "
                + "in mode gauss-seidel yet, only colored and jacobi; use --mode colored, --mode jacobi or --backend cpu",
        "run chair --solver mass-spring --backend glsl | --backend: glsl does not run scene chair's collider chair "
                + "yet: it is a MeshCollider, which the GLSL compute solvers do not support yet (they run still planes and "
                + "spheres and drag handles); use --backend cpu",
        "run drape --backend gpu | --backend: must be cpu, opencl, opencl:N (N a device number of 'weft devices') "
                + "or glsl, got 'gpu'",
        "run drape --backend opencl:-1 | --backend: must be cpu, opencl, opencl:N",
        "run drape --solver pd --backend glsl | --backend: glsl runs --solver mass-spring, xpbd so far, not pd; "
                + "use --backend cpu",
        "run rubber-tear --backend glsl | --backend: glsl does not run scene rubber-tear's collider left grip yet: "
                + "it is a Grip, which the GLSL compute solvers do not support yet",
        "run stack --solver mass-spring --backend glsl | --backend: glsl does not run scene stack's collider box "
                + "yet: it is a BoxCollider, which the GLSL compute solvers do not support yet",
        "render drape --solver xpbd --mode jacobi --backend glsl | --backend: glsl does not run --solver xpbd in "
                + "mode jacobi yet, only colored; use --mode colored or --backend cpu"
    })
    void whatTheDeviceDoesNotRunIsOneLineNamingTheFlag(String command, String expected, @TempDir Path tmp) {
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.addAll(List.of("--frames", "1", "--out", tmp.toString()));
        assertThat(weft(args.toArray(new String[0]))).as(err.toString()).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString().lines().toList()).hasSize(1).first().asString()
                .startsWith("weft: error: " + expected);
        assertThat(err.toString()).doesNotContain("Exception", "\tat ");
        assertThat(tmp.toFile().list()).as("nothing written").isEmpty();
    }

    @Test
    void windContactsAndAMissingDeviceAreRefusedNamingWhatTurnsThemOff(@TempDir Path tmp) throws IOException {
        Path scene = untetheredDrape(tmp);
        Path outDir = tmp.resolve("out");
        // the solver, the backend, then the flags (OpenCL runs wind and air drag, GLSL does not yet)
        String[][] cases = {
            {"mass-spring", "glsl", "--wind", "1,0,0"},
            {"xpbd", "glsl", "--self-collision"},
        };
        String[] expected = {
            "weft: error: --backend: glsl does not run wind and air drag yet; use --backend cpu, or run without "
                    + "--wind (and without the scene's \"air\")",
            "weft: error: --backend: glsl does not run particle contacts yet; use --backend cpu, or run without "
                    + "--self-collision (and without the scene's \"selfCollision\")",
        };
        for (int k = 0; k < cases.length; k++) {
            err.getBuffer().setLength(0);
            List<String> args = new ArrayList<>(List.of("run", scene.toString(), "--solver", cases[k][0],
                    "--backend", cases[k][1], "--frames", "1", "--out", outDir.toString()));
            args.addAll(List.of(cases[k]).subList(2, cases[k].length));
            assertThat(weft(args.toArray(new String[0]))).isEqualTo(WeftMain.EXIT_BAD_INPUT);
            assertThat(err.toString().strip()).isEqualTo(expected[k]);
        }
        err.getBuffer().setLength(0);
        int code = weft("run", scene.toString(), "--solver", "mass-spring", "--backend", "opencl:99", "--frames", "1",
                "--out", outDir.toString());
        if (missing != null) { // no runtime: the devices command's message and status
            assertThat(code).isEqualTo(RenderCommand.EXIT_MISSING_DEPENDENCY);
            assertThat(err.toString()).contains("pocl-opencl-icd ocl-icd-libopencl1").doesNotContain("\tat ");
        } else {
            assertThat(code).isEqualTo(WeftMain.EXIT_BAD_INPUT);
            assertThat(err.toString().strip()).startsWith("weft: error: --backend: there is no device 99; this "
                    + "machine has ").contains("`weft devices` lists them");
        }
        assertThat(outDir).doesNotExist();
    }
}
