package dev.weft.core.model;

import dev.weft.core.util.IntList;

/**
 * The tetrahedra's side of {@link ModelEdit.Split} (vertex splitting fracture without remeshing, as O'Brien
 * and Hodgins 1999 and Müller et al.'s "fast and robust" fracture split nodes): working copies of the
 * tetrahedra and which of them touch each particle, a plan that sorts a node's tetrahedra by the side of a
 * plane through the node their rest centroid lies on, and the split that gives the positive side's
 * tetrahedra to a copy of the node. {@link ModelEditor} applies it with the surface and the constraints;
 * {@link dev.weft.core.interact.TetTearing} asks it which splits would separate something.
 *
 * <p>A plan separates when both sides keep tetrahedra and the boundary stays a closed 2-manifold: every
 * edge at the node and at its copy on exactly 0 or 2 boundary triangles (a plane through a node cuts the
 * ring of tetrahedra around one of its edges into at most two arcs, but after earlier splits an arc can
 * be cut into three, which would hang four crack faces on one edge). A plan that does not separate is
 * skipped, as a cloth split that separates nothing.
 */
public final class TetSplitter {
    /**
     * A positively oriented tetrahedron's face opposite each corner, counter-clockwise seen from outside
     * (the faces of {@link TetSurface}).
     */
    private static final int[][] OPPOSITE = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};

    private final int[] tets;
    private final float[] restVolume;
    /** The rest positions: the model's, or an editor's working ones (with its copies). */
    private final float[] rest;
    private final SurfaceSplitter working;
    private final int restCount;
    /** Without {@code working}: per copy this splitter made (index − restCount), the particle it copies. */
    private final IntList copyOf = new IntList();
    private final MutableIncidence at;
    private boolean changed;

    // the plan in progress: the node, its plane, its tetrahedra on each side (ascending)
    private int p = -1;
    private float px;
    private float py;
    private float pz;
    private float nx;
    private float ny;
    private float nz;
    private final IntList keep = new IntList();
    private final IntList move = new IntList();
    private double keepVolume;
    private double moveVolume;
    /** Per moved boundary face at the node, its two other corners (the face's triangle goes to the copy). */
    private final IntList movedBoundary = new IntList();
    /**
     * Per face between the sides, the moved tetrahedron's face with the node (later the copy) as a
     * negative placeholder −1, then the kept one's: three corners each, wound outwards.
     */
    private final IntList crack = new IntList();

    /** The tetrahedra of {@code model} (copied), with its rest positions. */
    public TetSplitter(Model model) {
        this(model.tets(), model.restPositions(), null);
    }

    /** An editor's: the rest positions are {@code working}'s, which appends each copy's. */
    TetSplitter(TetConstraints t, float[] restPositions, SurfaceSplitter working) {
        this.tets = t.particles().clone();
        this.restVolume = t.restVolume();
        this.rest = restPositions;
        this.working = working;
        this.restCount = restPositions.length / 3;
        this.at = new MutableIncidence(tets, 4, restCount);
    }

    /** The working tetrahedra (storage order of the model's): four particles each. */
    int[] tets() {
        return tets;
    }

    /** True once a split has moved a tetrahedron. */
    boolean changed() {
        return changed;
    }

    /** How many tetrahedra particle {@code q} is a corner of now. */
    public int tetCount(int q) {
        return at.itemsOf(q).size();
    }

    /** The tetrahedra particle {@code q} is a corner of now, ascending. */
    public int[] tetsOf(int q) {
        int[] s = at.itemsOf(q).toArray();
        java.util.Arrays.sort(s);
        return s;
    }

    private float rest(int particle, int axis) {
        if (working != null) {
            return working.rest(3 * particle + axis);
        }
        while (particle >= restCount) {
            particle = copyOf.get(particle - restCount);
        }
        return rest[3 * particle + axis];
    }

    /**
     * Sorts node {@code particle}'s tetrahedra by the side of the plane through its rest position with normal
     * n their rest centroid lies on (positive: to the copy). True when the split separates: both sides keep
     * tetrahedra and the boundary stays closed and manifold.
     */
    public boolean plan(int particle, float normalX, float normalY, float normalZ) {
        p = particle;
        px = rest(particle, 0);
        py = rest(particle, 1);
        pz = rest(particle, 2);
        nx = normalX;
        ny = normalY;
        nz = normalZ;
        keep.clear();
        move.clear();
        movedBoundary.clear();
        crack.clear();
        keepVolume = 0.0;
        moveVolume = 0.0;
        // ascending, so the crack's faces come in one order however the rows were edited
        int[] star = tetsOf(particle);
        for (int t : star) {
            float cx = 0f;
            float cy = 0f;
            float cz = 0f;
            for (int k = 0; k < 4; k++) {
                int c = tets[4 * t + k];
                cx += rest(c, 0) - px;
                cy += rest(c, 1) - py;
                cz += rest(c, 2) - pz;
            }
            if (cx * nx + cy * ny + cz * nz > 0f) {
                move.add(t);
                moveVolume += restVolume[t];
            } else {
                keep.add(t);
                keepVolume += restVolume[t];
            }
        }
        if (keep.size() == 0 || move.size() == 0 || !manifold(keep) || !manifold(move)) {
            return false;
        }
        // the faces at the node of every moved tetrahedron: on the boundary already (its triangle goes to
        // the copy), shared with a kept one (two new triangles, one per side), or shared with a moved one
        for (int k = 0; k < move.size(); k++) {
            int t = move.get(k);
            for (int corner = 0; corner < 4; corner++) {
                int[] f = OPPOSITE[corner];
                int a = tets[4 * t + f[0]];
                int b = tets[4 * t + f[1]];
                int c = tets[4 * t + f[2]];
                if (a != p && b != p && c != p) {
                    continue; // the face opposite the node
                }
                int u = a == p ? b : a;
                int v = c == p ? b : c;
                if (sharing(move, t, u, v) >= 0) {
                    continue;
                }
                int other = sharing(keep, -1, u, v);
                if (other < 0) {
                    movedBoundary.add(u, v);
                } else {
                    crack.add(a == p ? -1 : a, b == p ? -1 : b);
                    crack.add(c == p ? -1 : c);
                    addFaceAt(other, u, v);
                }
            }
        }
        return true;
    }

    /** Appends tetrahedron t's face with corners {p, u, v}, wound outwards from t. */
    private void addFaceAt(int t, int u, int v) {
        for (int corner = 0; corner < 4; corner++) {
            int[] f = OPPOSITE[corner];
            int a = tets[4 * t + f[0]];
            int b = tets[4 * t + f[1]];
            int c = tets[4 * t + f[2]];
            if (holds(a, b, c, p) && holds(a, b, c, u) && holds(a, b, c, v)) {
                crack.add(a, b);
                crack.add(c);
                return;
            }
        }
        throw new IllegalStateException("tetrahedron " + t + " has no face " + p + ", " + u + ", " + v);
    }

    private static boolean holds(int a, int b, int c, int x) {
        return a == x || b == x || c == x;
    }

    /** A tetrahedron of {@code side} other than {@code except} with corners u and v (and the node), or −1. */
    private int sharing(IntList side, int except, int u, int v) {
        for (int k = 0; k < side.size(); k++) {
            int t = side.get(k);
            if (t != except && has(t, u) && has(t, v)) {
                return t;
            }
        }
        return -1;
    }

    private boolean has(int t, int x) {
        return tets[4 * t] == x || tets[4 * t + 1] == x || tets[4 * t + 2] == x || tets[4 * t + 3] == x;
    }

    /**
     * True when, of the tetrahedra of {@code side} alone, every edge at the node lies on 0 or 2 faces that
     * only one of them has (its boundary there is a manifold).
     */
    private boolean manifold(IntList side) {
        IntList open = new IntList(); // per open face at the node, its two other corners
        for (int k = 0; k < side.size(); k++) {
            int t = side.get(k);
            for (int i = 0; i < 4; i++) {
                int u = tets[4 * t + i];
                if (u == p) {
                    continue;
                }
                for (int j = i + 1; j < 4; j++) {
                    int v = tets[4 * t + j];
                    if (v != p && sharing(side, t, u, v) < 0) {
                        open.add(u, v);
                    }
                }
            }
        }
        for (int k = 0; k < open.size(); k++) {
            int u = open.get(k);
            int on = 0;
            for (int j = 0; j < open.size(); j++) {
                on += open.get(j) == u ? 1 : 0;
            }
            if (on != 2) {
                return false;
            }
        }
        return true;
    }

    /** The planned node's share of its mass that goes to the copy: the moved tetrahedra's rest volume over all. */
    public double movedVolumeShare() {
        return moveVolume / (keepVolume + moveVolume);
    }

    /**
     * Where a pair (the planned node, r) goes, a distance constraint at a tetrahedral node: with the
     * tetrahedra the two share (both sides: kept on both), else by r's rest position.
     */
    SurfaceSplitter.Side side(int r) {
        boolean onKeep = sharing(keep, -1, r, r) >= 0;
        boolean onMove = sharing(move, -1, r, r) >= 0;
        if (onKeep || onMove) {
            return onKeep && onMove ? SurfaceSplitter.Side.BOTH : onMove ? SurfaceSplitter.Side.MOVE
                    : SurfaceSplitter.Side.KEEP;
        }
        float d = (rest(r, 0) - px) * nx + (rest(r, 1) - py) * ny + (rest(r, 2) - pz) * nz;
        return d > 0f ? SurfaceSplitter.Side.MOVE : SurfaceSplitter.Side.KEEP;
    }

    /** The planned moved tetrahedra, ascending. */
    IntList moved() {
        return move;
    }

    /** Per boundary face the planned split moves to the copy, its two corners besides the node. */
    IntList movedBoundary() {
        return movedBoundary;
    }

    /**
     * Carries out the plan: the moved tetrahedra take {@code copy} for the node (a splitter made from a model
     * numbers its copies from the model's particle count on, in order; a planner applies its plans so the
     * next see them). Returns the new boundary
     * triangles on the crack, three corners each, wound outwards (the copy's side's with the copy).
     */
    public int[] split(int copy) {
        if (working == null) {
            if (copy != restCount + copyOf.size()) {
                throw new IllegalArgumentException("copies come in order: expected " + (restCount + copyOf.size())
                        + ", got " + copy);
            }
            copyOf.add(p);
        }
        for (int k = 0; k < move.size(); k++) {
            int t = move.get(k);
            for (int c = 4 * t; c < 4 * t + 4; c++) {
                if (tets[c] == p) {
                    tets[c] = copy;
                }
            }
            at.remove(p, t);
            at.add(copy, t);
        }
        changed = true;
        int[] faces = crack.toArray();
        for (int k = 0; k < faces.length; k++) {
            if (faces[k] == -1) {
                faces[k] = copy;
            }
        }
        return faces;
    }
}
