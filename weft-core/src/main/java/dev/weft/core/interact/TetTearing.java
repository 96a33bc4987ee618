package dev.weft.core.interact;

import dev.weft.core.geom.RotationSvd;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelEdit;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.TetConstraints;
import dev.weft.core.model.TetSplitter;
import dev.weft.core.parallel.RangeBody;
import dev.weft.core.parallel.WorkerPool;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Tearing of elastic tetrahedral bodies (issue #18), vertex-splitting fracture without remeshing (O'Brien
 * and Hodgins 1999; Müller et al.'s fast and robust fracture): a tetrahedron whose largest principal stretch
 * σ₁ (the largest singular value of F = D_s D_m⁻¹) passes 1 + its body's tear strain breaks at one of its
 * nodes, which is split ({@link ModelEdit.Split}, {@link TetSplitter}) by the plane through it normal to the
 * direction of that stretch in the rest shape (F's right singular vector), so the crack runs across the
 * pull.
 *
 * <p>The principal stretch rather than an edge's: it is the material's own measure, the same whatever the
 * mesh; an edge stretches by the pull's component along it, so a lattice's diagonals would tear later than
 * its axis edges and a mesh's tear strain would depend on how its edges happen to lie. It also gives the
 * crack's direction, which the largest edge stretch only approximates.
 *
 * <p>Which node, in one call: first the crack fronts, then at most one new crack per body. A stretched
 * tetrahedron with a corner on a crack (a split node or its copy) splits the corner off the crack that lies
 * nearest the crack's plane through that corner (within {@link #FRONT_SINE}), by a plane parallel to the
 * crack's, so the crack runs on in its own direction; the corners off the plane (a tetrahedron that borders
 * the crack's face with its fourth corner a layer away) are left, or the crack would cut parallel slivers.
 * The fronts run again and again within the call while they find stretched tetrahedra to cross (the splits
 * planned so far count): a crack crosses what is past its limit at once, before the unloading it causes has
 * spread. A body with an open front (a crack that could still run on, stretched or not) starts no new crack;
 * otherwise its most stretched tetrahedron away from any crack starts one, at its corner with the most
 * tetrahedra (an interior node), the lower index on a tie, which then runs on as above. A node splits at most
 * once per call, pinned nodes never (a pin's copy would stay pinned where the tear happened, holding the torn
 * piece in the air), and a split that would separate nothing or leave the surface non-manifold at the node is
 * not proposed ({@link TetSplitter#plan}). Most stretched first, ties by index: the same splits on every run.
 */
public final class TetTearing {
    /**
     * A crack front runs on to a node within this sine of the crack's plane (17°). A lattice's in-plane nodes lie
     * at 0 and the next layer's at 1/√3 (a cube's body diagonal) or more; a lattice of cells 1.33 times longer
     * across than along the pull has the next layer at 0.47, and at 0.5 a 40 × 6 × 6 bar stretched 30 % split
     * 1477 nodes in one call instead of its 49 in the plane (cells up to 2.2 times as long across still pass).
     */
    static final float FRONT_SINE = 0.3f;

    private TetTearing() {
    }

    /** The splits that tear {@code model}'s tetrahedral bodies at positions {@code x} (empty: none past its limit). */
    public static List<ModelEdit> find(Model model, float[] x) {
        return find(model, x, null);
    }

    /**
     * As {@link #find(Model, float[])}, the scan of the tetrahedra over the threads of {@code pool} (null: this
     * thread): each tetrahedron's stretch is the same bits on any thread, and the ones past their limit are
     * sorted before anything is decided, so the splits are the same.
     */
    public static List<ModelEdit> find(Model model, float[] x, WorkerPool pool) {
        TetConstraints t = model.tets();
        if (t.count() == 0) {
            return List.of();
        }
        List<ModelObject> objects = model.objects();
        float[] limit = new float[objects.size()];
        boolean any = false;
        for (int o = 0; o < limit.length; o++) {
            float s = objects.get(o).type() == ModelObject.Type.TET_BODY ? model.tearStrain(o) : Float.POSITIVE_INFINITY;
            limit[o] = 1f + s;
            any |= s < Float.POSITIVE_INFINITY;
        }
        if (!any) {
            return List.of();
        }
        int[] p = t.particles();
        float[] inverse = t.restInverse();
        Found found = new Found();
        RangeBody scan = (from, to) -> {
            long[] mine = null;
            int n = 0;
            for (int c = from; c < to; c++) {
                float l = limit[model.objectOf(p[4 * c])];
                float stretch = l == Float.POSITIVE_INFINITY ? 0f : stretchPast(x, p, inverse, c, l);
                if (stretch > 0f) {
                    if (mine == null) {
                        mine = new long[8];
                    } else if (n == mine.length) {
                        mine = Arrays.copyOf(mine, 2 * n);
                    }
                    // most stretched first; ties by index, so the order is the same on every run
                    mine[n++] = ((long) ~Float.floatToIntBits(stretch) << 32) | c;
                }
            }
            if (n > 0) {
                found.add(mine, n);
            }
        };
        if (pool == null || pool.threads() < 2) {
            scan.run(0, t.count());
        } else {
            pool.parallelFor(0, t.count(), 1024, scan);
        }
        if (found.count == 0) {
            return List.of();
        }
        long[] over = found.keys;
        int count = found.count;
        float[] f = new float[9];
        double[] fd = new double[9];
        double[] svd = new double[RotationSvd.SIZE];
        Arrays.sort(over, 0, count);
        float[] r = model.restPositions();
        float[] w = model.invMass();
        float[] crackNormal = crackNormals(model);
        boolean[] used = new boolean[model.particleCount()];
        boolean[] nucleated = new boolean[objects.size()];
        TetSplitter splitter = new TetSplitter(model);
        boolean[] open = openFronts(model, splitter, r, w, crackNormal, used);
        List<ModelEdit> splits = new ArrayList<>();
        float[] n = new float[3];
        int copy = model.particleCount();
        while (true) {
            // the fronts, again and again while they run on: a crack crosses every tetrahedron past its limit
            // that it reaches in one call, as the splits planned so far open it
            boolean ran = true;
            while (ran) {
                ran = false;
                for (int k = 0; k < count; k++) {
                    int c = (int) over[k];
                    if (!front(p, c, crackNormal)) {
                        continue;
                    }
                    ModelEdit.Split split = runOn(splitter, p, c, r, w, crackNormal, used);
                    if (split != null) {
                        splitter.split(copy++);
                        record(split, splits, used, crackNormal);
                        ran = true;
                    }
                }
            }
            // then at most one new crack per body whose cracks have no open front, which runs on as above
            boolean started = false;
            for (int k = 0; k < count && !started; k++) {
                int c = (int) over[k];
                int body = model.objectOf(p[4 * c]);
                if (front(p, c, crackNormal) || open[body] || nucleated[body]) {
                    continue;
                }
                direction(x, p, inverse, c, f, fd, svd, n);
                ModelEdit.Split split = start(splitter, p, c, w, used, n);
                if (split != null) {
                    splitter.split(copy++);
                    record(split, splits, used, crackNormal);
                    nucleated[body] = true;
                    started = true;
                }
            }
            if (!started) {
                return splits;
            }
        }
    }

    /**
     * Per body, whether a crack of it has an open front: a tetrahedron at it with a corner the crack could run
     * on to ({@link #runOn}), stretched or not. Such a body starts no new crack: the one it has runs on where
     * the load concentrates, and a second one started meanwhile (a bar pulled by both ends cracks near both
     * grips within a step or two) would cut a piece out between them.
     */
    private static boolean[] openFronts(Model model, TetSplitter splitter, float[] r, float[] w, float[] crackNormal,
                                        boolean[] none) {
        boolean[] open = new boolean[model.objects().size()];
        int[] p = model.tets().particles();
        for (int c = 0; c < model.tets().count(); c++) {
            int body = model.objectOf(p[4 * c]);
            if (!open[body] && front(p, c, crackNormal) && runOn(splitter, p, c, r, w, crackNormal, none) != null) {
                open[body] = true;
            }
        }
        return open;
    }

    /** True when tetrahedron c has a corner a tear runs through. */
    private static boolean front(int[] p, int c, float[] crackNormal) {
        for (int i = 0; i < 4; i++) {
            if (!Float.isNaN(crackNormal[3 * p[4 * c + i]])) {
                return true;
            }
        }
        return false;
    }

    private static void record(ModelEdit.Split split, List<ModelEdit> splits, boolean[] used, float[] crackNormal) {
        splits.add(split);
        int v = split.particle();
        used[v] = true;
        float len = (float) Math.sqrt(split.nx() * split.nx() + split.ny() * split.ny() + split.nz() * split.nz());
        crackNormal[3 * v] = split.nx() / len;
        crackNormal[3 * v + 1] = split.ny() / len;
        crackNormal[3 * v + 2] = split.nz() / len;
    }

    /** F = D_s D_m⁻¹ of tetrahedron c at x, row by row into f. */
    private static void deformation(float[] x, int[] p, float[] inverse, int c, float[] f) {
        int a = 3 * p[4 * c];
        for (int i = 0; i < 3; i++) {
            float e1 = x[3 * p[4 * c + 1] + i] - x[a + i];
            float e2 = x[3 * p[4 * c + 2] + i] - x[a + i];
            float e3 = x[3 * p[4 * c + 3] + i] - x[a + i];
            for (int j = 0; j < 3; j++) {
                f[3 * i + j] = e1 * inverse[9 * c + j] + e2 * inverse[9 * c + 3 + j] + e3 * inverse[9 * c + 6 + j];
            }
        }
    }

    /**
     * Tetrahedron c's largest principal stretch σ₁ at x where it passes {@code limit}, else 0. First the largest
     * Gershgorin row sum of C = FᵀF, a bound on σ₁² = λ_max(C) that costs no decomposition (at rest C = I and
     * the bound is 1; stretched along an axis by s it is s²), in locals; the decomposition only past it.
     */
    static float stretchPast(float[] x, int[] p, float[] inverse, int c, float limit) {
        int a = 3 * p[4 * c];
        int b = 3 * p[4 * c + 1];
        int d = 3 * p[4 * c + 2];
        int e = 3 * p[4 * c + 3];
        int g = 9 * c;
        float f00 = 0f;
        float f01 = 0f;
        float f02 = 0f;
        float f10 = 0f;
        float f11 = 0f;
        float f12 = 0f;
        float f20 = 0f;
        float f21 = 0f;
        float f22 = 0f;
        for (int i = 0; i < 3; i++) {
            float e1 = x[b + i] - x[a + i];
            float e2 = x[d + i] - x[a + i];
            float e3 = x[e + i] - x[a + i];
            float r0 = e1 * inverse[g] + e2 * inverse[g + 3] + e3 * inverse[g + 6];
            float r1 = e1 * inverse[g + 1] + e2 * inverse[g + 4] + e3 * inverse[g + 7];
            float r2 = e1 * inverse[g + 2] + e2 * inverse[g + 5] + e3 * inverse[g + 8];
            if (i == 0) {
                f00 = r0;
                f01 = r1;
                f02 = r2;
            } else if (i == 1) {
                f10 = r0;
                f11 = r1;
                f12 = r2;
            } else {
                f20 = r0;
                f21 = r1;
                f22 = r2;
            }
        }
        float c00 = f00 * f00 + f10 * f10 + f20 * f20;
        float c11 = f01 * f01 + f11 * f11 + f21 * f21;
        float c22 = f02 * f02 + f12 * f12 + f22 * f22;
        float c01 = Math.abs(f00 * f01 + f10 * f11 + f20 * f21);
        float c02 = Math.abs(f00 * f02 + f10 * f12 + f20 * f22);
        float c12 = Math.abs(f01 * f02 + f11 * f12 + f21 * f22);
        float bound = Math.max(c00 + c01 + c02, Math.max(c11 + c01 + c12, c22 + c02 + c12));
        if (bound <= limit * limit) {
            return 0f;
        }
        double[] fd = {f00, f01, f02, f10, f11, f12, f20, f21, f22};
        double[] svd = new double[RotationSvd.SIZE];
        RotationSvd.decompose(fd, 0, svd);
        float stretch = (float) svd[RotationSvd.SIGMA];
        return stretch > limit ? stretch : 0f;
    }

    /** Over-stretched tetrahedra as sort keys, gathered from the scan's ranges (in any order: sorted after). */
    private static final class Found {
        long[] keys;
        int count;

        synchronized void add(long[] more, int n) {
            if (keys == null) {
                keys = new long[Math.max(16, n)];
            } else if (count + n > keys.length) {
                keys = Arrays.copyOf(keys, Math.max(2 * keys.length, count + n));
            }
            System.arraycopy(more, 0, keys, count, n);
            count += n;
        }
    }

    /** The rest-space direction of tetrahedron c's largest stretch (F's first right singular vector) into n. */
    private static void direction(float[] x, int[] p, float[] inverse, int c, float[] f, double[] fd, double[] svd,
                                  float[] n) {
        deformation(x, p, inverse, c, f);
        for (int k = 0; k < 9; k++) {
            fd[k] = f[k];
        }
        RotationSvd.decompose(fd, 0, svd);
        n[0] = (float) svd[RotationSvd.V];
        n[1] = (float) svd[RotationSvd.V + 3];
        n[2] = (float) svd[RotationSvd.V + 6];
    }

    /**
     * At a crack front: of tetrahedron c's free corners off the crack, the one nearest the plane of the crack
     * through one of its crack corners (within {@link #FRONT_SINE}; the crack's plane is the one its node was
     * split by), split by a plane parallel to the crack's, so the crack runs on in its own direction; the next
     * nearest where that would separate nothing. Plans only (the caller splits).
     */
    private static ModelEdit.Split runOn(TetSplitter splitter, int[] p, int c, float[] r, float[] w,
                                         float[] crackNormal, boolean[] used) {
        // candidate (corner, crack corner) pairs by how far off the crack's plane the corner lies
        float[] sine = new float[16];
        int[] pair = new int[16];
        int pairs = 0;
        for (int i = 0; i < 4; i++) {
            int tip = p[4 * c + i];
            if (!Float.isNaN(crackNormal[3 * tip]) || w[tip] == 0f) {
                continue;
            }
            for (int j = 0; j < 4; j++) {
                int crack = p[4 * c + j];
                if (Float.isNaN(crackNormal[3 * crack])) {
                    continue;
                }
                float dx = r[3 * tip] - r[3 * crack];
                float dy = r[3 * tip + 1] - r[3 * crack + 1];
                float dz = r[3 * tip + 2] - r[3 * crack + 2];
                float len = (float) Math.sqrt(dx * dx + dy * dy + dz * dz);
                float s = Math.abs(dx * crackNormal[3 * crack] + dy * crackNormal[3 * crack + 1]
                        + dz * crackNormal[3 * crack + 2]) / len;
                if (s <= FRONT_SINE) {
                    sine[pairs] = s;
                    pair[pairs++] = 4 * i + j;
                }
            }
        }
        for (int tried = 0; tried < pairs; tried++) {
            int best = -1;
            for (int k = 0; k < pairs; k++) {
                if (pair[k] >= 0 && (best < 0 || sine[k] < sine[best])) {
                    best = k;
                }
            }
            int tip = p[4 * c + pair[best] / 4];
            int crack = p[4 * c + pair[best] % 4];
            pair[best] = -1;
            if (used[tip]) {
                continue;
            }
            // the crack's own normal: the tip splits parallel to the crack's plane, so a crack that steps a layer
            // keeps its direction (a normal turned to hold each step's line added the turns up, and the crack curled)
            float nx = crackNormal[3 * crack];
            float ny = crackNormal[3 * crack + 1];
            float nz = crackNormal[3 * crack + 2];
            if (splitter.plan(tip, nx, ny, nz)) {
                return new ModelEdit.Split(tip, nx, ny, nz);
            }
        }
        return null;
    }

    /** A new crack at tetrahedron c: its free corner with the most tetrahedra (lower index on a tie) that separates. */
    private static ModelEdit.Split start(TetSplitter splitter, int[] p, int c, float[] w, boolean[] used, float[] n) {
        int[] corner = new int[4];
        int corners = 0;
        for (int i = 0; i < 4; i++) {
            int v = p[4 * c + i];
            if (!used[v] && w[v] > 0f) {
                corner[corners++] = v;
            }
        }
        for (int tried = 0; tried < corners; tried++) {
            int best = -1;
            for (int k = 0; k < corners; k++) {
                if (corner[k] < 0) {
                    continue;
                }
                if (best < 0) {
                    best = k;
                    continue;
                }
                int a = splitter.tetCount(corner[k]);
                int b = splitter.tetCount(corner[best]);
                if (a > b || (a == b && corner[k] < corner[best])) {
                    best = k;
                }
            }
            int v = corner[best];
            corner[best] = -1;
            if (splitter.plan(v, n[0], n[1], n[2])) {
                return new ModelEdit.Split(v, n[0], n[1], n[2]);
            }
        }
        return null;
    }

    /**
     * Per particle the normal of the plane a tear split it by (its last split's, a copy's its split's), NaN
     * for a particle no tear runs through: from the edit log, where the k-th split made particle
     * (base particle count + k).
     */
    private static float[] crackNormals(Model model) {
        float[] normal = new float[3 * model.particleCount()];
        Arrays.fill(normal, Float.NaN);
        int copy = model.base().particleCount();
        for (ModelEdit e : model.edits()) {
            float nx;
            float ny;
            float nz;
            int at;
            if (e instanceof ModelEdit.Split s) {
                at = s.particle();
                nx = s.nx();
                ny = s.ny();
                nz = s.nz();
            } else if (e instanceof ModelEdit.Detach d) {
                at = d.particle();
                nx = d.nx();
                ny = d.ny();
                nz = d.nz();
            } else {
                continue;
            }
            float len = (float) Math.sqrt(nx * nx + ny * ny + nz * nz);
            for (int i : new int[] {at, copy}) {
                normal[3 * i] = nx / len;
                normal[3 * i + 1] = ny / len;
                normal[3 * i + 2] = nz / len;
            }
            copy++;
        }
        return normal;
    }
}
