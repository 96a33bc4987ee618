package dev.weft.core.scene;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.model.BendingModel;
import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.solver.SolverSettings;
import dev.weft.core.solver.pd.PdSettings;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.step.Environment;
import java.util.List;
import java.util.Map;

/** Scenes that ship with Weft, by name. */
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
     * The default scene: a 1 m cloth of 64 × 64 particles, held horizontally 1 m up by its two top
     * corners, falls, swings onto a sphere and drapes down towards the floor. 5 s at 60 fps, 24
     * substeps of one XPBD iteration with two stretch passes, distance (skip-spring) bending: max strain
     * peaks at 7.8 % while the free edge whips round the sphere and ends at 2.3 %, where 16 substeps
     * with dihedral bending gave 28 % and 6.7 % and cost 1.07× as much (issue #12; README, "Every solver on
     * the default scene"). The other solvers take their own steps per frame
     * ({@link Scene#solverSteps()}, {@link Scene#settings()}), each the cheapest measured setting that keeps the
     * cloth under 10 % at its peak and 3 % at the end: pd 16 of 3 × 2 sweeps at ω = 1.4 (9.7 % / 1.7 %),
     * relaxation 48 × 3 iterations (8.7 % / 2.1 %), implicit 8 (7.0 % / 1.7 %), mass-spring 16, each split
     * into stable Verlet steps (4.3 % / 0.5 %); pbd, seed 001's Jacobi baseline, takes 46 and does not
     * meet it (37 % / 3.2 %).
     */
    public static Scene drape() {
        ModelBuilder b = new ModelBuilder().bendingModel(BendingModel.DISTANCE);
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", 64, 64, 1f, 1f).withOrigin(-0.5f, 1.0f, -0.5f));
        b.pinCorners(cloth, "top-left", "top-right");
        Environment env = new Environment(new float[] {0f, -9.81f, 0f}, List.of(
                new SphereCollider("sphere", new float[] {0f, 0.45f, -0.4f}, 0.2f, 0.005f, 0.3f),
                PlaneCollider.floor(0f, 0.005f, 0.5f)));
        // pd: red-black Gauss–Seidel over-relaxed, 3 × 2 sweeps at ω = 1.4 hold the whip (9.7 % / 1.7 %)
        // at 0.9x the issue-time cost; 4 × 4 at ω = 1 needed twice the sweeps for 9.4 % / 1.6 % (README)
        SolverSettings settings = SolverSettings.defaults()
                .withPd(PdSettings.defaults().withIterations(3, 2).withOmega(1.4f));
        return new Scene("drape", "64x64 cloth pinned at two corners swings onto a sphere and drapes towards the floor",
                b.build(), env, 60f, 300, 24, settings, Map.of(
                        "pbd", SolverSteps.of(46),
                        "pd", SolverSteps.of(16),
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
