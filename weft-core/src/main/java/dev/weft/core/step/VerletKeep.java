package dev.weft.core.step;

import dev.weft.core.model.MaterialParameters;
import dev.weft.core.model.Model;

/**
 * Each particle's share of velocity a Verlet step of h keeps (seed 002's damping, from its body's damping
 * rate: {@link VerletDamping#perStep}), made again only when h changes: what the device backends upload
 * for the solvers that damp in their Verlet prediction (mass-spring, relaxation).
 */
public final class VerletKeep {
    private final float[] rate;
    private final float[] keep;
    private float step = Float.NaN;

    public VerletKeep(Model m) {
        rate = MaterialParameters.particleDamping(m);
        keep = new float[m.particleCount()];
    }

    /** Computes the shares for a step of {@code h} unless they are h's already; true when it computed. */
    public boolean prepare(float h) {
        if (h == step) {
            return false;
        }
        for (int i = 0; i < keep.length; i++) {
            keep[i] = VerletDamping.perStep(MaterialParameters.verletKeepPerFrame(rate[i]), h);
        }
        step = h;
        return true;
    }

    /** Per particle the share kept, as {@link #prepare} last computed it. */
    public float[] keep() {
        return keep;
    }
}
