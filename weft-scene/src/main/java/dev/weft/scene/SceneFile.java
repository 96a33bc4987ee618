package dev.weft.scene;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.Collider;
import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.SpringLayout;
import dev.weft.core.scene.Scene;
import dev.weft.core.solver.Solvers;
import dev.weft.core.scene.SceneCamera;
import dev.weft.core.step.Environment;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Weft's JSON scene files: {@link #read} builds a {@link Scene} (bodies and their materials, pins and
 * seams; colliders; gravity and air; frames, fps, steps and each solver's method settings) from a file,
 * and every problem is a {@link SceneFileException} naming the file, line:column, the key path and what
 * is allowed. Unknown keys are errors. Paths inside (OBJ meshes) resolve relative to the scene file. The
 * format is described key by key in {@code scenes/weft-scene.schema.json} (for editors' completion) and
 * in the README.
 */
public final class SceneFile {
    static final String[] KEYS = {"$schema", "name", "description", "fps", "frames", "substeps", "gravity", "air",
        "materials", "model", "bodies", "seams", "colliders", "solver", "solvers", "steps", "selfCollision", "camera"};
    static final String[] MODEL_KEYS = {"bending", "springs", "tethers"};
    static final String[] AIR_KEYS = {"wind", "density", "pressureDrag", "frictionDrag"};
    static final String[] CAMERA_KEYS = {"eye", "target", "fov"};
    static final String[] CONTACT_KEYS = {"distanceFactor", "iterations", "staticFriction", "friction",
        "vertexTriangle"};

    private SceneFile() {
    }

    /** True when {@code arg} names a scene file rather than a built-in scene: it ends in .json or is a file. */
    public static boolean isFile(String arg) {
        return arg.endsWith(".json") || Files.isRegularFile(Path.of(arg));
    }

    /** The scene in {@code file}. */
    public static Scene read(Path file) {
        String name = file.toString();
        if (!Files.isRegularFile(file)) {
            throw new InvalidInputException(name, "no such scene file");
        }
        String text;
        try {
            byte[] bytes = Files.readAllBytes(file);
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new InvalidInputException(name, "is not UTF-8 text: " + e.getMessage());
        } catch (IOException e) {
            throw new InvalidInputException(name, "cannot be read: " + e.getMessage());
        }
        Path dir = file.toAbsolutePath().getParent();
        return parse(name, text, dir);
    }

    /** The scene written in {@code text}; {@code name} is the file in messages, {@code directory} resolves paths. */
    public static Scene parse(String name, String text, Path directory) {
        JsonValue root = JsonFileParser.parse(name, text);
        Fields f = Fields.of(root, "a scene", KEYS);
        String fallbackName = name.replaceAll(".*[/\\\\]", "").replaceAll("\\.json$", "");
        String sceneName = f.string("name", fallbackName);
        String description = f.string("description", "");

        ModelBuilder b = new ModelBuilder();
        if (f.has("model")) {
            Fields m = Fields.of(f.get("model"), "model options", MODEL_KEYS);
            String bending = m.choice("bending", "dihedral", "dihedral", "distance", "isometric", "none");
            if ("none".equals(bending)) {
                b.bending(false);
            } else {
                b.bendingModel(BendingModel.valueOf(bending.toUpperCase(java.util.Locale.ROOT)));
            }
            String springs = m.choice("springs", SpringLayout.STENCIL_24.label(), layouts());
            for (SpringLayout l : SpringLayout.values()) {
                if (l.label().equals(springs)) {
                    b.springLayout(l);
                }
            }
            b.tethers(m.bool("tethers", true));
        }
        MaterialReader materials = new MaterialReader(f.get("materials"));
        BodyReader bodies = new BodyReader(b, materials, directory);
        bodies.readBodies(f.array("bodies"), root);
        bodies.readSeams(f.array("seams"));
        Model model = BodyReader.at(root, b::build);

        float[] gravity = f.vec3("gravity", new float[] {0f, -9.81f, 0f});
        List<Collider> colliders = new ColliderReader(directory, model, bodies.bodies(), gravity)
                .read(f.array("colliders"));
        Environment env = new Environment(gravity, colliders);
        if (f.has("air")) {
            Fields air = Fields.of(f.get("air"), "the air", AIR_KEYS);
            env = env.withWind(air.vec3("wind", new float[3])).withAir(
                    (float) air.number("density", 1.2, 0, 1e3, "kg/m³"),
                    (float) air.number("pressureDrag", 1.0, 0, 1e3, ""),
                    (float) air.number("frictionDrag", 0.02, 0, 1e3, ""));
        }
        float fps = (float) f.number("fps", 60, 1, 10_000, "frames per second");
        int frames = f.integer("frames", 300, 1, 10_000_000);
        int substeps = f.integer("substeps", 16, 1, 100_000);
        Environment environment = env;
        ParticleContactSettings contacts = contacts(f.get("selfCollision"));
        float[] velocities = bodies.velocities(model);
        SceneCamera camera = null;
        if (f.has("camera")) {
            Fields c = Fields.of(f.get("camera"), "a camera", CAMERA_KEYS);
            float[] eye = Fields.vec3(c.required("eye", "where the camera is, [x, y, z] in m"));
            float[] target = Fields.vec3(c.required("target", "the point it looks at, [x, y, z] in m"));
            float fov = (float) c.number("fov", 40, 1, 170, "degrees (vertical)");
            camera = BodyReader.at(f.get("camera"), () -> new SceneCamera(eye, target, fov));
        }
        SceneCamera view = camera;
        String solver = f.choice("solver", "xpbd", Solvers.names().toArray(new String[0]));
        return BodyReader.at(root, () -> new Scene(sceneName, description, model, environment, fps, frames, substeps,
                SolverReader.settings(f.get("solvers")), SolverReader.steps(f.get("steps")), contacts, velocities, view,
                solver, bodies.textures()));
    }

    /**
     * {@code selfCollision}: true (the defaults: one rest length, two sweeps, cotton on cotton), false or
     * absent (none), or an object of the settings.
     */
    private static ParticleContactSettings contacts(JsonValue v) {
        if (v == null || (v.kind == JsonValue.Kind.BOOLEAN && !v.bool())) {
            return null;
        }
        ParticleContactSettings d = ParticleContactSettings.defaults();
        if (v.kind == JsonValue.Kind.BOOLEAN) {
            return d;
        }
        Fields c = Fields.of(v, "self-collision (or true / false)", CONTACT_KEYS);
        float kinetic = (float) c.number("friction", d.kineticFriction(), 0, 1e3, "(kinetic)");
        float still = (float) c.number("staticFriction", Math.max(d.staticFriction(), kinetic), 0, 1e3, "");
        return BodyReader.at(v, () -> new ParticleContactSettings(
                (float) c.number("distanceFactor", d.distanceFactor(), Double.MIN_VALUE, 100, "(of the rest length)"),
                c.integer("iterations", d.iterations(), 1, 1000), still, kinetic, c.bool("vertexTriangle", false)));
    }

    private static String[] layouts() {
        String[] out = new String[SpringLayout.values().length];
        for (int k = 0; k < out.length; k++) {
            out[k] = SpringLayout.values()[k].label();
        }
        return out;
    }
}
