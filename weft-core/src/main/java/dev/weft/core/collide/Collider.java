package dev.weft.core.collide;

import dev.weft.core.InvalidInputException;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelEdit;
import dev.weft.core.util.Check;
import java.util.List;

/**
 * A shape that particles stay out of. Each collider keeps particles at least {@code thickness}
 * from its surface (projection along the surface normal) and applies Coulomb friction to the motion
 * made during the step relative to the surface, position-based as seed 001 §5.3.6: the normal push
 * {@code depth} stands for the normal impulse, so a tangential displacement shorter than
 * {@code staticFriction × depth} is removed entirely (the particle sticks) and a longer one is
 * shortened by {@code kineticFriction × depth} (it slides).
 *
 * <p>Solvers call {@link #collide} per particle range, possibly on several threads at once: it must
 * only read shared state. A moving collider changes its pose in {@link #advance}, which the
 * simulation calls before each step (see {@code Environment.advanceColliders}).
 */
public abstract class Collider {
    private final String name;
    protected final float thickness;
    protected float staticFriction;
    protected float kineticFriction;

    /** One friction coefficient for both sticking and sliding. */
    protected Collider(String name, float thickness, float friction) {
        this(name, thickness, friction, friction);
    }

    protected Collider(String name, float thickness, float staticFriction, float kineticFriction) {
        this.name = name;
        this.thickness = Check.nonNegative(name + ".thickness", thickness);
        setFriction(staticFriction, kineticFriction);
    }

    /**
     * Sets distinct static and kinetic coefficients (kinetic ≤ static). Configuration: call before the
     * collider is used in a simulation. Returns this collider.
     */
    public Collider withFriction(float staticCoefficient, float kineticCoefficient) {
        setFriction(staticCoefficient, kineticCoefficient);
        return this;
    }

    private void setFriction(float staticCoefficient, float kineticCoefficient) {
        Check.nonNegative(name + ".staticFriction", staticCoefficient);
        Check.nonNegative(name + ".kineticFriction", kineticCoefficient);
        if (kineticCoefficient > staticCoefficient) {
            throw new InvalidInputException(name + ".kineticFriction", "must not exceed the static friction "
                    + "coefficient " + staticCoefficient + ", got " + kineticCoefficient);
        }
        staticFriction = staticCoefficient;
        kineticFriction = kineticCoefficient;
    }

    public String name() {
        return name;
    }

    public float thickness() {
        return thickness;
    }

    /** The kinetic (sliding) friction coefficient. */
    public float friction() {
        return kineticFriction;
    }

    public float staticFriction() {
        return staticFriction;
    }

    public float kineticFriction() {
        return kineticFriction;
    }

    /** Signed distance from the surface at the current pose: negative inside. */
    public abstract float signedDistance(float x, float y, float z);

    /**
     * Projects particles [begin, end) out of the collider. {@code prev} holds the positions at the start
     * of the step (for friction and swept tests); particles with zero inverse mass are left alone.
     * {@code surface} says what each particle's body brings: its grip scales this collider's friction
     * coefficients (the pair's coefficient is their product), its offset (half the sheet's thickness)
     * adds to this collider's thickness.
     */
    public abstract void collide(float[] x, float[] prev, float[] invMass, ParticleSurface surface, int begin,
                                 int end);

    /** {@link #collide(float[], float[], float[], ParticleSurface, int, int)} for plain particles. */
    public final void collide(float[] x, float[] prev, float[] invMass, int begin, int end) {
        collide(x, prev, invMass, ParticleSurface.PLAIN, begin, end);
    }

    /**
     * Moves the collider to its pose for the step [time, time + dt]: {@link #collide} then treats the
     * pose at {@code time} as where the surface was at the step's start and the pose at
     * {@code time + dt} as where it is now. Static colliders ignore it.
     */
    public void advance(double time, float dt) {
    }

    /**
     * Moves particles this collider drives (attachment points of a kinematic body) to where the pose
     * of the last {@link #advance} puts them; called right after it, before the step. Default: none.
     */
    public void driveParticles(float[] x) {
    }

    /**
     * Topology edits this collider makes after a frame at positions {@code x} of {@code model} (a blade
     * cuts what it swept); none by default. The simulation applies them with tearing's.
     */
    public List<ModelEdit> topologyEdits(Model model, float[] x) {
        return List.of();
    }

    /**
     * What this collider carries from one step to the next that is not a function of time (a
     * projectile's flight, its pending reaction), for a checkpoint; null when nothing (static colliders
     * and those moved by a {@code Motion}, whose pose follows from the time).
     */
    public byte[] saveState() {
        return null;
    }

    /** Restores what {@link #saveState} wrote. */
    public void loadState(byte[] state) {
        if (state != null) {
            throw new InvalidInputException(name + ".state", "this collider carries no state, the checkpoint has "
                    + state.length + " bytes for it");
        }
    }

    /** True when {@link #advance} can change the pose. */
    public boolean moving() {
        return false;
    }

    /**
     * The still infinite plane this collider is, as {nx, ny, nz, offset} (unit outward normal, n·x =
     * offset on it), or null for any other shape. A solver that treats plane contacts as constraints
     * (the implicit solver's filter S, seed 000 §4.5) asks this rather than testing the class or
     * probing {@link #signedDistance}.
     */
    public float[] plane() {
        return null;
    }

    /** Friction against a static surface; see {@link #respond(float[], float[], int, float, float, float, float, float, float, float, float)}. */
    protected final void respond(float[] x, float[] prev, int i3, float nx, float ny, float nz, float depth,
                                 float grip) {
        respond(x, prev, i3, nx, ny, nz, depth, 0f, 0f, 0f, grip);
    }

    /**
     * Moves particle {@code i3 / 3} by {@code depth} along the unit normal n, then applies friction
     * (the coefficients times {@code grip}) to its tangential motion since {@code prev} relative to the
     * surface, which moved by (sx, sy, sz) at the contact during the step.
     */
    protected final void respond(float[] x, float[] prev, int i3, float nx, float ny, float nz, float depth,
                                 float sx, float sy, float sz, float grip) {
        float px = x[i3] + depth * nx;
        float py = x[i3 + 1] + depth * ny;
        float pz = x[i3 + 2] + depth * nz;
        if (staticFriction > 0f && grip > 0f && depth > 0f) {
            float dx = px - prev[i3] - sx;
            float dy = py - prev[i3 + 1] - sy;
            float dz = pz - prev[i3 + 2] - sz;
            float dn = dx * nx + dy * ny + dz * nz;
            float tx = dx - dn * nx;
            float ty = dy - dn * ny;
            float tz = dz - dn * nz;
            float t2 = tx * tx + ty * ty + tz * tz;
            if (t2 > 0f) {
                // static: the particle keeps its place on the surface; kinetic: it slides
                float scale = CoulombFriction.removedShare((float) Math.sqrt(t2), depth, grip * staticFriction,
                        grip * kineticFriction, 1f);
                px -= scale * tx;
                py -= scale * ty;
                pz -= scale * tz;
            }
        }
        x[i3] = px;
        x[i3 + 1] = py;
        x[i3 + 2] = pz;
    }
}
