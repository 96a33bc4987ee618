package dev.weft.scene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.model.SpringLayout;
import dev.weft.core.solver.Solvers;
import dev.weft.core.solver.pd.InnerSolver;
import dev.weft.core.solver.xpbd.IterationMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code scenes/weft-scene.schema.json} (editors' completion and checking) says exactly what the reader
 * takes: the same keys in every object, the same words where a key takes one of a few.
 */
class SceneSchemaTest {
    private static JsonValue schema() throws Exception {
        Path p = SceneFileTest.SCENES.resolve("weft-scene.schema.json");
        return JsonFileParser.parse(p.toString(), Files.readString(p));
    }

    private static JsonValue at(JsonValue v, String... keys) {
        for (String k : keys) {
            v = v.fields().get(k);
            assertThat(v).as("schema key %s", k).isNotNull();
        }
        return v;
    }

    private static List<String> properties(JsonValue def) {
        return new ArrayList<>(at(def, "properties").fields().keySet());
    }

    private static List<String> words(JsonValue v) {
        List<String> out = new ArrayList<>();
        for (JsonValue w : v.items()) {
            out.add(w.text());
        }
        return out;
    }

    @Test
    void everyObjectHasTheReadersKeys() throws Exception {
        JsonValue s = schema();
        JsonValue defs = at(s, "$defs");
        assertThat(properties(s)).containsExactlyInAnyOrder(SceneFile.KEYS);
        Map<String, String[]> byDef = new java.util.LinkedHashMap<>();
        byDef.put("model", SceneFile.MODEL_KEYS);
        byDef.put("air", SceneFile.AIR_KEYS);
        byDef.put("material", MaterialReader.KEYS);
        byDef.put("pins", BodyReader.PIN_KEYS);
        byDef.put("box", BodyReader.BOX_KEYS);
        byDef.put("grid", BodyReader.GRID_KEYS);
        byDef.put("mesh", BodyReader.MESH_KEYS);
        byDef.put("rope", BodyReader.ROPE_KEYS);
        byDef.put("voxel", BodyReader.VOXEL_KEYS);
        byDef.put("seam", BodyReader.SEAM_KEYS);
        byDef.put("orientation", ColliderReader.ORIENTATION_KEYS);
        byDef.put("motion", ColliderReader.MOTION_KEYS);
        byDef.put("keyframe", ColliderReader.KEYFRAME_KEYS);
        byDef.put("solvers", SolverReader.FAMILIES);
        byDef.put("step", SolverReader.STEP_KEYS);
        byDef.put("selfCollision", SceneFile.CONTACT_KEYS);
        byDef.put("camera", SceneFile.CAMERA_KEYS);
        byDef.put("steps", Solvers.names().toArray(new String[0]));
        for (String type : ColliderReader.TYPES) {
            byDef.put("collider-" + type, ColliderReader.KEYS_BY_TYPE.get(type));
        }
        for (Map.Entry<String, String[]> e : byDef.entrySet()) {
            assertThat(properties(at(defs, e.getKey()))).as(e.getKey()).containsExactlyInAnyOrder(e.getValue());
            assertThat(at(defs, e.getKey(), "additionalProperties").bool()).as(e.getKey()).isFalse();
        }
        assertThat(properties(at(defs, "collider-animated", "properties", "attach", "items")))
                .containsExactlyInAnyOrder(ColliderReader.ATTACH_KEYS);
        JsonValue solvers = at(defs, "solvers", "properties");
        assertThat(properties(at(solvers, "xpbd"))).containsExactlyInAnyOrder(SolverReader.XPBD_KEYS);
        assertThat(properties(at(solvers, "pd"))).containsExactlyInAnyOrder(SolverReader.PD_KEYS);
        assertThat(properties(at(solvers, "implicit"))).containsExactlyInAnyOrder(SolverReader.IMPLICIT_KEYS);
        assertThat(properties(at(solvers, "relaxation"))).containsExactlyInAnyOrder(SolverReader.RELAXATION_KEYS);
        assertThat(properties(at(solvers, "massSpring"))).containsExactlyInAnyOrder(SolverReader.MASS_SPRING_KEYS);
        // every collider type has its definition, and every definition a type
        List<String> colliders = new ArrayList<>();
        for (JsonValue ref : at(s, "properties", "colliders", "items", "oneOf").items()) {
            colliders.add(at(ref, "$ref").text().replace("#/$defs/collider-", ""));
        }
        assertThat(colliders).containsExactlyInAnyOrder(ColliderReader.TYPES);
    }

    @Test
    void everyChoiceHasTheReadersWords() throws Exception {
        JsonValue defs = at(schema(), "$defs");
        assertThat(words(at(defs, "pins", "properties", "corners", "items", "enum")))
                .containsExactlyInAnyOrder(BodyReader.CORNERS);
        assertThat(words(at(defs, "pins", "properties", "edges", "items", "enum")))
                .containsExactlyInAnyOrder(BodyReader.EDGES);
        assertThat(words(at(schema(), "properties", "solver", "enum"))).containsExactlyElementsOf(Solvers.names());
        List<String> modes = new ArrayList<>();
        for (IterationMode m : IterationMode.values()) {
            modes.add(m.label());
        }
        assertThat(words(at(defs, "solvers", "properties", "xpbd", "properties", "mode", "enum")))
                .containsExactlyInAnyOrderElementsOf(modes);
        List<String> inner = new ArrayList<>();
        for (InnerSolver i : InnerSolver.values()) {
            inner.add(i.label());
        }
        assertThat(words(at(defs, "solvers", "properties", "pd", "properties", "solver", "enum")))
                .containsExactlyInAnyOrderElementsOf(inner);
        List<String> layouts = new ArrayList<>();
        for (SpringLayout l : SpringLayout.values()) {
            layouts.add(l.label());
        }
        assertThat(words(at(defs, "model", "properties", "springs", "enum"))).containsExactlyInAnyOrderElementsOf(layouts);
        List<String> bending = new ArrayList<>();
        for (dev.weft.core.model.BendingModel b : dev.weft.core.model.BendingModel.values()) {
            bending.add(b.name().toLowerCase(java.util.Locale.ROOT));
        }
        bending.add("none");
        assertThat(words(at(defs, "model", "properties", "bending", "enum"))).containsExactlyInAnyOrderElementsOf(bending);
    }
}
