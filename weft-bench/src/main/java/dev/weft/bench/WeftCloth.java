package dev.weft.bench;

import dev.weft.core.model.GridClothSpec;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelBuilder;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.State;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.sim.Simulation;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.solver.xpbd.XpbdSolver;
import dev.weft.core.step.Environment;

/**
 * The scene on Weft's XPBD solver (colored Gauss–Seidel on a {@link WorkerPool}): a grid cloth of the
 * scene's material made inextensible (stretch and shear stiffness +∞, compliance 0), its z = 0 edge
 * pinned, long-range attachments to the nearest pin (the builder's tethers: Euclidean on a flat cloth,
 * as Jolt's), bending as the {@link WeftSetting} says.
 */
public final class WeftCloth implements ClothEngine {
    private final ClothScene scene;
    private final WeftSetting setting;
    private final WorkerPool pool;
    private final Simulation simulation;

    public WeftCloth(ClothScene scene, WeftSetting setting, int threads) {
        this.scene = scene;
        this.setting = setting;
        Model model = model(scene, setting);
        pool = new WorkerPool(threads);
        XpbdSettings xpbd = XpbdSettings.defaults().withIterations(setting.iterations())
                .withStretchPasses(setting.stretchPasses()).withStretchLimits(setting.limits())
                .withStretchSmoothing(setting.smoothing());
        Environment gravity = new Environment(new float[] {0f, ClothScene.GRAVITY, 0f}, java.util.List.of());
        simulation = new Simulation(model, State.atRest(model), new XpbdSolver(xpbd, pool), gravity,
                setting.substeps());
    }

    static Model model(ClothScene scene, WeftSetting setting) {
        ModelBuilder b = new ModelBuilder();
        b.material(Material.cloth().withStretch(Float.POSITIVE_INFINITY).withShear(Float.POSITIVE_INFINITY)
                .withBend(ClothScene.BEND_RIGIDITY).withDamping(ClothScene.DAMPING));
        b.bendingModel(setting.bending());
        // row 0 (the "top" edge) along +x at z = 0, rows advancing along +z: the scene's numbering
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("cloth", scene.n(), scene.n(), ClothScene.SIDE,
                ClothScene.SIDE).withOrigin(-0.5f * ClothScene.SIDE, 0f, 0f));
        b.pinEdge(cloth, "top");
        Model model = b.build();
        // Weft weighs a grid's vertices by their triangles' area (a border vertex half, a corner less); the
        // scene gives every vertex the same mass, as Jolt's cloth has. Nothing has read the masses yet.
        float[] invMass = model.invMass();
        for (int i = 0; i < invMass.length; i++) {
            if (invMass[i] > 0f) {
                invMass[i] = 1f / scene.vertexMass();
            }
        }
        return model;
    }

    @Override
    public String label() {
        return "Weft " + setting.label();
    }

    public WeftSetting setting() {
        return setting;
    }

    @Override
    public void advanceFrame() {
        simulation.advance(scene.frameDt());
    }

    @Override
    public void readPositions(float[] xyz) {
        System.arraycopy(simulation.state().positions(), 0, xyz, 0, 3 * scene.vertexCount());
    }

    @Override
    public void close() {
        simulation.close();
        pool.close();
    }
}
