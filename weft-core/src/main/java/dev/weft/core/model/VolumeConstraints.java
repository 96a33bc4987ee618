package dev.weft.core.model;

import dev.weft.core.coloring.GreedyColoring;

/**
 * Tetrahedra that keep their signed volume: C = 6 (V − V₀) with V = (x₁ − x₀) · ((x₂ − x₀) × (x₃ − x₀)) / 6.
 * Signed, so a tetrahedron turned inside out is pushed back rather than left inverted (a spring lattice
 * has no such notion: a cell mirrored through itself keeps every spring's length). Four particles each,
 * positive rest volume.
 */
public final class VolumeConstraints extends ColoredConstraints {
    static final VolumeConstraints NONE = new VolumeConstraints(new int[0], new float[0], 0);

    private final float[] restVolume;

    VolumeConstraints(int[] tets, float[] restVolume, int particleCount) {
        super(4, tets, GreedyColoring.of(tets, 4, particleCount));
        this.restVolume = permute(restVolume);
    }

    /** Rest volume in m³ per tetrahedron (storage order). Do not modify. */
    public float[] restVolume() {
        return restVolume;
    }
}
