package dev.weft.core.collide;

import dev.weft.core.util.Check;

/**
 * A collider whose shape is fixed in its own (local) frame and placed in the world by a rigid pose,
 * which a {@link Motion} may change over time. Subclasses give the exact signed distance and the
 * outward normal at the closest surface point in local coordinates; this class does the rest:
 *
 * <ul>
 *   <li>a <b>swept test</b>: the particle's path over the step, taken relative to the body (from
 *   the start position in the body's start pose to the end position in its end pose), is advanced
 *   conservatively by the exact distance (a 1-Lipschitz function, so no step can jump the surface)
 *   until it touches the surface. A particle that touched is put back on the side it came from,
 *   {@code thickness} off the tangent plane at the touch point; so neither fast particles nor fast
 *   colliders tunnel, whatever the step;</li>
 *   <li>otherwise the <b>closest-point projection</b> moves a particle inside the thickness straight
 *   out along the normal, to exactly {@code thickness} from the surface;</li>
 *   <li>friction against the surface's own motion at the contact point.</li>
 * </ul>
 *
 * <p>A <em>solid</em> has an inside (negative distance); a <em>shell</em> (a bounded plane, the
 * funnel) is a two-sided surface: particles stay on whichever side they were.
 */
public abstract class RigidCollider extends Collider {
    /** Most conservative-advancement steps per particle; only grazing paths come near it. */
    private static final int MAX_SWEEP_STEPS = 32;

    private final boolean shell;
    /** Current pose: rotation (row-major) and translation; and the pose at the step's start. */
    private final float[] rot = new float[9];
    private final float[] trans = new float[3];
    private final float[] rot0 = new float[9];
    private final float[] trans0 = new float[3];
    private final float[] pose = new float[7];
    private Motion motion;
    /** Per-thread scratch: a normal (0..2); the side a touching path came from (3). */
    private final ThreadLocal<float[]> scratch = ThreadLocal.withInitial(() -> new float[4]);

    protected RigidCollider(String name, float[] position, boolean shell, float thickness, float friction) {
        super(name, thickness, friction);
        this.shell = shell;
        Check.vector3(name + ".position", position);
        pose[0] = position[0];
        pose[1] = position[1];
        pose[2] = position[2];
        pose[3] = 1f;
        applyPose(rot, trans);
        applyPose(rot0, trans0);
    }

    /** Local signed distance of (x, y, z); writes the outward unit normal at the closest point to n[0..2]. */
    protected abstract float localDistance(float x, float y, float z, float[] n);

    /** Radius of a ball about the local origin that holds the whole surface. */
    public abstract float boundingRadius();

    /**
     * True when the solid (for a shell: each side's complement) is convex, so that the tangent plane
     * at a contact keeps a particle clear of the whole surface. A curved shell says false and gets a
     * second, closest-point projection after friction moved the particle along the tangent plane.
     */
    protected boolean convex() {
        return true;
    }

    /** Turns the body by the unit quaternion (w, x, y, z) about its origin. Configuration; returns this. */
    public RigidCollider withOrientation(float[] quaternion) {
        float[] q = Quaternions.normalized(name() + ".orientation", quaternion);
        System.arraycopy(q, 0, pose, 3, 4);
        applyPose(rot, trans);
        applyPose(rot0, trans0);
        return this;
    }

    /** Places the body's origin at {@code position} (m). Configuration; returns this. */
    public RigidCollider withPosition(float[] position) {
        System.arraycopy(Check.vector3(name() + ".position", position), 0, pose, 0, 3);
        applyPose(rot, trans);
        applyPose(rot0, trans0);
        return this;
    }

    /** Makes the body follow {@code m} (its pose at time 0 from now on). Configuration; returns this. */
    public RigidCollider withMotion(Motion m) {
        motion = m;
        m.poseAt(0.0, pose);
        applyPose(rot, trans);
        applyPose(rot0, trans0);
        return this;
    }

    /** Moves with constant linear velocity (m/s) and angular velocity (rad/s, world frame) from its pose. */
    public RigidCollider withVelocity(float[] velocity, float[] angularVelocity) {
        float[] position = {pose[0], pose[1], pose[2]};
        float[] q = {pose[3], pose[4], pose[5], pose[6]};
        return withMotion(new ConstantVelocityMotion(position, q, velocity, angularVelocity));
    }

    @Override
    public boolean moving() {
        return motion != null;
    }

    @Override
    public void advance(double time, float dt) {
        if (motion == null) {
            return;
        }
        motion.poseAt(time, pose);
        applyPose(rot0, trans0);
        motion.poseAt(time + dt, pose);
        applyPose(rot, trans);
    }

    private void applyPose(float[] r, float[] t) {
        Quaternions.toMatrix(pose, 3, r);
        t[0] = pose[0];
        t[1] = pose[1];
        t[2] = pose[2];
    }

    /** The body's current orientation as a row-major 3 × 3 matrix R (world = R · local + position), a copy. */
    public float[] rotation() {
        return rot.clone();
    }

    /** The body origin's current position. */
    public float[] position() {
        return trans.clone();
    }

    /** Writes the current pose, the origin (3) then the rotation (9, row-major), at {@code out[at]}. Allocates nothing. */
    public void writePose(float[] out, int at) {
        System.arraycopy(trans, 0, out, at, 3);
        System.arraycopy(rot, 0, out, at + 3, 9);
    }

    /**
     * Writes the current pose, the origin (3) then the rotation (9, row-major), at {@code out[at]}, and the
     * pose at the step's start the same way at {@code out[startAt]} (what {@link #collide} projects with;
     * a device backend uploads them each step). Allocates nothing.
     */
    public void writePoses(float[] out, int at, int startAt) {
        System.arraycopy(trans, 0, out, at, 3);
        System.arraycopy(rot, 0, out, at + 3, 9);
        System.arraycopy(trans0, 0, out, startAt, 3);
        System.arraycopy(rot0, 0, out, startAt + 3, 9);
    }

    /**
     * Signed distance at the current pose; a shell has no inside, so it reports the unsigned distance
     * (as {@link MeshCollider} does) and {@link #sideDistance} tells the sides apart.
     */
    @Override
    public float signedDistance(float x, float y, float z) {
        float d = sideDistance(x, y, z);
        return shell ? Math.abs(d) : d;
    }

    /** Distance signed by side: for a solid, negative inside; for a shell, negative on its − side. */
    public float sideDistance(float x, float y, float z) {
        float dx = x - trans[0];
        float dy = y - trans[1];
        float dz = z - trans[2];
        float[] r = rot;
        return localDistance(r[0] * dx + r[3] * dy + r[6] * dz, r[1] * dx + r[4] * dy + r[7] * dz,
                r[2] * dx + r[5] * dy + r[8] * dz, scratch.get());
    }

    @Override
    public void collide(float[] x, float[] prev, float[] invMass, ParticleSurface surface, int begin, int end) {
        float[] n = scratch.get();
        float[] r = rot;
        float[] r0 = rot0;
        float reach = boundingRadius() + (thickness + surface.maxOffset());
        float reach2 = reach * reach;
        float eps = Math.max(1e-6f, 0.05f * thickness);
        // a still collider's pose is the same at both ends of the step, and a rotation keeps distances, so
        // its broad phase can run in the world frame without rotating: a little wider than the body-frame
        // test below (0.1 % of the reach, plus 10⁻⁶ of the path's size for the rounding of the rotation),
        // so that every particle it passes on is one that test would pass on too: the same bits, less work
        boolean still = motion == null;
        float wide = reach * 1.001f;
        float wide2 = wide * wide;
        for (int i = begin; i < end; i++) {
            if (invMass[i] == 0f) {
                continue;
            }
            int i3 = 3 * i;
            if (still) {
                float qx = prev[i3] - trans[0];
                float qy = prev[i3 + 1] - trans[1];
                float qz = prev[i3 + 2] - trans[2];
                float vx = (x[i3] - trans[0]) - qx;
                float vy = (x[i3 + 1] - trans[1]) - qy;
                float vz = (x[i3 + 2] - trans[2]) - qz;
                float v2 = vx * vx + vy * vy + vz * vz;
                float t = v2 > 0f ? Math.max(0f, Math.min(1f, -(qx * vx + qy * vy + qz * vz) / v2)) : 0f;
                float kx = qx + t * vx;
                float ky = qy + t * vy;
                float kz = qz + t * vz;
                float slack = 1e-12f * (qx * qx + qy * qy + qz * qz + v2);
                if (kx * kx + ky * ky + kz * kz >= wide2 + slack) {
                    continue;
                }
            }
            // this particle's distance to keep: the collider's thickness and half its sheet's
            float th = thickness + surface.offset(i);
            float g = surface.grip(i);
            // end point in the current body frame, start point in the body frame at the step's start
            float dx = x[i3] - trans[0];
            float dy = x[i3 + 1] - trans[1];
            float dz = x[i3 + 2] - trans[2];
            float bx = r[0] * dx + r[3] * dy + r[6] * dz;
            float by = r[1] * dx + r[4] * dy + r[7] * dz;
            float bz = r[2] * dx + r[5] * dy + r[8] * dz;
            dx = prev[i3] - trans0[0];
            dy = prev[i3 + 1] - trans0[1];
            dz = prev[i3 + 2] - trans0[2];
            float ax = r0[0] * dx + r0[3] * dy + r0[6] * dz;
            float ay = r0[1] * dx + r0[4] * dy + r0[7] * dz;
            float az = r0[2] * dx + r0[5] * dy + r0[8] * dz;
            float ux = bx - ax;
            float uy = by - ay;
            float uz = bz - az;
            float len2 = ux * ux + uy * uy + uz * uz;
            // broad phase: the relative path stays outside the bounding ball grown by the thickness
            float s = len2 > 0f ? Math.max(0f, Math.min(1f, -(ax * ux + ay * uy + az * uz) / len2)) : 0f;
            float cx = ax + s * ux;
            float cy = ay + s * uy;
            float cz = az + s * uz;
            if (cx * cx + cy * cy + cz * cz >= reach2) {
                continue;
            }
            float sdA = localDistance(ax, ay, az, n);
            float len = (float) Math.sqrt(len2);
            boolean sweep = shell || sdA >= 0f;
            float t = sweep ? touch(ax, ay, az, ux, uy, uz, len, sdA, eps, n) : -1f;
            float side;
            if (t >= 0f) {
                // touched at h = a + t u: respond against the tangent plane at its closest point c
                float hx = ax + t * ux;
                float hy = ay + t * uy;
                float hz = az + t * uz;
                side = shell ? n[3] : 1f;
                float sdH = localDistance(hx, hy, hz, n);
                float nx = side * n[0];
                float ny = side * n[1];
                float nz = side * n[2];
                float px = hx - sdH * n[0];
                float py = hy - sdH * n[1];
                float pz = hz - sdH * n[2];
                float depth = th - ((bx - px) * nx + (by - py) * ny + (bz - pz) * nz);
                if (depth > 0f) {
                    respondLocal(x, prev, i3, nx, ny, nz, depth, px, py, pz, g);
                    // A curved (non-convex) surface can still be nearer than the tangent plane, or even
                    // lie across it where the particle slid along the plane; then it stays at the touch.
                    if (!convex() && !pushOut(x, i3, side, th, n)) {
                        setLocal(x, i3, px + th * nx, py + th * ny, pz + th * nz);
                    }
                    continue;
                }
                if (convex()) {
                    continue; // beyond the tangent plane's shell: clear of a convex body
                }
                // a curved body can reach past its tangent plane: check the end point as usual
            }
            float sdB = localDistance(bx, by, bz, n);
            side = !shell || sdB >= 0f ? 1f : -1f;
            float depth = th - side * sdB;
            if (depth > 0f) {
                float px = bx - sdB * n[0];
                float py = by - sdB * n[1];
                float pz = bz - sdB * n[2];
                float nx = side * n[0];
                float ny = side * n[1];
                float nz = side * n[2];
                respondLocal(x, prev, i3, nx, ny, nz, depth, px, py, pz, g);
                if (!convex() && !pushOut(x, i3, side, th, n)) {
                    setLocal(x, i3, px + th * nx, py + th * ny, pz + th * nz);
                }
            }
        }
    }

    /**
     * Conservative advancement along a + t u, t in [0, 1]: returns the first t where the distance to
     * the surface is at most eps, or −1 when the path stays clear. Each advance is the distance over
     * the path length, which cannot step over the surface because the distance is 1-Lipschitz. On a
     * touch, n[3] holds the side (±1) of the last sample before it: the side the particle came from
     * (the touching sample itself may sit a rounding error beyond the surface).
     *
     * <p>A path that grazes the surface at a shallow angle approaches it geometrically slowly; after
     * {@link #MAX_SWEEP_STEPS} advances the rest of the path is bisected on the side instead.
     */
    private float touch(float ax, float ay, float az, float ux, float uy, float uz, float len, float sdA,
                        float eps, float[] n) {
        float side = sdA >= 0f ? 1f : -1f;
        float d = Math.abs(sdA);
        n[3] = side;
        if (d >= len) {
            return d <= eps && side * (ux * n[0] + uy * n[1] + uz * n[2]) < 0f ? 0f : -1f;
        }
        float t = 0f;
        float lastT = 0f;
        for (int k = 0; k < MAX_SWEEP_STEPS; k++) {
            if (d <= eps) {
                if (side * (ux * n[0] + uy * n[1] + uz * n[2]) < 0f) {
                    n[3] = side;
                    return t;
                }
                // grazing or leaving, not going in: step past (a tangent-plane response here would
                // turn a near miss into a deflection)
                t += eps / len;
            } else {
                t += d / len;
            }
            if (t >= 1f) {
                return -1f;
            }
            float sd = localDistance(ax + t * ux, ay + t * uy, az + t * uz, n);
            if (!shell && sd < -eps) {
                // Stepped inside a solid: possible only where the distance is sampled (a field whose
                // interpolation is not exactly 1-Lipschitz). The crossing lies since the last sample.
                return bisect(ax, ay, az, ux, uy, uz, lastT, t, n);
            }
            lastT = t;
            d = Math.abs(sd);
            if (d > eps) {
                side = sd >= 0f ? 1f : -1f;
            }
        }
        float sdEnd = localDistance(ax + ux, ay + uy, az + uz, n);
        if ((sdEnd >= 0f ? 1f : -1f) == side) {
            return -1f;
        }
        float lo = t;
        float hi = 1f;
        for (int k = 0; k < 40 && hi - lo > 1e-7f; k++) {
            float mid = 0.5f * (lo + hi);
            float sd = localDistance(ax + mid * ux, ay + mid * uy, az + mid * uz, n);
            if ((sd >= 0f ? 1f : -1f) == side) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        // a side change away from the surface (beside a bounded shell's rim) is no crossing
        float sd = localDistance(ax + lo * ux, ay + lo * uy, az + lo * uz, n);
        n[3] = side;
        return Math.abs(sd) <= 4f * eps ? lo : -1f;
    }

    /** The last outside parameter of a solid's crossing in (lo, hi], by bisection on the sign; side +1. */
    private float bisect(float ax, float ay, float az, float ux, float uy, float uz, float lo, float hi, float[] n) {
        for (int k = 0; k < 30 && hi - lo > 1e-7f; k++) {
            float mid = 0.5f * (lo + hi);
            if (localDistance(ax + mid * ux, ay + mid * uy, az + mid * uz, n) >= 0f) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        n[3] = 1f;
        return lo;
    }

    /**
     * Applies {@link #respond} with the local normal and depth turned into the world; the surface
     * motion at the local contact point (px, py, pz) over the step feeds friction.
     */
    private void respondLocal(float[] x, float[] prev, int i3, float nx, float ny, float nz, float depth,
                              float px, float py, float pz, float grip) {
        float[] r = rot;
        float wx = r[0] * nx + r[1] * ny + r[2] * nz;
        float wy = r[3] * nx + r[4] * ny + r[5] * nz;
        float wz = r[6] * nx + r[7] * ny + r[8] * nz;
        if (motion == null) {
            respond(x, prev, i3, wx, wy, wz, depth, grip);
            return;
        }
        float[] r0 = rot0;
        float sx = r[0] * px + r[1] * py + r[2] * pz + trans[0] - (r0[0] * px + r0[1] * py + r0[2] * pz + trans0[0]);
        float sy = r[3] * px + r[4] * py + r[5] * pz + trans[1] - (r0[3] * px + r0[4] * py + r0[5] * pz + trans0[1]);
        float sz = r[6] * px + r[7] * py + r[8] * pz + trans[2] - (r0[6] * px + r0[7] * py + r0[8] * pz + trans0[2]);
        respond(x, prev, i3, wx, wy, wz, depth, sx, sy, sz, grip);
    }

    /** Puts particle i3/3 at the body-local point (lx, ly, lz) in the current pose. */
    private void setLocal(float[] x, int i3, float lx, float ly, float lz) {
        float[] r = rot;
        x[i3] = r[0] * lx + r[1] * ly + r[2] * lz + trans[0];
        x[i3 + 1] = r[3] * lx + r[4] * ly + r[5] * lz + trans[1];
        x[i3 + 2] = r[6] * lx + r[7] * ly + r[8] * lz + trans[2];
    }

    /**
     * Moves particle i3/3 (world) straight out to {@code th} on {@code side}, without friction.
     * Returns false, moving nothing, when the particle is on the other side.
     */
    private boolean pushOut(float[] x, int i3, float side, float th, float[] n) {
        float[] r = rot;
        float dx = x[i3] - trans[0];
        float dy = x[i3 + 1] - trans[1];
        float dz = x[i3 + 2] - trans[2];
        float sd = localDistance(r[0] * dx + r[3] * dy + r[6] * dz, r[1] * dx + r[4] * dy + r[7] * dz,
                r[2] * dx + r[5] * dy + r[8] * dz, n);
        if (side * sd < 0f) {
            return false;
        }
        float depth = th - side * sd;
        if (depth > 0f) {
            float s = side * depth;
            x[i3] += s * (r[0] * n[0] + r[1] * n[1] + r[2] * n[2]);
            x[i3 + 1] += s * (r[3] * n[0] + r[4] * n[1] + r[5] * n[2]);
            x[i3 + 2] += s * (r[6] * n[0] + r[7] * n[1] + r[8] * n[2]);
        }
        return true;
    }
}
