package dev.weft.core.export;

import static dev.weft.core.export.MiniJson.array;
import static dev.weft.core.export.MiniJson.integer;
import static dev.weft.core.export.MiniJson.object;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.core.export.ExportFixtures.Frame;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelObject;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The .glb is parsed back byte by byte and checked against the glTF 2.0 rules and the simulated frames. */
class GltfExporterTest {
    private static final int FRAMES = 5;

    @TempDir
    Path dir;

    /** A parsed GLB: its JSON and its BIN chunk. */
    record Glb(Map<String, Object> json, ByteBuffer bin) {
        List<Object> list(String key) {
            return array(json.get(key));
        }

        Map<String, Object> accessor(long index) {
            return object(list("accessors").get((int) index));
        }

        /** Float component {@code c} of element {@code e} of a float accessor. */
        float floatAt(Map<String, Object> accessor, int e, int c, int components) {
            return bin.getFloat(byteAt(accessor, e, c, components));
        }

        int intAt(Map<String, Object> accessor, int e) {
            return bin.getInt(byteAt(accessor, e, 0, 1));
        }

        private int byteAt(Map<String, Object> accessor, int e, int c, int components) {
            Map<String, Object> view = object(list("bufferViews").get((int) integer(accessor.get("bufferView"))));
            long stride = view.containsKey("byteStride") ? integer(view.get("byteStride")) : 4L * components;
            return (int) (integer(view.get("byteOffset")) + integer(accessor.get("byteOffset")) + stride * e + 4L * c);
        }
    }

    private Path export(List<Frame> run) throws IOException {
        Path file = dir.resolve("scene.glb");
        try (GltfExporter out = new GltfExporter(file, "scene")) {
            ExportFixtures.export(out, run);
            assertThat(file).as("nothing before close").doesNotExist();
        }
        assertThat(dir.toFile().list()).as("no scratch file left").containsExactly("scene.glb");
        return file;
    }

    static Glb parse(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(b.getInt(0)).as("magic").isEqualTo(0x46546C67);
        assertThat(b.getInt(4)).as("version").isEqualTo(2);
        assertThat(b.getInt(8)).as("length").isEqualTo(bytes.length);
        int jsonLength = b.getInt(12);
        assertThat(b.getInt(16)).as("first chunk type").isEqualTo(0x4E4F534A);
        assertThat(jsonLength % 4).as("JSON chunk aligned").isZero();
        int binAt = 20 + jsonLength;
        int binLength = b.getInt(binAt);
        assertThat(b.getInt(binAt + 4)).as("second chunk type").isEqualTo(0x004E4942);
        assertThat(binLength % 4).as("BIN chunk aligned").isZero();
        assertThat(binAt + 8 + binLength).as("chunks fill the file").isEqualTo(bytes.length);
        String text = new String(bytes, 20, jsonLength, StandardCharsets.UTF_8);
        String padding = text.substring(text.lastIndexOf('}') + 1);
        assertThat(padding.replace("\n", "")).as("JSON padding").matches(" *");
        Map<String, Object> json = object(MiniJson.parse(text));
        ByteBuffer bin = ByteBuffer.wrap(bytes, binAt + 8, binLength).slice().order(ByteOrder.LITTLE_ENDIAN);
        return new Glb(json, bin);
    }

    @Test
    void theGlbIsWellFormedAndEachMorphTargetGivesItsFrameExactly() throws IOException {
        List<Frame> run = ExportFixtures.simulate(ExportFixtures.scene(), FRAMES);
        Model m = run.get(0).model();
        int n = m.particleCount();
        Glb glb = parse(export(run));

        assertThat(object(glb.json().get("asset")).get("version")).isEqualTo("2.0");
        long bufferLength = integer(object(glb.list("buffers").get(0)).get("byteLength"));
        assertThat(bufferLength).isEqualTo(glb.bin().capacity());
        for (Object v : glb.list("bufferViews")) {
            Map<String, Object> view = object(v);
            assertThat(integer(view.get("byteOffset")) + integer(view.get("byteLength"))).isLessThanOrEqualTo(bufferLength);
        }
        for (Object a : glb.list("accessors")) {
            Map<String, Object> acc = object(a);
            Map<String, Object> view = object(glb.list("bufferViews").get((int) integer(acc.get("bufferView"))));
            long components = Map.of("SCALAR", 1L, "VEC2", 2L, "VEC3", 3L).get((String) acc.get("type"));
            long stride = view.containsKey("byteStride") ? integer(view.get("byteStride")) : 4 * components;
            long end = integer(acc.get("byteOffset")) + stride * (integer(acc.get("count")) - 1) + 4 * components;
            assertThat(end).as("accessor %s inside its view", acc).isLessThanOrEqualTo(integer(view.get("byteLength")));
            assertThat(integer(acc.get("byteOffset")) % 4).isZero();
        }

        List<Object> primitives = array(object(glb.list("meshes").get(0)).get("primitives"));
        assertThat(primitives).hasSize(3);
        Map<String, Object> first = object(primitives.get(0));
        Map<String, Object> position = glb.accessor(integer(object(first.get("attributes")).get("POSITION")));
        assertThat(integer(position.get("count"))).isEqualTo(n);
        assertBounds(glb, position, "frame 0 positions");
        for (int k = 0; k < n; k++) {
            for (int c = 0; c < 3; c++) {
                assertThat(glb.floatAt(position, k, c, 3)).isEqualTo(run.get(0).positions()[3 * k + c]);
            }
        }

        // Per body: a primitive of its triangles (cloths) or segments (rope), all with one target per frame.
        String[] bodies = {"cloth", "flag", "rope"};
        for (int p = 0; p < 3; p++) {
            Map<String, Object> prim = object(primitives.get(p));
            ModelObject body = m.object(bodies[p]);
            assertThat(object(prim.get("extras")).get("body")).isEqualTo(bodies[p]);
            Map<String, Object> indices = glb.accessor(integer(prim.get("indices")));
            assertThat(integer(indices.get("componentType"))).isEqualTo(5125);
            if (body.type() == ModelObject.Type.ROPE) {
                assertThat(integer(prim.get("mode"))).isEqualTo(1);
                assertThat(integer(indices.get("count"))).isEqualTo(2L * (body.particleCount() - 1));
                for (int s = 0; s + 1 < body.particleCount(); s++) {
                    assertThat(glb.intAt(indices, 2 * s)).isEqualTo(body.firstParticle() + s);
                    assertThat(glb.intAt(indices, 2 * s + 1)).isEqualTo(body.firstParticle() + s + 1);
                }
            } else {
                assertThat(integer(prim.get("mode"))).isEqualTo(4);
                assertThat(integer(indices.get("count"))).isEqualTo(3L * body.triangleCount());
                for (int i = 0; i < 3 * body.triangleCount(); i++) {
                    assertThat(glb.intAt(indices, i)).isEqualTo(m.triangles()[3 * body.firstTriangle() + i]);
                }
            }
            assertThat(prim.get("targets")).isEqualTo(first.get("targets"));
        }

        List<Object> targets = array(first.get("targets"));
        assertThat(targets).hasSize(FRAMES);
        for (int k = 0; k < FRAMES; k++) {
            Map<String, Object> delta = glb.accessor(integer(object(targets.get(k)).get("POSITION")));
            assertThat(integer(delta.get("count"))).isEqualTo(n);
            assertBounds(glb, delta, "target " + k);
            float[] x = run.get(k).positions();
            for (int v = 0; v < n; v++) {
                for (int c = 0; c < 3; c++) {
                    float from = glb.floatAt(position, v, c, 3);
                    float d = glb.floatAt(delta, v, c, 3);
                    float to = x[3 * v + c];
                    assertThat(d).isEqualTo(to - from);
                    // Exact wherever the difference is a float, which it is for every coordinate of this run.
                    assertThat((double) to - from).as("frame %d particle %d: difference is a float", k, v).isEqualTo(d);
                    if (from + d != to) {
                        throw new AssertionError("frame " + k + " particle " + v + " coordinate " + c + ": base + delta = "
                                + (from + d) + ", expected " + to);
                    }
                }
            }
        }

        // Weights animation: at frame k's time, target k alone has weight 1.
        Map<String, Object> animation = object(glb.list("animations").get(0));
        Map<String, Object> channel = object(array(animation.get("channels")).get(0));
        assertThat(object(channel.get("target"))).containsEntry("path", "weights").containsEntry("node", 0.0);
        Map<String, Object> sampler = object(array(animation.get("samplers")).get(0));
        Map<String, Object> input = glb.accessor(integer(sampler.get("input")));
        Map<String, Object> output = glb.accessor(integer(sampler.get("output")));
        assertThat(integer(input.get("count"))).isEqualTo(FRAMES);
        assertThat(integer(output.get("count"))).isEqualTo((long) FRAMES * FRAMES);
        assertThat(array(input.get("min"))).containsExactly((double) (float) run.get(0).time());
        assertThat(array(input.get("max"))).containsExactly((double) (float) run.get(FRAMES - 1).time());
        for (int k = 0; k < FRAMES; k++) {
            assertThat(glb.floatAt(input, k, 0, 1)).isEqualTo((float) run.get(k).time());
            for (int t = 0; t < FRAMES; t++) {
                assertThat(glb.floatAt(output, k * FRAMES + t, 0, 1)).isEqualTo(t == k ? 1f : 0f);
            }
        }
    }

    /** min and max of a VEC3 float accessor are exactly those of its data. */
    private static void assertBounds(Glb glb, Map<String, Object> accessor, String what) {
        int count = (int) integer(accessor.get("count"));
        for (int c = 0; c < 3; c++) {
            float min = Float.POSITIVE_INFINITY;
            float max = Float.NEGATIVE_INFINITY;
            for (int e = 0; e < count; e++) {
                min = Math.min(min, glb.floatAt(accessor, e, c, 3));
                max = Math.max(max, glb.floatAt(accessor, e, c, 3));
            }
            assertThat((Double) array(accessor.get("min")).get(c)).as(what + " min " + c).isEqualTo((double) min);
            assertThat((Double) array(accessor.get("max")).get(c)).as(what + " max " + c).isEqualTo((double) max);
        }
    }

    /**
     * Runs the Khronos glTF validator: the project's copy ({@code tools/gltf-validator}, which
     * {@code scripts/test.sh} installs with npm and then requires through WEFT_REQUIRE_GLTF_VALIDATOR=1), else
     * a {@code gltf_validator} command on PATH; skipped where neither is there.
     */
    @Test
    void theKhronosValidatorFindsNoErrors() throws IOException, InterruptedException {
        Path script = Path.of("..", "tools", "gltf-validator", "validate.js").toAbsolutePath().normalize();
        Path node = onPath("node");
        List<String> command = null;
        if (node != null && Files.isDirectory(script.resolveSibling("node_modules").resolve("gltf-validator"))) {
            command = List.of(node.toString(), script.toString());
        } else if (onPath("gltf_validator") != null) {
            command = List.of(onPath("gltf_validator").toString());
        }
        if ("1".equals(System.getenv("WEFT_REQUIRE_GLTF_VALIDATOR"))) {
            assertThat(command).as("the glTF validator (scripts/test.sh installs it into tools/gltf-validator)")
                    .isNotNull();
        }
        assumeTrue(command != null, "no glTF validator: npm install in tools/gltf-validator, or gltf_validator on PATH");
        Path file = export(ExportFixtures.simulate(ExportFixtures.scene(), FRAMES));
        List<String> run = new java.util.ArrayList<>(command);
        run.add(file.toString());
        Process p = new ProcessBuilder(run).redirectErrorStream(true).start();
        String report = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(report).contains("\"numErrors\": 0");
        assertThat(p.exitValue()).as(report).isZero();
    }

    private static Path onPath(String command) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String d : path.split(File.pathSeparator)) {
            Path candidate = Path.of(d, command);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
