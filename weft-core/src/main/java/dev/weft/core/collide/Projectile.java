package dev.weft.core.collide;

import dev.weft.core.InvalidInputException;
import dev.weft.core.util.Check;

/**
 * A rigid ball launched with a velocity (seed 001 §6.2, the cannonball), two-way coupled with the
 * cloth by mass: a contact that would move a particle of mass m by d moves it by d·M/(m + M) and the
 * ball by d·m/(m + M) the other way (the particle's share of the push and of its friction), so
 * momentum passes between them and is conserved. The ball flies under its own gravity.
 *
 * <p>The ball's reaction to each particle is written by the thread that handles the particle, into
 * that particle's slot; {@link #advance} sums the slots in index order before the next step (so the
 * ball's response lags one step, and the result does not depend on the thread count).
 * The path of each particle relative to the ball is tested (swept) against the ball grown by the
 * thickness, so a fast ball does not pass through the cloth.
 */
public final class Projectile extends Collider {
    private final float radius;
    private final float mass;
    private final float invMass;
    private final float[] gravity;
    private final float[] c = new float[3];
    private final float[] c0 = new float[3];
    private final float[] v = new float[3];
    private float stepDt;
    private volatile float[] reaction = new float[0];
    /**
     * The particles' inverse masses as the last collider pass saw them (a device solver hands them over with
     * the slots it read back): which slots hold a pinned particle's push (see {@link #combined}).
     */
    private volatile float[] slotInvMass;
    /** The step's combined reaction (advance's, kept to allocate nothing in a step). */
    private final float[] stepSum = new float[3];
    private Collider[] obstacles = new Collider[0];

    /**
     * @param center   initial centre
     * @param radius   m
     * @param mass     kg
     * @param velocity launch velocity, m/s
     * @param gravity  the ball's gravity (usually the environment's), m/s²
     */
    public Projectile(String name, float[] center, float radius, float mass, float[] velocity, float[] gravity,
                      float thickness, float friction) {
        super(name, thickness, friction);
        Check.vector3(name + ".center", center);
        System.arraycopy(center, 0, c, 0, 3);
        System.arraycopy(center, 0, c0, 0, 3);
        System.arraycopy(Check.vector3(name + ".velocity", velocity), 0, v, 0, 3);
        this.gravity = Check.vector3(name + ".gravity", gravity).clone();
        this.radius = Check.positive(name + ".radius", radius);
        this.mass = Check.positive(name + ".mass", mass);
        this.invMass = 1f / mass;
    }

    /**
     * Static colliders the ball itself rests on or bounces off inelastically (the floor, a box): after
     * each flight step it is moved out along the obstacle's distance gradient (central differences) and
     * loses its velocity into it. Configuration; returns this.
     */
    public Projectile withObstacles(Collider... colliders) {
        obstacles = colliders.clone();
        return this;
    }

    /** The ball's gravity, m/s² (a copy). */
    public float[] gravity() {
        return gravity.clone();
    }

    /** Flies from now on under {@code g} (m/s²): the scene's gravity changed. Configuration; returns this. */
    public Projectile withGravity(float[] g) {
        System.arraycopy(Check.vector3(name() + ".gravity", g), 0, gravity, 0, 3);
        return this;
    }

    public float radius() {
        return radius;
    }

    public float mass() {
        return mass;
    }

    /** Current centre, the cloth's pending reaction to the last step included. */
    public float[] center() {
        float[] r = pendingReaction();
        return new float[] {c[0] + r[0], c[1] + r[1], c[2] + r[2]};
    }

    /** Current velocity, the cloth's pending reaction to the last step included. */
    public float[] velocity() {
        float[] r = pendingReaction();
        float s = stepDt > 0f ? 1f / stepDt : 0f;
        return new float[] {v[0] + s * r[0], v[1] + s * r[1], v[2] + s * r[2]};
    }

    private float[] pendingReaction() {
        float[] sum = new float[3];
        combined(reaction, false, sum);
        return sum;
    }

    /**
     * The cloth's reaction in particle order: the free particles' momentum shares summed, and the pinned
     * particles' pushes averaged. A pinned particle cannot move, so each one the ball overlaps pushes it out by
     * the whole overlap; several of them along a rail or a wall push it out by about the same amount, and their
     * sum would throw the ball back many times faster than it came (a 14 m/s ball off a pinned wall left at
     * 26 m/s). Their mean moves it out of them once. {@code clear}: zero the slots (the step's advance). Into
     * {@code out}.
     */
    private void combined(float[] r, boolean clear, float[] out) {
        float[] w = slotInvMass;
        float rx = 0f;
        float ry = 0f;
        float rz = 0f;
        float px = 0f;
        float py = 0f;
        float pz = 0f;
        int pinned = 0;
        for (int i = 0; i < r.length; i += 3) {
            if (w != null && i / 3 < w.length && w[i / 3] == 0f) {
                if (r[i] != 0f || r[i + 1] != 0f || r[i + 2] != 0f) {
                    px += r[i];
                    py += r[i + 1];
                    pz += r[i + 2];
                    pinned++;
                }
            } else {
                rx += r[i];
                ry += r[i + 1];
                rz += r[i + 2];
            }
            if (clear) {
                r[i] = 0f;
                r[i + 1] = 0f;
                r[i + 2] = 0f;
            }
        }
        if (pinned > 0) {
            rx += px / pinned;
            ry += py / pinned;
            rz += pz / pinned;
        }
        out[0] = rx;
        out[1] = ry;
        out[2] = rz;
    }

    /**
     * The inverse masses of the particles whose reaction slots a device solver read back ({@link #reactionSlots}),
     * as its collider pass saw them: the CPU's pass records them itself.
     */
    public void useInverseMasses(float[] invMass) {
        slotInvMass = invMass;
    }

    @Override
    public boolean moving() {
        return true;
    }

    /** Centre, centre at the step's start, velocity, the last step and the reaction not yet applied. */
    @Override
    public byte[] saveState() {
        float[] r = pendingReaction();
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(13 * Float.BYTES);
        for (float f : new float[] {c[0], c[1], c[2], c0[0], c0[1], c0[2], v[0], v[1], v[2], stepDt, r[0], r[1], r[2]}) {
            b.putFloat(f);
        }
        return b.array();
    }

    @Override
    public void loadState(byte[] state) {
        if (state == null || state.length != 13 * Float.BYTES) {
            throw new InvalidInputException(name() + ".state", "a projectile's state is " + 13 * Float.BYTES
                    + " bytes, the checkpoint has " + (state == null ? "none" : state.length + ""));
        }
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(state);
        for (int k = 0; k < 3; k++) {
            c[k] = b.getFloat();
        }
        for (int k = 0; k < 3; k++) {
            c0[k] = b.getFloat();
        }
        for (int k = 0; k < 3; k++) {
            v[k] = b.getFloat();
        }
        stepDt = b.getFloat();
        // the pending reaction as one sum: advance() adds it up in particle order, and x + 0 is exact
        reaction = new float[] {b.getFloat(), b.getFloat(), b.getFloat()};
    }

    /** Applies the cloth's reaction to the last step, then flies the ball over [time, time + dt]. */
    @Override
    public void advance(double time, float dt) {
        combined(reaction, true, stepSum);
        float rx = stepSum[0];
        float ry = stepSum[1];
        float rz = stepSum[2];
        if (stepDt > 0f) {
            c[0] += rx;
            c[1] += ry;
            c[2] += rz;
            v[0] += rx / stepDt;
            v[1] += ry / stepDt;
            v[2] += rz / stepDt;
        }
        System.arraycopy(c, 0, c0, 0, 3);
        for (int k = 0; k < 3; k++) {
            v[k] += dt * gravity[k];
            c[k] += dt * v[k];
        }
        for (Collider o : obstacles) {
            float d = o.signedDistance(c[0], c[1], c[2]) - radius;
            if (d >= 0f) {
                continue;
            }
            float e = 1e-3f;
            float nx = o.signedDistance(c[0] + e, c[1], c[2]) - o.signedDistance(c[0] - e, c[1], c[2]);
            float ny = o.signedDistance(c[0], c[1] + e, c[2]) - o.signedDistance(c[0], c[1] - e, c[2]);
            float nz = o.signedDistance(c[0], c[1], c[2] + e) - o.signedDistance(c[0], c[1], c[2] - e);
            float len = (float) Math.sqrt(nx * nx + ny * ny + nz * nz);
            if (!(len > 0f)) {
                continue;
            }
            nx /= len;
            ny /= len;
            nz /= len;
            c[0] -= d * nx;
            c[1] -= d * ny;
            c[2] -= d * nz;
            float vn = v[0] * nx + v[1] * ny + v[2] * nz;
            if (vn < 0f) {
                v[0] -= vn * nx;
                v[1] -= vn * ny;
                v[2] -= vn * nz;
            }
        }
        stepDt = dt;
    }

    @Override
    public float signedDistance(float x, float y, float z) {
        float dx = x - c[0];
        float dy = y - c[1];
        float dz = z - c[2];
        return (float) Math.sqrt(dx * dx + dy * dy + dz * dz) - radius;
    }

    /**
     * Writes what a device's collider pass needs of the ball this step (colliders.cl's collide_ball): its centre
     * now (0-2) and at the step's start (3-5), radius (6), thickness (7), friction (8, 9) and inverse mass (10).
     * Allocates nothing.
     */
    public void writeDeviceRecord(float[] out, int at) {
        System.arraycopy(c, 0, out, at, 3);
        System.arraycopy(c0, 0, out, at + 3, 3);
        out[at + 6] = radius;
        out[at + 7] = thickness;
        out[at + 8] = staticFriction;
        out[at + 9] = kineticFriction;
        out[at + 10] = invMass;
    }

    /**
     * The per-particle reaction slots (3 floats a particle, {@code length} in all) that {@link #collide} fills and
     * {@link #advance} sums in particle order: a device solver uploads them before its collider pass and reads
     * its pass's slots back into this very array, so the ball moves by the CPU's sum. Made (zero) when the
     * length changes, as for the CPU pass.
     */
    public float[] reactionSlots(int length) {
        return reactionFor(length);
    }

    private float[] reactionFor(int length) {
        float[] r = reaction;
        if (r.length != length) {
            synchronized (this) {
                r = reaction;
                if (r.length != length) {
                    r = new float[length]; // first step only: sized to the model
                    reaction = r;
                }
            }
        }
        return r;
    }

    @Override
    public void collide(float[] x, float[] prev, float[] w, ParticleSurface surface, int begin, int end) {
        float[] react = reactionFor(x.length);
        if (slotInvMass != w) {
            slotInvMass = w; // once per model: the threads' ranges all pass the same array, so none writes after
        }
        float sx = c[0] - c0[0];
        float sy = c[1] - c0[1];
        float sz = c[2] - c0[2];
        for (int i = begin; i < end; i++) {
            int i3 = 3 * i;
            // the ball grown by its thickness and half the particle's sheet
            float reach = radius + (thickness + surface.offset(i));
            float reach2 = reach * reach;
            // the particle's path relative to the ball: a (start, ball at c0) to b (end, ball at c)
            float ax = prev[i3] - c0[0];
            float ay = prev[i3 + 1] - c0[1];
            float az = prev[i3 + 2] - c0[2];
            float bx = x[i3] - c[0];
            float by = x[i3 + 1] - c[1];
            float bz = x[i3 + 2] - c[2];
            float nx;
            float ny;
            float nz;
            float depth;
            float a2 = ax * ax + ay * ay + az * az;
            float b2 = bx * bx + by * by + bz * bz;
            float t = a2 >= reach2 ? entry(ax, ay, az, bx - ax, by - ay, bz - az, reach2) : -1f;
            if (t >= 0f) {
                // entered the grown ball during the step: the tangent plane at the entry point
                float hx = ax + t * (bx - ax);
                float hy = ay + t * (by - ay);
                float hz = az + t * (bz - az);
                float inv = 1f / (float) Math.sqrt(hx * hx + hy * hy + hz * hz);
                nx = hx * inv;
                ny = hy * inv;
                nz = hz * inv;
                depth = reach - (bx * nx + by * ny + bz * nz);
            } else if (b2 < reach2) {
                float d = (float) Math.sqrt(b2);
                if (d < 1e-12f) {
                    nx = 0f;
                    ny = 1f;
                    nz = 0f;
                } else {
                    nx = bx / d;
                    ny = by / d;
                    nz = bz / d;
                }
                depth = reach - d;
            } else {
                continue;
            }
            if (!(depth > 0f)) {
                continue;
            }
            float wp = w[i];
            if (wp == 0f) {
                // a pinned particle is immovable: the ball takes the whole push, once a step. Neither moves
                // between a step's collider passes (relaxation runs one per pass), so each pass sees the same
                // depth: set, not added (added, a ball thrown at 14 m/s onto a pinned rail came back at 82 m/s)
                react[i3] = 0f - depth * nx;
                react[i3 + 1] = 0f - depth * ny;
                react[i3 + 2] = 0f - depth * nz;
                continue;
            }
            float share = wp / (wp + invMass);
            float push = share * depth;
            float dx = push * nx;
            float dy = push * ny;
            float dz = push * nz;
            float g = surface.grip(i);
            if (staticFriction > 0f && g > 0f) {
                // tangential motion relative to the ball's surface, limited by μ times this share's push
                float rx = x[i3] + dx - prev[i3] - sx;
                float ry = x[i3 + 1] + dy - prev[i3 + 1] - sy;
                float rz = x[i3 + 2] + dz - prev[i3 + 2] - sz;
                float rn = rx * nx + ry * ny + rz * nz;
                float tx = rx - rn * nx;
                float ty = ry - rn * ny;
                float tz = rz - rn * nz;
                float t2 = tx * tx + ty * ty + tz * tz;
                if (t2 > 0f) {
                    float f = CoulombFriction.removedShare((float) Math.sqrt(t2), push, g * staticFriction,
                            g * kineticFriction, 1f);
                    // the particle's share of removing the relative slip; the ball takes the rest
                    dx -= share * f * tx;
                    dy -= share * f * ty;
                    dz -= share * f * tz;
                }
            }
            x[i3] += dx;
            x[i3 + 1] += dy;
            x[i3 + 2] += dz;
            // equal and opposite momentum: the ball moves by −(m / M) times the particle's correction
            float ratio = invMass / wp;
            react[i3] -= ratio * dx;
            react[i3 + 1] -= ratio * dy;
            react[i3 + 2] -= ratio * dz;
        }
    }

    /** First t in [0, 1] with |a + t u|² = r2 for a outside, or −1. */
    private static float entry(float ax, float ay, float az, float ux, float uy, float uz, float r2) {
        float uu = ux * ux + uy * uy + uz * uz;
        if (uu < 1e-30f) {
            return -1f;
        }
        float au = ax * ux + ay * uy + az * uz;
        if (au >= 0f) {
            return -1f; // moving away from the centre
        }
        float aa = ax * ax + ay * ay + az * az;
        float disc = au * au - uu * (aa - r2);
        if (disc < 0f) {
            return -1f;
        }
        float t = (-au - (float) Math.sqrt(disc)) / uu;
        return t >= 0f && t <= 1f ? t : -1f;
    }
}
