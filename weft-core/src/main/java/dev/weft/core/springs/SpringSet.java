package dev.weft.core.springs;

import dev.weft.core.model.DistanceKind;
import dev.weft.core.model.Material;
import dev.weft.core.model.MaterialParameters;
import dev.weft.core.model.Model;
import dev.weft.core.model.SpringTopology;
import java.util.Arrays;

/**
 * The springs of a model ({@link Model#springs()}) as the spring solvers use them: particle pairs with
 * rest length, type, stiffness and damping (from the materials), in flat arrays;
 * plus the particle → spring incidence (sorted by neighbour) that gather-style passes walk, so each
 * particle's sums run over its springs in one fixed order whatever the thread split.
 */
public final class SpringSet {
    private final int particleCount;
    private final int[] pairs;
    private final float[] rest;
    private final byte[] kind;
    private final float[] stiffness;
    private final float[] damping;
    private final int[] incidenceStart;
    private final int[] incidenceSpring;
    private final int[] incidenceOther;

    /** Springs from explicit pairs (two particle indices per spring), rest lengths, k_s and k_d per spring. */
    public SpringSet(int particleCount, int[] pairs, float[] rest, byte[] kind, float[] stiffness, float[] damping) {
        int m = rest.length;
        if (pairs.length != 2 * m || kind.length != m || stiffness.length != m || damping.length != m) {
            throw new IllegalArgumentException("pairs, rest, kind, stiffness and damping sizes disagree");
        }
        this.particleCount = particleCount;
        this.pairs = pairs;
        this.rest = rest;
        this.kind = kind;
        this.stiffness = stiffness;
        this.damping = damping;
        incidenceStart = new int[particleCount + 1];
        for (int p : pairs) {
            incidenceStart[p + 1]++;
        }
        for (int i = 0; i < particleCount; i++) {
            incidenceStart[i + 1] += incidenceStart[i];
        }
        incidenceSpring = new int[2 * m];
        incidenceOther = new int[2 * m];
        int[] fill = Arrays.copyOf(incidenceStart, particleCount);
        for (int s = 0; s < m; s++) {
            int a = pairs[2 * s];
            int b = pairs[2 * s + 1];
            incidenceSpring[fill[a]] = s;
            incidenceOther[fill[a]++] = b;
            incidenceSpring[fill[b]] = s;
            incidenceOther[fill[b]++] = a;
        }
        sortIncidenceByNeighbour();
    }

    /**
     * The springs of {@code model} ({@link Model#springs()}, in the model's {@link
     * dev.weft.core.model.SpringLayout}), k_s and k_d from the bodies' materials
     * ({@link MaterialParameters}), or a seam's own ({@link SpringTopology#ownMaterial}).
     */
    public static SpringSet build(Model model) {
        SpringTopology t = model.springs();
        int[] pairs = t.pairs();
        float[] rest = t.restLength();
        byte[] kind = t.kind();
        float[] ks = new float[rest.length];
        float[] kd = new float[rest.length];
        for (int s = 0; s < rest.length; s++) {
            DistanceKind k = DistanceKind.of(kind[s]);
            Material own = t.ownMaterial(s);
            if (own != null) {
                // a seam with a thread of its own: its material alone, not the bodies' in series
                ks[s] = MaterialParameters.springStiffness(own, k, rest[s]);
                kd[s] = own.strainDamping() * ks[s];
            } else {
                ks[s] = MaterialParameters.springStiffness(model, pairs[2 * s], pairs[2 * s + 1], k, rest[s]);
                kd[s] = MaterialParameters.springDamping(model, pairs[2 * s], pairs[2 * s + 1], k, rest[s]);
            }
        }
        return new SpringSet(model.particleCount(), pairs, rest, kind, ks, kd);
    }

    public int particleCount() {
        return particleCount;
    }

    public int count() {
        return rest.length;
    }

    /** Two particle indices per spring. Do not modify. */
    public int[] pairs() {
        return pairs;
    }

    public float[] restLength() {
        return rest;
    }

    /** {@link DistanceKind#code()} per spring. */
    public byte[] kind() {
        return kind;
    }

    /** k_s per spring in N/m. */
    public float[] stiffness() {
        return stiffness;
    }

    /** k_d per spring in N·s/m. */
    public float[] damping() {
        return damping;
    }

    /** Particle i's springs are incidence entries [start[i], start[i+1]). */
    public int[] incidenceStart() {
        return incidenceStart;
    }

    /** Spring index per incidence entry. */
    public int[] incidenceSpring() {
        return incidenceSpring;
    }

    /** The other particle of the spring per incidence entry (ascending within a particle). */
    public int[] incidenceOther() {
        return incidenceOther;
    }

    public int countOf(DistanceKind k) {
        int n = 0;
        for (byte b : kind) {
            if (b == k.code()) {
                n++;
            }
        }
        return n;
    }

    private void sortIncidenceByNeighbour() {
        for (int i = 0; i < particleCount; i++) {
            // Insertion sort: a particle has a few dozen springs at most.
            for (int a = incidenceStart[i] + 1; a < incidenceStart[i + 1]; a++) {
                int o = incidenceOther[a];
                int s = incidenceSpring[a];
                int k = a - 1;
                while (k >= incidenceStart[i] && incidenceOther[k] > o) {
                    incidenceOther[k + 1] = incidenceOther[k];
                    incidenceSpring[k + 1] = incidenceSpring[k];
                    k--;
                }
                incidenceOther[k + 1] = o;
                incidenceSpring[k + 1] = s;
            }
        }
    }

}
