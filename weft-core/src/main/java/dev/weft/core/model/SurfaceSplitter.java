package dev.weft.core.model;

import dev.weft.core.util.FloatList;
import dev.weft.core.util.IntList;
import java.util.HashMap;
import java.util.Map;

/**
 * The surface side of {@link ModelEdit.Split}: working copies of the rest positions and triangles, a
 * split that moves the triangles on the positive side of a plane to a new particle, and the rule that
 * says on which side a pair (constraint, spring) at the split particle goes. {@link ModelEditor} applies
 * it to the model's constraint sets; the spring solvers replay a model's log with it onto their own
 * springs ({@link #replay}), so both see the same surface.
 */
public final class SurfaceSplitter {
    /** Which side of a split a pair (p, r) goes to. */
    public enum Side { KEEP, MOVE, BOTH }

    private final FloatList rest;
    /** The working triangles: the model's, then those {@link #addTriangle} appended (a tetrahedral crack's). */
    private int[] triangles;
    private int triangleCount;
    private final Incidence incidence;
    /** Triangles of the particles whose triangles changed (and of new particles), overriding the incidence. */
    private final Map<Integer, IntList> changed = new HashMap<>();
    private int particleCount;

    // the split in progress: particle, plane, and its triangles on each side (before the split)
    private int p = -1;
    private float px;
    private float py;
    private float pz;
    private float nx;
    private float ny;
    private float nz;
    private final IntList keep = new IntList();
    private final IntList move = new IntList();
    private double keepArea;
    private double moveArea;

    /**
     * @param restPositions the model's rest positions (copied)
     * @param triangles     the model's triangles (copied)
     * @param incidence     the incidence of {@code triangles}
     */
    public SurfaceSplitter(float[] restPositions, int[] triangles, Incidence incidence) {
        this(restPositions, triangles, incidence, 0);
    }

    /** As {@link #SurfaceSplitter(float[], int[], Incidence)}, with room for {@code room} copies before a list grows. */
    SurfaceSplitter(float[] restPositions, int[] triangles, Incidence incidence, int room) {
        this.rest = FloatList.of(restPositions, 3 * room);
        this.triangles = triangles.clone();
        this.triangleCount = triangles.length / 3;
        this.incidence = incidence;
        this.particleCount = restPositions.length / 3;
    }

    /** Replays the splits of {@code model}'s edit log, from its base model, and returns the splitter. */
    public static SurfaceSplitter replay(Model model, PairVisitor visitor) {
        Model base = model.base();
        SurfaceSplitter s = new SurfaceSplitter(base.restPositions(), base.triangles(), base.triangleIncidence());
        for (ModelEdit e : model.edits()) {
            if (e instanceof ModelEdit.Split) {
                ModelEdit.Split split = (ModelEdit.Split) e;
                s.plan(split.particle(), split.nx(), split.ny(), split.nz());
                int q = s.split();
                visitor.split(s, split.particle(), q);
            } else if (e instanceof ModelEdit.Detach) {
                ModelEdit.Detach detach = (ModelEdit.Detach) e;
                s.plan(detach.particle(), detach.triangles(), detach.nx(), detach.ny(), detach.nz());
                int q = s.split();
                visitor.split(s, detach.particle(), q);
            } else {
                visitor.other(e);
            }
        }
        return s;
    }

    /** What a replay does with each edit of the log besides moving triangles. */
    public interface PairVisitor {
        /** {@code particle} was split into itself and {@code copy}; ask {@code s.side(r)} for its pairs. */
        void split(SurfaceSplitter s, int particle, int copy);

        /** An edit that is not a split. */
        void other(ModelEdit e);
    }

    public int particleCount() {
        return particleCount;
    }

    /** The working triangles (after the splits so far). */
    public int[] triangles() {
        return 3 * triangleCount == triangles.length ? triangles : java.util.Arrays.copyOf(triangles, 3 * triangleCount);
    }

    /** Coordinate {@code k} (3 · particle + axis) of the working rest positions. */
    float rest(int k) {
        return rest.get(k);
    }

    /** How many working triangles there are (the model's and those appended). */
    int workingTriangleCount() {
        return triangleCount;
    }

    /** Appends the triangle (a, b, c) (a face a tetrahedral split opened) and returns its index. */
    int addTriangle(int a, int b, int c) {
        if (3 * triangleCount + 3 > triangles.length) {
            triangles = java.util.Arrays.copyOf(triangles, Math.max(3 * triangleCount + 3, 2 * triangles.length));
        }
        int t = triangleCount++;
        triangles[3 * t] = a;
        triangles[3 * t + 1] = b;
        triangles[3 * t + 2] = c;
        for (int v : new int[] {a, b, c}) {
            IntList l = changed.get(v);
            if (l == null) {
                l = trianglesOf(v);
                changed.put(v, l);
            }
            l.add(t);
        }
        return t;
    }

    /**
     * A tetrahedral node's split (the tetrahedra decide it, {@link TetSplitter}): appends the copy at the
     * particle's rest position and moves to it the particle's boundary triangles whose two other corners are
     * a pair of {@code movedFaces}. Returns the copy's index.
     */
    int splitTriangles(int particle, IntList movedFaces) {
        p = particle;
        px = rest.get(3 * particle);
        py = rest.get(3 * particle + 1);
        pz = rest.get(3 * particle + 2);
        keep.clear();
        move.clear();
        IntList mine = trianglesOf(particle);
        for (int k = 0; k < mine.size(); k++) {
            int t = mine.get(k);
            boolean goes = false;
            for (int f = 0; f < movedFaces.size() && !goes; f += 2) {
                goes = same(t, particle, movedFaces.get(f), movedFaces.get(f + 1));
            }
            (goes ? move : keep).add(t);
        }
        return split();
    }

    /** The working rest positions (the model's, with a copy's appended at each split). */
    public float[] restPositions() {
        return rest.toArray();
    }

    /** How many triangles touch particle {@code q} now. */
    public int triangleCount(int q) {
        return trianglesOf(q).size();
    }

    /**
     * Sorts particle {@code particle}'s triangles by the side of the plane their rest centroid lies on.
     * Returns true when the split would separate triangles (both sides have some).
     */
    public boolean plan(int particle, float normalX, float normalY, float normalZ) {
        return plan(particle, null, normalX, normalY, normalZ);
    }

    /**
     * Plans a split of {@code particle} that moves exactly {@code moved} of its triangles (a cut's
     * choice; null: those on the plane's positive side), with the rest-space normal that sorts the pairs
     * bordering none of them. Returns true when both sides keep triangles; false also when a named
     * triangle does not hold the particle.
     */
    public boolean plan(int particle, int[] moved, float normalX, float normalY, float normalZ) {
        p = particle;
        px = rest.get(3 * particle);
        py = rest.get(3 * particle + 1);
        pz = rest.get(3 * particle + 2);
        nx = normalX;
        ny = normalY;
        nz = normalZ;
        keep.clear();
        move.clear();
        keepArea = 0.0;
        moveArea = 0.0;
        IntList mine = trianglesOf(particle);
        int found = 0;
        for (int k = 0; k < mine.size(); k++) {
            int t = mine.get(k);
            int a = triangles[3 * t];
            int b = triangles[3 * t + 1];
            int c = triangles[3 * t + 2];
            boolean goes = moved == null ? sideOf(a, b, c) : contains(moved, t);
            double area = area(a, b, c);
            if (goes) {
                move.add(t);
                moveArea += area;
                found++;
            } else {
                keep.add(t);
                keepArea += area;
            }
        }
        return (moved == null || found == moved.length) && keep.size() > 0 && move.size() > 0;
    }

    private static boolean contains(int[] items, int t) {
        for (int m : items) {
            if (m == t) {
                return true;
            }
        }
        return false;
    }

    /** The planned particle's share of its mass that goes to the copy, by rest area (NaN without triangles). */
    public double movedAreaShare() {
        double total = keepArea + moveArea;
        return total > 0.0 ? moveArea / total : Double.NaN;
    }

    /**
     * Where a pair (p, r) at the planned particle p goes: with the triangles it borders (both sides: an
     * edge on the tear, kept on both). A pair that borders none (a skip spring, a quad's other diagonal,
     * a ring-2 spring) goes with the side whose particles r shares a triangle with, when those are all
     * on one side; else by the side of r's rest position.
     */
    public Side side(int r) {
        boolean onKeep = borders(keep, r);
        boolean onMove = borders(move, r);
        if (onKeep && onMove) {
            return Side.BOTH;
        }
        if (onKeep || onMove) {
            return onMove ? Side.MOVE : Side.KEEP;
        }
        boolean nearMove = false;
        boolean nearKeep = false;
        IntList around = trianglesOf(r);
        for (int k = 0; k < around.size(); k++) {
            int t = around.get(k);
            for (int v = 3 * t; v < 3 * t + 3; v++) {
                int u = triangles[v];
                if (u == r || u == p) {
                    continue;
                }
                boolean inMove = borders(move, u);
                boolean inKeep = borders(keep, u);
                nearMove |= inMove && !inKeep;
                nearKeep |= inKeep && !inMove;
            }
        }
        if (nearMove != nearKeep) {
            return nearMove ? Side.MOVE : Side.KEEP;
        }
        return pointSide(r) ? Side.MOVE : Side.KEEP;
    }

    /**
     * True when the planned split moves the triangle (a, b, c) of the planned particle to the copy (a
     * triangle not among its triangles: by its rest centroid's side of the plane).
     */
    public boolean moves(int a, int b, int c) {
        for (int k = 0; k < move.size(); k++) {
            if (same(move.get(k), a, b, c)) {
                return true;
            }
        }
        for (int k = 0; k < keep.size(); k++) {
            if (same(keep.get(k), a, b, c)) {
                return false;
            }
        }
        return sideOf(a, b, c);
    }

    private boolean same(int t, int a, int b, int c) {
        int x = triangles[3 * t];
        int y = triangles[3 * t + 1];
        int z = triangles[3 * t + 2];
        return (x == a || x == b || x == c) && (y == a || y == b || y == c) && (z == a || z == b || z == c);
    }

    /** True when the rest centroid of the triangle (a, b, c) lies on the plane's positive side. */
    public boolean sideOf(int a, int b, int c) {
        float cx = (rest.get(3 * a) + rest.get(3 * b) + rest.get(3 * c)) / 3f - px;
        float cy = (rest.get(3 * a + 1) + rest.get(3 * b + 1) + rest.get(3 * c + 1)) / 3f - py;
        float cz = (rest.get(3 * a + 2) + rest.get(3 * b + 2) + rest.get(3 * c + 2)) / 3f - pz;
        return cx * nx + cy * ny + cz * nz > 0f;
    }

    /** True when particle r's rest position lies on the plane's positive side. */
    public boolean pointSide(int r) {
        float dx = rest.get(3 * r) - px;
        float dy = rest.get(3 * r + 1) - py;
        float dz = rest.get(3 * r + 2) - pz;
        return dx * nx + dy * ny + dz * nz > 0f;
    }

    /**
     * Carries out the planned split: appends the copy (at the particle's rest position) and moves the
     * positive side's triangles to it. Returns the copy's index. Call {@link #side} before the next plan.
     */
    public int split() {
        int q = particleCount++;
        rest.add(px, py, pz);
        IntList mine = new IntList(keep.size());
        for (int k = 0; k < keep.size(); k++) {
            mine.add(keep.get(k));
        }
        changed.put(p, mine);
        IntList theirs = new IntList(move.size());
        for (int k = 0; k < move.size(); k++) {
            int t = move.get(k);
            theirs.add(t);
            for (int v = 3 * t; v < 3 * t + 3; v++) {
                if (triangles[v] == p) {
                    triangles[v] = q;
                }
            }
        }
        changed.put(q, theirs);
        return q;
    }

    private boolean borders(IntList tris, int r) {
        for (int k = 0; k < tris.size(); k++) {
            int t = tris.get(k);
            if (triangles[3 * t] == r || triangles[3 * t + 1] == r || triangles[3 * t + 2] == r) {
                return true;
            }
        }
        return false;
    }

    private IntList trianglesOf(int q) {
        IntList l = changed.get(q);
        if (l != null) {
            return l;
        }
        l = new IntList(8);
        if (q < incidence.start().length - 1) {
            int[] start = incidence.start();
            int[] slots = incidence.slots();
            for (int s = start[q]; s < start[q + 1]; s++) {
                l.add(slots[s] / 3);
            }
        }
        return l;
    }

    private double area(int a, int b, int c) {
        double ux = rest.get(3 * b) - rest.get(3 * a);
        double uy = rest.get(3 * b + 1) - rest.get(3 * a + 1);
        double uz = rest.get(3 * b + 2) - rest.get(3 * a + 2);
        double vx = rest.get(3 * c) - rest.get(3 * a);
        double vy = rest.get(3 * c + 1) - rest.get(3 * a + 1);
        double vz = rest.get(3 * c + 2) - rest.get(3 * a + 2);
        double cx = uy * vz - uz * vy;
        double cy = uz * vx - ux * vz;
        double cz = ux * vy - uy * vx;
        return 0.5 * Math.sqrt(cx * cx + cy * cy + cz * cz);
    }
}
