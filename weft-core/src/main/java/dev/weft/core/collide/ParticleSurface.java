package dev.weft.core.collide;

import dev.weft.core.model.Material;
import dev.weft.core.model.Model;

/**
 * What each particle brings to a contact besides its position, from its body's {@link Material}: its grip
 * (a factor on the contact's friction coefficients, {@link Material#friction()}) and its offset, half its
 * sheet's {@link Material#thickness()} (how much further off a surface it stays than the surface's own
 * thickness). Every collider, the particle contacts and the implicit solver's contacts read it the same
 * way. Arrays are null where every body has grip 1 or no thickness, so the common cloth pays nothing.
 */
public final class ParticleSurface {
    /** Grip 1 and no offset for every particle: each contact's own friction and thickness. */
    public static final ParticleSurface PLAIN = new ParticleSurface(null, null);

    private final float[] grip;
    private final float[] offset;
    private final float maxOffset;

    /**
     * @param grip   per particle, or null for 1 everywhere
     * @param offset per particle in m, or null for 0 everywhere
     */
    public ParticleSurface(float[] grip, float[] offset) {
        this.grip = grip;
        this.offset = offset;
        float most = 0f;
        if (offset != null) {
            for (float o : offset) {
                most = Math.max(most, o);
            }
        }
        maxOffset = most;
    }

    /** The particles of {@code model} as their bodies' materials make them. */
    public static ParticleSurface of(Model model) {
        boolean gripped = false;
        boolean thick = false;
        for (int o = 0; o < model.objects().size(); o++) {
            gripped |= model.material(o).friction() != 1f;
            thick |= model.material(o).thickness() > 0f;
        }
        if (!gripped && !thick) {
            return PLAIN;
        }
        int n = model.particleCount();
        float[] g = gripped ? new float[n] : null;
        float[] t = thick ? new float[n] : null;
        for (int i = 0; i < n; i++) {
            Material m = model.material(model.objectOf(i));
            if (g != null) {
                g[i] = m.friction();
            }
            if (t != null) {
                t[i] = 0.5f * m.thickness();
            }
        }
        return new ParticleSurface(g, t);
    }

    /** Particle i's grip: the factor on a contact's friction coefficients. */
    public float grip(int i) {
        return grip == null ? 1f : grip[i];
    }

    /** Particle i's offset in m: half its sheet's thickness. */
    public float offset(int i) {
        return offset == null ? 0f : offset[i];
    }

    /** The largest offset of any particle (a broad phase's margin). */
    public float maxOffset() {
        return maxOffset;
    }

    /** True when every particle has grip 1. */
    public boolean plainGrip() {
        return grip == null;
    }
}
