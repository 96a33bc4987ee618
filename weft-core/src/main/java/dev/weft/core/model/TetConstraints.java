package dev.weft.core.model;

import dev.weft.core.coloring.GreedyColoring;

/**
 * The tetrahedra of soft bodies, four particles each with a positive rest volume V₀, and their material:
 * per tetrahedron the energy
 * <pre>  Ψ = V₀ (μ ‖E‖² + λ/2 (J − 1)²),   F = D_s D_m⁻¹,  E = ½ (FᵀF − I),  J = det F = V / V₀</pre>
 * (D_s the current edges x₁ − x₀, x₂ − x₀, x₃ − x₀ as columns, D_m the rest edges). For small strain ε it
 * is linear elasticity's μ ‖ε‖² + λ/2 (tr ε)² with Lamé's μ and λ, and it is zero under any rotation.
 * Both terms vanish in the rest shape, so a body at rest stays put. λ = +∞ with μ = 0 is a tetrahedron
 * that only keeps its volume, exactly (a voxel body's {@code volume} option); J is signed, so a
 * tetrahedron turned inside out is pushed back rather than left inverted.
 */
public final class TetConstraints extends ColoredConstraints {
    static final TetConstraints NONE = new TetConstraints(new int[0], new float[0], new float[0], new float[0],
            new float[0], 0);

    private final float[] restVolume;
    private final float[] restInverse;
    private final float[] shearModulus;
    private final float[] lameLambda;

    /**
     * @param tets         four particles per tetrahedron, positively oriented in the rest shape
     * @param restVolume   V₀ in m³ per tetrahedron
     * @param restInverse  D_m⁻¹ per tetrahedron, 9 floats row by row
     * @param shearModulus μ in Pa per tetrahedron (0: no shape stiffness)
     * @param lameLambda   λ in Pa per tetrahedron (+∞: incompressible)
     */
    TetConstraints(int[] tets, float[] restVolume, float[] restInverse, float[] shearModulus, float[] lameLambda,
                   int particleCount) {
        super(4, tets, GreedyColoring.of(tets, 4, particleCount));
        this.restVolume = permute(restVolume);
        this.restInverse = permuteRows(restInverse, 9);
        this.shearModulus = permute(shearModulus);
        this.lameLambda = permute(lameLambda);
    }

    /** Already laid out: an edit's ({@link #withParticles}). */
    private TetConstraints(int[] stored, TetConstraints from) {
        super(4, stored, from.colorStart(), from.sequence());
        this.restVolume = from.restVolume;
        this.restInverse = from.restInverse;
        this.shearModulus = from.shearModulus;
        this.lameLambda = from.lameLambda;
    }

    /**
     * These tetrahedra with other corners, in storage order (a split gives some of them a copy of a corner at
     * the same rest position): the same rest data, colors and order. Each color stays one: a copy is new to
     * every color.
     */
    TetConstraints withParticles(int[] stored) {
        if (stored.length != particles().length) {
            throw new IllegalArgumentException(stored.length / 4 + " tetrahedra for " + count());
        }
        return new TetConstraints(stored, this);
    }

    private float[] permuteRows(float[] inBuildOrder, int stride) {
        float[] out = new float[inBuildOrder.length];
        int[] natural = naturalOrder();
        for (int original = 0; original < natural.length; original++) {
            System.arraycopy(inBuildOrder, stride * original, out, stride * natural[original], stride);
        }
        return out;
    }

    /** Rest volume V₀ in m³ per tetrahedron (storage order). Do not modify. */
    public float[] restVolume() {
        return restVolume;
    }

    /** D_m⁻¹ per tetrahedron, 9 floats row by row (storage order). Do not modify. */
    public float[] restInverse() {
        return restInverse;
    }

    /** Lamé's μ (the shear modulus) in Pa per tetrahedron (storage order); 0 keeps volume only. Do not modify. */
    public float[] shearModulus() {
        return shearModulus;
    }

    /** Lamé's λ in Pa per tetrahedron (storage order); +∞ is incompressible. Do not modify. */
    public float[] lameLambda() {
        return lameLambda;
    }

    /**
     * True when some tetrahedron has shape stiffness (μ &gt; 0): xpbd, pbd and pd project it, implicit and
     * mass-spring apply its forces ({@code solver.ElasticTetForces}); relaxation relaxes it with XPBD's projection.
     */
    public boolean elastic() {
        for (float mu : shearModulus) {
            if (mu > 0f) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code pairs} (two particles each) followed by the six edges of every tetrahedron of {@code tets} with
     * shear modulus μ &gt; 0: the pairs a particle coloring must keep apart for a per-particle sweep over
     * elastic tetrahedra (PD's global step); volume-only tetrahedra (μ = 0) are no such term.
     */
    static int[] withElasticEdges(int[] pairs, int[] tets, float[] shearModulus) {
        int elastic = 0;
        for (float mu : shearModulus) {
            elastic += mu > 0f ? 1 : 0;
        }
        if (elastic == 0) {
            return pairs;
        }
        int[] out = java.util.Arrays.copyOf(pairs, pairs.length + 12 * elastic);
        int k = pairs.length;
        for (int c = 0; c < shearModulus.length; c++) {
            if (shearModulus[c] > 0f) {
                for (int i = 0; i < 4; i++) {
                    for (int j = i + 1; j < 4; j++) {
                        out[k++] = tets[4 * c + i];
                        out[k++] = tets[4 * c + j];
                    }
                }
            }
        }
        return out;
    }

    /** The mean over tetrahedra (four particle indices each) of their shortest edge at x: a lattice's spacing. */
    public static float meanShortestEdge(int[] tets, float[] x) {
        double sum = 0;
        for (int c = 0; c < tets.length / 4; c++) {
            double shortest = Double.MAX_VALUE;
            for (int i = 0; i < 4; i++) {
                for (int j = i + 1; j < 4; j++) {
                    int a = 3 * tets[4 * c + i];
                    int b = 3 * tets[4 * c + j];
                    double dx = x[a] - x[b];
                    double dy = x[a + 1] - x[b + 1];
                    double dz = x[a + 2] - x[b + 2];
                    shortest = Math.min(shortest, Math.sqrt(dx * dx + dy * dy + dz * dz));
                }
            }
            sum += shortest;
        }
        return tets.length == 0 ? 0f : (float) (sum / (tets.length / 4));
    }
}
