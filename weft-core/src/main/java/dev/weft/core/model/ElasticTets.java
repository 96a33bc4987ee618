package dev.weft.core.model;

import dev.weft.core.InvalidInputException;

/**
 * The elastic tetrahedra of a model (shear modulus μ &gt; 0; a voxel body's volume-only ones left out), in the
 * model's order, as the solvers that take their elasticity (PD's strain and volume terms, the spring solvers'
 * FEM forces) need them: the corners, the model's index of each, and the gradients g₀..g₃ of the linear shape
 * functions, g₁..g₃ the rows of D_m⁻¹ and g₀ = −Σ g_k (summed in double), 12 floats per tetrahedron.
 *
 * @param tets     four particles per tetrahedron
 * @param source   per tetrahedron its index in {@link TetConstraints}
 * @param gradient g₀..g₃ per tetrahedron
 */
public record ElasticTets(int[] tets, int[] source, float[] gradient) {
    /**
     * The elastic tetrahedra of {@code m}, or null when it has none. An incompressible one (ν = 0.5, λ = ∞) is
     * refused by the name of its body's Poisson ratio, with {@code why} (what the solver cannot do with it).
     */
    public static ElasticTets of(Model m, String why) {
        TetConstraints t = m.tets();
        float[] mu = t.shearModulus();
        float[] lambda = t.lameLambda();
        float[] inverse = t.restInverse();
        int[] all = t.particles();
        int count = 0;
        for (float s : mu) {
            count += s > 0f ? 1 : 0;
        }
        if (count == 0) {
            return null;
        }
        int[] tets = new int[4 * count];
        int[] source = new int[count];
        float[] gradient = new float[12 * count];
        int e = 0;
        for (int c = 0; c < mu.length; c++) {
            if (!(mu[c] > 0f)) {
                continue;
            }
            if (lambda[c] == Float.POSITIVE_INFINITY) {
                throw new InvalidInputException(m.objects().get(m.objectOf(all[4 * c])).name() + ".poissonRatio",
                        "is 0.5 (incompressible), which " + why + "; use a Poisson ratio below 0.5 (rubber: "
                                + "0.45–0.49) or xpbd");
            }
            System.arraycopy(all, 4 * c, tets, 4 * e, 4);
            source[e] = c;
            System.arraycopy(inverse, 9 * c, gradient, 12 * e + 3, 9); // g₁..g₃: D_m⁻¹'s rows
            for (int col = 0; col < 3; col++) {
                double g0 = 0;
                for (int k = 1; k <= 3; k++) {
                    g0 -= gradient[12 * e + 3 * k + col];
                }
                gradient[12 * e + col] = (float) g0;
            }
            e++;
        }
        return new ElasticTets(tets, source, gradient);
    }

    /** Elastic tetrahedra. */
    public int count() {
        return source.length;
    }
}
