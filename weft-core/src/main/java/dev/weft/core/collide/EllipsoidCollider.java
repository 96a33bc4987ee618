package dev.weft.core.collide;

import dev.weft.core.util.Check;

/**
 * A solid ellipsoid (x/a)² + (y/b)² + (z/c)² ≤ 1 in the body frame, with the true closest point
 * ({@link EllipsoidDistance}, Eberly's robust root finding) rather than seed 002's radial projection,
 * which overshoots or undershoots wherever the ellipsoid is not a sphere.
 */
public final class EllipsoidCollider extends RigidCollider {
    /** Semi-axes sorted descending, and the local axis each sorted one lies along. */
    private final double e0;
    private final double e1;
    private final double e2;
    private final int axis0;
    private final int axis1;
    private final int axis2;
    private final float bound;
    private final ThreadLocal<double[]> scratch = ThreadLocal.withInitial(() -> new double[3]);

    public EllipsoidCollider(String name, float[] center, float[] semiAxes, float thickness, float friction) {
        super(name, center, false, thickness, friction);
        Check.vector3(name + ".semiAxes", semiAxes);
        for (int k = 0; k < 3; k++) {
            Check.positive(name + ".semiAxes[" + k + "]", semiAxes[k]);
        }
        int[] order = {0, 1, 2};
        // sort three indices by descending semi-axis (stable)
        for (int i = 0; i < 3; i++) {
            for (int j = i + 1; j < 3; j++) {
                if (semiAxes[order[j]] > semiAxes[order[i]]) {
                    int t = order[i];
                    order[i] = order[j];
                    order[j] = t;
                }
            }
        }
        axis0 = order[0];
        axis1 = order[1];
        axis2 = order[2];
        e0 = semiAxes[axis0];
        e1 = semiAxes[axis1];
        e2 = semiAxes[axis2];
        bound = (float) e0;
    }

    /** Semi-axes along the body's x, y, z (a copy). */
    public float[] semiAxes() {
        float[] s = new float[3];
        s[axis0] = (float) e0;
        s[axis1] = (float) e1;
        s[axis2] = (float) e2;
        return s;
    }

    /**
     * The local axes in the order of descending semi-axis, as {@link EllipsoidDistance} takes them (ties
     * in the axes' order): the semi-axis along {@code axisOrder()[0]} is the longest. A copy.
     */
    public int[] axisOrder() {
        return new int[] {axis0, axis1, axis2};
    }

    @Override
    public float boundingRadius() {
        return bound;
    }

    @Override
    protected float localDistance(float x, float y, float z, float[] n) {
        double px = x;
        double py = y;
        double pz = z;
        double y0 = axis0 == 0 ? px : axis0 == 1 ? py : pz;
        double y1 = axis1 == 0 ? px : axis1 == 1 ? py : pz;
        double y2 = axis2 == 0 ? px : axis2 == 1 ? py : pz;
        double[] c = scratch.get();
        EllipsoidDistance.closest(e0, e1, e2, Math.abs(y0), Math.abs(y1), Math.abs(y2), c);
        double c0 = Math.copySign(c[0], y0);
        double c1 = Math.copySign(c[1], y1);
        double c2 = Math.copySign(c[2], y2);
        double d0 = y0 - c0;
        double d1 = y1 - c1;
        double d2 = y2 - c2;
        double dist = Math.sqrt(d0 * d0 + d1 * d1 + d2 * d2);
        double q0 = y0 / e0;
        double q1 = y1 / e1;
        double q2 = y2 / e2;
        boolean inside = q0 * q0 + q1 * q1 + q2 * q2 < 1;
        // the outward normal at the closest point is the gradient there (defined even at distance 0)
        double g0 = c0 / (e0 * e0);
        double g1 = c1 / (e1 * e1);
        double g2 = c2 / (e2 * e2);
        double gl = Math.sqrt(g0 * g0 + g1 * g1 + g2 * g2);
        n[axis0] = (float) (g0 / gl);
        n[axis1] = (float) (g1 / gl);
        n[axis2] = (float) (g2 / gl);
        return (float) (inside ? -dist : dist);
    }
}
