package dev.weft.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.core.collide.RayCast;
import dev.weft.core.collide.TriangleHit;
import dev.weft.core.model.Model;
import dev.weft.render.Camera;
import dev.weft.render.view.OrbitCamera;
import dev.weft.render.view.SimFrame;
import dev.weft.render.view.Viewer;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * {@code weft view} driven by input scripts in a real window (under Xvfb with Mesa's llvmpipe where there
 * is no desktop: scripts/test.sh provides one). The scene is a 1 m curtain hanging in the plane z = 0
 * from its pinned top edge, seen head-on from 3 m, so the test can say which window pixel shows which
 * point of the cloth. Skipped only where no display exists at all (DISPLAY unset).
 */
class ViewCommandTest {
    private static final int W = 320;
    private static final int H = 240;
    /** 21 × 21 particles over 1 m: 5 cm edges. */
    private static final String CURTAIN = """
            {
              "name": "view-curtain", "fps": 60, "frames": 600, "substeps": 8,
              "camera": { "eye": [0, 1.0, 3.0], "target": [0, 1.0, 0], "fov": 40 },
              "bodies": [
                { "type": "grid", "name": "curtain", "cols": 21, "rows": 21, "width": 1.0, "height": 1.0,
                  "origin": [-0.5, 1.5, 0], "axes": "vertical", "pins": { "edges": ["top"] } }
              ]
            }
            """;
    private static final Camera CAMERA = new Camera(new float[] {0f, 1f, 3f}, new float[] {0f, 1f, 0f}, 40f);

    @TempDir
    Path tmp;
    private Path scene;

    @BeforeEach
    void writeScene() throws IOException {
        scene = tmp.resolve("view-curtain.json");
        Files.writeString(scene, CURTAIN);
    }

    private static void assumeDisplay() {
        String display = System.getenv("DISPLAY");
        assumeTrue(display != null && !display.isBlank(), "no display (DISPLAY unset): scripts/test.sh runs the "
                + "tests under Xvfb");
    }

    /** The window pixel (x, y from the top left) where world point p appears through the scene's camera. */
    private static double[] pixel(float x, float y, float z) {
        // the camera looks along −z from (0, 1, 3): right is +x, up is +y
        double d = CAMERA.eye()[2] - z;
        double tan = Math.tan(Math.toRadians(CAMERA.fovYDegrees()) / 2);
        double sx = x / (d * tan * W / H);
        double sy = (y - CAMERA.eye()[1]) / (d * tan);
        return new double[] {(sx + 1) * W / 2, (1 - sy) * H / 2};
    }

    private static String move(int frame, float x, float y, float z) {
        double[] p = pixel(x, y, z);
        return String.format(Locale.ROOT, "{\"frame\": %d, \"type\": \"move\", \"x\": %.2f, \"y\": %.2f}", frame, p[0],
                p[1]);
    }

    private Path script(List<String> events) throws IOException {
        Path s = tmp.resolve("script.json");
        Files.writeString(s, "{ \"events\": [\n  " + String.join(",\n  ", events) + "\n] }\n");
        return s;
    }

    /** Runs the view command's viewer on the curtain with this script, keeping copies of the frames asked for. */
    private Map<Integer, Shown> view(Path script, int frames, int... keep) {
        return view(scene, script, frames, keep);
    }

    private Map<Integer, Shown> view(Path sceneFile, Path script, int frames, int... keep) {
        return view("cpu", sceneFile, script, frames, keep);
    }

    /** As above with {@code --backend backend}. */
    private Map<Integer, Shown> view(String backend, Path sceneFile, Path script, int frames, int... keep) {
        return viewWith(sceneFile, script, frames, List.of("--backend", backend), keep);
    }

    /** As {@link #view(Path, Path, int, int...)} with {@code extra} flags after the others. */
    private Map<Integer, Shown> viewWith(Path sceneFile, Path script, int frames, List<String> extra, int... keep) {
        ViewCommand cmd = new ViewCommand();
        List<String> args = new ArrayList<>(List.of(sceneFile.toString(), "--width", "" + W, "--height", "" + H,
                "--script", script.toString(), "--frames", "" + frames, "--threads", "1"));
        args.addAll(extra);
        new CommandLine(cmd).parseArgs(args.toArray(String[]::new));
        Map<Integer, Shown> kept = new HashMap<>();
        try (ViewCommand.World world = cmd.world()) {
            Viewer.run(world, cmd.options(), (frame, f, input) -> {
                if (Arrays.stream(keep).anyMatch(k -> k == frame)) {
                    kept.put(frame, new Shown(f));
                }
            });
        }
        return kept;
    }

    /** A copy of what a frame showed. */
    private static final class Shown {
        final Model model;
        final float[] x;
        final boolean held;
        final int[] heldParticles;
        final float[] target;
        final float[] ballCenters;
        final float[] ballVelocities;
        final String solver;
        final boolean selfCollision;
        final dev.weft.render.view.SolverTuning tuning;
        final String refusal;

        Shown(SimFrame f) {
            refusal = f.refusal();
            tuning = f.tuning();
            solver = f.solver();
            selfCollision = f.selfCollision();
            model = f.model();
            x = Arrays.copyOf(f.positions(), f.floatCount());
            held = f.held();
            heldParticles = f.heldParticles();
            target = f.handTarget();
            ballCenters = f.ballCenters();
            ballVelocities = f.ballVelocities();
        }

        float[] mean(int[] particles) {
            float[] m = new float[3];
            for (int p : particles) {
                for (int d = 0; d < 3; d++) {
                    m[d] += x[3 * p + d] / particles.length;
                }
            }
            return m;
        }
    }

    private static double distance(float[] a, float[] b) {
        double dx = a[0] - b[0];
        double dy = a[1] - b[1];
        double dz = a[2] - b[2];
        return Math.sqrt(dx * dx + dy * dy + dz * dz);
    }

    /** On the cpu and, through colliders.cl's hand record, on OpenCL (the CPU's XPBD bits on PoCL). */
    @ParameterizedTest
    @ValueSource(strings = {"cpu", "opencl"})
    void draggingMovesThePickedPointToTheCursorAndTheClothFollowsThenReleaseLetsItFallBack(String backend)
            throws IOException {
        assumeDisplay();
        if (backend.equals("opencl")) {
            String missing = dev.weft.opencl.OpenClDevices.unavailableReason();
            assumeTrue(missing == null, () -> "no OpenCL here: " + missing);
        }
        // grab the curtain's centre (0, 1, 0), pull it 0.3 m right and 0.2 m up in 20 frames, hold, let go
        List<String> events = new ArrayList<>();
        events.add(move(1, 0f, 1f, 0f));
        events.add("{\"frame\": 2, \"type\": \"press\", \"button\": \"left\"}");
        for (int k = 1; k <= 20; k++) {
            events.add(move(2 + k, 0.3f * k / 20, 1f + 0.2f * k / 20, 0f));
        }
        events.add("{\"frame\": 70, \"type\": \"release\", \"button\": \"left\"}");
        Map<Integer, Shown> f = view(backend, scene, script(events), 160, 1, 69, 160);
        Shown before = f.get(1);
        Shown held = f.get(69);
        Shown after = f.get(160);
        assertThat(held.held).isTrue();
        // the curtain's material does not tear and the T key was not pressed: nothing tore
        assertThat(held.model.particleCount()).isEqualTo(before.model.particleCount());
        // the target is where the cursor's ray meets the plane through the picked point facing the camera:
        // the plane z = 0 (the curtain barely sags out of it), at (0.3, 1.2, 0)
        assertThat(distance(held.target, new float[] {0.3f, 1.2f, 0f})).isLessThan(0.01);
        // compliance 0 puts the picked point on the target: the point of the triangle the cursor's ray
        // hit at the press (frame 1's positions, its barycentric weights) is within 1 cm of it (the
        // solvers' own constraints act before the hand each substep and leave it there), and the corners
        // within one edge (5 cm)
        float[] dir = new float[3];
        double[] at = pixel(0f, 1f, 0f);
        new OrbitCamera(CAMERA).ray(at[0], at[1], W, H, dir);
        TriangleHit hit = RayCast.nearestTriangle(before.model.triangles(), before.x, CAMERA.eye(), dir);
        int[] corners = Arrays.copyOfRange(before.model.triangles(), 3 * hit.triangle(), 3 * hit.triangle() + 3);
        assertThat(held.heldParticles).containsExactly(corners);
        float[] grabbed = new float[3];
        for (int k = 0; k < 3; k++) {
            for (int d = 0; d < 3; d++) {
                grabbed[d] += hit.weight(k) * held.x[3 * corners[k] + d];
            }
        }
        assertThat(distance(grabbed, held.target)).isLessThan(0.01);
        for (int p : held.heldParticles) {
            assertThat(distance(Arrays.copyOfRange(held.x, 3 * p, 3 * p + 3), held.target)).isLessThan(0.075); // the cell's diagonal, 7.1 cm
        }
        // the rest follows: the particles 8 to 16 cm from the picked point (in the cloth, at rest: the
        // next rings beyond its triangle) moved on average more than a third of the hand's 0.36 m
        float[] rest = before.model.restPositions();
        float[] p0 = new float[3];
        for (int k = 0; k < 3; k++) {
            for (int d = 0; d < 3; d++) {
                p0[d] += hit.weight(k) * rest[3 * corners[k] + d];
            }
        }
        double moved = 0;
        int ring = 0;
        for (int i = 0; i < before.model.particleCount(); i++) {
            float[] r = Arrays.copyOfRange(rest, 3 * i, 3 * i + 3);
            double fromPicked = distance(r, p0);
            if (fromPicked > 0.08 && fromPicked < 0.16) {
                moved += distance(Arrays.copyOfRange(before.x, 3 * i, 3 * i + 3),
                        Arrays.copyOfRange(held.x, 3 * i, 3 * i + 3));
                ring++;
            }
        }
        assertThat(ring).isGreaterThan(10);
        assertThat(moved / ring).isGreaterThan(0.36 / 3);
        // released: it falls back towards where it hung, away from the hand's last target
        assertThat(after.held).isFalse();
        float[] fallen = after.mean(held.heldParticles);
        assertThat(distance(fallen, held.target)).isGreaterThan(0.1);
        assertThat(distance(fallen, before.mean(held.heldParticles)))
                .isLessThan(distance(held.target, before.mean(held.heldParticles)));
    }

    @Test
    void withTearingTurnedOnAHardPullTearsTheCurtainAndWithItOffTheSamePullDoesNot() throws IOException {
        assumeDisplay();
        for (boolean tearing : new boolean[] {true, false}) {
            // the panel's value (the T key toggles the same switch), then the centre pulled 0.6 m sideways
            // in 4 frames: edges next to the hand stretch far past the 30 % the T key tears at
            List<String> events = new ArrayList<>();
            events.add("{\"frame\": 1, \"type\": \"set\", \"name\": \"tearing\", \"value\": " + (tearing ? 1 : 0)
                    + "}");
            events.add(move(1, 0f, 1f, 0f));
            events.add("{\"frame\": 2, \"type\": \"press\", \"button\": \"left\"}");
            for (int k = 1; k <= 4; k++) {
                events.add(move(2 + k, 0.6f * k / 4, 1f, 0f));
            }
            Map<Integer, Shown> f = view(script(events), 30, 1, 30);
            int before = f.get(1).model.particleCount();
            int after = f.get(30).model.particleCount();
            if (tearing) {
                assertThat(after).as("particles after the pull with tearing on").isGreaterThan(before);
            } else {
                assertThat(after).as("particles after the pull with tearing off").isEqualTo(before);
            }
        }
    }

    @Test
    void switchingTheSolverInThePanelGoesOnFromTheStateWithoutAJumpAndTheReadoutsNameTheNewSolver()
            throws IOException {
        assumeDisplay();
        // a cloth pinned at two corners falling from horizontal: it moves several centimetres a frame
        Path falling = fallingCloth();
        Map<Integer, Shown> f = view(falling, script(List.of(
                "{\"frame\": 20, \"type\": \"set\", \"name\": \"solver\", \"value\": \"pd\"}",
                "{\"frame\": 21, \"type\": \"set\", \"name\": \"inner\", \"value\": \"gs\"}",
                "{\"frame\": 21, \"type\": \"set\", \"name\": \"omega\", \"value\": 1.5}")), 21, 18, 19, 20, 21);
        assertThat(f.get(19).solver).isEqualTo("xpbd");
        assertThat(f.get(20).solver).isEqualTo("pd");
        // the switch keeps positions and velocities, so the first pd frame moves the cloth about as far as
        // the last xpbd frame did (velocities carry over); a restart from the scene's start would jump by
        // up to the ~0.3 m the cloth has fallen. The same for the inner solver and ω changed a frame later.
        double before = largestMove(f.get(18).x, f.get(19).x);
        double across = largestMove(f.get(19).x, f.get(20).x);
        assertThat(before).isGreaterThan(0.01);
        assertThat(across).isLessThan(2 * before);
        assertThat(f.get(21).tuning.inner()).isEqualTo(dev.weft.core.solver.pd.InnerSolver.GAUSS_SEIDEL);
        assertThat(f.get(21).tuning.omega()).isEqualTo(1.5f);
        assertThat(largestMove(f.get(20).x, f.get(21).x)).isLessThan(2 * before);
    }

    /** pbd sweeps in an iteration mode as xpbd does: the panel's mode reaches it (Jacobi moves the cloth otherwise). */
    @Test
    void thePanelsIterationModeReachesPbd() throws IOException {
        assumeDisplay();
        Path falling = fallingCloth();
        Map<Integer, Shown> colored = view(falling, script(List.of(
                "{\"frame\": 1, \"type\": \"set\", \"name\": \"solver\", \"value\": \"pbd\"}")), 8, 8);
        Map<Integer, Shown> jacobi = view(falling, script(List.of(
                "{\"frame\": 1, \"type\": \"set\", \"name\": \"solver\", \"value\": \"pbd\"}",
                "{\"frame\": 1, \"type\": \"set\", \"name\": \"mode\", \"value\": \"jacobi\"}")), 8, 8);
        assertThat(jacobi.get(8).solver).isEqualTo("pbd");
        assertThat(jacobi.get(8).tuning.mode()).isEqualTo(dev.weft.core.solver.xpbd.IterationMode.JACOBI);
        // the same scene and frames: only the sweep's order differs, which moves a falling cloth by millimetres
        assertThat(largestMove(colored.get(8).x, jacobi.get(8).x)).isGreaterThan(1e-4);
    }

    @Test
    void panelValuesReachTheSimulationTheMaterialAndTheGravity() throws IOException {
        assumeDisplay();
        Path falling = fallingCloth();
        // the material: a hundredth of the stretch stiffness is the model's from the next frame on (the
        // curtain's tethers keep it from sagging further, so its shape is not the measure here)
        Map<Integer, Shown> stiff = view(falling, script(List.of()), 2, 2);
        float k = stiff.get(2).model.material(0).stretchStiffness();
        Map<Integer, Shown> soft = view(falling, script(List.of(String.format(Locale.ROOT,
                "{\"frame\": 1, \"type\": \"set\", \"name\": \"stretch\", \"value\": %s}", k / 100))), 2, 2);
        assertThat(soft.get(2).model.material(0).stretchStiffness())
                .isCloseTo(k / 100, org.assertj.core.data.Offset.offset(k * 1e-6f));
        // gravity: the cloth falling from horizontal; 10 frames (1/6 s) under 30 m/s² instead of 9.81 drop its
        // free far edge 0.42 m instead of 0.14 in free fall (less on the swing about the pinned corners)
        Map<Integer, Shown> earth = view(falling, script(List.of()), 10, 10);
        Map<Integer, Shown> heavy = view(falling, script(List.of(
                "{\"frame\": 1, \"type\": \"set\", \"name\": \"gravityY\", \"value\": -30}")), 10, 10);
        assertThat(farEdgeHeight(heavy.get(10))).isLessThan(farEdgeHeight(earth.get(10)) - 0.1);
        // self-collision: off as the scene has it, on from the frame the panel says so
        Map<Integer, Shown> contacts = view(falling, script(List.of(
                "{\"frame\": 3, \"type\": \"set\", \"name\": \"selfCollision\", \"value\": 1}")), 3, 2, 3);
        assertThat(contacts.get(2).selfCollision).isFalse();
        assertThat(contacts.get(3).selfCollision).isTrue();
    }

    /**
     * --mode, --inner-solver and --omega start the panel's choices (as 'weft run' takes them) and reach the solver:
     * the falling cloth after 10 frames differs from the scene's own setting's; a flag the starting solver does not
     * use is refused by name, as by 'weft run'.
     */
    @Test
    void modeInnerSolverAndOmegaFlagsStartThePanelsChoices() throws IOException {
        assumeDisplay();
        Path falling = fallingCloth();
        Path none = script(List.of());
        Map<Integer, Shown> colored = viewWith(falling, none, 10, List.of("--solver", "xpbd"), 1, 10);
        Map<Integer, Shown> jacobi = viewWith(falling, none, 10, List.of("--solver", "xpbd", "--mode", "jacobi"), 1,
                10);
        assertThat(colored.get(1).tuning.mode()).isNull();
        assertThat(jacobi.get(1).tuning.mode()).isEqualTo(dev.weft.core.solver.xpbd.IterationMode.JACOBI);
        assertThat(jacobi.get(10).x).isNotEqualTo(colored.get(10).x);
        Map<Integer, Shown> pd = viewWith(falling, none, 10, List.of("--solver", "pd"), 10);
        Map<Integer, Shown> pdJacobi = viewWith(falling, none, 10, List.of("--solver", "pd", "--inner-solver",
                "jacobi", "--omega", "0.8"), 1, 10);
        assertThat(pdJacobi.get(1).tuning.inner()).isEqualTo(dev.weft.core.solver.pd.InnerSolver.JACOBI);
        assertThat(pdJacobi.get(1).tuning.omega()).isEqualTo(0.8f);
        assertThat(pdJacobi.get(10).x).isNotEqualTo(pd.get(10).x);

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = WeftMain.execute(new String[] {"view", falling.toString(), "--solver", "pd", "--mode", "jacobi",
            "--frames", "1"}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--mode", "does not apply to --solver pd", "xpbd");
        code = WeftMain.execute(new String[] {"view", falling.toString(), "--solver", "pd", "--omega", "2.5",
            "--frames", "1"}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--omega", "(0, 2)");
    }

    /** Mean height of the falling cloth's row opposite its pinned edge (row 20 of 21). */
    private static double farEdgeHeight(Shown f) {
        double sum = 0;
        for (int c = 0; c < 21; c++) {
            sum += f.x[3 * (20 * 21 + c) + 1];
        }
        return sum / 21;
    }

    /** A 21 × 21, 1 m cloth pinned at two corners, falling from horizontal at y = 1. */
    private Path fallingCloth() throws IOException {
        Path falling = tmp.resolve("view-falling.json");
        Files.writeString(falling, """
                { "name": "view-falling", "fps": 60, "frames": 600, "substeps": 8,
                  "camera": { "eye": [0, 1.0, 3.0], "target": [0, 0.6, 0], "fov": 40 },
                  "bodies": [ { "type": "grid", "name": "cloth", "cols": 21, "rows": 21, "width": 1.0,
                    "height": 1.0, "origin": [-0.5, 1.0, -0.5], "pins": { "corners": ["top-left", "top-right"] } } ],
                  "steps": { "pd": { "substeps": 8 } } }
                """);
        return falling;
    }

    private static double largestMove(float[] a, float[] b) {
        double m = 0;
        for (int i = 0; i < a.length; i += 3) {
            m = Math.max(m, distance(Arrays.copyOfRange(a, i, i + 3), Arrays.copyOfRange(b, i, i + 3)));
        }
        return m;
    }

    /** Connected components of the cloth: particles joined by shared triangles. */
    private static int components(Model m) {
        int n = m.particleCount();
        int[] parent = new int[n];
        for (int i = 0; i < n; i++) {
            parent[i] = i;
        }
        int[] t = m.triangles();
        for (int i = 0; i < t.length; i += 3) {
            union(parent, t[i], t[i + 1]);
            union(parent, t[i], t[i + 2]);
        }
        boolean[] used = new boolean[n];
        for (int p : t) {
            used[p] = true;
        }
        int roots = 0;
        for (int i = 0; i < n; i++) {
            if (used[i] && find(parent, i) == i) {
                roots++;
            }
        }
        return roots;
    }

    private static int find(int[] parent, int i) {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }

    private static void union(int[] parent, int a, int b) {
        parent[find(parent, a)] = find(parent, b);
    }

    @Test
    void aShiftDragStrokeFromTopToBottomCutsTheHangingCurtainInTwo() throws IOException {
        assumeDisplay();
        List<String> events = new ArrayList<>();
        events.add(move(1, 0.02f, 1.6f, 0f)); // above the top edge, a little off the middle column
        events.add("{\"frame\": 2, \"type\": \"press\", \"button\": \"left\", \"shift\": true}");
        for (int k = 1; k <= 12; k++) {
            events.add(move(2 + k, 0.02f, 1.6f - 1.3f * k / 12, 0f)); // down past the bottom edge (y = 0.5)
        }
        events.add("{\"frame\": 16, \"type\": \"release\", \"button\": \"left\"}");
        Map<Integer, Shown> f = view(script(events), 60, 1, 60);
        assertThat(components(f.get(1).model)).isEqualTo(1);
        Shown cut = f.get(60);
        assertThat(components(cut.model)).isEqualTo(2);
        assertThat(cut.model.particleCount()).isGreaterThan(f.get(1).model.particleCount());
    }

    @Test
    void theCannonballKeyThrowsABallFromTheCameraThatHitsTheCurtain() throws IOException {
        assumeDisplay();
        List<String> events = List.of(move(1, 0f, 1f, 0f), "{\"frame\": 2, \"type\": \"key\", \"key\": \"B\"}");
        Map<Integer, Shown> f = view(script(events), 45, 1, 3, 45);
        assertThat(f.get(1).ballCenters).isEmpty();
        Shown thrown = f.get(3);
        assertThat(thrown.ballCenters).hasSize(3);
        // thrown from the eye towards the cursor (the curtain's centre): along −z at 14 m/s
        assertThat(thrown.ballVelocities[2]).isLessThan(-13f);
        Shown hit = f.get(45);
        // 3 m at 14 m/s: it reaches the curtain after about 13 frames; 30 frames later the curtain's centre
        // has been pushed back and the ball has lost speed to it (two-way coupling)
        int centre = 10 * 21 + 10;
        assertThat(hit.x[3 * centre + 2]).isLessThan(-0.1f);
        // in free flight only gravity (along y) changes its velocity, its z velocity stays as thrown (to
        // float rounding, 1e-5 m/s); the curtain took some of it: the 1 kg ball pushes the light curtain
        // (0.2 kg: 1 m² of cotton) back and slips past its free lower edge, losing about 0.4 m/s on the way
        assertThat(hit.ballVelocities[2]).as("z velocity after the hit, thrown at %s", thrown.ballVelocities[2])
                .isGreaterThan(thrown.ballVelocities[2] + 0.2f);
    }

    @ParameterizedTest
    @ValueSource(strings = {"opencl", "glsl"})
    void onADeviceBackendTheViewerShowsTheCpusClothAndACannonballOrItsRefusal(String backend) throws IOException {
        assumeDisplay();
        if (backend.equals("opencl")) {
            String missing = dev.weft.opencl.OpenClDevices.unavailableReason();
            assumeTrue(missing == null, () -> "no OpenCL here: " + missing);
        }
        // the same lock-step script on both backends: the OpenCL and GLSL XPBD solvers give the CPU's bits on
        // PoCL and llvmpipe (weft-opencl's and weft-render's tests), so the viewer must show the same cloth frame
        // by frame; B throws a cannonball (two-way coupled): OpenCL runs it as the CPU does (OpenClInteractTest),
        // so ball and cloth stay the CPU's; GLSL does not, the panel says so and the cloth goes on as it was.
        Path distance = tmp.resolve("view-curtain-distance.json");
        Files.writeString(distance, CURTAIN.replace("\"camera\"", "\"model\": { \"bending\": \"distance\" }, \"camera\""));
        List<String> events = List.of(move(1, 0f, 1f, 0f), "{\"frame\": 20, \"type\": \"key\", \"key\": \"B\"}");
        Map<Integer, Shown> cpu = view("cpu", distance, script(events), 40, 19, 40);
        Map<Integer, Shown> cl = view(backend, distance, script(events), 40, 19, 40);
        assertThat(cl.get(19).solver).isEqualTo("xpbd");
        assertThat(cl.get(19).x).containsExactly(cpu.get(19).x);
        assertThat(cpu.get(40).ballCenters).hasSize(3);
        if (backend.equals("opencl")) {
            assertThat(cl.get(40).ballCenters).containsExactly(cpu.get(40).ballCenters);
            assertThat(cl.get(40).x).containsExactly(cpu.get(40).x);
            return;
        }
        assertThat(cl.get(40).ballCenters).isEmpty();
        assertThat(cl.get(40).refusal).contains(backend).contains("--backend cpu");
        // the cloth kept moving after the refusal: 20 more frames of a swinging curtain
        assertThat(cl.get(40).x).isNotEqualTo(cl.get(19).x);
        assertThat(Float.isFinite(cl.get(40).x[0])).isTrue();
    }

    @Test
    void theScreenshotShowsTheCloth() throws IOException {
        assumeDisplay();
        Path png = tmp.resolve("shot.png");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = WeftMain.execute(new String[] {"view", scene.toString(), "--width", "" + W, "--height", "" + H,
            "--frames", "5", "--screenshot", png.toString(), "--threads", "1"}, new PrintWriter(out, true),
                new PrintWriter(err, true));
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("drawn: 5 frames", "frames/s", "wrote " + png);
        BufferedImage img = ImageIO.read(png.toFile());
        assertThat(img.getWidth()).isEqualTo(W);
        assertThat(img.getHeight()).isEqualTo(H);
        // the 1 m curtain seen from 3 m fills about (1 / 2.18)² of the 4:3 picture's height²: ~16 % of it
        assertThat(clothShare(img)).isBetween(0.08, 0.3);
    }

    @Test
    void recordingWritesEveryDrawnFrameAndTheVKeyStopsIt() throws IOException {
        assumeDisplay();
        // recording from the first frame, V at frame 4 stops it: frames 1..3 are written, numbered from 0
        Path s = script(List.of("{\"frame\": 4, \"type\": \"key\", \"key\": \"V\"}"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = WeftMain.execute(new String[] {"view", scene.toString(), "--width", "" + W, "--height", "" + H,
            "--frames", "6", "--record", "--script", s.toString(), "--out", tmp.toString(), "--threads", "1"},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).as(err.toString()).isZero();
        Path take = tmp.resolve("view-curtain").resolve("view").resolve("take_01");
        try (var files = Files.list(take)) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".png")).sorted())
                    .containsExactly("frame_00000.png", "frame_00001.png", "frame_00002.png");
        }
        BufferedImage first = ImageIO.read(take.resolve("frame_00000.png").toFile());
        assertThat(first.getWidth()).isEqualTo(W);
        assertThat(clothShare(first)).isGreaterThan(0.08);
        assertThat(out.toString()).contains("recorded 3 frames into " + take);
    }

    private static boolean isCloth(int rgb) {
        int r = (rgb >> 16) & 0xff;
        int g = (rgb >> 8) & 0xff;
        int b = rgb & 0xff;
        return r > 40 && r > 1.6 * g && r > 1.6 * b;
    }

    private static double clothShare(BufferedImage img) {
        long n = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                n += isCloth(img.getRGB(x, y)) ? 1 : 0;
            }
        }
        return (double) n / (img.getWidth() * img.getHeight());
    }

    @Test
    void withoutADisplayTheErrorNamesTheFix() throws IOException, InterruptedException {
        // a child JVM without DISPLAY (this one's environment cannot be changed)
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), WeftMain.class.getName(), "view", scene.toString(),
                "--frames", "1");
        pb.environment().remove("DISPLAY");
        pb.environment().remove("WAYLAND_DISPLAY");
        pb.redirectErrorStream(true);
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(output).isEqualTo(RenderCommand.EXIT_MISSING_DEPENDENCY);
        assertThat(output).contains("DISPLAY is not set", "xvfb-run");
    }

    @Test
    void aBadScriptIsReportedWithItsLineAndColumn() throws IOException {
        Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, "{ \"events\": [\n  {\"frame\": 1, \"type\": \"jump\"}\n] }\n");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = WeftMain.execute(new String[] {"view", scene.toString(), "--script", bad.toString()},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).isEqualTo(WeftMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("--script", "bad.json:2:3", "\"type\" must be one of", "move");
    }

    /**
     * The window skips shading the scene under the opaque panel (WindowTarget.cleared): the picture with the panel
     * differs from the one without it only inside the panel's window, at (8, 8), 360 wide, open (960 x 540) or
     * collapsed to its title bar (640 x 360). A rectangle placed wrong (rows counted from the wrong edge, window
     * and framebuffer pixels confused) would leave sky where floor or cloth belongs outside it.
     */
    @Test
    void thePanelHidesOnlyWhatItCovers() throws IOException {
        assumeDisplay();
        for (int[] size : new int[][] {{960, 540}, {640, 360}}) {
            BufferedImage with = shot(size, false);
            BufferedImage without = shot(size, true);
            int minX = Integer.MAX_VALUE, maxX = -1, minY = Integer.MAX_VALUE, maxY = -1;
            for (int y = 0; y < size[1]; y++) {
                for (int x = 0; x < size[0]; x++) {
                    if (with.getRGB(x, y) != without.getRGB(x, y)) {
                        minX = Math.min(minX, x);
                        maxX = Math.max(maxX, x);
                        minY = Math.min(minY, y);
                        maxY = Math.max(maxY, y);
                    }
                }
            }
            assertThat(maxX).as("the panel is drawn at %s", Arrays.toString(size)).isGreaterThanOrEqualTo(0);
            assertThat(minX).isGreaterThanOrEqualTo(8);
            assertThat(minY).isGreaterThanOrEqualTo(8);
            assertThat(maxX).isLessThan(8 + 360);
            if (size[0] < 800) {
                // collapsed: its title bar, a line of text high
                assertThat(maxY).isLessThan(8 + 40);
            }
        }
    }

    /** The default scene after 10 lock-step frames at {@code size}, with or without the panel. */
    private BufferedImage shot(int[] size, boolean noPanel) throws IOException {
        Path png = tmp.resolve("panel-" + size[0] + "-" + noPanel + ".png");
        List<String> args = new ArrayList<>(List.of("view", "--width", "" + size[0], "--height", "" + size[1],
                "--lockstep", "--frames", "10", "--screenshot", png.toString(), "--threads", "1"));
        if (noPanel) {
            args.add("--no-panel");
        }
        StringWriter err = new StringWriter();
        int code = WeftMain.execute(args.toArray(String[]::new), new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));
        assertThat(code).as(err.toString()).isZero();
        return ImageIO.read(png.toFile());
    }

    /** The orbit camera reproduces the scene's camera (the test's pixel arithmetic relies on it). */
    @Test
    void theOrbitCameraStartsAsTheScenesCamera() {
        OrbitCamera c = new OrbitCamera(CAMERA);
        assertThat(c.eye()).containsExactly(new float[] {0f, 1f, 3f}, org.assertj.core.data.Offset.offset(1e-5f));
        float[] dir = new float[3];
        double[] p = pixel(0.3f, 1.2f, 0f);
        c.ray(p[0], p[1], W, H, dir);
        // the ray from the eye through that pixel reaches z = 0 at (0.3, 1.2)
        float t = -3f / dir[2];
        assertThat(0f + t * dir[0]).isCloseTo(0.3f, org.assertj.core.data.Offset.offset(1e-4f));
        assertThat(1f + t * dir[1]).isCloseTo(1.2f, org.assertj.core.data.Offset.offset(1e-4f));
    }
}
