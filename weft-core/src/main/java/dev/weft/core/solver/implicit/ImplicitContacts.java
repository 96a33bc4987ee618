package dev.weft.core.solver.implicit;

import dev.weft.core.InvalidInputException;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.CoulombFriction;
import dev.weft.core.collide.ParticleSurface;
import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.contact.ParticleContacts;
import dev.weft.core.model.Model;
import dev.weft.core.step.Environment;
import java.util.ArrayList;
import java.util.List;

/**
 * The implicit solver's contacts as constraints in its filter S (seed 000 §4.5, Baraff and Witkin §5):
 * which particles a plane or their cloth partners hold this step, the normal velocity they prescribe,
 * the release test (a contact that would have to pull lets go) and Coulomb friction on the velocity
 * after the solve, with the step's normal impulse. The colliders that are not planes act after the step
 * as position projections ({@link #otherColliders}). See {@link ImplicitSolver}'s class comment for
 * the rules; this class owns the per-particle contact state, the solver the linear system.
 */
final class ImplicitContacts {
    /** A particle this close to a plane (beyond its thickness), in metres, is in contact. */
    static final float CONTACT_SLOP = 1e-5f;
    /**
     * Partners within this many contact distances constrain a particle through S: the projection after
     * the step leaves pairs a little inside the contact distance (Jacobi sweeps, averaged), and a
     * margin of 5 % also takes in pairs that the last step's correction left just outside it.
     */
    static final float PARTICLE_REACH = 1.05f;
    private static final byte PLANE_CONTACT = 1;
    private static final byte PARTICLE_CONTACT = 2;

    private ParticleSurface surface = ParticleSurface.PLAIN;
    private byte[] contact;
    /** Inverse mass as cloth contacts see it: 0 for a particle held by a pin, a user constraint or a plane. */
    private float[] contactInvMass;
    /** Per particle in cloth contact through S: its partners' mean velocity at the start of the step. */
    private float[] partnerVelocity;
    /** Per particle in cloth contact through S: its grip times its partners' mean (friction's factor). */
    private float[] partnerGrip;
    /** Per particle in contact: which of {@link #planeColliders} (for its normal and friction). */
    private int[] contactPlane;
    /** Contacts released by the pull test: they stay free until they move clear. */
    private byte[] released;
    /** Released-contact flags from {@link #load}, applied when the model is bound. */
    private byte[] pendingReleased;

    private Environment boundEnvironment;
    private Collider[] planeColliders = new Collider[0];
    private double[] planeNormal = new double[0];
    private Collider[] otherColliders = new Collider[0];

    /** The cloth contacts of this step, or null. */
    private ParticleContacts cloth;
    private final ThreadLocal<double[]> clothNormal = ThreadLocal.withInitial(() -> new double[8]);

    /**
     * Sizes the per-particle state for {@code m}. The released flags survive an edit (a split keeps every
     * particle's index and appends copies, which start as the particle they were split from) and take a
     * checkpoint's where one was loaded.
     */
    void bind(Model m, ParticleSurface particleSurface) {
        int n = m.particleCount();
        surface = particleSurface;
        contact = new byte[n];
        contactInvMass = new float[n];
        partnerVelocity = new float[3 * n];
        partnerGrip = new float[n];
        contactPlane = new int[n];
        byte[] before = released;
        released = new byte[n];
        if (before != null && before.length < n && m.sourceOf(n - 1) != n - 1) {
            System.arraycopy(before, 0, released, 0, before.length);
            for (int i = before.length; i < n; i++) {
                released[i] = released[m.sourceOf(i)];
            }
        }
        if (pendingReleased != null) {
            if (pendingReleased.length != n) {
                throw new InvalidInputException("solver state", "the checkpoint's implicit solver state is for "
                        + pendingReleased.length + " particles, the model has " + n);
            }
            System.arraycopy(pendingReleased, 0, released, 0, n);
            pendingReleased = null;
        }
    }

    /** Splits the environment's colliders into planes (constraints in S, by their {@link Collider#plane()}) and the rest. */
    void bind(Environment env) {
        if (env == boundEnvironment) {
            return;
        }
        boundEnvironment = env;
        List<Collider> planes = new ArrayList<>();
        List<Collider> others = new ArrayList<>();
        for (Collider c : env.colliders()) {
            (c.plane() != null ? planes : others).add(c);
        }
        planeColliders = planes.toArray(new Collider[0]);
        otherColliders = others.toArray(new Collider[0]);
        planeNormal = new double[3 * planeColliders.length];
        for (int k = 0; k < planeColliders.length; k++) {
            float[] plane = planeColliders[k].plane();
            planeNormal[3 * k] = plane[0];
            planeNormal[3 * k + 1] = plane[1];
            planeNormal[3 * k + 2] = plane[2];
        }
    }

    /** Forces a rebind of the environment (after the model changed, the solver binds both again). */
    void unbindEnvironment() {
        boundEnvironment = null;
    }

    /** The colliders that act after the step, as position projections. */
    Collider[] otherColliders() {
        return otherColliders;
    }

    /** The cloth contacts for this step (null: none). */
    void useClothContacts(ParticleContacts contacts) {
        cloth = contacts;
    }

    /** Particle i is held by a pin or a user constraint: no contact, immovable for its cloth partners. */
    void held(int i) {
        contact[i] = 0;
        contactInvMass[i] = 0f;
    }

    /**
     * Free particle i (inverse mass {@code w}) against the planes: the first it touches (within the slop,
     * not moving away, not released last step) gets its normal as i's constrained direction in S with no
     * normal velocity (z); a particle inside the plane's shell is put back on it first.
     */
    void constrainToPlanes(int i, float w, float[] x, float[] v, double h, ParticleFilter f, double[] z) {
        int i3 = 3 * i;
        contact[i] = 0;
        double vx = v[i3];
        double vy = v[i3 + 1];
        double vz = v[i3 + 2];
        for (int k = 0; k < planeColliders.length; k++) {
            Collider c = planeColliders[k];
            float d = c.signedDistance(x[i3], x[i3 + 1], x[i3 + 2]) - (c.thickness() + surface.offset(i));
            if (d > CONTACT_SLOP || (released[i] != 0 && d > -CONTACT_SLOP)) {
                continue;
            }
            double nx = planeNormal[3 * k];
            double ny = planeNormal[3 * k + 1];
            double nz = planeNormal[3 * k + 2];
            double vn = vx * nx + vy * ny + vz * nz;
            if (vn > CONTACT_SLOP / h) {
                continue; // leaving the plane
            }
            if (d < 0f) {
                // Penetrated during the last step: back onto the surface (the constraint keeps it
                // there), rather than a push-out velocity that would outlive the contact.
                x[i3] -= (float) (d * nx);
                x[i3 + 1] -= (float) (d * ny);
                x[i3 + 2] -= (float) (d * nz);
            }
            f.constrainToPlane(i, nx, ny, nz);
            double dvn = -vn; // no normal velocity while in contact
            z[i3] = dvn * nx;
            z[i3 + 1] = dvn * ny;
            z[i3 + 2] = dvn * nz;
            contact[i] = PLANE_CONTACT;
            contactPlane[i] = k;
            break;
        }
        contactInvMass[i] = contact[i] == 0 ? w : 0f;
    }

    /**
     * Cloth contact through S for particle i, if the plane and user pass left it free (the solver's class
     * comment): n as the constrained direction, z the change to the target normal velocity. A partner held
     * by a pin, a user constraint or a plane counts as immovable (its normal velocity is the target), any
     * other shares the pair's centre-of-mass velocity. Reads neighbours' positions, velocities and held
     * state, writes only particle i's filter block, z and contact state.
     *
     * @param free       i is neither pinned nor under a user constraint
     * @param separating a normal speed away from the partners below which the contact is still resting
     */
    void constrainToCloth(int i, boolean free, float[] x, float[] v, float separating, ParticleFilter f,
                          double[] z) {
        double[] nv = clothNormal.get();
        if (!free || contact[i] != 0 || released[i] != 0
                || !cloth.normalConstraint(i, x, v, contactInvMass, PARTICLE_REACH, separating, nv)) {
            return;
        }
        int i3 = 3 * i;
        double vn = v[i3] * nv[0] + v[i3 + 1] * nv[1] + v[i3 + 2] * nv[2];
        double dvn = nv[3] - vn;
        f.constrainToPlane(i, nv[0], nv[1], nv[2]);
        z[i3] = dvn * nv[0];
        z[i3 + 1] = dvn * nv[1];
        z[i3 + 2] = dvn * nv[2];
        contact[i] = PARTICLE_CONTACT;
        partnerVelocity[i3] = (float) nv[4];
        partnerVelocity[i3 + 1] = (float) nv[5];
        partnerVelocity[i3 + 2] = (float) nv[6];
        partnerGrip[i] = (float) nv[7];
    }

    /** Whether particle i was constrained by a contact this step. */
    boolean inContact(int i) {
        return contact[i] != 0;
    }

    /** A pinned particle has no released contact to remember. */
    void forget(int i) {
        released[i] = 0;
    }

    /**
     * After the solve, for particle i in contact with mass {@code mass}: its new velocity in {@code nv}
     * (3 values, changed in place) and the contact's normal impulse over the step {@code push} (negative:
     * the contact would have pulled). A pulling contact is released for the next step; a pushing one
     * applies Coulomb friction with that impulse, to the velocity (a plane's, planes taken as still) or to
     * the velocity relative to the cloth partners' mean at the start of the step (along S's direction).
     */
    void afterSolve(int i, double push, double mass, ParticleFilter f, double[] nv) {
        released[i] = 0;
        if (push < 0.0) {
            released[i] = 1;
            return;
        }
        if (push == 0.0) {
            return;
        }
        double rx = nv[0];
        double ry = nv[1];
        double rz = nv[2];
        double nx;
        double ny;
        double nz;
        double mu;
        double muKinetic;
        if (contact[i] == PLANE_CONTACT) {
            int k = contactPlane[i];
            nx = planeNormal[3 * k];
            ny = planeNormal[3 * k + 1];
            nz = planeNormal[3 * k + 2];
            double g = surface.grip(i);
            mu = g * planeColliders[k].staticFriction();
            muKinetic = g * planeColliders[k].kineticFriction();
        } else {
            int i3 = 3 * i;
            nx = f.px(i);
            ny = f.py(i);
            nz = f.pz(i);
            rx -= partnerVelocity[i3];
            ry -= partnerVelocity[i3 + 1];
            rz -= partnerVelocity[i3 + 2];
            ParticleContactSettings cs = cloth.settings();
            // the pair's grip: both bodies' materials, as the position-based contacts take it
            double g = partnerGrip[i];
            mu = g * cs.staticFriction();
            muKinetic = g * cs.kineticFriction();
        }
        double rn = rx * nx + ry * ny + rz * nz;
        double tx = rx - rn * nx;
        double ty = ry - rn * ny;
        double tz = rz - rn * nz;
        double vt = Math.sqrt(tx * tx + ty * ty + tz * tz);
        double removed = CoulombFriction.removedShare(vt, push / mass, mu, muKinetic);
        nv[0] -= removed * tx;
        nv[1] -= removed * ty;
        nv[2] -= removed * tz;
    }

    /** Particles held by a plane this step. */
    int planeContactCount() {
        return count(PLANE_CONTACT);
    }

    /** Particles held by cloth contacts through S this step. */
    int clothContactCount() {
        return count(PARTICLE_CONTACT);
    }

    private int count(byte kind) {
        int k = 0;
        for (byte c : contact) {
            k += c == kind ? 1 : 0;
        }
        return k;
    }

    /** The released flags (carried between steps), or null before anything was bound or loaded. */
    byte[] save() {
        return released == null ? (pendingReleased == null ? null : pendingReleased.clone()) : released.clone();
    }

    /**
     * Restores the released flags; returns false when they are for another particle count than the bound
     * model's (or nothing is bound yet): then they apply at the next {@link #bind(Model, ParticleSurface)}.
     */
    boolean load(byte[] state) {
        if (released != null && state.length == released.length) {
            System.arraycopy(state, 0, released, 0, state.length);
            return true;
        }
        pendingReleased = state.clone();
        return false;
    }
}
