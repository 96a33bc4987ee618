package dev.weft.core.export;

import dev.weft.core.geom.SmoothNormals;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelObject;
import java.io.IOException;
import java.io.Writer;

/**
 * One frame of a model as Wavefront OBJ text: {@code v} and {@code vt} for every particle in model order
 * (so the vertex order is the particle order, which a point cache relies on), {@code vn} smooth normals
 * for the particles that have triangles, then per body a {@code g} group (and, unless the file is one
 * object, an {@code o} object) with its faces {@code f v/vt/vn} and its rope polylines {@code l}.
 * Split copies belong to the body of the particle they were split from.
 *
 * <p>Floats are written with {@link Float#toString(float)}, the shortest text that reads back as the
 * same float. Keeps its buffers between frames; not thread-safe.
 */
final class ObjFrameWriter {
    private SmoothNormals normals = new SmoothNormals(0);
    /** The polylines of the model last written (recomputed only when the model changes). */
    private Model polylinesOf;
    private RopePolylines polylines;
    private int[] normalIndex = new int[0];
    private final StringBuilder line = new StringBuilder(128);

    /**
     * Writes the frame.
     *
     * @param objectName null: one {@code o} per body; else one {@code o objectName} for the whole file
     *                   (one mesh, as a point cache's base mesh must be), bodies as groups
     * @param comment    the first line's comment, or null
     */
    void write(Writer out, Model model, float[] x, String objectName, String comment) throws IOException {
        int n = model.drawnSurface().vertexCount();
        if (model != polylinesOf) {
            polylines = RopePolylines.of(model);
            polylinesOf = model;
        }
        StringBuilder b = line;
        if (comment != null) {
            out.write("# " + comment.replace('\n', ' ') + "\n");
        }
        if (objectName != null) {
            out.write("o " + name(objectName) + "\n");
        }
        for (int v = 0; v < n; v++) {
            b.setLength(0);
            b.append("v ").append(x[3 * v]).append(' ').append(x[3 * v + 1]).append(' ').append(x[3 * v + 2])
                    .append('\n');
            out.append(b);
        }
        float[] uv = model.drawnSurface().uvs();
        for (int v = 0; v < n; v++) {
            b.setLength(0);
            b.append("vt ").append(uv[2 * v]).append(' ').append(uv[2 * v + 1]).append('\n');
            out.append(b);
        }
        int[] tris = model.drawnSurface().triangles();
        if (normals.normals().length != 3 * n) {
            normals = new SmoothNormals(n); // a tear added particles
        }
        float[] nrm = normals.compute(x, tris);
        if (normalIndex.length < n) {
            normalIndex = new int[n];
        }
        int written = 0;
        for (int v = 0; v < n; v++) {
            if (nrm[3 * v] == 0f && nrm[3 * v + 1] == 0f && nrm[3 * v + 2] == 0f) { // on no (proper) triangle
                normalIndex[v] = 0;
                continue;
            }
            normalIndex[v] = ++written;
            b.setLength(0);
            b.append("vn ").append(nrm[3 * v]).append(' ').append(nrm[3 * v + 1]).append(' ').append(nrm[3 * v + 2])
                    .append('\n');
            out.append(b);
        }
        int bodies = model.objects().size();
        for (int o = 0; o < bodies; o++) {
            ModelObject body = model.objects().get(o);
            String name = name(body.name());
            if (objectName == null) {
                out.write("o " + name + "\n");
            }
            out.write("g " + name + "\n");
            for (int t = 0; t < tris.length; t += 3) {
                if (model.drawnSurface().objectOf(tris[t]) != o) {
                    continue;
                }
                b.setLength(0);
                b.append('f');
                for (int k = 0; k < 3; k++) {
                    int v = tris[t + k];
                    b.append(' ').append(v + 1).append('/').append(v + 1).append('/').append(normalIndex[v]);
                }
                b.append('\n');
                out.append(b);
            }
            for (int p = 0; p < polylines.count(); p++) {
                if (polylines.body(p) != o) {
                    continue;
                }
                b.setLength(0);
                b.append('l');
                for (int k = polylines.start(p); k < polylines.end(p); k++) {
                    b.append(' ').append(polylines.vertex(k) + 1);
                }
                b.append('\n');
                out.append(b);
            }
        }
    }

    /** A body name as one OBJ token: whitespace would end the name early. */
    static String name(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append(c <= ' ' || c == '#' ? '_' : c);
        }
        return b.length() == 0 ? "_" : b.toString();
    }
}
