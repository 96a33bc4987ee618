package dev.weft.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.InvalidInputException;
import dev.weft.core.geom.DihedralAngle;
import dev.weft.core.interact.Cutting;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The conversions of a {@link Material} into solver parameters ({@link MaterialParameters}), against geometry. */
class MaterialParametersTest {
    private static final float B = 2e-4f;

    /** Σ ½k_θ(θ − θ₀)² over the stencils of a grid whose rest positions are bent by {@code bend}. */
    private static double hingeEnergy(Model m, float[] x) {
        float[] k = MaterialParameters.hingeStiffness(m);
        int[] p = m.bending().particles();
        float[] rest = m.bending().restAngle();
        double e = 0;
        for (int c = 0; c < k.length; c++) {
            double t = DihedralAngle.compute(x, p[4 * c], p[4 * c + 1], p[4 * c + 2], p[4 * c + 3], null) - rest[c];
            e += 0.5 * k[c] * t * t;
        }
        return e;
    }

    @Test
    void aGridBentIntoACylinderStoresTheContinuumBendingEnergy() {
        int n = 41;
        float side = 1f;
        ModelBuilder b = new ModelBuilder().material(Material.cloth().withBend(B));
        b.addGridCloth(GridClothSpec.of("sheet", n, n, side, side));
        Model m = b.build();
        double kappa = 2.0;
        for (int axis = 0; axis < 2; axis++) {
            // roll the horizontal sheet (XZ plane) about an axis along z (axis 0) or along x (axis 1)
            float[] x = m.restPositions().clone();
            for (int i = 0; i < x.length; i += 3) {
                int along = axis == 0 ? i : i + 2;
                double s = x[along];
                x[along] = (float) (Math.sin(kappa * s) / kappa);
                x[i + 1] = (float) ((1 - Math.cos(kappa * s)) / kappa);
            }
            // ½Bκ² over the area, less the strip beside the border, whose edges have no hinge: (n−2)/(n−1)
            double continuum = 0.5 * B * kappa * kappa * side * side * (n - 2) / (n - 1);
            assertThat(hingeEnergy(m, x)).as("axis %d", axis).isCloseTo(continuum, within(0.02 * continuum));
        }
        // the discrete-shells constant (3B|e|²/A) would store three times as much on this grid
    }

    @Test
    void aBendSpringStoresTheAxisHingesEnergyAtAOneRadianFold() {
        float rest = 0.05f;
        float k = MaterialParameters.springStiffness(Material.cloth().withBend(B), DistanceKind.BEND, rest);
        double shortening = rest * (1 - Math.cos(0.5)); // the chord over two edges folded by 1 rad
        // on a square grid an axis hinge has k_θ = B: ½·B·1²
        assertThat(0.5 * k * shortening * shortening).isCloseTo(0.5 * B, within(1e-4 * B));
        assertThat(MaterialParameters.springStiffness(Material.cloth(), DistanceKind.STRETCH, rest)).isEqualTo(2000f);
        assertThat(MaterialParameters.springStiffness(Material.cloth(), DistanceKind.SHEAR, rest)).isEqualTo(500f);
    }

    @Test
    void eachBodyKeepsItsOwnStiffnessAndASeamJoinsThemInSeries() {
        ModelBuilder b = new ModelBuilder().tethers(false).bending(false);
        ModelObject soft = b.addGridCloth(GridClothSpec.of("soft", 4, 4, 0.3f, 0.3f));
        ModelObject stiff = b.addGridCloth(GridClothSpec.of("stiff", 4, 4, 0.3f, 0.3f).withOrigin(0f, 0f, 0.4f));
        b.material(soft, Material.cloth().withStretch(100f).withShear(100f));
        b.material(stiff, Material.cloth().withStretch(300f).withShear(300f));
        b.sew(soft, "bottom", stiff, "top");
        Model m = b.build();
        float[] k = MaterialParameters.distanceStiffness(m);
        int[] p = m.distances().particles();
        float[] rest = m.distances().restLength();
        int seams = 0;
        for (int c = 0; c < k.length; c++) {
            int a = m.objectOf(p[2 * c]);
            int bb = m.objectOf(p[2 * c + 1]);
            if (a != bb) {
                assertThat(rest[c]).isZero();
                assertThat(k[c]).isCloseTo(2f * 100f * 300f / 400f, within(1e-3f)); // 150 N/m
                seams++;
            } else {
                assertThat(k[c]).isEqualTo(a == 0 ? 100f : 300f);
            }
        }
        assertThat(seams).isEqualTo(4);
    }

    @Test
    void dampingBecomesSeedTwosVerletShareAndARatePerParticle() {
        assertThat(MaterialParameters.verletKeepPerFrame(1f)).isCloseTo((float) Math.exp(-1.0 / 60), within(1e-7f));
        assertThat(MaterialParameters.verletKeepPerFrame(0f)).isEqualTo(1f);
        ModelBuilder b = new ModelBuilder();
        ModelObject a = b.addGridCloth(GridClothSpec.of("a", 3, 3, 0.1f, 0.1f));
        b.addGridCloth(GridClothSpec.of("b", 3, 3, 0.1f, 0.1f).withOrigin(0f, 1f, 0f));
        b.material(a, Material.cloth().withDamping(3f));
        Model m = b.build();
        assertThat(MaterialParameters.particleDamping(m)[0]).isEqualTo(3f);
        assertThat(MaterialParameters.particleDamping(m)[9]).isEqualTo(1f);
    }

    @Test
    void theBuilderGivesEachBodyTheMaterialCurrentWhenItWasAddedAndEditsKeepIt() {
        Material silk = Material.cloth().withStretch(800f).withBend(1e-5f);
        ModelBuilder b = new ModelBuilder();
        ModelObject first = b.addGridCloth(GridClothSpec.of("cotton", 5, 5, 0.4f, 0.4f));
        b.material(silk);
        ModelObject second = b.addGridCloth(GridClothSpec.of("silk", 5, 5, 0.4f, 0.4f).withOrigin(0f, 1f, 0f));
        b.tearStrain(second, 0.3f);
        assertThat(b.materialOf(first)).isEqualTo(Material.cloth());
        assertThat(b.materialOf(second)).isEqualTo(silk.withTearStrain(0.3f));
        Model m = b.build();
        // a vertical cut through the silk (y = 1) along x = 0.21, clear of the cotton below
        Model cut = m.edit(Cutting.across(m, m.restPositions(), new float[] {0.21f, 0.5f, -1f}, new float[] {0f, 1f, 0f},
                new float[] {0f, 0f, 3f}));
        assertThat(cut.edits()).isNotEmpty();
        assertThat(cut.material(1)).isEqualTo(silk.withTearStrain(0.3f));
        assertThat(cut.tearStrain(0)).isEqualTo(Float.POSITIVE_INFINITY);
        assertThatThrownBy(() -> cut.withMaterial(x -> x)).isInstanceOf(IllegalStateException.class);
        Model changed = m.withMaterial(x -> x.withDamping(0f));
        assertThat(changed.material(0).damping()).isZero();
        assertThat(changed.distances()).isSameAs(m.distances());
        assertThat(m.material(0).damping()).isEqualTo(1f);
    }

    @Test
    void aClothsMassIsItsMaterialsDensityTimesItsArea() {
        ModelBuilder b = new ModelBuilder().tethers(false);
        ModelObject light = b.addGridCloth(GridClothSpec.of("light", 11, 11, 0.5f, 0.5f));
        ModelObject heavy = b.addGridCloth(GridClothSpec.of("heavy", 11, 11, 0.5f, 0.5f).withOrigin(0f, 1f, 0f));
        b.material(heavy, Material.cloth().withDensity(0.6f)); // after adding: masses are made at build
        b.addRope(new RopeSpec("rope", new float[] {0f, 2f, 0f, 1f, 2f, 0f}, 5, 0.05f));
        Model m = b.build();
        double[] mass = new double[3];
        for (int i = 0; i < m.particleCount(); i++) {
            mass[m.objectOf(i)] += 1.0 / m.invMass()[i];
        }
        assertThat(mass[0]).isCloseTo(0.2 * 0.25, within(1e-6));
        assertThat(mass[1]).isCloseTo(0.6 * 0.25, within(1e-6));
        assertThat(mass[2]).isCloseTo(0.05, within(1e-6)); // a rope's mass per length is its spec's
        // another density on the built model scales a cloth's masses by the ratio (MaterialDensityTest); a
        // rope's mass is per length and refuses one
        Model denser = m.withMaterials(new Material[] {m.material(0).withDensity(0.4f), m.material(1), m.material(2)});
        double[] after = new double[3];
        for (int i = 0; i < denser.particleCount(); i++) {
            after[denser.objectOf(i)] += 1.0 / denser.invMass()[i];
        }
        assertThat(after[0]).isCloseTo(0.4 * 0.25, within(1e-6));
        assertThat(after[1]).isEqualTo(mass[1]);
        assertThat(after[2]).isEqualTo(mass[2]);
        assertThatThrownBy(() -> m.withMaterial(x -> x.withDensity(1f))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("rope.material.density").hasMessageContaining("mass per length");
        assertThatThrownBy(() -> Material.cloth().withDensity(0f)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("density").hasMessageContaining("kg/m²");
    }

    @Test
    void badMaterialsAreRejectedWithTheParameterAndWhatIsAllowed() {
        assertThatThrownBy(() -> Material.cloth().withStretch(Float.NaN)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("stretchStiffness").hasMessageContaining("infinity");
        assertThatThrownBy(() -> Material.cloth().withShear(0f)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("shearStiffness");
        assertThatThrownBy(() -> Material.cloth().withBend(-1f)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("bendStiffness").hasMessageContaining(">= 0");
        assertThatThrownBy(() -> Material.cloth().withDamping(Float.POSITIVE_INFINITY))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("damping");
        assertThatThrownBy(() -> Material.cloth().withTearStrain(0f)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("tearStrain");
        ModelBuilder b = new ModelBuilder().material(Material.cloth().withStretch(Float.POSITIVE_INFINITY));
        b.addGridCloth(GridClothSpec.of("rigid", 3, 3, 0.1f, 0.1f));
        Model m = b.build();
        for (String solver : List.of("pd", "implicit")) {
            assertThatThrownBy(() -> MaterialParameters.requireFinite(m, solver))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("rigid.material")
                    .hasMessageContaining(solver);
        }
    }
}
