package dev.weft.scene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.Collider;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.scene.BuiltInScenes;
import dev.weft.core.scene.Scene;
import dev.weft.core.sim.Simulation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scene files: the built-in scenes as files give the same simulation, and bad files say where and why. */
class SceneFileTest {
    static final Path SCENES = Path.of("..", "scenes");

    private static float[] run(Scene s, String solver, int frames) {
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(s.model(), State.atRest(s.model()), s.solver(solver, pool),
                     s.environment(), s.substeps(solver))) {
            for (int f = 0; f < frames; f++) {
                sim.advance(1f / s.fps());
            }
            return sim.state().positions().clone();
        }
    }

    @Test
    void theDefaultSceneAsAFileIsTheBuiltInSceneBitForBit() {
        Scene file = SceneFile.read(SCENES.resolve("drape.json"));
        Scene built = BuiltInScenes.drape();
        assertThat(file.name()).isEqualTo(built.name());
        assertThat(file.description()).isEqualTo(built.description());
        assertThat(file.fps()).isEqualTo(built.fps());
        assertThat(file.frames()).isEqualTo(built.frames());
        assertThat(file.settings()).isEqualTo(built.settings());
        assertThat(file.solverSteps()).isEqualTo(built.solverSteps());
        assertThat(file.model().restPositions()).isEqualTo(built.model().restPositions());
        assertThat(file.model().invMass()).isEqualTo(built.model().invMass());
        // the camera the renderer gave the Java scene by name is the file's own
        assertThat(file.camera().eye()).containsExactly(1.5f, 1.55f, -1.8f);
        assertThat(file.camera().target()).containsExactly(0f, 0.4f, -0.15f);
        assertThat(file.camera().fovDegrees()).isEqualTo(40f);
        for (String solver : new String[] {"xpbd", "pd"}) {
            assertThat(Arrays.equals(run(file, solver, 20), run(built, solver, 20))).as(solver).isTrue();
        }
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"hanging", "stack", "spheres", "flag", "sew", "cannonball",
        "funnel", "tear", "cut"})
    void aBuiltInSceneAsAFileIsTheBuiltInSceneBitForBit(String name) {
        Scene file = SceneFile.read(SCENES.resolve(name + ".json"));
        Scene built = BuiltInScenes.byName(name);
        assertThat(file.name()).isEqualTo(built.name());
        assertThat(file.description()).isEqualTo(built.description());
        assertThat(file.frames()).isEqualTo(built.frames());
        assertThat(file.substeps()).isEqualTo(built.substeps());
        assertThat(file.settings()).isEqualTo(built.settings());
        assertThat(file.model().restPositions()).isEqualTo(built.model().restPositions());
        assertThat(file.model().invMass()).isEqualTo(built.model().invMass());
        assertThat(file.model().distances().count()).isEqualTo(built.model().distances().count());
        assertThat(Arrays.equals(run(file, "xpbd", 30), run(built, "xpbd", 30))).isTrue();
    }

    private static InvalidInputException error(String json) {
        try {
            SceneFile.parse("bad.json", json, Path.of("."));
        } catch (InvalidInputException e) {
            return e;
        }
        throw new AssertionError("accepted: " + json);
    }

    private static final String GRID = "{\"type\": \"grid\", \"name\": \"c\", \"cols\": 4, \"rows\": 4, \"width\": 1, "
            + "\"height\": 1";

    @Test
    void theModelOptionsNameEveryBendingModel() {
        Scene iso = SceneFile.parse("iso.json", "{\"model\": {\"bending\": \"isometric\"}, \"bodies\": [" + GRID
                + "}]}", Path.of("."));
        assertThat(iso.model().bending().count()).isPositive();
        assertThat(iso.model().bending().allIsometric()).isTrue();
        Scene dihedral = SceneFile.parse("d.json", "{\"bodies\": [" + GRID + "}]}", Path.of("."));
        assertThat(dihedral.model().bending().anyIsometric()).isFalse();
        assertThat(error("{\"model\": {\"bending\": \"bergou\"}, \"bodies\": [" + GRID + "}]}").getMessage())
                .contains("model.bending").contains("isometric");
    }

    @Test
    void xpbdsStretchLimitsAreASolverSetting() {
        Scene on = SceneFile.parse("l.json", "{\"solvers\": {\"xpbd\": {\"stretchLimits\": true}}, \"bodies\": ["
                + GRID + "}]}", Path.of("."));
        assertThat(on.xpbd().stretchLimits()).isTrue();
        Scene off = SceneFile.parse("d.json", "{\"bodies\": [" + GRID + "}]}", Path.of("."));
        assertThat(off.xpbd().stretchLimits()).isFalse();
        assertThat(error("{\"solvers\": {\"xpbd\": {\"stretchLimits\": 1}}, \"bodies\": [" + GRID + "}]}")
                .getMessage()).contains("solvers.xpbd.stretchLimits");
    }

    @Test
    void xpbdsStretchSmoothingIsASolverSettingOfTheColoredMode() {
        Scene on = SceneFile.parse("s.json", "{\"solvers\": {\"xpbd\": {\"stretchSmoothing\": true}}, \"bodies\": ["
                + GRID + "}]}", Path.of("."));
        assertThat(on.xpbd().stretchSmoothing()).isTrue();
        Scene off = SceneFile.parse("d.json", "{\"bodies\": [" + GRID + "}]}", Path.of("."));
        assertThat(off.xpbd().stretchSmoothing()).isFalse();
        assertThat(error("{\"solvers\": {\"xpbd\": {\"mode\": \"jacobi\", \"stretchSmoothing\": true}}, \"bodies\": ["
                + GRID + "}]}").getMessage()).contains("solvers.xpbd").contains("stretch smoothing")
                .contains("colored");
    }

    @Test
    void everyBrokenFileSaysFileLineColumnKeyPathAndWhatIsAllowed() {
        // an unknown key, at the key, with the nearest allowed one
        assertThat(error("{\n  \"bodies\": [" + GRID + ", \"materail\": \"cloth\"}]\n}").getMessage())
                .startsWith("bad.json:2:").contains("bodies[0].materail: unknown key 'materail' in a grid cloth")
                .contains("did you mean 'material'?").contains("allowed here: type, name, material");
        // a value out of range, at the value, with its unit
        assertThat(error("{\"bodies\": [" + GRID + ",\n \"material\": {\"stretch\": -5}}]}").getMessage())
                .isEqualTo("bad.json:2:26: bodies[0].material.stretch: must be a number > 0 in N/m or \"inf\" "
                        + "(rigid), got the number -5");
        // a type error
        assertThat(error("{\"frames\": \"many\", \"bodies\": [" + GRID + "}]}").getMessage())
                .isEqualTo("bad.json:1:12: frames: must be a whole number from 1 to 10000000, got the string \"many\"");
        // NaN is not JSON
        assertThat(error("{\"fps\": NaN}").getMessage())
                .isEqualTo("bad.json:1:12: not valid JSON: Non-standard token 'NaN'");
        // unbalanced brackets
        assertThat(error("{\"bodies\": [" + GRID + "}\n").getMessage()).startsWith("bad.json:2:1: not valid JSON");
        assertThat(error("").getMessage()).contains("the file is empty");
        // a key twice
        assertThat(error("{\"fps\": 30,\n \"fps\": 60}").getMessage())
                .isEqualTo("bad.json:2:2: fps: written twice in one object (the first at line 1)");
        // a reference to nothing
        assertThat(error("{\"bodies\": [" + GRID + ", \"material\": \"silk\"}]}").getMessage())
                .contains("bodies[0].material: no material 'silk'; defined: cloth");
        assertThat(error("{\"bodies\": [" + GRID + "}], \"seams\": [{\"a\": \"c\", \"edgeA\": \"top\", \"b\": \"d\", "
                + "\"edgeB\": \"top\"}]}").getMessage()).contains("seams[0].b: no body named 'd'; bodies: c");
        // a choice
        assertThat(error("{\"bodies\": [" + GRID + ", \"pins\": {\"corners\": [\"top-lef\"]}}]}").getMessage())
                .contains("bodies[0].pins.corners[0]: must be one of top-left, top-right, bottom-left, bottom-right")
                .contains("did you mean 'top-left'?");
        // a missing file, named with its path
        assertThat(error("{\"bodies\": [{\"type\": \"mesh\", \"name\": \"m\", \"file\": \"nope.obj\"}]}").getMessage())
                .contains("bodies[0].file: no such file:").contains("nope.obj");
        // a pin box around nothing: the model's own check, placed at the box
        assertThat(error("{\"bodies\": [" + GRID + ", \"pins\": {\"box\": {\"min\": [5, 5, 5], \"max\": [6, 6, 6]}}}]}")
                .getMessage()).contains("bodies[0].pins.box: c.pins.box: holds none of the body's particles");
        // an unknown solver in steps
        assertThat(error("{\"bodies\": [" + GRID + "}], \"steps\": {\"xbpd\": {\"substeps\": 4}}}").getMessage())
                .contains("steps.xbpd: unknown key 'xbpd'").contains("did you mean 'xpbd'?");
        // a solver that does not exist
        assertThat(error("{\"solver\": \"pdd\", \"bodies\": [" + GRID + "}]}").getMessage())
                .contains("solver: must be one of xpbd, pd, pbd, implicit, mass-spring, relaxation, got the string "
                        + "\"pdd\" (did you mean 'pd'?)");
        // pd's exact global step takes no relaxation factor: named at the pd settings
        assertThat(error("{\"bodies\": [" + GRID + "}], \"solvers\": {\"pd\": {\"solver\": \"cholesky\", "
                + "\"omega\": 1.7}}}").getMessage()).contains("solvers.pd").contains("omega")
                .contains("cholesky solves the global step exactly");
        // a scene without bodies
        assertThat(error("{}").getMessage()).contains("a scene needs at least one body");
        // a camera looking at itself, and one with too wide a view
        assertThat(error("{\"bodies\": [" + GRID + "}], \"camera\": {\"eye\": [1, 1, 1], \"target\": [1, 1, 1]}}")
                .getMessage()).contains("camera: camera: the eye must not sit on its target");
        assertThat(error("{\"bodies\": [" + GRID + "}], \"camera\": {\"eye\": [1, 1, 1], \"target\": [0, 0, 0], "
                + "\"fov\": 179}}").getMessage()).contains("camera.fov: must be a number from 1 to 170 degrees (vertical), got 179");
    }

    @Test
    void materialsPinsSeamsAndCollidersReachTheScene(@TempDir Path dir) throws Exception {
        String json = "{\n"
                + "\"materials\": {\"silk\": {\"stretch\": 800, \"bend\": 2e-5, \"density\": 0.08},\n"
                + "               \"elastic\": {\"base\": \"silk\", \"stretch\": 5}},\n"
                + "\"bodies\": [\n"
                + "  {\"type\": \"grid\", \"name\": \"top\", \"material\": \"silk\", \"cols\": 5, \"rows\": 5, \"width\": 0.2,"
                + "   \"height\": 0.2, \"axes\": \"vertical\", \"origin\": [0, 1, 0], \"pins\": {\"edges\": [\"top\"]}},\n"
                + "  {\"type\": \"grid\", \"name\": \"low\", \"material\": {\"base\": \"silk\", \"tearStrain\": 0.3},"
                + "   \"cols\": 5, \"rows\": 5, \"width\": 0.2, \"height\": 0.2, \"axes\": \"vertical\", \"origin\": [0, 0.8, 0]},\n"
                + "  {\"type\": \"rope\", \"name\": \"r\", \"points\": [[0, 2, 0], [1, 2, 0]], \"particles\": 11,"
                + "   \"pins\": {\"indices\": [0]}}\n"
                + "],\n"
                + "\"seams\": [{\"a\": \"top\", \"edgeA\": \"bottom\", \"b\": \"low\", \"edgeB\": \"top\", \"thread\": \"elastic\"}],\n"
                + "\"colliders\": [{\"type\": \"capsule\", \"center\": [0, 0, 0], \"radius\": 0.1, \"halfLength\": 0.3,"
                + "   \"orientation\": {\"axis\": [0, 0, 1], \"degrees\": 90}, \"motion\": {\"velocity\": [1, 0, 0]}},\n"
                + "   {\"type\": \"plane\", \"name\": \"wall\", \"point\": [0, 0, -1], \"normal\": [0, 0, 1], \"friction\": 0.2,"
                + "   \"staticFriction\": 0.4}],\n"
                + "\"gravity\": [0, -3.7, 0], \"air\": {\"wind\": [2, 0, 0]}, \"fps\": 30, \"frames\": 12, \"substeps\": 4\n"
                + "}";
        Path file = dir.resolve("s.json");
        Files.writeString(file, json);
        Scene s = SceneFile.read(file);
        assertThat(s.name()).isEqualTo("s");
        assertThat(s.model().objects()).hasSize(3);
        Material silk = s.model().material(0);
        assertThat(silk.stretchStiffness()).isEqualTo(800f);
        assertThat(silk.density()).isEqualTo(0.08f);
        assertThat(s.model().material(1).tearStrain()).isEqualTo(0.3f);
        assertThat(s.model().material(1).bendStiffness()).isEqualTo(2e-5f);
        // the top edge of the upper panel, the rope's first particle: 6 pins
        int pinned = 0;
        for (float w : s.model().invMass()) {
            pinned += w == 0f ? 1 : 0;
        }
        assertThat(pinned).isEqualTo(6);
        // the seam's five stitches take the thread's 5 N/m
        int threaded = 0;
        for (int c = 0; c < s.model().distances().count(); c++) {
            Material own = s.model().distances().ownMaterial(c);
            threaded += own != null && own.stretchStiffness() == 5f ? 1 : 0;
        }
        assertThat(threaded).isEqualTo(5);
        assertThat(s.environment().colliders()).hasSize(2);
        assertThat(s.environment().colliders()[0].moving()).isTrue();
        assertThat(s.environment().colliders()[1].staticFriction()).isEqualTo(0.4f);
        assertThat(s.environment().gravityY()).isEqualTo(-3.7f);
        assertThat(s.environment().windX()).isEqualTo(2f);
        assertThat(s.fps()).isEqualTo(30f);
        assertThat(s.defaultSolver()).isEqualTo("xpbd"); // none named
        // and it runs
        float[] x = run(s, "xpbd", 12);
        for (float v : x) {
            assertThat(v).isFinite();
        }
    }

    @Test
    void objMeshesAreReadRelativeToTheSceneFileScaledAndMoved(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("meshes"));
        // a unit square of two triangles (a cloth) and a closed tetrahedron (a collider)
        Files.writeString(dir.resolve("meshes/square.obj"), "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 3 2\nf 1 4 3\n");
        Files.writeString(dir.resolve("meshes/tet.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
                + "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n");
        Files.writeString(dir.resolve("s.json"), "{\"bodies\": [{\"type\": \"mesh\", \"name\": \"sheet\", "
                + "\"file\": \"meshes/square.obj\", \"scale\": 0.5, \"translate\": [0, 2, 0], \"pins\": {\"indices\": [0]}}],"
                + " \"colliders\": [{\"type\": \"mesh\", \"name\": \"rock\", \"file\": \"meshes/tet.obj\", "
                + "\"translate\": [0, 1, 0]}]}");
        Scene s = SceneFile.read(dir.resolve("s.json"));
        float[] x = s.model().restPositions();
        assertThat(s.model().particleCount()).isEqualTo(4);
        assertThat(new float[] {x[6], x[7], x[8]}).containsExactly(0.5f, 2f, 0.5f);
        assertThat(s.environment().colliders()[0].name()).isEqualTo("rock");
        // the tetrahedron's surface moved up by 1 (a mesh collider is a surface the cloth keeps its thickness
        // off): its top corner is at (0, 2, 0), and its bottom face in the plane y = 1
        assertThat(s.environment().colliders()[0].signedDistance(0f, 2.1f, 0f)).isCloseTo(0.1f, within(1e-5f));
        assertThat(s.environment().colliders()[0].signedDistance(0.1f, 0.9f, 0.1f)).isCloseTo(0.1f, within(1e-5f));
    }

    @Test
    void aBodysTextureIsAnImageBesideTheSceneFileAndABrokenOneSaysWhere(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("looks"));
        java.awt.image.BufferedImage img = new java.awt.image.BufferedImage(4, 4,
                java.awt.image.BufferedImage.TYPE_INT_RGB);
        javax.imageio.ImageIO.write(img, "png", dir.resolve("looks/denim.png").toFile());
        Files.writeString(dir.resolve("looks/notes.png"), "not a picture");
        Files.writeString(dir.resolve("s.json"), "{\"bodies\": [" + GRID + ", \"texture\": \"looks/denim.png\"}]}");
        Scene s = SceneFile.read(dir.resolve("s.json"));
        assertThat(s.textures()).containsExactly(java.util.Map.entry("c", dir.resolve("looks/denim.png")));
        // a scene without textures has none, and other bodies carry theirs over to withModel
        assertThat(SceneFile.parse("p.json", "{\"bodies\": [" + GRID + "}]}", dir).textures()).isEmpty();
        assertThat(s.withModel(s.model()).textures()).isEqualTo(s.textures());
        String missing = "{\"bodies\": [\n" + GRID + ", \"texture\": \"looks/silk.png\"}]}";
        assertThatThrownBy(() -> SceneFile.parse("m.json", missing, dir)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("m.json:2").hasMessageContaining("bodies[0].texture")
                .hasMessageContaining("silk.png").hasMessageContaining("PNG or JPEG");
        String notImage = "{\"bodies\": [" + GRID + ", \"texture\": \"looks/notes.png\"}]}";
        assertThatThrownBy(() -> SceneFile.parse("n.json", notImage, dir)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("notes.png").hasMessageContaining("not an image");
        // a rope has no surface to draw an image on
        String rope = "{\"bodies\": [{\"type\": \"rope\", \"name\": \"r\", \"points\": [[0, 0, 0], [1, 0, 0]], "
                + "\"particles\": 4, \"texture\": \"looks/denim.png\"}]}";
        assertThatThrownBy(() -> SceneFile.parse("r.json", rope, dir)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("texture");
    }

    @Test
    void tetBodiesComeFromTetGenFilesOrVoxelizedObjsWithTheirElasticity(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("meshes"));
        // one tetrahedron in TetGen's files, numbered from 1; a closed box to voxelize
        Files.writeString(dir.resolve("meshes/t.node"), "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n");
        Files.writeString(dir.resolve("meshes/t.ele"), "1 4 0\n1 1 2 3 4\n");
        Files.writeString(dir.resolve("meshes/box.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 0 0 1\nv 1 0 1\n"
                + "v 0 1 1\nv 1 1 1\nf 1 5 7\nf 1 7 3\nf 2 4 8\nf 2 8 6\nf 1 2 6\nf 1 6 5\nf 3 7 8\nf 3 8 4\n"
                + "f 1 3 4\nf 1 4 2\nf 5 6 8\nf 5 8 7\n");
        Files.writeString(dir.resolve("s.json"), "{\"bodies\": ["
                + "{\"type\": \"tet\", \"name\": \"t\", \"file\": \"meshes/t.ele\", \"scale\": 0.5, "
                + "\"translate\": [0, 1, 0], \"density\": 600, \"youngsModulus\": 2e5, \"poissonRatio\": 0.25},"
                + "{\"type\": \"tet\", \"name\": \"b\", \"file\": \"meshes/box.obj\", \"scale\": 0.3, "
                + "\"voxelSize\": 0.05, \"youngsModulus\": 1e5}]}");
        Scene s = SceneFile.read(dir.resolve("s.json"));
        Model m = s.model();
        assertThat(m.objects().get(0).particleCount()).isEqualTo(4);
        float[] x = m.restPositions();
        assertThat(new float[] {x[3], x[4], x[5]}).containsExactly(0.5f, 1f, 0f);
        // E = 2e5, nu = 0.25: mu = E / 2.5, lambda = E nu / (1.25 x 0.5); its mass rho V = 600 / 48
        int first = -1;
        for (int c = 0; c < m.tets().count(); c++) {
            if (m.tets().particles()[4 * c] < 4) {
                first = c;
            }
        }
        assertThat(m.tets().shearModulus()[first]).isCloseTo(8e4f, within(1f));
        assertThat(m.tets().lameLambda()[first]).isCloseTo(8e4f, within(1f));
        double mass = 0;
        for (int i = 0; i < 4; i++) {
            mass += 1 / m.invMass()[i];
        }
        assertThat(mass).isCloseTo(600.0 / 48, within(1e-4));
        // the box: 6 voxels a side, drawn as the box it was made from; Poisson's ratio 0.45 by default
        assertThat(m.objects().get(1).particleCount()).isEqualTo(216);
        assertThat(m.skins()).hasSize(1);
        assertThat(m.tets().lameLambda()[m.tets().count() - 1]).isCloseTo(1e5f * 0.45f / (1.45f * 0.1f), within(1f));
        // what a tet body may not say
        assertThat(error("{\"bodies\": [{\"type\": \"tet\", \"name\": \"t\", \"file\": \"x.node\"}]}")
                .getMessage()).contains("youngsModulus");
        Files.writeString(dir.resolve("v.json"), "{\"bodies\": [{\"type\": \"tet\", \"name\": \"t\", "
                + "\"file\": \"meshes/t.node\", \"voxelSize\": 0.1, \"youngsModulus\": 1e5}]}");
        assertThatThrownBy(() -> SceneFile.read(dir.resolve("v.json"))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("voxelSize").hasMessageContaining("TetGen");
        Files.writeString(dir.resolve("p.json"), "{\"bodies\": [{\"type\": \"tet\", \"name\": \"t\", "
                + "\"file\": \"meshes/t.node\", \"youngsModulus\": 1e5, \"poissonRatio\": 0.7}]}");
        assertThatThrownBy(() -> SceneFile.read(dir.resolve("p.json"))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("poissonRatio");
        Files.writeString(dir.resolve("meshes/bad.node"), "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n");
        Files.writeString(dir.resolve("meshes/bad.ele"), "1 4 0\n1 1 2 3 4\n");
        Files.writeString(dir.resolve("b.json"), "{\"bodies\": [{\"type\": \"tet\", \"name\": \"t\", "
                + "\"file\": \"meshes/bad.node\", \"youngsModulus\": 1e5}]}");
        assertThatThrownBy(() -> SceneFile.read(dir.resolve("b.json"))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("b.json").hasMessageContaining("bad.node:4").hasMessageContaining("ends early");
    }

    @Test
    void aClosedObjBecomesASignedDistanceColliderPlacedAndTurnedByItsPose(@TempDir Path dir) throws Exception {
        // a cube of side 2 about the OBJ's origin, twelve outward triangles
        Files.writeString(dir.resolve("cube.obj"), "v -1 -1 -1\nv 1 -1 -1\nv 1 1 -1\nv -1 1 -1\n"
                + "v -1 -1 1\nv 1 -1 1\nv 1 1 1\nv -1 1 1\n"
                + "f 1 4 3\nf 1 3 2\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\nf 4 8 7\nf 4 7 3\n"
                + "f 1 5 8\nf 1 8 4\nf 2 3 7\nf 2 7 6\n");
        Files.writeString(dir.resolve("s.json"), "{\"bodies\": [" + GRID + "}], \"colliders\": [{\"type\": \"sdf\", "
                + "\"name\": \"block\", \"file\": \"cube.obj\", \"scale\": 0.5, \"center\": [0, 2, 0], \"cellSize\": 0.05, "
                + "\"orientation\": {\"axis\": [0, 1, 0], \"degrees\": 45}}]}");
        Collider c = SceneFile.read(dir.resolve("s.json")).environment().colliders()[0];
        // a 1 m cube centred at (0, 2, 0), turned 45 degrees about y: its inside has a depth (this is not a shell)
        assertThat(c.signedDistance(0f, 2f, 0f)).isCloseTo(-0.5f, within(0.02f));
        assertThat(c.signedDistance(0f, 2.8f, 0f)).isCloseTo(0.3f, within(0.02f));
        // along x the turned cube reaches its vertical edge at sqrt(2)/2 = 0.707 m, not its face's 0.5 m: a point
        // beyond it is nearest that edge
        assertThat(c.signedDistance(0.6f, 2f, 0f)).isNegative();
        assertThat(c.signedDistance(0.8f, 2f, 0f)).isCloseTo((float) (0.8 - Math.sqrt(0.5)), within(0.02f));
    }

    @Test
    void animatedBodiesPlayTheirObjFramesAndCarryAttachedParticles(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("anim"));
        String faces = "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
        // a closed tetrahedron, then the same 1 m further along x, then a triangle (another topology)
        Files.writeString(dir.resolve("anim/t0.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n" + faces);
        Files.writeString(dir.resolve("anim/t1.obj"), "v 1 0 0\nv 2 0 0\nv 1 1 0\nv 1 0 1\n" + faces);
        Files.writeString(dir.resolve("anim/tri.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
        // particle 0 of the cloth is pinned at the tetrahedron's corner (0, 1, 0), 2 m above the floor
        String scene = "{\"fps\": 10, \"bodies\": [{\"type\": \"grid\", \"name\": \"c\", \"cols\": 2, "
                + "\"rows\": 2, \"width\": 0.2, \"height\": 0.2, \"origin\": [0, 3, 0], \"pins\": {\"indices\": [0]}}], "
                + "\"colliders\": [{\"type\": \"animated\", \"name\": \"tet\", \"frames\": [FRAMES], \"fps\": 1, "
                + "\"loop\": false, \"translate\": [0, 2, 0], \"attach\": [{\"body\": \"c\", \"indices\": [0]}]}]}";
        Files.writeString(dir.resolve("s.json"), scene.replace("FRAMES", "\"anim/t0.obj\", \"anim/t1.obj\""));
        Scene s = SceneFile.read(dir.resolve("s.json"));
        // the attachment point is the surface point nearest the pin on the first frame: the top corner
        // (0, 3, 0); the body slides 1 m along x in 1 s, and so does the pinned particle
        float[] x = run(s, "xpbd", 5);
        assertThat(x[0]).isCloseTo(0.5f, within(1e-5f));
        assertThat(x[1]).isCloseTo(3f, within(1e-5f));
        x = run(s, "xpbd", 15);
        assertThat(new float[] {x[0], x[1], x[2]}).containsExactly(new float[] {1f, 3f, 0f}, within(1e-5f));
        // and the surface is where frame 1 puts it: 0.1 m above its top corner (1, 3, 0)
        assertThat(s.environment().colliders()[0].signedDistance(1f, 3.1f, 0f)).isCloseTo(0.1f, within(1e-5f));

        Files.writeString(dir.resolve("bad.json"), scene.replace("FRAMES", "\"anim/t0.obj\", \"anim/tri.obj\""));
        assertThatThrownBy(() -> SceneFile.read(dir.resolve("bad.json"))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("colliders[0].frames[1]: every frame needs the vertices and triangles of the "
                        + "first (4 vertices, 4 triangles), this one has 3 vertices, 1 triangles");
        Files.writeString(dir.resolve("bad.json"), scene.replace("FRAMES", "\"anim/t0.obj\"")
                .replace("\"pins\": {\"indices\": [0]}", "\"pins\": {\"indices\": [1]}"));
        assertThatThrownBy(() -> SceneFile.read(dir.resolve("bad.json"))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("colliders[0].attach[0].indices[0]: tet.attach.particle: particle 0 must be "
                        + "pinned");
    }

    @Test
    void everySceneFileShippedValidatesAndRuns() throws Exception {
        try (var files = Files.list(SCENES)) {
            for (Path p : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".json")
                    && !f.getFileName().toString().endsWith(".schema.json"))::iterator) {
                Scene s = SceneFile.read(p);
                float[] x = run(s, "xpbd", 3);
                for (float v : x) {
                    assertThat(v).as(p.toString()).isFinite();
                }
            }
        }
    }

    @Test
    void aMissingFileIsNamed() {
        assertThatThrownBy(() -> SceneFile.read(Path.of("no/such.json")))
                .isInstanceOf(InvalidInputException.class).hasMessage("no/such.json: no such scene file");
    }
}
