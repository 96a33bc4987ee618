package dev.weft.bench;

import dev.weft.core.model.BendingModel;
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
import java.util.List;
import java.util.Locale;

/**
 * A {@link DroopStrip} on Weft's XPBD solver, made as {@link WeftCloth} makes the peers bench's cloth
 * (inextensible stretch and shear, the builder's tethers, equal vertex masses, stretch passes as the
 * setting says) with the material's bending rigidity B and the strip's damping; rows 0 and 1 pinned.
 */
public final class WeftStrip implements ClothEngine {
    private final DroopStrip strip;
    private final WeftSetting setting;
    private final float rigidity;
    private final WorkerPool pool;
    private final Simulation simulation;

    /** @param rigidity the material's bending rigidity B, N·m */
    public WeftStrip(DroopStrip strip, WeftSetting setting, float rigidity) {
        this.strip = strip;
        this.setting = setting;
        this.rigidity = rigidity;
        Model model = model(strip, setting.bending(), rigidity);
        pool = new WorkerPool(1);
        XpbdSettings xpbd = XpbdSettings.defaults().withIterations(setting.iterations())
                .withStretchPasses(setting.stretchPasses()).withStretchLimits(setting.limits())
                .withStretchSmoothing(setting.smoothing());
        Environment gravity = new Environment(new float[] {0f, ClothScene.GRAVITY, 0f}, List.of());
        simulation = new Simulation(model, State.atRest(model), new XpbdSolver(xpbd, pool), gravity,
                setting.substeps());
    }

    static Model model(DroopStrip strip, BendingModel bending, float rigidity) {
        ModelBuilder b = new ModelBuilder();
        b.material(Material.cloth().withStretch(Float.POSITIVE_INFINITY).withShear(Float.POSITIVE_INFINITY)
                .withBend(rigidity).withDamping(DroopStrip.DAMPING));
        b.bendingModel(bending);
        float d = DroopStrip.SPACING;
        ModelObject cloth = b.addGridCloth(GridClothSpec.of("strip", strip.width(), strip.rows(),
                (strip.width() - 1) * d, (strip.rows() - 1) * d));
        for (int i = 0; i < DroopStrip.PINNED_ROWS * strip.width(); i++) {
            b.pin(cloth.firstParticle() + i);
        }
        Model model = b.build();
        float[] invMass = model.invMass(); // equal masses, as Jolt's strip has (nothing has read them yet)
        for (int i = 0; i < invMass.length; i++) {
            if (invMass[i] > 0f) {
                invMass[i] = 1f / strip.vertexMass();
            }
        }
        return model;
    }

    @Override
    public String label() {
        return String.format(Locale.ROOT, "Weft %s, B = %.3g N·m", setting.label(), rigidity);
    }

    @Override
    public void advanceFrame() {
        simulation.advance(strip.frameDt());
    }

    @Override
    public void readPositions(float[] xyz) {
        System.arraycopy(simulation.state().positions(), 0, xyz, 0, 3 * strip.vertexCount());
    }

    @Override
    public void close() {
        simulation.close();
        pool.close();
    }
}
