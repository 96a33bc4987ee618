package dev.weft.core.model;

import dev.weft.core.coloring.Coloring;

/**
 * Distance constraints |x_a − x_b| = L (stretch, shear, distance bending), colored. A constraint takes its
 * stiffness from its two bodies' materials (in series), unless the set it belongs to has a material of its
 * own (a seam sewn with a thread of its own stiffness: {@link ModelBuilder#sew(ModelObject, String,
 * ModelObject, String, int, int, Material)}): {@link #ownMaterial(int)}.
 */
public final class DistanceConstraints extends ColoredConstraints {
    private static final Material[] NONE = new Material[0];

    private final float[] restLength;
    private final byte[] kind;
    /** Per constraint, an index into {@link #ownMaterials}, or −1 for its bodies'; null when none has its own. */
    private final short[] ownMaterial;
    private final Material[] ownMaterials;

    public DistanceConstraints(int[] pairs, float[] restLength, byte[] kind, Coloring coloring) {
        this(pairs, restLength, kind, null, NONE, coloring);
    }

    /**
     * @param ownMaterial  per constraint (build order) an index into {@code ownMaterials}, or −1 where the
     *                     bodies' materials apply; null when every constraint takes its bodies'
     */
    public DistanceConstraints(int[] pairs, float[] restLength, byte[] kind, short[] ownMaterial,
                               Material[] ownMaterials, Coloring coloring) {
        super(2, pairs, coloring);
        this.restLength = permute(restLength);
        this.kind = permute(kind);
        this.ownMaterial = ownMaterial == null ? null : permute(ownMaterial);
        this.ownMaterials = ownMaterials.clone();
        checkOwnMaterials();
    }

    /** Already laid out in storage order (an edit's result). */
    DistanceConstraints(int[] stored, float[] restLength, byte[] kind, short[] ownMaterial, Material[] ownMaterials,
                        int[] colorStart, NaturalOrder naturalOrder) {
        super(2, stored, colorStart, naturalOrder);
        this.restLength = restLength;
        this.kind = kind;
        this.ownMaterial = ownMaterial;
        this.ownMaterials = ownMaterials;
    }

    private void checkOwnMaterials() {
        if (ownMaterial == null) {
            return;
        }
        for (short k : ownMaterial) {
            if (k < -1 || k >= ownMaterials.length) {
                throw new IllegalArgumentException("own material " + k + " of " + ownMaterials.length);
            }
        }
    }

    /** The material constraint c (storage order) has of its own, or null where its bodies' apply. */
    public Material ownMaterial(int c) {
        if (ownMaterial == null) {
            return null;
        }
        int k = ownMaterial[c];
        return k < 0 ? null : ownMaterials[k];
    }

    /** Per constraint an index into {@link #ownMaterials()} or −1; null when no constraint has its own. Do not modify. */
    short[] ownMaterialIndex() {
        return ownMaterial;
    }

    /** The materials constraint sets have of their own. Do not modify. */
    Material[] ownMaterials() {
        return ownMaterials;
    }

    /** Rest length per constraint (storage order). Do not modify. */
    public float[] restLength() {
        return restLength;
    }

    /** {@link DistanceKind#code()} per constraint (storage order). Do not modify. */
    public byte[] kind() {
        return kind;
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
}
