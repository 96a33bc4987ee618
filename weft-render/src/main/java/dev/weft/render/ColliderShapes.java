package dev.weft.render;

import dev.weft.core.collide.BoxCollider;
import dev.weft.core.collide.CapsuleCollider;
import dev.weft.core.collide.CylinderCollider;
import dev.weft.core.collide.EllipsoidCollider;
import dev.weft.core.collide.FunnelCollider;
import dev.weft.core.collide.MeshCollider;
import dev.weft.core.collide.RectangleCollider;
import dev.weft.core.collide.RigidCollider;
import dev.weft.core.collide.SdfCollider;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.util.FloatList;
import java.util.Optional;

/**
 * Triangle meshes of the analytic colliders in their own (body) frame, for drawing: the renderer
 * places them with the body's current pose every frame, so moving colliders are drawn where they
 * are. Round shapes are surfaces of revolution about the body's y axis (a lathe over a profile);
 * sharp edges get a vertex per side so they stay sharp.
 */
final class ColliderShapes {
    /** Segments around the axis and along a half circle. */
    private static final int AROUND = 48;
    private static final int ALONG = 24;

    private ColliderShapes() {
    }

    /** The body-frame mesh of {@code c}, or empty for a shape this renderer does not know. */
    static Optional<Tessellation> bodyFrame(RigidCollider c) {
        if (c instanceof MeshCollider m) {
            return Optional.of(SceneRenderer.tessellate(m.mesh())); // its triangles are in the body frame
        }
        if (c instanceof SdfCollider s) {
            return s.surface().map(SceneRenderer::tessellate); // a field given without its mesh is not drawn
        }
        if (c instanceof SphereCollider s) {
            return Optional.of(capsule(s.radius(), 0f));
        }
        if (c instanceof CapsuleCollider s) {
            return Optional.of(capsule(s.radius(), s.halfLength()));
        }
        if (c instanceof EllipsoidCollider e) {
            return Optional.of(ellipsoid(e.semiAxes()));
        }
        if (c instanceof CylinderCollider s) {
            return Optional.of(cylinder(s.radius(), s.halfHeight()));
        }
        if (c instanceof FunnelCollider f) {
            return Optional.of(funnel(f.a(), f.yMin(), f.yMax()));
        }
        if (c instanceof BoxCollider b) {
            return Optional.of(box(b.halfExtents()));
        }
        if (c instanceof RectangleCollider r) {
            float w = r.halfWidth();
            float d = r.halfDepth();
            return Optional.of(new Tessellation(new float[] {-w, 0, -d, -w, 0, d, w, 0, d, w, 0, -d},
                    new float[] {0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0}, new int[] {0, 1, 2, 0, 2, 3}));
        }
        return Optional.empty();
    }

    /** A sphere of this radius whose upper half is lifted and lower half lowered by halfLength. */
    static Tessellation capsule(float radius, float halfLength) {
        Profile p = new Profile();
        for (int k = 0; k <= ALONG; k++) {
            double theta = Math.PI * k / ALONG;
            float sin = (float) Math.sin(theta);
            float cos = (float) Math.cos(theta);
            float lift = theta <= Math.PI / 2 ? halfLength : -halfLength;
            p.add(radius * sin, radius * cos + lift, sin, cos);
            if (halfLength > 0f && k == ALONG / 2) {
                // the equator twice: the straight part between the two is the capsule's cylinder
                p.add(radius * sin, radius * cos - halfLength, sin, cos);
            }
        }
        return lathe(p);
    }

    static Tessellation cylinder(float radius, float halfHeight) {
        Profile p = new Profile();
        p.add(0f, halfHeight, 0f, 1f);
        p.add(radius, halfHeight, 0f, 1f);
        p.add(radius, halfHeight, 1f, 0f);
        p.add(radius, -halfHeight, 1f, 0f);
        p.add(radius, -halfHeight, 0f, -1f);
        p.add(0f, -halfHeight, 0f, -1f);
        return lathe(p);
    }

    /** Radius e^(y/a) from yMax down to yMin; the normal points away from the axis. */
    static Tessellation funnel(float a, float yMin, float yMax) {
        Profile p = new Profile();
        int n = 2 * ALONG;
        for (int k = 0; k <= n; k++) {
            float y = yMax + (yMin - yMax) * k / n;
            float r = (float) Math.exp(y / a);
            // the profile (r(y), y) has tangent (r/a, 1); its outward normal is (1, -r/a)
            float slope = r / a;
            float len = (float) Math.sqrt(1 + slope * slope);
            p.add(r, y, 1f / len, -slope / len);
        }
        return lathe(p);
    }

    static Tessellation ellipsoid(float[] semiAxes) {
        Tessellation unit = capsule(1f, 0f);
        float[] x = unit.positions();
        float[] n = unit.normals();
        for (int i = 0; i < x.length; i += 3) {
            float nx = x[i] / semiAxes[0];
            float ny = x[i + 1] / semiAxes[1];
            float nz = x[i + 2] / semiAxes[2];
            float len = (float) Math.sqrt(nx * nx + ny * ny + nz * nz);
            // the gradient of (x/a)² + (y/b)² + (z/c)² at the scaled point (a x, b y, c z) is ∝ (x/a, y/b, z/c)
            n[i] = nx / len;
            n[i + 1] = ny / len;
            n[i + 2] = nz / len;
            x[i] *= semiAxes[0];
            x[i + 1] *= semiAxes[1];
            x[i + 2] *= semiAxes[2];
        }
        return unit;
    }

    static Tessellation box(float[] half) {
        float[] p = new float[72];
        float[] n = new float[72];
        int[] t = new int[36];
        int v = 0;
        int m = 0;
        for (int axis = 0; axis < 3; axis++) {
            for (int sign = -1; sign <= 1; sign += 2) {
                // u × v = the face's outward normal, so the corners (−,−) (+,−) (+,+) (−,+) run counter-clockwise
                int u = sign > 0 ? (axis + 1) % 3 : (axis + 2) % 3;
                int w = sign > 0 ? (axis + 2) % 3 : (axis + 1) % 3;
                int first = v;
                float[][] corners = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
                for (float[] c : corners) {
                    p[3 * v + axis] = sign * half[axis];
                    p[3 * v + u] = c[0] * half[u];
                    p[3 * v + w] = c[1] * half[w];
                    n[3 * v + axis] = sign;
                    v++;
                }
                t[m++] = first;
                t[m++] = first + 1;
                t[m++] = first + 2;
                t[m++] = first;
                t[m++] = first + 2;
                t[m++] = first + 3;
            }
        }
        return new Tessellation(p, n, t);
    }

    /** Profile points (radius, height) with their normal (radial, vertical), top to bottom. */
    private static final class Profile {
        final FloatList points = new FloatList();

        void add(float r, float y, float nr, float ny) {
            points.add(r);
            points.add(y);
            points.add(nr);
            points.add(ny);
        }
    }

    /**
     * Revolves the profile about y: vertex (r cos φ, y, −r sin φ). With the profile running top to
     * bottom, the triangles are counter-clockwise seen from the side the normals point to.
     */
    private static Tessellation lathe(Profile profile) {
        float[] q = profile.points.toArray();
        int rings = q.length / 4;
        int columns = AROUND + 1;
        float[] p = new float[3 * rings * columns];
        float[] n = new float[p.length];
        int k = 0;
        for (int i = 0; i < rings; i++) {
            for (int j = 0; j < columns; j++) {
                double phi = 2 * Math.PI * j / AROUND;
                float cos = (float) Math.cos(phi);
                float sin = (float) Math.sin(phi);
                p[k] = q[4 * i] * cos;
                p[k + 1] = q[4 * i + 1];
                p[k + 2] = -q[4 * i] * sin;
                n[k] = q[4 * i + 2] * cos;
                n[k + 1] = q[4 * i + 3];
                n[k + 2] = -q[4 * i + 2] * sin;
                k += 3;
            }
        }
        int[] t = new int[6 * (rings - 1) * AROUND];
        int m = 0;
        for (int i = 0; i + 1 < rings; i++) {
            for (int j = 0; j < AROUND; j++) {
                int a = i * columns + j;
                int b = a + columns;
                t[m++] = a;
                t[m++] = b;
                t[m++] = a + 1;
                t[m++] = a + 1;
                t[m++] = b;
                t[m++] = b + 1;
            }
        }
        return new Tessellation(p, n, t);
    }
}
