package dev.weft.core.export;

import dev.weft.core.model.Model;
import dev.weft.core.model.ModelObject;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A USD ASCII layer ({@code .usda}): under one {@code Xform} named after the scene, a {@code Mesh} per
 * cloth body (triangles, time-sampled {@code points} and {@code extent}, {@code primvars:st} from the
 * uvs, vertex-interpolated) and a {@code BasisCurves} (linear) per rope. Time codes are frame indices,
 * {@code timeCodesPerSecond} the frame rate; Y up, metres.
 *
 * <p>Topology changes (tearing, cutting) are followed: a body's {@code faceVertexCounts},
 * {@code faceVertexIndices} and {@code primvars:st} (or a rope's {@code curveVertexCounts}) get a new
 * time sample at each frame where they changed, and are plain values when they never did. Normals are
 * not written: with {@code subdivisionScheme = "none"} USD renderers compute smooth ones.
 *
 * <p>Streaming: each body's samples go to scratch files as frames come; at close the header (whose
 * endTimeCode is only known then) is written and the scratch files are copied after it in chunks.
 */
public final class UsdaExporter extends AbstractFrameExporter {
    private static final String INDENT = "        ";

    private final Path file;
    private final String sceneName;
    private final float fps;
    private Body[] bodies;
    /** The model whose topology the bodies hold (compared again only when the model object changes). */
    private Model topologyOf;
    private int[] localIndex = new int[0];
    private final StringBuilder text = new StringBuilder(1 << 12);

    /** One body's prim: what it last wrote of its topology and its attributes' samples. */
    private static final class Body implements AutoCloseable {
        final boolean rope;
        final String primName;
        final TimeSampledArray points;
        final TimeSampledArray extent;
        /** Cloth: faceVertexCounts; rope: curveVertexCounts. */
        final TimeSampledArray counts;
        final TimeSampledArray indices;
        final TimeSampledArray st;
        /** Global particle of each point of the prim (a rope's in polyline order). */
        int[] vertices = new int[0];
        /** Cloth: triangle corners as point indices; rope: points per polyline. */
        int[] topology = new int[0];

        Body(Path dir, String fileName, boolean rope, String primName) throws IOException {
            this.rope = rope;
            this.primName = primName;
            String base = fileName + "." + primName;
            points = new TimeSampledArray(dir, base + ".points");
            extent = new TimeSampledArray(dir, base + ".extent");
            counts = new TimeSampledArray(dir, base + ".counts");
            indices = rope ? null : new TimeSampledArray(dir, base + ".indices");
            st = rope ? null : new TimeSampledArray(dir, base + ".st");
        }

        @Override
        public void close() {
            points.close();
            extent.close();
            counts.close();
            if (indices != null) {
                indices.close();
                st.close();
            }
        }
    }

    /** @param fps frames per second: the time codes per second */
    public UsdaExporter(Path usdaFile, String sceneName, float fps) {
        if (!(fps > 0f) || !Float.isFinite(fps)) {
            throw new IllegalArgumentException("fps must be positive, got " + fps);
        }
        this.file = usdaFile.toAbsolutePath();
        this.sceneName = sceneName;
        this.fps = fps;
    }

    @Override
    public List<Path> outputs() {
        return List.of(file);
    }

    @Override
    String describe() {
        return "USD file " + file;
    }

    @Override
    void write(Model model, float[] positions, int frameIndex, double time, int frameNumber) throws IOException {
        if (bodies == null) {
            start(model);
        }
        if (model != topologyOf) {
            updateTopology(model, frameIndex);
            topologyOf = model;
        }
        for (Body body : bodies) {
            writePoints(body, positions, frameIndex);
        }
    }

    private void start(Model model) throws IOException {
        List<ModelObject> objects = model.objects();
        bodies = new Body[objects.size()];
        Set<String> names = new HashSet<>();
        names.add(identifier(sceneName));
        try {
            for (int o = 0; o < bodies.length; o++) {
                String name = identifier(objects.get(o).name());
                String unique = name;
                for (int k = 2; !names.add(unique); k++) {
                    unique = name + "_" + k;
                }
                bodies[o] = new Body(file.getParent(), file.getFileName().toString(),
                        objects.get(o).type() == ModelObject.Type.ROPE, unique);
            }
        } catch (IOException e) {
            discard();
            throw e;
        }
    }

    /** Recomputes every body's points and topology, and writes a sample where they changed. */
    private void updateTopology(Model model, int frameIndex) throws IOException {
        int n = model.drawnSurface().vertexCount();
        if (localIndex.length < n) {
            localIndex = new int[n];
        }
        RopePolylines ropes = null;
        int[] tris = model.drawnSurface().triangles();
        for (int o = 0; o < bodies.length; o++) {
            Body body = bodies[o];
            int[] vertices;
            int[] topology;
            if (body.rope) {
                if (ropes == null) {
                    ropes = RopePolylines.of(model);
                }
                int points = 0;
                int curves = 0;
                for (int p = 0; p < ropes.count(); p++) {
                    if (ropes.body(p) == o) {
                        points += ropes.end(p) - ropes.start(p);
                        curves++;
                    }
                }
                vertices = new int[points];
                topology = new int[curves];
                int v = 0;
                int c = 0;
                for (int p = 0; p < ropes.count(); p++) {
                    if (ropes.body(p) == o) {
                        for (int k = ropes.start(p); k < ropes.end(p); k++) {
                            vertices[v++] = ropes.vertex(k);
                        }
                        topology[c++] = ropes.end(p) - ropes.start(p);
                    }
                }
            } else {
                int count = 0;
                for (int p = 0; p < n; p++) {
                    if (model.drawnSurface().objectOf(p) == o) {
                        localIndex[p] = count++;
                    }
                }
                vertices = new int[count];
                for (int p = 0; p < n; p++) {
                    if (model.drawnSurface().objectOf(p) == o) {
                        vertices[localIndex[p]] = p;
                    }
                }
                int corners = 0;
                for (int t = 0; t < tris.length; t += 3) {
                    if (model.drawnSurface().objectOf(tris[t]) == o) {
                        corners += 3;
                    }
                }
                topology = new int[corners];
                int k = 0;
                for (int t = 0; t < tris.length; t += 3) {
                    if (model.drawnSurface().objectOf(tris[t]) == o) {
                        topology[k++] = localIndex[tris[t]];
                        topology[k++] = localIndex[tris[t + 1]];
                        topology[k++] = localIndex[tris[t + 2]];
                    }
                }
            }
            if (Arrays.equals(vertices, body.vertices) && Arrays.equals(topology, body.topology)
                    && body.counts.samples() > 0) {
                continue;
            }
            body.vertices = vertices;
            body.topology = topology;
            writeTopology(body, model.drawnSurface().uvs(), frameIndex);
        }
    }

    private void writeTopology(Body body, float[] uvs, int frameIndex) throws IOException {
        StringBuilder b = text;
        if (body.rope) {
            writeInts(body.counts, frameIndex, body.topology, -1);
            return;
        }
        writeInts(body.counts, frameIndex, body.topology, 3);
        writeInts(body.indices, frameIndex, body.topology, -1);
        Writer w = body.st.begin(frameIndex);
        b.setLength(0);
        b.append('[');
        int[] vertices = body.vertices;
        for (int i = 0; i < vertices.length; i++) {
            int p = vertices[i];
            b.append(i == 0 ? "(" : ", (").append(uvs[2 * p]).append(", ").append(uvs[2 * p + 1]).append(')');
            if (b.length() > 1 << 12) {
                w.append(b);
                b.setLength(0);
            }
        }
        w.append(b.append(']'));
        body.st.end();
    }

    /**
     * Writes an int array sample: {@code values}, or with {@code constant} ≥ 0 as many copies of it
     * as there are triangles in {@code values} (faceVertexCounts).
     */
    private void writeInts(TimeSampledArray attribute, int frameIndex, int[] values, int constant) throws IOException {
        Writer w = attribute.begin(frameIndex);
        StringBuilder b = text;
        b.setLength(0);
        b.append('[');
        int count = constant >= 0 ? values.length / 3 : values.length;
        for (int i = 0; i < count; i++) {
            b.append(i == 0 ? "" : ", ").append(constant >= 0 ? constant : values[i]);
            if (b.length() > 1 << 12) {
                w.append(b);
                b.setLength(0);
            }
        }
        w.append(b.append(']'));
        attribute.end();
    }

    private void writePoints(Body body, float[] x, int frameIndex) throws IOException {
        Writer w = body.points.begin(frameIndex);
        StringBuilder b = text;
        b.setLength(0);
        b.append('[');
        int[] vertices = body.vertices;
        float minX = Float.POSITIVE_INFINITY;
        float minY = Float.POSITIVE_INFINITY;
        float minZ = Float.POSITIVE_INFINITY;
        float maxX = Float.NEGATIVE_INFINITY;
        float maxY = Float.NEGATIVE_INFINITY;
        float maxZ = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < vertices.length; i++) {
            int p = 3 * vertices[i];
            float px = x[p];
            float py = x[p + 1];
            float pz = x[p + 2];
            b.append(i == 0 ? "(" : ", (").append(px).append(", ").append(py).append(", ").append(pz).append(')');
            if (b.length() > 1 << 12) {
                w.append(b);
                b.setLength(0);
            }
            minX = Math.min(minX, px);
            minY = Math.min(minY, py);
            minZ = Math.min(minZ, pz);
            maxX = Math.max(maxX, px);
            maxY = Math.max(maxY, py);
            maxZ = Math.max(maxZ, pz);
        }
        w.append(b.append(']'));
        body.points.end();
        if (vertices.length > 0) {
            Writer e = body.extent.begin(frameIndex);
            b.setLength(0);
            b.append("[(").append(minX).append(", ").append(minY).append(", ").append(minZ).append("), (")
                    .append(maxX).append(", ").append(maxY).append(", ").append(maxZ).append(")]");
            e.append(b);
            body.extent.end();
        }
    }

    @Override
    void finish() throws IOException {
        AtomicOutput out = AtomicOutput.create(file);
        try {
            Writer w = out.text();
            String fpsText = number(fps);
            String root = identifier(sceneName);
            w.write("#usda 1.0\n(\n");
            w.write("    defaultPrim = \"" + root + "\"\n");
            w.write("    doc = \"Weft cloth simulation: " + sceneName.replace("\\", "\\\\").replace("\"", "\\\"")
                    + "\"\n");
            w.write("    startTimeCode = " + firstFrameIndex() + "\n");
            w.write("    endTimeCode = " + lastFrameIndex() + "\n");
            w.write("    timeCodesPerSecond = " + fpsText + "\n");
            w.write("    framesPerSecond = " + fpsText + "\n");
            w.write("    upAxis = \"Y\"\n");
            w.write("    metersPerUnit = 1\n");
            w.write(")\n\n");
            w.write("def Xform \"" + root + "\"\n{\n");
            for (Body body : bodies) {
                if (body.rope) {
                    w.write("    def BasisCurves \"" + body.primName + "\"\n    {\n");
                    w.write(INDENT + "uniform token type = \"linear\"\n");
                    body.counts.writeTo(out, INDENT, "int[] curveVertexCounts", null);
                    body.extent.writeTo(out, INDENT, "float3[] extent", null);
                    body.points.writeTo(out, INDENT, "point3f[] points", null);
                    w.write(INDENT + "float[] widths = [0.005] (\n" + INDENT + "    interpolation = \"constant\"\n"
                            + INDENT + ")\n");
                } else {
                    w.write("    def Mesh \"" + body.primName + "\"\n    {\n");
                    w.write(INDENT + "uniform bool doubleSided = 1\n");
                    body.extent.writeTo(out, INDENT, "float3[] extent", null);
                    body.counts.writeTo(out, INDENT, "int[] faceVertexCounts", null);
                    body.indices.writeTo(out, INDENT, "int[] faceVertexIndices", null);
                    w.write(INDENT + "uniform token orientation = \"rightHanded\"\n");
                    body.points.writeTo(out, INDENT, "point3f[] points", null);
                    body.st.writeTo(out, INDENT, "texCoord2f[] primvars:st", "interpolation = \"vertex\"");
                    w.write(INDENT + "uniform token subdivisionScheme = \"none\"\n");
                }
                w.write("    }\n");
            }
            w.write("}\n");
            out.commit();
        } catch (IOException | RuntimeException e) {
            out.discard();
            throw e;
        } finally {
            discard();
        }
    }

    /** A frame rate as a USD number: an integer where it is one (24, not 24.0). */
    private static String number(float f) {
        return f == Math.rint(f) ? Long.toString((long) f) : Float.toString(f);
    }

    /** A USD prim name: letters, digits and underscores, not starting with a digit. */
    static String identifier(String s) {
        StringBuilder b = new StringBuilder(s.length() + 1);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append(c < 128 && (Character.isLetterOrDigit(c) || c == '_') ? c : '_');
        }
        if (b.length() == 0 || Character.isDigit(b.charAt(0))) {
            b.insert(0, '_');
        }
        return b.toString();
    }

    @Override
    void discard() {
        if (bodies != null) {
            for (Body body : bodies) {
                if (body != null) {
                    body.close();
                }
            }
        }
    }
}
