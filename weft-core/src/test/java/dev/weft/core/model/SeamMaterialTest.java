package dev.weft.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.weft.core.InvalidInputException;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.SolverSettings;
import dev.weft.core.solver.Solvers;
import dev.weft.core.step.Environment;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A constraint set with a material of its own (issue #13 item 3): a seam sewn with its own thread takes
 * that thread's stiffness, not the two cloths' in series, in every solver that has a stiffness.
 */
class SeamMaterialTest {
    private static final int COLS = 5;
    private static final float G = 9.81f;

    /**
     * Two 0.2 m panels in one plane, gravity along it: the upper hangs from its pinned top edge, the lower
     * from the seam joining its top edge to the upper's bottom edge (both start on the same points).
     */
    private static Model hangingPanels(Material thread) {
        ModelBuilder b = new ModelBuilder().material(Material.cloth().withDamping(4f));
        ModelObject upper = b.addGridCloth(GridClothSpec.of("upper", COLS, 5, 0.2f, 0.2f));
        ModelObject lower = b.addGridCloth(GridClothSpec.of("lower", COLS, 5, 0.2f, 0.2f).withOrigin(0f, 0f, 0.2f));
        b.pinEdge(upper, "top");
        b.sew(upper, "bottom", lower, "top", 0, COLS, thread);
        return b.build();
    }

    /** The mean gap along gravity between the seam's two sides after 4 s under {@code solver}. */
    private static double meanSeamGap(Model m, String solver) {
        // gravity along the panels' rows (+z): they hang in their own plane from the start, no swing
        Environment env = new Environment(new float[] {0f, 0f, G}, List.of());
        try (WorkerPool pool = new WorkerPool(1);
             Simulation sim = new Simulation(m, State.atRest(m), Solvers.create(solver, SolverSettings.defaults(), pool),
                     env, substeps(solver))) {
            for (int f = 0; f < 240; f++) {
                sim.advance(1f / 60f);
            }
            float[] x = sim.state().positions();
            ModelObject upper = m.objects().get(0);
            ModelObject lower = m.objects().get(1);
            double gap = 0;
            for (int c = 0; c < COLS; c++) {
                int a = upper.gridParticle(upper.gridRows() - 1, c);
                int b = lower.gridParticle(0, c);
                gap += x[3 * b + 2] - x[3 * a + 2];
            }
            return gap / COLS;
        }
    }

    /**
     * Substeps at which each solver has converged on these panels (the tested law is the thread's
     * stiffness, not a solver's iteration error): PD at its default 4 × 4 sweeps leaves the stiff
     * panels' springs unconverged at 10 substeps (a 11 mm gap at 10, 7.86 mm at 40).
     */
    private static int substeps(String solver) {
        return "mass-spring".equals(solver) || "pd".equals(solver) ? 40 : 10;
    }

    private static double weight(Model m, ModelObject body) {
        double mass = 0;
        for (int i = body.firstParticle(); i < body.firstParticle() + body.particleCount(); i++) {
            mass += 1.0 / m.invMass()[i];
        }
        return mass * G;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"xpbd", "pd", "implicit", "mass-spring"})
    void aSeamSewnWithItsOwnThreadStretchesByTheThreadsStiffness(String solver) {
        float k = 2f;
        Model m = hangingPanels(Material.cloth().withStretch(k));
        // the lower panel hangs on COLS zero-length springs of stiffness k: their pulls along gravity, k times
        // each gap, add up to its weight, so the mean gap is W / (COLS k) = 7.8 mm whatever the distribution
        double expected = weight(m, m.objects().get(1)) / (COLS * k);
        assertThat(expected).isCloseTo(7.85e-3, within(1e-4));
        assertThat(meanSeamGap(m, solver)).as(solver).isCloseTo(expected, within(0.03 * expected));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"xpbd", "pd", "implicit", "mass-spring"})
    void aSeamWithoutAThreadOfItsOwnIsAsStiffAsTheCloth(String solver) {
        Model m = hangingPanels(null);
        // the cloths' 2000 N/m in series, 1000 N/m: 16 µm when converged; XPBD's iterations leave 0.19 mm.
        // Under 0.5 mm for every solver, where a thread of 2 N/m opens 7.8 mm
        assertThat(meanSeamGap(m, solver)).as(solver).isLessThan(5e-4);
    }

    @Test
    void theStiffnessAnEditedModelCarriesIsWhatItsMaterialsGive() {
        // the model computes each constraint's k once and edits carry it (moved constraints) and complete it
        // (new ones): after splits beside and on the seam and a new constraint between the panels, the
        // carried values must be the ones the materials give, bit for bit
        Model m = hangingPanels(Material.cloth().withStretch(3f))
                .withMaterial(mat -> mat.withStretch(500f).withShear(40f));
        m.distanceStiffness();
        ModelObject upper = m.objects().get(0);
        ModelObject lower = m.objects().get(1);
        int seamEnd = upper.gridParticle(upper.gridRows() - 1, 2);
        Model edited = m.edit(List.of(new ModelEdit.Split(upper.gridParticle(2, 2), 0f, 0f, 1f),
                new ModelEdit.Split(seamEnd, 1f, 0f, 0f),
                new ModelEdit.AddDistance(upper.gridParticle(1, 1), lower.gridParticle(3, 3), 0.3f,
                        DistanceKind.SHEAR)));
        Model twice = edited.edit(List.of(new ModelEdit.Split(lower.gridParticle(2, 1), 0f, 0f, 1f)));
        assertThat(edited.distances().count()).isGreaterThan(m.distances().count());
        for (Model e : List.of(edited, twice)) {
            assertThat(e.distanceStiffness()).containsExactly(MaterialParameters.distanceStiffness(e));
        }
    }

    @Test
    void theThreadSurvivesEditsAndMaterialChanges() {
        Material thread = Material.cloth().withStretch(3f);
        Model m = hangingPanels(thread);
        // an edit elsewhere (a split in the upper panel's middle) lays every set out again
        ModelObject upper = m.objects().get(0);
        Model edited = m.withMaterial(mat -> mat.withStretch(500f))
                .edit(List.of(new ModelEdit.Split(upper.gridParticle(2, 2), 0f, 0f, 1f)));
        assertThat(edited.edits()).hasSize(1);
        DistanceConstraints d = edited.distances();
        int seams = 0;
        for (int c = 0; c < d.count(); c++) {
            boolean seam = d.restLength()[c] == 0f;
            assertThat(d.ownMaterial(c)).isEqualTo(seam ? thread : null);
            seams += seam ? 1 : 0;
        }
        assertThat(seams).isEqualTo(COLS);
        float[] k = MaterialParameters.distanceStiffness(edited);
        for (int c = 0; c < d.count(); c++) {
            if (d.restLength()[c] == 0f) {
                assertThat(k[c]).isEqualTo(3f);
            }
        }
        // the spring solvers' springs carry it too
        SpringTopology springs = edited.springs();
        int threaded = 0;
        for (int s = 0; s < springs.count(); s++) {
            threaded += springs.ownMaterial(s) == thread ? 1 : 0;
        }
        assertThat(threaded).isEqualTo(COLS);
    }

    @Test
    void aRigidThreadIsRefusedBySolversThatNeedAStiffness() {
        Model m = hangingPanels(Material.cloth().withStretch(Float.POSITIVE_INFINITY));
        assertThatThrownBy(() -> meanSeamGap(m, "pd")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("seam.material");
        // xpbd takes it: a rigid seam, closed to its iteration error
        assertThat(meanSeamGap(m, "xpbd")).isLessThan(5e-4);
    }
}
