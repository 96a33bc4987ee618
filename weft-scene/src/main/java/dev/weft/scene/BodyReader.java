package dev.weft.scene;

import dev.weft.core.InvalidInputException;
import dev.weft.core.mesh.TetGenReader;
import dev.weft.core.mesh.TetMesh;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.model.Elasticity;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.RopeSpec;
import dev.weft.core.model.TetBodySpec;
import dev.weft.core.model.VoxelBodySpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The {@code bodies} and {@code seams} of a scene file, added to a {@link ModelBuilder}: grid cloths,
 * cloths from OBJ meshes (paths relative to the scene file) and ropes, each with its material and pins.
 */
final class BodyReader {
    static final String[] GRID_KEYS = {"type", "name", "material", "velocity", "cols", "rows", "width", "height", "origin",
        "axes", "u", "v", "shear", "pins", "texture"};
    static final String[] MESH_KEYS = {"type", "name", "material", "velocity", "file", "scale", "translate", "pins",
        "texture"};
    static final String[] VOXEL_KEYS = {"type", "name", "material", "velocity", "file", "scale", "translate", "voxelSize",
        "density", "diagonals", "volume", "pins", "texture"};
    static final String[] TET_KEYS = {"type", "name", "material", "velocity", "file", "scale", "translate", "voxelSize",
        "density", "youngsModulus", "poissonRatio", "pins", "texture"};
    static final String[] ROPE_KEYS = {"type", "name", "material", "velocity", "points", "particles", "massPerLength", "pins"};
    static final String[] PIN_KEYS = {"corners", "edges", "indices", "box"};
    static final String[] BOX_KEYS = {"min", "max"};
    static final String[] SEAM_KEYS = {"a", "edgeA", "b", "edgeB", "from", "to", "thread"};
    static final String[] CORNERS = {"top-left", "top-right", "bottom-left", "bottom-right"};
    static final String[] EDGES = {"top", "bottom", "left", "right"};

    private final ModelBuilder builder;
    private final MaterialReader materials;
    private final Path directory;
    private final Map<String, ModelObject> bodies = new LinkedHashMap<>();
    /** Per body read, its starting velocity (null: at rest). */
    private final List<float[]> velocity = new ArrayList<>();
    /** Per body name, the image its surface is drawn with (bodies with a {@code texture}). */
    private final Map<String, Path> textures = new LinkedHashMap<>();

    BodyReader(ModelBuilder builder, MaterialReader materials, Path directory) {
        this.builder = builder;
        this.materials = materials;
        this.directory = directory;
    }

    /** Each particle's starting velocity from its body's {@code velocity}, or null when every body starts at rest. */
    float[] velocities(Model model) {
        float[] v = null;
        List<ModelObject> objects = model.objects();
        for (int o = 0; o < objects.size(); o++) {
            float[] u = velocity.get(o);
            if (u == null) {
                continue;
            }
            if (v == null) {
                v = new float[3 * model.particleCount()];
            }
            ModelObject body = objects.get(o);
            for (int i = body.firstParticle(); i < body.firstParticle() + body.particleCount(); i++) {
                if (model.invMass()[i] > 0f) { // a pin stays where it is
                    System.arraycopy(u, 0, v, 3 * i, 3);
                }
            }
        }
        return v;
    }

    /** The bodies read so far, by name. */
    Map<String, ModelObject> bodies() {
        return Collections.unmodifiableMap(bodies);
    }

    void readBodies(List<JsonValue> list, JsonValue at) {
        if (list.isEmpty()) {
            throw at.error("a scene needs at least one body in 'bodies' (a grid cloth, a mesh, a rope, a voxel or a tet body)");
        }
        for (JsonValue v : list) {
            JsonValue type = v.kind == JsonValue.Kind.OBJECT ? v.fields().get("type") : null;
            if (type == null) {
                throw v.error("a body needs a 'type': grid, mesh, rope, voxel or tet");
            }
            switch (Fields.choice(type, "grid", "mesh", "rope", "voxel", "tet")) {
                case "grid":
                    grid(Fields.of(v, "a grid cloth", GRID_KEYS));
                    break;
                case "mesh":
                    mesh(Fields.of(v, "a mesh cloth", MESH_KEYS));
                    break;
                case "voxel":
                    voxel(Fields.of(v, "a voxel body", VOXEL_KEYS));
                    break;
                case "tet":
                    tet(Fields.of(v, "a tetrahedral body", TET_KEYS));
                    break;
                default:
                    rope(Fields.of(v, "a rope", ROPE_KEYS));
                    break;
            }
        }
    }

    private String name(Fields f) {
        JsonValue v = f.required("name", "every body has a unique name (seams and messages use it)");
        String name = Fields.string(v);
        if (bodies.containsKey(name)) {
            throw v.error("a body named '" + name + "' already exists");
        }
        return name;
    }

    /** The bodies' {@code texture} images, by body name. */
    Map<String, Path> textures() {
        return textures;
    }

    /**
     * A body's {@code texture}: an image file (PNG or JPEG) relative to the scene file, drawn over the body's
     * texture coordinates (a grid cloth's span the image once); checked here to exist and be an image.
     */
    private void texture(Fields f, String name) {
        if (!f.has("texture")) {
            return;
        }
        JsonValue v = f.get("texture");
        Path path = directory.resolve(Fields.string(v));
        if (!java.nio.file.Files.isRegularFile(path)) {
            throw v.error("no image file " + path + " (a PNG or JPEG, relative to the scene file)");
        }
        // through a stream: a shipped scene's files are in the jar
        try (java.io.InputStream file = java.nio.file.Files.newInputStream(path);
             javax.imageio.stream.ImageInputStream in = javax.imageio.ImageIO.createImageInputStream(file)) {
            if (in == null || !javax.imageio.ImageIO.getImageReaders(in).hasNext()) {
                throw v.error(path + " is not an image this renderer reads (PNG or JPEG)");
            }
        } catch (java.io.IOException e) {
            throw v.error(path + " cannot be read: " + e.getMessage());
        }
        textures.put(name, path);
    }

    private void material(Fields f) {
        builder.material(f.has("material") ? materials.read(f.get("material")) : Material.cloth());
        // every body reads its material first: the place to note its starting velocity (m/s)
        velocity.add(f.vec3("velocity", null));
    }

    private void grid(Fields f) {
        String name = name(f);
        material(f);
        texture(f, name);
        GridClothSpec spec = GridClothSpec.of(name,
                Fields.integer(f.required("cols", "particles along a row (>= 2)"), 2, 4096),
                Fields.integer(f.required("rows", "particles along a column (>= 2)"), 2, 4096),
                (float) Fields.number(f.required("width", "the cloth's width in m"), Double.MIN_VALUE, 1e6, "m"),
                (float) Fields.number(f.required("height", "the cloth's height in m"), Double.MIN_VALUE, 1e6, "m"));
        float[] origin = f.vec3("origin", new float[3]);
        spec = spec.withOrigin(origin[0], origin[1], origin[2]);
        if (f.has("axes") && (f.has("u") || f.has("v"))) {
            throw f.get("axes").keyError("give either 'axes' or 'u' and 'v', not both");
        }
        if (f.has("axes")) {
            float[][] axes = "vertical".equals(f.choice("axes", "horizontal", "horizontal", "vertical"))
                    ? GridClothSpec.VERTICAL : GridClothSpec.HORIZONTAL;
            spec = spec.withAxes(axes[0], axes[1]);
        } else if (f.has("u") || f.has("v")) {
            float[] u = f.vec3("u", GridClothSpec.HORIZONTAL[0]);
            float[] v = f.vec3("v", GridClothSpec.HORIZONTAL[1]);
            GridClothSpec flat = spec;
            spec = at(f.value(), () -> flat.withAxes(u, v));
        }
        spec = spec.withShear(f.bool("shear", true));
        GridClothSpec done = spec;
        ModelObject body = at(f.value(), () -> builder.addGridCloth(done));
        bodies.put(name, body);
        pins(f, body, true);
    }

    private void mesh(Fields f) {
        String name = name(f);
        material(f);
        texture(f, name);
        TriangleMesh mesh = MeshFile.read(f, directory, "the OBJ file of the cloth's mesh");
        ModelObject body = at(f.get("file"), () -> builder.addMeshCloth(name, mesh));
        bodies.put(name, body);
        pins(f, body, false);
    }

    /** A soft body voxelized from a closed OBJ (seed 001 §5.3.1): voxel edge in m, density in kg/m³. */
    private void voxel(Fields f) {
        String name = name(f);
        material(f);
        texture(f, name);
        TriangleMesh mesh = MeshFile.read(f, directory, "the OBJ file of the body's closed surface");
        float h = (float) Fields.number(f.required("voxelSize", "the voxels' edge in m (one particle per voxel)"),
                Double.MIN_VALUE, 1e6, "m");
        float density = (float) f.number("density", 1000, Double.MIN_VALUE, 1e9, "kg/m³");
        boolean diagonals = f.bool("diagonals", true);
        boolean volume = f.bool("volume", false);
        ModelObject body = at(f.get("file"), () -> builder.addVoxelBody(new VoxelBodySpec(name, mesh, h, density,
                diagonals, volume)));
        bodies.put(name, body);
        pins(f, body, false);
    }

    /**
     * An elastic solid of tetrahedra: a TetGen mesh ({@code file} naming its .node or .ele) or the voxels of a
     * closed OBJ ({@code voxelSize}); Young's modulus in Pa, Poisson's ratio, density in kg/m³.
     */
    private void tet(Fields f) {
        String name = name(f);
        material(f);
        texture(f, name);
        JsonValue fileValue = f.required("file", "a TetGen .node/.ele pair or a closed OBJ to voxelize, relative to "
                + "the scene file");
        String file = Fields.string(fileValue);
        float density = (float) f.number("density", 1000, Double.MIN_VALUE, 1e9, "kg/m³");
        Elasticity elasticity = at(f.value(), () -> new Elasticity(
                (float) Fields.number(f.required("youngsModulus", "Young's modulus in Pa (rubber: 1e6, jelly: 1e4)"),
                        Double.MIN_VALUE, 1e12, "Pa"),
                (float) f.number("poissonRatio", 0.45, 0, 0.5, "")));
        TetBodySpec spec;
        if (file.endsWith(".node") || file.endsWith(".ele")) {
            if (f.has("voxelSize")) {
                throw f.get("voxelSize").keyError("a TetGen mesh brings its own tetrahedra; 'voxelSize' is for an OBJ");
            }
            Path path = directory.resolve(file);
            TetMesh read;
            try {
                read = TetGenReader.read(path);
            } catch (InvalidInputException e) {
                throw fileValue.error(e.getMessage());
            }
            float scale = (float) f.number("scale", 1.0, Double.MIN_VALUE, 1e6, "");
            float[] move = f.vec3("translate", new float[3]);
            float[] x = read.nodes().clone();
            for (int i = 0; i < x.length; i++) {
                x[i] = x[i] * scale + move[i % 3];
            }
            spec = at(fileValue, () -> new TetBodySpec(name, x, read.tets(), density, elasticity));
        } else {
            TriangleMesh mesh = MeshFile.read(f, directory, "the OBJ file of the body's closed surface");
            float h = (float) Fields.number(f.required("voxelSize", "the voxels' edge in m (one node per voxel) for "
                    + "an OBJ"), Double.MIN_VALUE, 1e6, "m");
            spec = at(fileValue, () -> TetBodySpec.voxelized(name, mesh, h, density, elasticity));
        }
        TetBodySpec done = spec;
        ModelObject body = at(fileValue, () -> builder.addTetBody(done));
        bodies.put(name, body);
        pins(f, body, false);
    }

    private void rope(Fields f) {
        String name = name(f);
        material(f);
        List<JsonValue> points = f.array("points");
        if (points.size() < 2) {
            throw (f.has("points") ? f.get("points") : f.value()).error(
                    "a rope needs 'points': at least two [x, y, z] along its rest shape");
        }
        float[] polyline = new float[3 * points.size()];
        for (int k = 0; k < points.size(); k++) {
            System.arraycopy(Fields.vec3(points.get(k)), 0, polyline, 3 * k, 3);
        }
        RopeSpec spec = at(f.value(), () -> new RopeSpec(name,
                polyline, f.integer("particles", 32, 2, 1 << 20),
                (float) f.number("massPerLength", 0.05, Double.MIN_VALUE, 1e6, "kg/m")));
        ModelObject body = at(f.value(), () -> builder.addRope(spec));
        bodies.put(name, body);
        pins(f, body, false);
    }

    private void pins(Fields body, ModelObject o, boolean grid) {
        JsonValue v = body.get("pins");
        if (v == null) {
            return;
        }
        Fields f = Fields.of(v, "pins", PIN_KEYS);
        if (!grid) {
            for (String k : new String[] {"corners", "edges"}) {
                if (f.has(k)) {
                    throw f.get(k).keyError("'" + k + "' are a grid cloth's; pin a " + o.type().name().toLowerCase()
                            .replace('_', ' ') + " by 'indices' or 'box'");
                }
            }
        }
        for (String corner : f.choices("corners", CORNERS)) {
            builder.pinCorners(o, corner);
        }
        for (String edge : f.choices("edges", EDGES)) {
            builder.pinEdge(o, edge);
        }
        List<JsonValue> indices = f.array("indices");
        for (JsonValue i : indices) {
            builder.pinIndices(o, Fields.integer(i, 0, o.particleCount() - 1));
        }
        if (f.has("box")) {
            Fields box = Fields.of(f.get("box"), "a pin box", BOX_KEYS);
            float[] min = Fields.vec3(box.required("min", "the box's lowest corner [x, y, z] in m"));
            float[] max = Fields.vec3(box.required("max", "the box's highest corner [x, y, z] in m"));
            at(f.get("box"), () -> builder.pinInBox(o, min, max));
        }
    }

    void readSeams(List<JsonValue> list) {
        for (JsonValue v : list) {
            Fields f = Fields.of(v, "a seam", SEAM_KEYS);
            ModelObject a = body(f.required("a", "the first body's name"));
            ModelObject b = body(f.required("b", "the second body's name"));
            String edgeA = Fields.choice(f.required("edgeA", "the first body's edge"), EDGES);
            String edgeB = Fields.choice(f.required("edgeB", "the second body's edge"), EDGES);
            Material thread = f.has("thread") ? materials.read(f.get("thread")) : null;
            at(v, () -> {
                int length = "top".equals(edgeA) || "bottom".equals(edgeA) ? a.gridCols() : a.gridRows();
                int from = f.integer("from", 0, 0, length);
                int to = f.integer("to", length, 1, length);
                return builder.sew(a, edgeA, b, edgeB, from, to, thread);
            });
        }
    }

    private ModelObject body(JsonValue name) {
        ModelObject o = bodies.get(Fields.string(name));
        if (o == null) {
            throw name.error("no body named '" + name.text() + "'; bodies: " + String.join(", ", bodies.keySet()));
        }
        if (o.type() != ModelObject.Type.GRID_CLOTH) {
            throw name.error("seams join grid cloths' edges; '" + name.text() + "' is a " + o.type().name()
                    .toLowerCase().replace('_', ' '));
        }
        return o;
    }

    /** Runs {@code make}, turning the model's own input errors into errors at {@code v}. */
    static <T> T at(JsonValue v, Supplier<T> make) {
        try {
            return make.get();
        } catch (SceneFileException e) {
            throw e;
        } catch (InvalidInputException e) {
            throw v.error(e.getMessage());
        }
    }
}
