package dev.weft.core.export;

import dev.weft.core.model.DistanceConstraints;
import dev.weft.core.model.DistanceKind;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelObject;
import java.util.Arrays;

/**
 * The ropes of a model as polylines of particle indices: a rope's segments are its stretch constraints
 * (both particles in the rope's body, split copies included), chained end to end. A rope as built is one
 * polyline; a torn rope is several. A closed loop repeats its first particle at the end.
 */
final class RopePolylines {
    /** Particle indices, polyline after polyline. */
    private final int[] vertices;
    /** Polyline k is vertices[start[k], start[k + 1]). */
    private final int[] start;
    /** The body (index into the model's objects) of each polyline. */
    private final int[] body;

    private RopePolylines(int[] vertices, int[] start, int[] body) {
        this.vertices = vertices;
        this.start = start;
        this.body = body;
    }

    static RopePolylines of(Model model) {
        int n = model.particleCount();
        DistanceConstraints d = model.distances();
        int[] pairs = d.particles();
        byte[] kind = d.kind();
        byte stretch = DistanceKind.STRETCH.code();
        // Segments: stretch constraints inside one rope body, kept in compressed adjacency (CSR) form.
        int[] degree = new int[n];
        int segments = 0;
        for (int c = 0; c < kind.length; c++) {
            if (isSegment(model, pairs[2 * c], pairs[2 * c + 1], kind[c], stretch)) {
                degree[pairs[2 * c]]++;
                degree[pairs[2 * c + 1]]++;
                segments++;
            }
        }
        int[] first = new int[n + 1];
        for (int p = 0; p < n; p++) {
            first[p + 1] = first[p] + degree[p];
        }
        int[] fill = Arrays.copyOf(first, n);
        int[] neighbour = new int[2 * segments];
        int[] segmentOf = new int[2 * segments];
        int s = 0;
        for (int c = 0; c < kind.length; c++) {
            int a = pairs[2 * c];
            int b = pairs[2 * c + 1];
            if (isSegment(model, a, b, kind[c], stretch)) {
                neighbour[fill[a]] = b;
                segmentOf[fill[a]++] = s;
                neighbour[fill[b]] = a;
                segmentOf[fill[b]++] = s;
                s++;
            }
        }
        boolean[] used = new boolean[segments];
        int[] vertices = new int[2 * segments];
        int[] start = new int[segments + 1];
        int[] body = new int[segments];
        int count = 0;
        int written = 0;
        int bodies = model.objects().size();
        for (int o = 0; o < bodies; o++) {
            if (model.objects().get(o).type() != ModelObject.Type.ROPE) {
                continue;
            }
            // Open polylines first, from their ends (or branch points), in particle order; then loops.
            for (int pass = 0; pass < 2; pass++) {
                for (int p = 0; p < n; p++) {
                    if (model.objectOf(p) != o || degree[p] == 0 || pass == 0 && degree[p] == 2) {
                        continue;
                    }
                    for (int k = first[p]; k < first[p + 1]; k++) {
                        if (used[segmentOf[k]]) {
                            continue;
                        }
                        start[count] = written;
                        body[count] = o;
                        vertices[written++] = p;
                        int at = p;
                        int via = k;
                        while (true) {
                            used[segmentOf[via]] = true;
                            at = neighbour[via];
                            vertices[written++] = at;
                            if (degree[at] != 2) {
                                break; // an end or a branch point
                            }
                            via = unusedSegment(at, first, segmentOf, used);
                            if (via < 0) {
                                break; // a loop closed
                            }
                        }
                        count++;
                    }
                }
            }
        }
        start[count] = written;
        return new RopePolylines(Arrays.copyOf(vertices, written), Arrays.copyOf(start, count + 1),
                Arrays.copyOf(body, count));
    }

    private static boolean isSegment(Model model, int a, int b, byte kind, byte stretch) {
        if (kind != stretch) {
            return false;
        }
        int o = model.objectOf(a);
        return o == model.objectOf(b) && model.objects().get(o).type() == ModelObject.Type.ROPE;
    }

    private static int unusedSegment(int p, int[] first, int[] segmentOf, boolean[] used) {
        for (int k = first[p]; k < first[p + 1]; k++) {
            if (!used[segmentOf[k]]) {
                return k;
            }
        }
        return -1;
    }

    int count() {
        return body.length;
    }

    int body(int polyline) {
        return body[polyline];
    }

    int start(int polyline) {
        return start[polyline];
    }

    int end(int polyline) {
        return start[polyline + 1];
    }

    int vertex(int k) {
        return vertices[k];
    }

    /** Segments (vertex pairs) of all polylines of {@code body}. */
    int segmentCount(int o) {
        int n = 0;
        for (int k = 0; k < count(); k++) {
            if (body[k] == o) {
                n += end(k) - start(k) - 1;
            }
        }
        return n;
    }
}
