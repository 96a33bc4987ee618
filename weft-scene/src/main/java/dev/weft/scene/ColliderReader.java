package dev.weft.scene;

import dev.weft.core.collide.AnimatedMeshCollider;
import dev.weft.core.collide.BoxCollider;
import dev.weft.core.collide.CapsuleCollider;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.ConstantVelocityMotion;
import dev.weft.core.collide.CylinderCollider;
import dev.weft.core.collide.EllipsoidCollider;
import dev.weft.core.collide.FunnelCollider;
import dev.weft.core.collide.Grip;
import dev.weft.core.collide.KeyframedMotion;
import dev.weft.core.collide.MeshCollider;
import dev.weft.core.collide.Motion;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.Projectile;
import dev.weft.core.collide.RigidCollider;
import dev.weft.core.collide.SdfCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.interact.Blade;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelObject;
import dev.weft.core.parallel.WorkerPool;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code colliders} of a scene file: a still plane or floor, and rigid shapes (sphere, box, capsule,
 * cylinder, ellipsoid, funnel, an OBJ mesh surface, a signed distance field sampled from a closed OBJ) with a pose (orientation as an axis and an angle in degrees)
 * and a motion (constant velocity, or keyframes). Thickness in m, Coulomb friction coefficients.
 */
final class ColliderReader {
    static final String[] TYPES = {"plane", "floor", "sphere", "box", "capsule", "cylinder", "ellipsoid", "funnel",
        "mesh", "sdf", "animated", "projectile", "grip", "blade"};
    static final String[] COMMON = {"type", "name", "thickness", "friction", "staticFriction"};
    static final String[] RIGID = {"orientation", "motion"};
    static final String[] ORIENTATION_KEYS = {"axis", "degrees"};
    static final String[] MOTION_KEYS = {"velocity", "angularVelocity", "keyframes"};
    static final String[] KEYFRAME_KEYS = {"time", "position", "orientation"};
    static final String[] ATTACH_KEYS = {"body", "indices"};

    /** The keys each type of collider takes (the JSON Schema is checked against these). */
    static final Map<String, String[]> KEYS_BY_TYPE = Map.ofEntries(
            Map.entry("plane", keys("point", "normal")),
            Map.entry("floor", keys("height")),
            Map.entry("sphere", rigid("center", "radius")),
            Map.entry("box", rigid("center", "halfExtents")),
            Map.entry("capsule", rigid("center", "radius", "halfLength")),
            Map.entry("cylinder", rigid("center", "radius", "halfHeight")),
            Map.entry("ellipsoid", rigid("center", "semiAxes")),
            Map.entry("funnel", rigid("center", "a", "yMin", "yMax")),
            Map.entry("mesh", keys("file", "scale", "translate")),
            Map.entry("sdf", rigid("file", "scale", "center", "cellSize")),
            Map.entry("animated", keys("frames", "fps", "loop", "scale", "translate", "attach")),
            Map.entry("projectile", keys("center", "radius", "mass", "velocity", "obstacles")),
            Map.entry("grip", new String[] {"type", "name", "body", "indices", "motion"}),
            Map.entry("blade", new String[] {"type", "name", "a", "b", "motion"}));

    private final Path directory;
    private final Model model;
    private final Map<String, ModelObject> bodies;
    private final float[] gravity;
    private final Map<String, Collider> byName = new HashMap<>();
    /** Projectiles and the names of the colliders they bounce off, resolved once every collider is read. */
    private final List<Map.Entry<Projectile, List<JsonValue>>> obstacles =
            new ArrayList<>();

    /**
     * @param model   the scene's model (a grip holds its particles)
     * @param bodies  the bodies by name
     * @param gravity the scene's gravity (a projectile falls under it)
     */
    ColliderReader(Path directory, Model model,
                   Map<String, ModelObject> bodies, float[] gravity) {
        this.directory = directory;
        this.model = model;
        this.bodies = bodies;
        this.gravity = gravity.clone();
    }

    List<Collider> read(List<JsonValue> list) {
        List<Collider> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (JsonValue v : list) {
            JsonValue type = v.kind == JsonValue.Kind.OBJECT ? v.fields().get("type") : null;
            if (type == null) {
                throw v.error("a collider needs a 'type': " + String.join(", ", TYPES));
            }
            Collider c = BodyReader.at(v, () -> collider(Fields.choice(type, TYPES), v));
            if (!names.add(c.name())) {
                throw v.error("a collider named '" + c.name() + "' already exists; give each its own 'name'");
            }
            byName.put(c.name(), c);
            out.add(c);
        }
        for (var e : obstacles) {
            List<Collider> found = new ArrayList<>();
            for (JsonValue name : e.getValue()) {
                Collider o = byName.get(Fields.string(name));
                if (o == null || o == e.getKey()) {
                    throw name.error("no other collider named '" + name.text() + "'; colliders: "
                            + String.join(", ", byName.keySet()));
                }
                found.add(o);
            }
            e.getKey().withObstacles(found.toArray(new Collider[0]));
        }
        return out;
    }

    private Collider collider(String type, JsonValue v) {
        switch (type) {
            case "plane": {
                Fields f = Fields.of(v, "a plane", KEYS_BY_TYPE.get(type));
                return friction(f, new PlaneCollider(f.string("name", "plane"),
                        Fields.vec3(f.required("point", "a point [x, y, z] on the plane")),
                        Fields.vec3(f.required("normal", "the plane's outward normal [x, y, z]")),
                        thickness(f), friction(f)));
            }
            case "floor": {
                Fields f = Fields.of(v, "a floor", KEYS_BY_TYPE.get(type));
                float height = (float) f.number("height", 0, -1e6, 1e6, "m");
                return friction(f, new PlaneCollider(f.string("name", "floor"), new float[] {0f, height, 0f},
                        new float[] {0f, 1f, 0f}, thickness(f), friction(f)));
            }
            case "sphere": {
                Fields f = Fields.of(v, "a sphere", KEYS_BY_TYPE.get(type));
                return rigid(f, new SphereCollider(f.string("name", "sphere"), center(f), radius(f), thickness(f),
                        friction(f)));
            }
            case "box": {
                Fields f = Fields.of(v, "a box", KEYS_BY_TYPE.get(type));
                return rigid(f, new BoxCollider(f.string("name", "box"), center(f),
                        Fields.vec3(f.required("halfExtents", "half the box's size along x, y, z in m")),
                        thickness(f), friction(f)));
            }
            case "capsule": {
                Fields f = Fields.of(v, "a capsule", KEYS_BY_TYPE.get(type));
                return rigid(f, new CapsuleCollider(f.string("name", "capsule"), center(f), radius(f),
                        (float) Fields.number(f.required("halfLength", "half the axis segment's length in m (along "
                                + "local y)"), 0, 1e6, "m"), thickness(f), friction(f)));
            }
            case "cylinder": {
                Fields f = Fields.of(v, "a cylinder", KEYS_BY_TYPE.get(type));
                return rigid(f, new CylinderCollider(f.string("name", "cylinder"), center(f), radius(f),
                        (float) Fields.number(f.required("halfHeight", "half the height in m (along local y)"),
                                Double.MIN_VALUE, 1e6, "m"), thickness(f), friction(f)));
            }
            case "ellipsoid": {
                Fields f = Fields.of(v, "an ellipsoid", KEYS_BY_TYPE.get(type));
                return rigid(f, new EllipsoidCollider(f.string("name", "ellipsoid"), center(f),
                        Fields.vec3(f.required("semiAxes", "the semi-axes along local x, y, z in m")),
                        thickness(f), friction(f)));
            }
            case "funnel": {
                Fields f = Fields.of(v, "a funnel", KEYS_BY_TYPE.get(type));
                return rigid(f, new FunnelCollider(f.string("name", "funnel"), center(f),
                        (float) Fields.number(f.required("a", "seed 001's shape: the radius e-folds every a metres of "
                                + "height"), Double.MIN_VALUE, 1e6, "m"),
                        (float) Fields.number(f.required("yMin", "the lower cut (body frame) in m"), -1e6, 1e6, "m"),
                        (float) Fields.number(f.required("yMax", "the upper cut (body frame) in m"), -1e6, 1e6, "m"),
                        thickness(f), friction(f)));
            }
            case "projectile": {
                Fields f = Fields.of(v, "a projectile", KEYS_BY_TYPE.get(type));
                Projectile p = new Projectile(
                        f.string("name", "projectile"), center(f), radius(f),
                        (float) Fields.number(f.required("mass", "the ball's mass in kg"), Double.MIN_VALUE, 1e9, "kg"),
                        f.vec3("velocity", new float[3]), gravity, thickness(f), friction(f));
                obstacles.add(Map.entry(p, f.array("obstacles")));
                return friction(f, p);
            }
            case "grip": {
                Fields f = Fields.of(v, "a grip", KEYS_BY_TYPE.get(type));
                ModelObject body = body(f);
                List<JsonValue> indices = f.array("indices");
                if (indices.isEmpty()) {
                    throw (f.has("indices") ? f.get("indices") : f.value()).error(
                            "a grip needs 'indices': the particles it holds, numbered within its body");
                }
                int[] held = new int[indices.size()];
                for (int k = 0; k < held.length; k++) {
                    held[k] = body.firstParticle() + Fields.integer(indices.get(k), 0, body.particleCount() - 1);
                }
                return new Grip(f.string("name", "grip"), model, held,
                        motion(f, new float[3], f.value()));
            }
            case "sdf": {
                Fields f = Fields.of(v, "a signed-distance collider", KEYS_BY_TYPE.get(type));
                JsonValue file = f.required("file", "the OBJ file of a closed surface, relative to the scene file");
                TriangleMesh mesh = MeshFile.read(file, directory,
                        (float) f.number("scale", 1.0, Double.MIN_VALUE, 1e6, ""), new float[3]);
                float cell = (float) f.number("cellSize", 0.02 * largestExtent(mesh), 1e-6, 1e6, "m");
                String name = f.string("name", "sdf");
                SdfCollider c;
                try (WorkerPool pool = new WorkerPool(Runtime.getRuntime().availableProcessors())) {
                    c = BodyReader.at(f.has("cellSize") ? f.get("cellSize") : file, () -> SdfCollider.fromClosedMesh(
                            name, mesh, cell, thickness(f), friction(f), pool));
                }
                c.withPosition(f.vec3("center", new float[3]));
                return rigid(f, c);
            }
            case "animated": {
                Fields f = Fields.of(v, "an animated mesh", KEYS_BY_TYPE.get(type));
                return animated(f);
            }
            case "blade": {
                Fields f = Fields.of(v, "a blade", KEYS_BY_TYPE.get(type));
                return new Blade(f.string("name", "blade"),
                        Fields.vec3(f.required("a", "one end of the edge [x, y, z] in m, at time 0")),
                        Fields.vec3(f.required("b", "the other end [x, y, z] in m")),
                        motion(f, new float[3], f.value()));
            }
            default: {
                Fields f = Fields.of(v, "a mesh collider", KEYS_BY_TYPE.get(type));
                TriangleMesh mesh = MeshFile.read(f, directory, "the OBJ file of the surface");
                return friction(f, new MeshCollider(f.string("name", "mesh"), mesh, thickness(f), friction(f)));
            }
        }
    }

    /**
     * An animated body from an OBJ frame sequence (seed 001 §5.5.1): frame k shown at k / fps, the
     * frames of one topology; pinned particles listed in {@code attach} ride on its surface (§5.5.3).
     */
    private Collider animated(Fields f) {
        List<JsonValue> files = f.array("frames");
        if (files.isEmpty()) {
            throw (f.has("frames") ? f.get("frames") : f.value()).error(
                    "an animated mesh needs 'frames': its OBJ files in order, relative to the scene file");
        }
        float scale = (float) f.number("scale", 1.0, Double.MIN_VALUE, 1e6, "");
        float[] move = f.vec3("translate", new float[3]);
        List<TriangleMesh> meshes = new ArrayList<>();
        for (JsonValue file : files) {
            TriangleMesh mesh = MeshFile.read(file, directory, scale, move);
            TriangleMesh first = meshes.isEmpty() ? mesh : meshes.get(0);
            if (mesh.vertexCount() != first.vertexCount() || !Arrays.equals(mesh.triangles(), first.triangles())) {
                throw file.error("every frame needs the vertices and triangles of the first (" + first.vertexCount()
                        + " vertices, " + first.triangleCount() + " triangles), this one has " + mesh.vertexCount()
                        + " vertices, " + mesh.triangleCount() + " triangles");
            }
            meshes.add(mesh);
        }
        AnimatedMeshCollider c = BodyReader.at(f.value(), () -> new AnimatedMeshCollider(f.string("name", "animated"),
                meshes, (float) f.number("fps", 24, 1e-3, 1e6, "frames/s"), f.bool("loop", true), thickness(f),
                friction(f)));
        friction(f, c);
        for (JsonValue a : f.array("attach")) {
            Fields at = Fields.of(a, "an attachment", ATTACH_KEYS);
            ModelObject body = body(at);
            List<JsonValue> indices = at.array("indices");
            if (indices.isEmpty()) {
                throw (at.has("indices") ? at.get("indices") : a).error("an attachment needs 'indices': pinned "
                        + "particles of its body (numbered within it) that ride on the surface point nearest them");
            }
            float[] rest = model.restPositions();
            for (JsonValue index : indices) {
                int p = body.firstParticle() + Fields.integer(index, 0, body.particleCount() - 1);
                float[] point = {rest[3 * p], rest[3 * p + 1], rest[3 * p + 2]};
                BodyReader.at(index, () -> c.attach(model, p, point));
            }
        }
        return c;
    }

    /** The largest side of the mesh's bounding box, m. */
    private static double largestExtent(TriangleMesh mesh) {
        float[] x = mesh.positions();
        double largest = 0;
        for (int d = 0; d < 3; d++) {
            double lo = Double.MAX_VALUE;
            double hi = -Double.MAX_VALUE;
            for (int i = d; i < x.length; i += 3) {
                lo = Math.min(lo, x[i]);
                hi = Math.max(hi, x[i]);
            }
            largest = Math.max(largest, hi - lo);
        }
        return largest;
    }

    /** The body a grip or an attachment names in its {@code body}. */
    private ModelObject body(Fields f) {
        JsonValue bodyName = f.required("body", "the body whose particles it holds");
        ModelObject body = bodies.get(Fields.string(bodyName));
        if (body == null) {
            throw bodyName.error("no body named '" + bodyName.text() + "'; bodies: "
                    + String.join(", ", bodies.keySet()));
        }
        return body;
    }

    private static String[] keys(String... own) {
        return concat(COMMON, own);
    }

    private static String[] rigid(String... own) {
        return concat(concat(COMMON, RIGID), own);
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static float[] center(Fields f) {
        return Fields.vec3(f.required("center", "the centre [x, y, z] in m"));
    }

    private static float radius(Fields f) {
        return (float) Fields.number(f.required("radius", "the radius in m"), Double.MIN_VALUE, 1e6, "m");
    }

    private static float thickness(Fields f) {
        return (float) f.number("thickness", 0.005, 0, 1e3, "m");
    }

    /** The kinetic (sliding) coefficient: {@code friction}. */
    private static float friction(Fields f) {
        return (float) f.number("friction", 0.5, 0, 1e3, "");
    }

    /** A distinct static coefficient where one is given ({@code staticFriction} ≥ {@code friction}). */
    private static Collider friction(Fields f, Collider c) {
        if (f.has("staticFriction")) {
            float mu = (float) Fields.number(f.get("staticFriction"), 0, 1e3, "");
            BodyReader.at(f.get("staticFriction"), () -> c.withFriction(mu, friction(f)));
        }
        return c;
    }

    private static Collider rigid(Fields f, RigidCollider c) {
        friction(f, c);
        float[] q = f.has("orientation") ? orientation(f.get("orientation")) : IDENTITY;
        if (f.has("orientation")) {
            BodyReader.at(f.get("orientation"), () -> c.withOrientation(q));
        }
        if (f.has("motion")) {
            Fields m = Fields.of(f.get("motion"), "a motion", MOTION_KEYS);
            if (m.has("keyframes")) {
                // a key without an orientation keeps the body's
                BodyReader.at(m.get("keyframes"), () -> c.withMotion(keyframes(m.array("keyframes"),
                        m.get("keyframes"), q)));
            } else {
                c.withVelocity(m.vec3("velocity", new float[3]), m.vec3("angularVelocity", new float[3]));
            }
        }
        return c;
    }

    /**
     * The {@code motion} of {@code f}: keyframes, or a constant velocity from {@code start} (null: only
     * keyframes make sense here); none given is standing still at {@code start}.
     */
    private static Motion motion(Fields f, float[] start, JsonValue at) {
        float[] identity = IDENTITY.clone();
        if (!f.has("motion")) {
            return new ConstantVelocityMotion(start, identity, new float[3], new float[3]);
        }
        Fields m = Fields.of(f.get("motion"), "a motion", MOTION_KEYS);
        if (m.has("keyframes") && (m.has("velocity") || m.has("angularVelocity"))) {
            throw m.get("keyframes").keyError("give either 'keyframes' or 'velocity'/'angularVelocity', not both");
        }
        if (m.has("keyframes")) {
            return BodyReader.at(m.get("keyframes"), () -> keyframes(m.array("keyframes"), m.get("keyframes"), IDENTITY));
        }
        return new ConstantVelocityMotion(start, identity, m.vec3("velocity", new float[3]),
                m.vec3("angularVelocity", new float[3]));
    }

    /** {"axis": [x, y, z], "degrees": a} as a unit quaternion (w, x, y, z). */
    private static float[] orientation(JsonValue v) {
        Fields f = Fields.of(v, "an orientation", ORIENTATION_KEYS);
        float[] axis = Fields.vec3(f.required("axis", "the rotation axis [x, y, z]"));
        double len = Math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
        if (!(len > 0)) {
            throw f.get("axis").error("must not be the zero vector");
        }
        double half = Math.toRadians(Fields.number(f.required("degrees", "the angle in degrees"), -1e6, 1e6, "°")) / 2;
        double s = Math.sin(half) / len;
        return new float[] {(float) Math.cos(half), (float) (axis[0] * s), (float) (axis[1] * s), (float) (axis[2] * s)};
    }

    private static final float[] IDENTITY = {1f, 0f, 0f, 0f};

    /** Keys of {@code time}, {@code position} and {@code orientation} (default {@code orientation}). */
    private static KeyframedMotion keyframes(List<JsonValue> keys, JsonValue at, float[] orientation) {
        if (keys.isEmpty()) {
            throw at.error("needs at least one keyframe {\"time\": s, \"position\": [x, y, z]}");
        }
        double[] times = new double[keys.size()];
        float[] translations = new float[3 * keys.size()];
        float[] rotations = new float[4 * keys.size()];
        for (int k = 0; k < keys.size(); k++) {
            Fields f = Fields.of(keys.get(k), "a keyframe", KEYFRAME_KEYS);
            JsonValue t = f.required("time", "the key's time in s");
            times[k] = Fields.number(t, 0, 1e9, "s");
            if (k > 0 && times[k] <= times[k - 1]) {
                throw t.error("key times must increase, got " + times[k] + " after " + times[k - 1]);
            }
            System.arraycopy(Fields.vec3(f.required("position", "the position [x, y, z] in m")), 0, translations,
                    3 * k, 3);
            float[] q = f.has("orientation") ? orientation(f.get("orientation")) : orientation;
            System.arraycopy(q, 0, rotations, 4 * k, 4);
        }
        return new KeyframedMotion(times, translations, rotations);
    }
}
