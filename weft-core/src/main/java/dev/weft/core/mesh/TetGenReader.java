package dev.weft.core.mesh;

import dev.weft.core.InvalidInputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Reads TetGen's tetrahedral mesh files: {@code NAME.node} (a header "count 3 attributes markers", then
 * "index x y z [attributes] [marker]" per node) and {@code NAME.ele} (a header "count 4|10 regionAttribute",
 * then "index n₀ n₁ n₂ n₃ [...]" per tetrahedron). Indices start at 0 or 1, whichever the first node
 * has; '#' starts a comment. Of a 10-node (quadratic) tetrahedron the 4 corners are kept.
 */
public final class TetGenReader {
    private TetGenReader() {
    }

    /** Reads {@code base.node} and {@code base.ele}; {@code path} may name either file or the base. */
    public static TetMesh read(Path path) {
        String name = path.getFileName().toString();
        String base = name.endsWith(".node") || name.endsWith(".ele")
                ? name.substring(0, name.lastIndexOf('.')) : name;
        Path node = path.resolveSibling(base + ".node");
        Path ele = path.resolveSibling(base + ".ele");
        int[] firstIndex = new int[1];
        float[] nodes = readNodes(node, firstIndex);
        int[] tets = readTets(ele, firstIndex[0], nodes.length / 3);
        return new TetMesh(nodes, tets);
    }

    private static float[] readNodes(Path file, int[] firstIndex) {
        String source = file.toString();
        try (BufferedReader in = open(file)) {
            int[] line = {0};
            String[] header = next(in, line, source, "a header: node count, 3, attribute count, marker flag");
            int count = integer(header, 0, source, line[0], "the node count");
            if (header.length > 1 && integer(header, 1, source, line[0], "the dimension") != 3) {
                throw new InvalidInputException(source, line[0], "dimension " + header[1] + ": only 3 is allowed");
            }
            if (count <= 0) {
                throw new InvalidInputException(source, line[0], "node count " + count + ": needs at least 4 nodes");
            }
            float[] x = new float[3 * count];
            for (int i = 0; i < count; i++) {
                String[] f = next(in, line, source, "node " + i + " of " + count);
                if (f.length < 4) {
                    throw new InvalidInputException(source, line[0], "a node needs 'index x y z', got " + f.length
                            + " fields");
                }
                int index = integer(f, 0, source, line[0], "the node index");
                if (i == 0) {
                    if (index != 0 && index != 1) {
                        throw new InvalidInputException(source, line[0], "the first node's index is " + index
                                + "; TetGen numbers from 0 or 1");
                    }
                    firstIndex[0] = index;
                }
                if (index != i + firstIndex[0]) {
                    throw new InvalidInputException(source, line[0], "node index " + index + " out of sequence; "
                            + "expected " + (i + firstIndex[0]));
                }
                for (int d = 0; d < 3; d++) {
                    float v = number(f, 1 + d, source, line[0]);
                    x[3 * i + d] = v;
                }
            }
            return x;
        } catch (IOException e) {
            throw new InvalidInputException(source, "cannot read file: " + e.getMessage());
        }
    }

    private static int[] readTets(Path file, int firstIndex, int nodeCount) {
        String source = file.toString();
        try (BufferedReader in = open(file)) {
            int[] line = {0};
            String[] header = next(in, line, source, "a header: tetrahedron count, 4 or 10, region flag");
            int count = integer(header, 0, source, line[0], "the tetrahedron count");
            int perTet = header.length > 1 ? integer(header, 1, source, line[0], "nodes per tetrahedron") : 4;
            if (perTet != 4 && perTet != 10) {
                throw new InvalidInputException(source, line[0], perTet + " nodes per tetrahedron: 4 or 10 allowed");
            }
            if (count <= 0) {
                throw new InvalidInputException(source, line[0], "tetrahedron count " + count
                        + ": needs at least one");
            }
            int[] t = new int[4 * count];
            for (int i = 0; i < count; i++) {
                String[] f = next(in, line, source, "tetrahedron " + i + " of " + count);
                if (f.length < 1 + perTet) {
                    throw new InvalidInputException(source, line[0], "a tetrahedron needs an index and " + perTet
                            + " nodes, got " + f.length + " fields");
                }
                for (int k = 0; k < 4; k++) {
                    int n = integer(f, 1 + k, source, line[0], "a node index") - firstIndex;
                    if (n < 0 || n >= nodeCount) {
                        throw new InvalidInputException(source, line[0], "node " + (n + firstIndex)
                                + " is not in the .node file (" + firstIndex + ".." + (nodeCount - 1 + firstIndex)
                                + ")");
                    }
                    t[4 * i + k] = n;
                }
            }
            return t;
        } catch (IOException e) {
            throw new InvalidInputException(source, "cannot read file: " + e.getMessage());
        }
    }

    private static BufferedReader open(Path file) throws IOException {
        try {
            return Files.newBufferedReader(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new InvalidInputException(file.toString(), "cannot read file: no such file (a TetGen mesh is a "
                    + ".node and an .ele file side by side)");
        }
    }

    /** The fields of the next line that holds any, comments removed. */
    private static String[] next(BufferedReader in, int[] line, String source, String expected) throws IOException {
        for (String s = in.readLine(); s != null; s = in.readLine()) {
            line[0]++;
            int hash = s.indexOf('#');
            String text = (hash >= 0 ? s.substring(0, hash) : s).trim();
            if (!text.isEmpty()) {
                return text.split("\\s+");
            }
        }
        throw new InvalidInputException(source, line[0], "ends early: expected " + expected);
    }

    private static int integer(String[] f, int i, String source, int line, String what) {
        try {
            return Integer.parseInt(f[i]);
        } catch (NumberFormatException e) {
            throw new InvalidInputException(source, line, what + " '" + f[i] + "' is not an integer");
        }
    }

    private static float number(String[] f, int i, String source, int line) {
        float v;
        try {
            v = Float.parseFloat(f[i]);
        } catch (NumberFormatException e) {
            throw new InvalidInputException(source, line, "coordinate '" + f[i] + "' is not a number");
        }
        if (!Float.isFinite(v)) {
            throw new InvalidInputException(source, line, String.format(Locale.ROOT,
                    "coordinate %s is not finite", f[i]));
        }
        return v;
    }
}
