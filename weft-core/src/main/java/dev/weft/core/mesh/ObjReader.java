package dev.weft.core.mesh;

import dev.weft.core.InvalidInputException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads a Wavefront OBJ file into a {@link TriangleMesh} ready for simulation.
 *
 * <p>Statements: {@code v x y z [w]} (w ignored), {@code vt u v [w]} (w ignored), {@code vn} (ignored),
 * {@code f} with corners {@code i}, {@code i/t}, {@code i//n} or {@code i/t/n}, where negative indices
 * count back from the last element defined so far. Polygons are split into a fan of triangles around
 * their first corner. {@code #} starts a comment; {@code o}, {@code g}, {@code s}, {@code usemtl},
 * {@code mtllib}, {@code l} and {@code p} are skipped. Any other statement is an error rather than
 * silently dropped, so that a file meant for something else is not simulated half-understood.
 *
 * <p>Cloth needs connected particles, so the mesh is cleaned up:
 * <ul>
 * <li>vertices with exactly equal positions are welded into one particle;</li>
 * <li>a welded vertex takes the texture coordinate of the first face corner that gave it one
 *     (UV seams are therefore not preserved); vertices no corner gave one get (0, 0); the mesh has
 *     uvs only if at least one face corner referenced a {@code vt};</li>
 * <li>vertices not used by any face are dropped; the others keep the order of their {@code v} lines.</li>
 * </ul>
 *
 * <p>Every problem is reported as an {@link InvalidInputException} naming the file, the line and what is
 * allowed: malformed statements, out-of-range indices, degenerate triangles (repeated vertex after
 * welding, or zero area), a triangle given twice (the same three vertices after welding, in any rotation
 * or winding, also from polygons' fans: it would double that piece's mass), edges shared by more than two
 * triangles, and files without faces.
 */
public final class ObjReader {
    /** Relative tolerance of the zero-area test: |cross| &lt;= AREA_EPS × (longest edge)². */
    static final double AREA_EPS = 1e-12;

    private ObjReader() {
    }

    /** Reads an OBJ file; its path (as given) names it in error messages. */
    public static TriangleMesh read(Path file) {
        String source = file.toString();
        InputStream stream;
        try {
            stream = Files.newInputStream(file);
        } catch (NoSuchFileException e) {
            throw new InvalidInputException(source, "cannot read file: no such file");
        } catch (IOException e) {
            throw new InvalidInputException(source, "cannot read file: " + describe(e));
        }
        // InputStreamReader (unlike Files.newBufferedReader) replaces undecodable bytes instead of failing:
        // they can only occur in names and comments, which are skipped anyway.
        try (BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8), 1 << 16)) {
            return read(in, source);
        } catch (IOException e) {
            throw new InvalidInputException(source, "cannot read file: " + describe(e));
        }
    }

    /**
     * Reads OBJ text; {@code sourceName} names it in error messages. The reader is not closed.
     *
     * @throws InvalidInputException on any problem with the content, or when reading fails
     */
    public static TriangleMesh read(BufferedReader in, String sourceName) {
        return new Parser(in, sourceName).parse();
    }

    private static String describe(IOException e) {
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    /** The state of one read: growable primitive arrays plus the tokens of the current line. */
    private static final class Parser {
        private static final String[] SKIPPED = {"o", "g", "s", "usemtl", "mtllib", "l", "p"};

        private final BufferedReader in;
        private final String source;
        private String line;
        private int lineNo;

        /** Token k of the current line is line[tokenStart[k], tokenEnd[k]). */
        private int[] tokenStart = new int[16];
        private int[] tokenEnd = new int[16];
        private int tokens;

        private final VertexWelder welder = new VertexWelder();
        /** Welded id of each {@code v} line, in file order (what face indices refer to). */
        private int[] rawToWelded = new int[1024];
        private int rawCount;
        /** Texture coordinate index of each welded vertex, -1 while none. */
        private int[] weldedUv = new int[1024];

        private float[] texCoords = new float[2 * 1024];
        private int texCount;
        private int normalCount;

        private int[] triangles = new int[3 * 1024];
        private int triangleCount;
        /** Line of the face each triangle came from, to report topology errors where they are. */
        private int[] triangleLine = new int[1024];
        /** The triangles by vertex set, to reject one given twice (after welding) where it is given. */
        private final TriangleSet triangleSet = new TriangleSet();

        private int[] cornerVertex = new int[16];
        private int[] cornerTex = new int[16];

        Parser(BufferedReader in, String source) {
            this.in = in;
            this.source = source;
            Arrays.fill(weldedUv, -1);
        }

        TriangleMesh parse() {
            try {
                while ((line = in.readLine()) != null) {
                    lineNo++;
                    if (lineNo == 1 && line.startsWith("\uFEFF")) {
                        line = line.substring(1); // byte order mark some Windows editors write
                    }
                    statement();
                }
            } catch (IOException e) {
                throw new InvalidInputException(source, "cannot read file: " + describe(e));
            }
            if (triangleCount == 0) {
                throw new InvalidInputException(source, "no faces: a mesh needs at least one 'f' statement"
                        + " (read " + lineNo + " lines, " + rawCount + " vertices)");
            }
            return build();
        }

        private void statement() {
            tokenize();
            if (tokens == 0) {
                return;
            }
            int s = tokenStart[0];
            int length = tokenEnd[0] - s;
            char c = line.charAt(s);
            if (length == 1 && c == 'v') {
                vertex();
            } else if (length == 1 && c == 'f') {
                face();
            } else if (length == 2 && c == 'v' && line.charAt(s + 1) == 't') {
                texCoord();
            } else if (length == 2 && c == 'v' && line.charAt(s + 1) == 'n') {
                normalCount++; // only counted, so that i//n and i/t/n indices can be checked
            } else if (!isSkipped(s, length)) {
                throw error("unknown statement '" + line.substring(s, s + length)
                        + "': supported are v, vt, vn, f and # comments; o, g, s, usemtl, mtllib, l and p are skipped");
            }
        }

        private boolean isSkipped(int s, int length) {
            for (String keyword : SKIPPED) {
                if (keyword.length() == length && line.regionMatches(s, keyword, 0, length)) {
                    return true;
                }
            }
            return false;
        }

        /** Splits the current line at whitespace, up to a '#' comment. No regex: this runs per line. */
        private void tokenize() {
            tokens = 0;
            int n = line.length();
            int i = 0;
            while (true) {
                while (i < n && line.charAt(i) <= ' ') {
                    i++;
                }
                if (i == n || line.charAt(i) == '#') {
                    return;
                }
                int start = i;
                while (i < n && line.charAt(i) > ' ' && line.charAt(i) != '#') {
                    i++;
                }
                if (tokens == tokenStart.length) {
                    tokenStart = Arrays.copyOf(tokenStart, 2 * tokens);
                    tokenEnd = Arrays.copyOf(tokenEnd, 2 * tokens);
                }
                tokenStart[tokens] = start;
                tokenEnd[tokens] = i;
                tokens++;
            }
        }

        private void vertex() {
            if (tokens != 4 && tokens != 5) {
                throw error("a vertex needs 3 coordinates (v x y z) or 4 (v x y z w), found " + (tokens - 1));
            }
            float x = coordinate(1);
            float y = coordinate(2);
            float z = coordinate(3);
            if (tokens == 5) {
                coordinate(4); // w is ignored, but must still be a number
            }
            int id = welder.add(x, y, z);
            if (id == weldedUv.length) {
                int old = weldedUv.length;
                weldedUv = Arrays.copyOf(weldedUv, 2 * old);
                Arrays.fill(weldedUv, old, weldedUv.length, -1);
            }
            if (rawCount == rawToWelded.length) {
                rawToWelded = Arrays.copyOf(rawToWelded, 2 * rawCount);
            }
            rawToWelded[rawCount++] = id;
        }

        private void texCoord() {
            if (tokens != 3 && tokens != 4) {
                throw error("a texture coordinate needs 2 values (vt u v) or 3 (vt u v w), found " + (tokens - 1));
            }
            float u = coordinate(1);
            float v = coordinate(2);
            if (tokens == 4) {
                coordinate(3);
            }
            if (2 * texCount == texCoords.length) {
                texCoords = Arrays.copyOf(texCoords, 2 * texCoords.length);
            }
            texCoords[2 * texCount] = u;
            texCoords[2 * texCount + 1] = v;
            texCount++;
        }

        private float coordinate(int k) {
            int s = tokenStart[k];
            int e = tokenEnd[k];
            // Float.parseFloat alone would also accept "1f", "0x1p3", "NaN" and "Infinity": screen first.
            boolean plain = true;
            boolean digit = false;
            for (int i = s; i < e; i++) {
                char c = line.charAt(i);
                if (c >= '0' && c <= '9') {
                    digit = true;
                } else if (c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E') {
                    plain = false;
                }
            }
            String token = line.substring(s, e);
            if (!plain || !digit) {
                String lower = token.toLowerCase(java.util.Locale.ROOT);
                if (lower.contains("nan") || lower.contains("inf")) {
                    throw error("coordinate '" + token + "' is not finite: coordinates must be finite numbers");
                }
                throw error("'" + token + "' is not a number: coordinates must be decimal numbers such as 1, -0.5 or 2.5e-3");
            }
            float value;
            try {
                value = Float.parseFloat(token);
            } catch (NumberFormatException ex) {
                throw error("'" + token + "' is not a number: coordinates must be decimal numbers such as 1, -0.5 or 2.5e-3");
            }
            if (!Float.isFinite(value)) {
                throw error("coordinate '" + token + "' is not finite: it is outside the float range (about ±3.4e38)");
            }
            return value;
        }

        private void face() {
            int corners = tokens - 1;
            if (corners < 3) {
                throw error("a face needs at least 3 vertices, found " + corners);
            }
            if (corners > cornerVertex.length) {
                cornerVertex = new int[corners];
                cornerTex = new int[corners];
            }
            for (int k = 0; k < corners; k++) {
                corner(k + 1, k);
            }
            // Fan around the first corner: exact for convex polygons, the usual exporter output.
            for (int k = 1; k + 1 < corners; k++) {
                addTriangle(cornerVertex[0], cornerVertex[k], cornerVertex[k + 1], k, corners);
            }
            for (int k = 0; k < corners; k++) {
                int t = cornerTex[k];
                if (t >= 0 && weldedUv[cornerVertex[k]] < 0) {
                    weldedUv[cornerVertex[k]] = t;
                }
            }
        }

        /** Parses face corner token k ("i", "i/t", "i//n" or "i/t/n") into corner slot c. */
        private void corner(int k, int c) {
            int s = tokenStart[k];
            int e = tokenEnd[k];
            int slash1 = slash(s, e);
            int slash2 = slash1 < 0 ? -1 : slash(slash1 + 1, e);
            if (slash2 >= 0 && slash(slash2 + 1, e) >= 0) {
                throw malformedCorner(s, e);
            }
            long v = integer(s, slash1 < 0 ? e : slash1);
            int tEnd = slash2 < 0 ? e : slash2;
            boolean hasTex = slash1 >= 0 && tEnd > slash1 + 1;
            long t = hasTex ? integer(slash1 + 1, tEnd) : 0;
            long n = slash2 >= 0 ? integer(slash2 + 1, e) : 0;
            // "i/" has a slash but neither a texture nor a normal index.
            if (v == Long.MIN_VALUE || t == Long.MIN_VALUE || n == Long.MIN_VALUE || slash1 >= 0 && !hasTex && slash2 < 0) {
                throw malformedCorner(s, e);
            }
            cornerVertex[c] = rawToWelded[resolve(v, rawCount, "vertex", "vertices")];
            cornerTex[c] = hasTex ? resolve(t, texCount, "texture coordinate", "texture coordinates") : -1;
            if (slash2 >= 0) {
                resolve(n, normalCount, "normal", "normals");
            }
        }

        /** Position of the first '/' in line[s, e), or -1. */
        private int slash(int s, int e) {
            for (int i = s; i < e; i++) {
                if (line.charAt(i) == '/') {
                    return i;
                }
            }
            return -1;
        }

        private InvalidInputException malformedCorner(int s, int e) {
            return error("malformed face vertex '" + line.substring(s, e)
                    + "': allowed forms are i, i/t, i//n and i/t/n with integer indices");
        }

        /** An optionally negative decimal integer, or Long.MIN_VALUE if the text is not one. */
        private long integer(int s, int e) {
            int i = s;
            boolean negative = i < e && line.charAt(i) == '-';
            if (negative) {
                i++;
            }
            if (i == e) {
                return Long.MIN_VALUE;
            }
            long value = 0;
            for (; i < e; i++) {
                char ch = line.charAt(i);
                if (ch < '0' || ch > '9') {
                    return Long.MIN_VALUE;
                }
                // Saturate instead of overflowing: anything this large is out of range anyway.
                value = Math.min(value * 10 + (ch - '0'), 1L << 40);
            }
            return negative ? -value : value;
        }

        /** Turns a 1-based or negative (counting back) OBJ index into a 0-based one, checking its range. */
        private int resolve(long index, int defined, String what, String plural) {
            if (index == 0) {
                throw error(what + " index 0 is not allowed: indices start at 1, or are negative to count back"
                        + " from the last " + what + " (-1)");
            }
            long resolved = index > 0 ? index - 1 : defined + index;
            if (resolved < 0 || resolved >= defined) {
                throw error(what + " index " + index + " is out of range: " + (defined == 0
                        ? "no " + plural + " are defined before this line"
                        : defined + " " + (defined == 1 ? what + " is" : plural + " are")
                        + " defined before this line (allowed 1.." + defined + ", or -1..-" + defined
                        + " counting back)"));
            }
            return (int) resolved;
        }

        private void addTriangle(int a, int b, int c, int fanIndex, int corners) {
            String where = corners > 3 ? " (triangle " + fanIndex + " of the fan splitting this "
                    + corners + "-vertex face)" : "";
            float[] p = welder.positions();
            if (a == b || b == c || a == c) {
                int same = a == b || a == c ? a : b;
                throw error("degenerate triangle" + where + ": two of its corners are the same point "
                        + point(p, same) + " (after welding equal positions); a triangle needs three distinct,"
                        + " non-collinear vertices");
            }
            // Zero-area test in double, relative to the triangle's size so it does not depend on units.
            double ux = (double) p[3 * b] - p[3 * a];
            double uy = (double) p[3 * b + 1] - p[3 * a + 1];
            double uz = (double) p[3 * b + 2] - p[3 * a + 2];
            double vx = (double) p[3 * c] - p[3 * a];
            double vy = (double) p[3 * c + 1] - p[3 * a + 1];
            double vz = (double) p[3 * c + 2] - p[3 * a + 2];
            double wx = vx - ux;
            double wy = vy - uy;
            double wz = vz - uz;
            double cx = uy * vz - uz * vy;
            double cy = uz * vx - ux * vz;
            double cz = ux * vy - uy * vx;
            double cross = Math.sqrt(cx * cx + cy * cy + cz * cz);
            double longest2 = Math.max(ux * ux + uy * uy + uz * uz,
                    Math.max(vx * vx + vy * vy + vz * vz, wx * wx + wy * wy + wz * wz));
            if (cross <= AREA_EPS * longest2) {
                throw error("degenerate triangle" + where + ": zero area, its corners " + point(p, a) + ", "
                        + point(p, b) + " and " + point(p, c) + " are collinear; a triangle needs three distinct,"
                        + " non-collinear vertices");
            }
            int earlier = triangleSet.addOrFind(a, b, c);
            if (earlier >= 0) {
                throw repeatedTriangle(earlier, a, b, c, fanIndex, corners);
            }
            if (3 * triangleCount + 3 > triangles.length) {
                triangles = Arrays.copyOf(triangles, 2 * triangles.length);
                triangleLine = Arrays.copyOf(triangleLine, 2 * triangleLine.length);
            }
            triangles[3 * triangleCount] = a;
            triangles[3 * triangleCount + 1] = b;
            triangles[3 * triangleCount + 2] = c;
            triangleLine[triangleCount] = lineNo;
            triangleCount++;
        }

        /**
         * Triangle (a, b, c), number {@code fanIndex} of this face's {@code corners}-vertex fan, has the
         * vertices of the earlier triangle {@code earlier}: the error names both faces' lines.
         */
        private InvalidInputException repeatedTriangle(int earlier, int a, int b, int c, int fanIndex, int corners) {
            int ea = triangles[3 * earlier];
            int eb = triangles[3 * earlier + 1];
            int ec = triangles[3 * earlier + 2];
            // Same winding: (a, b, c) is a rotation of the earlier triangle's corners.
            boolean sameWinding = ea == a && eb == b && ec == c || ea == b && eb == c && ec == a
                    || ea == c && eb == a && ec == b;
            int earlierLine = triangleLine[earlier];
            int firstOfEarlierFace = earlier;
            while (firstOfEarlierFace > 0 && triangleLine[firstOfEarlierFace - 1] == earlierLine) {
                firstOfEarlierFace--;
            }
            int earlierFan = earlier - firstOfEarlierFace + 1;
            String which;
            if (earlierLine == lineNo) {
                which = "triangles " + earlierFan + " and " + fanIndex + " of the fan splitting this " + corners
                        + "-vertex face are the same triangle";
            } else {
                String earlierFace = "the face at line " + earlierLine;
                if (earlierFan > 1 || triangleCount > earlier + 1 && triangleLine[earlier + 1] == earlierLine) {
                    earlierFace = "triangle " + earlierFan + " of the polygon at line " + earlierLine;
                }
                String thisFace = corners > 3 ? "triangle " + fanIndex + " of this " + corners + "-vertex face"
                        : "this face";
                which = thisFace + " (line " + lineNo + ") repeats " + earlierFace;
            }
            float[] p = welder.positions();
            return error("repeated triangle: " + which + ", with " + (sameWinding ? "the same" : "the opposite")
                    + " winding: both have the corners " + point(p, a) + ", " + point(p, b) + " and " + point(p, c)
                    + " (after welding equal positions); each triangle may appear only once, in either winding"
                    + " (one triangle is both sides of the cloth; a second copy would double its mass)");
        }

        private TriangleMesh build() {
            int welded = welder.count();
            float[] weldedXyz = welder.positions();
            int[] tris = Arrays.copyOf(triangles, 3 * triangleCount);
            triangles = null;

            // Drop vertices no face uses (every particle must belong to a triangle); keep v-line order.
            int[] remap = new int[welded];
            for (int i = 0; i < tris.length; i++) {
                remap[tris[i]] = 1;
            }
            int count = 0;
            boolean anyUv = false;
            for (int w = 0; w < welded; w++) {
                if (remap[w] != 0) {
                    remap[w] = count++;
                    anyUv |= weldedUv[w] >= 0;
                } else {
                    remap[w] = -1;
                }
            }
            for (int i = 0; i < tris.length; i++) {
                tris[i] = remap[tris[i]];
            }
            float[] positions = new float[3 * count];
            float[] uvs = anyUv ? new float[2 * count] : null;
            for (int w = 0; w < welded; w++) {
                int v = remap[w];
                if (v >= 0) {
                    positions[3 * v] = weldedXyz[3 * w];
                    positions[3 * v + 1] = weldedXyz[3 * w + 1];
                    positions[3 * v + 2] = weldedXyz[3 * w + 2];
                    int t = weldedUv[w];
                    if (uvs != null && t >= 0) {
                        uvs[2 * v] = texCoords[2 * t];
                        uvs[2 * v + 1] = texCoords[2 * t + 1];
                    }
                }
            }

            try {
                MeshTopology.of(count, tris);
            } catch (NonManifoldEdgeException e) {
                throw new InvalidInputException(source, triangleLine[e.triangleIndex()],
                        "non-manifold edge between " + point(positions, e.edgeA()) + " and "
                                + point(positions, e.edgeB()) + ": this face is the third to use it;"
                                + " an edge may be shared by at most two triangles");
            }
            return new TriangleMesh(positions, uvs, tris);
        }

        private static String point(float[] xyz, int v) {
            return "(" + xyz[3 * v] + ", " + xyz[3 * v + 1] + ", " + xyz[3 * v + 2] + ")";
        }

        private InvalidInputException error(String problem) {
            return new InvalidInputException(source, lineNo, problem);
        }
    }
}
