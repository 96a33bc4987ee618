package dev.weft.core.model;

import java.util.Arrays;
import java.util.PriorityQueue;

/**
 * Shortest paths along the constraint graph of one body (Dijkstra, edge weight = rest length): an
 * upper bound of the geodesic distance on the surface, used for tether lengths on meshes that are not
 * flat. Build-time only.
 */
final class GeodesicDistances {
    private final int first;
    private final int count;
    private final int[] adjStart;
    private final int[] adjTarget;
    private final float[] adjWeight;

    GeodesicDistances(float[] x, int[] pairs, int first, int count) {
        this.first = first;
        this.count = count;
        int[] degree = new int[count + 1];
        for (int e = 0; e < pairs.length; e += 2) {
            int a = pairs[e] - first;
            int b = pairs[e + 1] - first;
            if (a >= 0 && a < count && b >= 0 && b < count) {
                degree[a + 1]++;
                degree[b + 1]++;
            }
        }
        for (int i = 0; i < count; i++) {
            degree[i + 1] += degree[i];
        }
        adjStart = degree;
        adjTarget = new int[degree[count]];
        adjWeight = new float[degree[count]];
        int[] fill = Arrays.copyOf(degree, count);
        for (int e = 0; e < pairs.length; e += 2) {
            int a = pairs[e] - first;
            int b = pairs[e + 1] - first;
            if (a >= 0 && a < count && b >= 0 && b < count) {
                float dx = x[3 * pairs[e + 1]] - x[3 * pairs[e]];
                float dy = x[3 * pairs[e + 1] + 1] - x[3 * pairs[e] + 1];
                float dz = x[3 * pairs[e + 1] + 2] - x[3 * pairs[e] + 2];
                float w = (float) Math.sqrt(dx * dx + dy * dy + dz * dz);
                adjTarget[fill[a]] = b;
                adjWeight[fill[a]++] = w;
                adjTarget[fill[b]] = a;
                adjWeight[fill[b]++] = w;
            }
        }
    }

    /** Distance (local index) from the nearest of {@code sources} (global indices); +inf if unreachable. */
    float[] from(int[] sources) {
        return nearest(sources, new int[count]);
    }

    /** Like {@link #from} and also records which source (global index) is nearest, −1 if none. */
    float[] nearest(int[] sources, int[] nearestSource) {
        float[] dist = new float[count];
        Arrays.fill(dist, Float.POSITIVE_INFINITY);
        Arrays.fill(nearestSource, -1);
        PriorityQueue<long[]> queue = new PriorityQueue<>((p, q) -> Double.compare(
                Float.intBitsToFloat((int) p[0]), Float.intBitsToFloat((int) q[0])));
        for (int s : sources) {
            int l = s - first;
            dist[l] = 0f;
            nearestSource[l] = s;
            queue.add(new long[] {Float.floatToIntBits(0f), l});
        }
        while (!queue.isEmpty()) {
            long[] top = queue.poll();
            int u = (int) top[1];
            float d = Float.intBitsToFloat((int) top[0]);
            if (d > dist[u]) {
                continue;
            }
            for (int k = adjStart[u]; k < adjStart[u + 1]; k++) {
                int v = adjTarget[k];
                float nd = d + adjWeight[k];
                if (nd < dist[v]) {
                    dist[v] = nd;
                    nearestSource[v] = nearestSource[u];
                    queue.add(new long[] {Float.floatToIntBits(nd), v});
                }
            }
        }
        return dist;
    }
}
