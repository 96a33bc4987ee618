package dev.weft.core.interact;

import dev.weft.core.model.DistanceConstraints;
import dev.weft.core.model.Incidence;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelEdit;
import dev.weft.core.model.SurfaceSplitter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Tearing (seed 001 §5.3.7, with the surface separated as Müller et al. 2007 split vertices): a stretch
 * or shear constraint of a body that tears ({@link Model#tearStrain}) stretched past (1 + tear strain)
 * times its rest length breaks at one of its particles: that particle is split along the plane (in the
 * rest shape) perpendicular to the constraint, so the crack runs across the direction of the pull and
 * the triangles on the two sides become separate surfaces. The seed instead dropped the constraint and
 * the triangles built from it, which leaves the two sides joined wherever another constraint crosses.
 *
 * <p>Which breaks, in one call: first the constraints at a crack's tip (a particle sharing a triangle
 * with one a tear runs through), splitting the tip with a plane that also holds the line from the
 * crack, so the tear runs on straight; then at most one new tear per body. A constraint at a particle
 * a tear already runs through breaks again only past twice the tear strain (along a crack the edges stretch as
 * it opens), and a
 * particle takes part in one break per call. Of a constraint's two particles the tip splits, else the
 * one with more triangles (an interior particle before a border one), else the lower index; the other
 * where the first would separate nothing. Most stretched first. Without these rules a cloth stretched
 * near its tear strain everywhere shattered into strips, single triangles and a net of slits.
 */
public final class Tearing {
    /**
     * A constraint at a particle a tear runs through breaks past this many times its tear strain: along
     * a crack edges stretch as the crack opens, so at the tear strain they would cut strips off its
     * border; never at all, a strip already cut (a strand of crack particles) stretched without limit
     * (8× its rest length behind the cannonball of the scene 'tear').
     */
    static final float CRACK_EDGE_FACTOR = 2f;

    private Tearing() {
    }

    /**
     * The splits that tear {@code model} at positions {@code x} (empty when nothing is past its limit): its
     * cloth, ropes and voxel bodies' at their stretched constraints, then its tetrahedral bodies' at their
     * stretched tetrahedra ({@link TetTearing}).
     */
    public static List<ModelEdit> find(Model model, float[] x) {
        return find(model, x, null);
    }

    /** As {@link #find(Model, float[])}, the tetrahedra scanned over the threads of {@code pool} (null: this thread). */
    public static List<ModelEdit> find(Model model, float[] x, dev.weft.core.parallel.WorkerPool pool) {
        if (!model.tears()) {
            return List.of();
        }
        List<ModelEdit> constraints = findAtConstraints(model, x);
        List<ModelEdit> tetrahedra = TetTearing.find(model, x, pool);
        if (tetrahedra.isEmpty()) {
            return constraints;
        }
        if (constraints.isEmpty()) {
            return tetrahedra;
        }
        List<ModelEdit> all = new ArrayList<>(constraints);
        all.addAll(tetrahedra);
        return all;
    }

    private static List<ModelEdit> findAtConstraints(Model model, float[] x) {
        DistanceConstraints d = model.distances();
        int[] p = d.particles();
        float[] rest = d.restLength();
        int count = 0;
        long[] over = null;
        float[] limit2 = model.tearLengthsSquared();
        for (int c = 0; c < rest.length; c++) {
            int a = 3 * p[2 * c];
            int b = 3 * p[2 * c + 1];
            float dx = x[a] - x[b];
            float dy = x[a + 1] - x[b + 1];
            float dz = x[a + 2] - x[b + 2];
            float length2 = dx * dx + dy * dy + dz * dz;
            if (length2 > limit2[c]) {
                if (over == null) {
                    over = new long[16];
                } else if (count == over.length) {
                    over = Arrays.copyOf(over, 2 * count);
                }
                // most stretched first; ties by index, so the order is the same on every run
                float strain = (float) Math.sqrt(length2) / rest[c] - 1f;
                over[count++] = ((long) ~Float.floatToIntBits(strain) << 32) | c;
            }
        }
        if (count == 0) {
            return List.of();
        }
        Arrays.sort(over, 0, count);
        boolean[] onCrack = onCrack(model);
        SurfaceSplitter surface = new SurfaceSplitter(model.restPositions(), model.triangles(),
                model.triangleIncidence());
        float[] r = model.restPositions();
        boolean[] used = new boolean[model.particleCount()];
        boolean[] nucleated = new boolean[model.objects().size()];
        Incidence constraintsAt = model.distanceIncidence(); // the model's: built once, carried through edits
        List<ModelEdit> splits = new ArrayList<>();
        // two rounds: the tips of existing tears first, then at most one new tear per body
        for (int round = 0; round < 2; round++) {
            for (int k = 0; k < count; k++) {
                int c = (int) over[k];
                int a = p[2 * c];
                int b = p[2 * c + 1];
                if (used[a] || used[b]) {
                    continue;
                }
                boolean crackEdge = onCrack[a] || onCrack[b];
                float strain = Float.intBitsToFloat(~(int) (over[k] >>> 32));
                if (crackEdge && strain <= CRACK_EDGE_FACTOR * model.tearStrain(model.objectOf(a))) {
                    continue; // along a crack edges stretch as it opens: they hold up to twice the strain
                }
                int tipA = crackNeighbour(model, onCrack, a);
                int tipB = crackNeighbour(model, onCrack, b);
                boolean tip = tipA >= 0 || tipB >= 0 || crackEdge;
                int body = model.objectOf(a);
                if (round == 0 ? !tip : tip || nucleated[body]) {
                    continue;
                }
                int first = prefer(surface, tipA, tipB, a, b) ? a : b;
                int second = first == a ? b : a;
                ModelEdit.Split split = separating(surface, constraintsAt, p, r, first, second,
                        first == a ? tipA : tipB);
                if (split == null) {
                    split = separating(surface, constraintsAt, p, r, second, first, first == a ? tipB : tipA);
                }
                if (split != null) {
                    splits.add(split);
                    used[a] = true;
                    used[b] = true;
                    nucleated[body] |= !tip;
                }
            }
        }
        return splits;
    }

    /**
     * The particles a tear already runs through (split, or copies of a split): a constraint at one does
     * not start a tear. Along a crack its edges stretch as the crack opens, and a constraint moved to a
     * copy stays loaded until the crack's tips give way; splitting there again would cut strips and
     * single triangles off the border instead of letting the crack run on from its tips.
     */
    private static boolean[] onCrack(Model model) {
        int n = model.particleCount();
        boolean[] crack = new boolean[n];
        for (int i = 0; i < n; i++) {
            int from = model.sourceOf(i);
            if (from != i) {
                crack[i] = true;
                crack[from] = true;
            }
        }
        return crack;
    }

    /**
     * Which of a constraint's particles to split first: a crack's tip (a particle sharing a triangle
     * with one the tear runs through), so a tear grows at its end instead of opening a second crack
     * beside it; else the one with more triangles (an interior particle before a border one); else the
     * lower index, so the choice is the same on every run.
     */
    private static boolean prefer(SurfaceSplitter surface, int crackAtA, int crackAtB, int a, int b) {
        if ((crackAtA >= 0) != (crackAtB >= 0)) {
            return crackAtA >= 0;
        }
        int ta = surface.triangleCount(a);
        int tb = surface.triangleCount(b);
        return ta != tb ? ta > tb : a < b;
    }

    /** A particle the tear runs through that shares a triangle with {@code v} (the lowest), or −1. */
    private static int crackNeighbour(Model model, boolean[] onCrack, int v) {
        Incidence t = model.triangleIncidence();
        int[] tri = model.triangles();
        int found = -1;
        for (int s = t.start()[v]; s < t.start()[v + 1]; s++) {
            int base = 3 * (t.slots()[s] / 3);
            for (int k = base; k < base + 3; k++) {
                int u = tri[k];
                if (u != v && onCrack[u] && (found < 0 || u < found)) {
                    found = u;
                }
            }
        }
        return found;
    }

    /**
     * Splitting {@code at} across the direction to {@code towards}, if that separates something: its
     * triangles, or for a particle without triangles (a rope's), its constraints. At a crack's tip
     * ({@code crack} ≥ 0, a particle of the crack next to it) the plane also contains the line from
     * the crack to the tip, so the tear runs on straight from its end rather than turning with each
     * stretched edge.
     */
    private static ModelEdit.Split separating(SurfaceSplitter surface, Incidence constraintsAt, int[] pairs,
                                              float[] r, int at, int towards, int crack) {
        float nx = r[3 * towards] - r[3 * at];
        float ny = r[3 * towards + 1] - r[3 * at + 1];
        float nz = r[3 * towards + 2] - r[3 * at + 2];
        if (crack >= 0) {
            float dx = r[3 * at] - r[3 * crack];
            float dy = r[3 * at + 1] - r[3 * crack + 1];
            float dz = r[3 * at + 2] - r[3 * crack + 2];
            float d2 = dx * dx + dy * dy + dz * dz;
            float along = (nx * dx + ny * dy + nz * dz) / d2;
            float px = nx - along * dx;
            float py = ny - along * dy;
            float pz = nz - along * dz;
            // keep the stretched edge's direction where it runs along the crack (nothing to continue)
            if (px * px + py * py + pz * pz > 0.25f * (nx * nx + ny * ny + nz * nz)) {
                nx = px;
                ny = py;
                nz = pz;
            }
        }
        boolean separates = surface.plan(at, nx, ny, nz);
        if (surface.triangleCount(at) == 0) {
            boolean keep = false;
            boolean move = false;
            int[] start = constraintsAt.start();
            int[] slots = constraintsAt.slots();
            for (int s = start[at]; s < start[at + 1]; s++) {
                boolean m = surface.pointSide(pairs[slots[s] ^ 1]);
                keep |= !m;
                move |= m;
            }
            separates = keep && move;
        }
        return separates ? new ModelEdit.Split(at, nx, ny, nz) : null;
    }
}
