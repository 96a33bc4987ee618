package dev.weft.core.solver.pd;

import dev.weft.core.model.Model;

/**
 * The host side of {@link PdSolver}'s elastic tetrahedra ({@link PdElasticTets}) on a device, for one model:
 * the arrays the CPU's local step, gather and sweeps read, built by the CPU's own code, so every backend
 * uploads the same values (the rest edges as the local step's float operations compute them, the rows'
 * weights summed in double as the CPU sums them). {@link #of} is null for a model without tetrahedra that PD
 * projects (those of shear modulus μ &gt; 0).
 */
public final class PdTetLayout {
    /** The floats per tetrahedron in {@link #gradient()} (g₀..g₃) and in {@link #restEdge()} (three edges). */
    public static final int GRADIENT = 12;
    public static final int REST_EDGE = 9;
    private final PdElasticTets tets;

    private PdTetLayout(PdElasticTets tets) {
        this.tets = tets;
    }

    /**
     * The layout of {@code m}'s elastic tetrahedra, or null when PD projects none; refuses incompressible ones
     * with PdSolver's message.
     */
    public static PdTetLayout of(Model m) {
        PdElasticTets t = PdElasticTets.of(m);
        return t == null ? null : new PdTetLayout(t);
    }

    /** How many tetrahedra PD projects (the model's with μ &gt; 0). */
    public int count() {
        return tets.count();
    }

    /** Their corners, 4 per tetrahedron. */
    public int[] corners() {
        return tets.tets();
    }

    /** Per tetrahedron g₀..g₃ (D_m⁻¹'s rows and their negated sum), {@link #GRADIENT} floats. */
    public float[] gradient() {
        return tets.gradient();
    }

    /** Per tetrahedron the rest edges x_k − x₀ as the local step computes edges, {@link #REST_EDGE} floats. */
    public float[] restEdge() {
        return tets.restEdge();
    }

    /** Per tetrahedron W = w_s + w_v = 2 μ V₀ + 3 λ V₀. */
    public float[] weight() {
        return tets.weight();
    }

    /** Per tetrahedron w_s / W, the strain target's share. */
    public float[] strainShare() {
        return tets.strainShare();
    }

    /** Per particle, the first of its corners in {@link #cornerSlots()} (n + 1 entries). */
    public int[] cornerStart() {
        return tets.cornerStart();
    }

    /** Per particle its corners (4 t + j), ascending: the gather's fixed order. */
    public int[] cornerSlots() {
        return tets.cornerSlots();
    }

    /** Per particle the first of its neighbour rows (n + 1 entries). */
    public int[] rowStart() {
        return tets.rowStart();
    }

    public int[] rowNeighbour() {
        return tets.rowNeighbour();
    }

    /** −W g_i·g_j summed over the tetrahedra a particle shares with the row's neighbour. */
    public float[] rowWeight() {
        return tets.rowWeight();
    }

    /** Per particle the sum of its row weights: what the tetrahedra add to its diagonal. */
    public float[] diagonal() {
        return tets.diagonal();
    }

    /** Per particle the sum of its row weights' magnitudes (Gershgorin's bound for Chebyshev's ρ). */
    public float[] absoluteRow() {
        return tets.absoluteRow();
    }
}
