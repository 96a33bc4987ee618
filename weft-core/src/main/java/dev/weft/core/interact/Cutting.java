package dev.weft.core.interact;

import dev.weft.core.InvalidInputException;
import dev.weft.core.model.Incidence;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelEdit;
import dev.weft.core.util.Check;
import dev.weft.core.util.IntList;
import java.util.ArrayList;
import java.util.List;

/**
 * Cutting (seed 002): the cloth is cut where it crosses a cut surface given in the world, at the
 * current positions. Every particle within one edge of the surface whose triangles lie on both sides
 * of it is split ({@link ModelEdit.Detach}): the triangles on the positive side go to a copy. A
 * triangle's side is its centroid's, the same for each of its particles, so the triangles crossing the
 * surface end up on one side or the other whole and the two sides share no particle: the cloth comes
 * apart along the chain of particles nearest the cut. (Triangles are not cut in two: the cut follows
 * the mesh's particles, at most one edge from the surface; a finer mesh cuts closer to the line.)
 */
public final class Cutting {
    private Cutting() {
    }

    /**
     * The splits that cut {@code model} at positions {@code x} where it crosses the parallelogram
     * {corner + a·u + b·v : a, b in [0, 1]} (world coordinates; a blade's sweep over a frame).
     */
    public static List<ModelEdit> across(Model model, float[] x, float[] corner, float[] u, float[] v) {
        Check.vector3("cut.corner", corner);
        Check.vector3("cut.u", u);
        Check.vector3("cut.v", v);
        float nx = u[1] * v[2] - u[2] * v[1];
        float ny = u[2] * v[0] - u[0] * v[2];
        float nz = u[0] * v[1] - u[1] * v[0];
        float len = (float) Math.sqrt(nx * nx + ny * ny + nz * nz);
        if (!(len > 0f)) {
            throw new InvalidInputException("cut", "the cut's two directions (" + u[0] + ", " + u[1] + ", " + u[2]
                    + ") and (" + v[0] + ", " + v[1] + ", " + v[2] + ") span no surface");
        }
        nx /= len;
        ny /= len;
        nz /= len;
        // in-surface coordinates of a point: solve [u·u u·v; u·v v·v] (a, b) = (d·u, d·v)
        double uu = dot(u, u);
        double uv = dot(u, v);
        double vv = dot(v, v);
        double det = uu * vv - uv * uv;
        float[] r = model.restPositions();
        int[] tri = model.triangles();
        Incidence at = model.triangleIncidence();
        List<ModelEdit> cuts = new ArrayList<>();
        IntList moved = new IntList();
        for (int p = 0; p < model.particleCount(); p++) {
            if (at.count(p) == 0) {
                continue;
            }
            float dx = x[3 * p] - corner[0];
            float dy = x[3 * p + 1] - corner[1];
            float dz = x[3 * p + 2] - corner[2];
            float dist = dx * nx + dy * ny + dz * nz;
            float reach = longestEdge(x, tri, at, p);
            if (Math.abs(dist) > reach) {
                continue;
            }
            double du = dx * u[0] + dy * u[1] + dz * u[2];
            double dv = dx * v[0] + dy * v[1] + dz * v[2];
            double a = (vv * du - uv * dv) / det;
            double b = (uu * dv - uv * du) / det;
            if (a < 0 || a > 1 || b < 0 || b > 1) {
                continue;
            }
            // the particle's triangles by their centroid's side; the rest-space normal that sorts its other pairs
            moved.clear();
            // mean rest centroid on each side, relative to the particle: their difference is the rest
            // normal (means, not sums, so an uneven split of the fan does not tilt it along the cut)
            float mx = 0f;
            float my = 0f;
            float mz = 0f;
            float kx = 0f;
            float ky = 0f;
            float kz = 0f;
            int keep = 0;
            for (int s = at.start()[p]; s < at.start()[p + 1]; s++) {
                int t = at.slots()[s] / 3;
                int i = tri[3 * t];
                int j = tri[3 * t + 1];
                int k = tri[3 * t + 2];
                float side = ((x[3 * i] + x[3 * j] + x[3 * k]) / 3f - corner[0]) * nx
                        + ((x[3 * i + 1] + x[3 * j + 1] + x[3 * k + 1]) / 3f - corner[1]) * ny
                        + ((x[3 * i + 2] + x[3 * j + 2] + x[3 * k + 2]) / 3f - corner[2]) * nz;
                float cx = (r[3 * i] + r[3 * j] + r[3 * k]) / 3f - r[3 * p];
                float cy = (r[3 * i + 1] + r[3 * j + 1] + r[3 * k + 1]) / 3f - r[3 * p + 1];
                float cz = (r[3 * i + 2] + r[3 * j + 2] + r[3 * k + 2]) / 3f - r[3 * p + 2];
                if (side > 0f) {
                    moved.add(t);
                    mx += cx;
                    my += cy;
                    mz += cz;
                } else {
                    keep++;
                    kx += cx;
                    ky += cy;
                    kz += cz;
                }
            }
            if (moved.size() > 0 && keep > 0) {
                float rx = mx / moved.size() - kx / keep;
                float ry = my / moved.size() - ky / keep;
                float rz = mz / moved.size() - kz / keep;
                if (rx * rx + ry * ry + rz * rz == 0f) {
                    rx = nx; // a rest shape that folds exactly here: the world normal is as good as any
                    ry = ny;
                    rz = nz;
                }
                cuts.add(new ModelEdit.Detach(p, moved.toArray(), rx, ry, rz));
            }
        }
        return cuts;
    }

    /**
     * The splits that cut along a polyline (world, xyz per point, at least two points) swept
     * {@code depth} metres to either side along {@code sweep} (a mouse stroke: the view direction;
     * a knife: the direction it is pushed through the cloth).
     */
    public static List<ModelEdit> along(Model model, float[] x, float[] polyline, float[] sweep, float depth) {
        if (polyline.length < 6 || polyline.length % 3 != 0) {
            throw new InvalidInputException("cut.polyline", "needs at least two points of 3 coordinates, got "
                    + polyline.length + " numbers");
        }
        Check.vector3("cut.sweep", sweep);
        Check.positive("cut.depth", depth);
        float len = (float) Math.sqrt(dot(sweep, sweep));
        if (!(len > 0f)) {
            throw new InvalidInputException("cut.sweep", "must be a non-zero direction");
        }
        float[] v = {2 * depth * sweep[0] / len, 2 * depth * sweep[1] / len, 2 * depth * sweep[2] / len};
        List<ModelEdit> cuts = new ArrayList<>();
        for (int i = 0; i + 5 < polyline.length; i += 3) {
            float[] corner = {polyline[i] - v[0] / 2, polyline[i + 1] - v[1] / 2, polyline[i + 2] - v[2] / 2};
            float[] u = {polyline[i + 3] - polyline[i], polyline[i + 4] - polyline[i + 1],
                    polyline[i + 5] - polyline[i + 2]};
            // a particle the previous segment split is split no more (its side of the cut is decided)
            for (ModelEdit e : across(model, x, corner, u, v)) {
                if (!touched(cuts, ((ModelEdit.Detach) e).particle())) {
                    cuts.add(e);
                }
            }
        }
        return cuts;
    }

    private static boolean touched(List<ModelEdit> cuts, int p) {
        for (ModelEdit e : cuts) {
            if (((ModelEdit.Detach) e).particle() == p) {
                return true;
            }
        }
        return false;
    }

    private static float longestEdge(float[] x, int[] tri, Incidence at, int p) {
        float longest = 0f;
        for (int s = at.start()[p]; s < at.start()[p + 1]; s++) {
            int t = 3 * (at.slots()[s] / 3);
            for (int k = t; k < t + 3; k++) {
                int q = tri[k];
                float dx = x[3 * q] - x[3 * p];
                float dy = x[3 * q + 1] - x[3 * p + 1];
                float dz = x[3 * q + 2] - x[3 * p + 2];
                longest = Math.max(longest, dx * dx + dy * dy + dz * dz);
            }
        }
        return (float) Math.sqrt(longest);
    }

    private static double dot(float[] a, float[] b) {
        return (double) a[0] * b[0] + (double) a[1] * b[1] + (double) a[2] * b[2];
    }
}
