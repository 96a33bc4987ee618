package dev.weft.scene;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.BoxCollider;
import dev.weft.core.collide.CapsuleCollider;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.CylinderCollider;
import dev.weft.core.collide.EllipsoidCollider;
import dev.weft.core.collide.KeyframedMotion;
import dev.weft.core.collide.MeshCollider;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.RigidCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.mesh.ObjReader;
import dev.weft.core.mesh.TriangleMesh;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code colliders} of a scene file: a still plane or floor, and rigid shapes (sphere, box, capsule,
 * cylinder, ellipsoid, a closed OBJ mesh) with a pose (orientation as an axis and an angle in degrees)
 * and a motion (constant velocity, or keyframes). Thickness in m, Coulomb friction coefficients.
 */
final class ColliderReader {
    static final String[] TYPES = {"plane", "floor", "sphere", "box", "capsule", "cylinder", "ellipsoid", "mesh"};
    static final String[] COMMON = {"type", "name", "thickness", "friction", "staticFriction"};
    static final String[] RIGID = {"orientation", "motion"};
    static final String[] ORIENTATION_KEYS = {"axis", "degrees"};
    static final String[] MOTION_KEYS = {"velocity", "angularVelocity", "keyframes"};
    static final String[] KEYFRAME_KEYS = {"time", "position", "orientation"};

    /** The keys each type of collider takes (the JSON Schema is checked against these). */
    static final java.util.Map<String, String[]> KEYS_BY_TYPE = java.util.Map.of(
            "plane", keys("point", "normal"),
            "floor", keys("height"),
            "sphere", rigid("center", "radius"),
            "box", rigid("center", "halfExtents"),
            "capsule", rigid("center", "radius", "halfLength"),
            "cylinder", rigid("center", "radius", "halfHeight"),
            "ellipsoid", rigid("center", "semiAxes"),
            "mesh", keys("file", "scale", "translate"));

    private final Path directory;

    ColliderReader(Path directory) {
        this.directory = directory;
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
            out.add(c);
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
                                + "local x)"), 0, 1e6, "m"), thickness(f), friction(f)));
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
            default: {
                Fields f = Fields.of(v, "a mesh collider", KEYS_BY_TYPE.get(type));
                JsonValue fileValue = f.required("file", "the OBJ file, relative to the scene file");
                Path file = directory.resolve(Fields.string(fileValue));
                if (!Files.isRegularFile(file)) {
                    throw fileValue.error("no such file: " + file);
                }
                TriangleMesh read;
                try {
                    read = ObjReader.read(file);
                } catch (InvalidInputException e) {
                    throw fileValue.error(e.getMessage());
                }
                float scale = (float) f.number("scale", 1.0, Double.MIN_VALUE, 1e6, "");
                float[] move = f.vec3("translate", new float[3]);
                float[] x = read.positions().clone();
                for (int i = 0; i < x.length; i++) {
                    x[i] = x[i] * scale + move[i % 3];
                }
                return friction(f, new MeshCollider(f.string("name", file.getFileName().toString()),
                        new TriangleMesh(x, read.uvs(), read.triangles()), thickness(f), friction(f)));
            }
        }
    }

    private static String[] keys(String... own) {
        return concat(COMMON, own);
    }

    private static String[] rigid(String... own) {
        return concat(concat(COMMON, RIGID), own);
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
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
        if (f.has("orientation")) {
            float[] q = orientation(f.get("orientation"));
            BodyReader.at(f.get("orientation"), () -> c.withOrientation(q));
        }
        if (f.has("motion")) {
            Fields m = Fields.of(f.get("motion"), "a motion", MOTION_KEYS);
            if (m.has("keyframes") && (m.has("velocity") || m.has("angularVelocity"))) {
                throw m.get("keyframes").keyError("give either 'keyframes' or 'velocity'/'angularVelocity', not both");
            }
            if (m.has("keyframes")) {
                BodyReader.at(m.get("keyframes"), () -> c.withMotion(keyframes(m.array("keyframes"),
                        m.get("keyframes"))));
            } else {
                float[] velocity = m.vec3("velocity", new float[3]);
                float[] angular = m.vec3("angularVelocity", new float[3]);
                c.withVelocity(velocity, angular);
            }
        }
        return c;
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

    private static KeyframedMotion keyframes(List<JsonValue> keys, JsonValue at) {
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
            float[] q = f.has("orientation") ? orientation(f.get("orientation")) : new float[] {1f, 0f, 0f, 0f};
            System.arraycopy(q, 0, rotations, 4 * k, 4);
        }
        return new KeyframedMotion(times, translations, rotations);
    }
}
