package dev.weft.core.scene;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.SpringLayout;
import dev.weft.core.solver.SolverSettings;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.step.Environment;
import java.util.List;
import java.util.Map;

/**
 * The Java scenes the shipped scene files ({@code scenes/*.json}) were written from, kept as test fixtures:
 * the core tests build their scenes with them, weft-scene checks every file against its scene bit for bit.
 */
public final class BuiltInScenes {
    public static final String DEFAULT = "drape";

    private BuiltInScenes() {
    }

    public static List<String> names() {
        return List.of("drape", "hanging", "stack", "spheres", "funnel", "cannonball", "flag", "tear", "cut", "sew");
    }

    public static Scene byName(String name) {
        switch (name) {
            case "drape":
                return drape();
            case "hanging":
                return hanging(100);
            case "stack":
                return CollisionScenes.stack();
            case "spheres":
                return CollisionScenes.spheres();
            case "funnel":
                return CollisionScenes.funnel();
            case "cannonball":
                return CollisionScenes.cannonball();
            case "flag":
                return WindScenes.flag();
            case "tear":
                return TearScenes.tear();
            case "cut":
                return CutScenes.cut();
            case "sew":
                return SewScenes.sew();
            default:
                throw new InvalidInputException("scene", "unknown scene '" + name + "'; built in: "
                        + String.join(", ", names()));
        }
    }

    /**
     * The default scene: a 1 m cloth of 64 × 64 particles ({@link dev.weft.core.model.Material#cloth()}:
     * cotton, the same cloth under every solver), held horizontally 1 m up by its two top corners, falls,
     * swings onto a sphere and drapes down towards the floor. 5 s at 60 fps, 30 substeps of one XPBD
     * iteration with two stretch passes, distance (skip-spring) bending: max strain peaks at 9.2 % at the
     * pinned corners at the bottom of the swing and ends at 2.2 % (issue #12; README, "Every solver on the
     * default scene"). The other solvers take their own steps per frame ({@link Scene#solverSteps()},
     * {@link Scene#settings()}), each the cheapest measured setting that keeps the cloth under 10 % at its
     * peak and 3 % at the end: pd 17 of 2 × 3 sweeps at ω = 1.4 (8.4 % / 1.5 %), relaxation 48 × 3
     * iterations (7.4 % / 1.9 %), implicit 8 (5.8 % / 1.6 %), mass-spring 16, each split into stable Verlet
     * steps (2.8 % / 0.5 %), pbd 36 in its default colored sweep with stretch and shear rigid (8.2 % / 1.5 %;
     * seed 001's Jacobi PBD, its {@code --mode jacobi}, took 46 and stayed at 41 % / 5 %).
     */
    public static Scene drape() {
        // the spring solvers' springs are the position-based solvers' constraints: seed 004's 12 per particle
        ModelBuilder b = new ModelBuilder().bendingModel(BendingModel.DISTANCE).springLayout(SpringLayout.PATTERN_12);
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", 64, 64, 1f, 1f).withOrigin(-0.5f, 1.0f, -0.5f));
        b.pinCorners(cloth, "top-left", "top-right");
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of(
                new SphereCollider("sphere", new float[] {0f, 0.45f, -0.4f}, 0.2f, 0.005f, 0.3f),
                PlaneCollider.floor(0f, 0.005f, 0.5f)));
        // pd: red-black Gauss–Seidel over-relaxed, 17 substeps of 2 × 3 sweeps at ω = 1.4 hold the swing
        // (8.4 % / 1.5 %) at 0.87x the issue-time cost (README)
        SolverSettings settings = SolverSettings.defaults()
                .withPd(PdSettings.defaults().withIterations(2, 3).withOmega(1.4f));
        return new Scene("drape", "64x64 cloth pinned at two corners swings onto a sphere and drapes towards the floor",
                b.build(), env, 60f, 300, 30, settings, Map.of(
                        "pbd", SolverSteps.of(36),
                        "pd", SolverSteps.of(17),
                        "relaxation", new SolverSteps(48, 3),
                        "implicit", SolverSteps.of(8),
                        "mass-spring", SolverSteps.of(16)));
    }

    /**
     * Seed 001's hanging cloth: n × n particles, 1 m, pinned at the two top corners and dropped from
     * horizontal; no colliders. 8 physics steps per frame as in the seed.
     */
    public static Scene hanging(int n) {
        ModelBuilder b = new ModelBuilder();
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", n, n, 1f, 1f).withOrigin(-0.5f, 1.0f, -0.5f));
        b.pinCorners(cloth, "top-left", "top-right");
        return new Scene("hanging", n + "x" + n + " cloth pinned at two corners, dropped from horizontal",
                b.build(), Environment.earth(), 60f, 300, 16, XpbdSettings.defaults());
    }
}
