package dev.weft.core.collide;

/**
 * The exact closest point on an axis-aligned ellipsoid (x/e0)² + (y/e1)² + (z/e2)² = 1 with
 * e0 ≥ e1 ≥ e2 > 0, for a query point in the first octant (D. Eberly, "Distance from a point to an
 * ellipse, an ellipsoid, or a hyperellipsoid", 2013): the closest point is x_i = e_i² y_i / (t + e_i²)
 * for the root t of Σ (e_i y_i / (t + e_i²))² = 1, found by bisection, which is robust where Newton's
 * method is not (near the medial axis, inside). Works in double; no allocation.
 */
final class EllipsoidDistance {
    /** Bisection steps: each halves the bracket, so 100 reach the precision of a double. */
    private static final int MAX_STEPS = 100;

    private EllipsoidDistance() {
    }

    /** Writes the closest point of the sorted ellipsoid to the first-octant point y into out[0..2]. */
    static void closest(double e0, double e1, double e2, double y0, double y1, double y2, double[] out) {
        if (y2 > 0) {
            if (y1 > 0) {
                if (y0 > 0) {
                    double z0 = y0 / e0;
                    double z1 = y1 / e1;
                    double z2 = y2 / e2;
                    double g = z0 * z0 + z1 * z1 + z2 * z2 - 1;
                    if (g != 0) {
                        double r0 = (e0 / e2) * (e0 / e2);
                        double r1 = (e1 / e2) * (e1 / e2);
                        double sbar = root3(r0, r1, z0, z1, z2, g);
                        out[0] = r0 * y0 / (sbar + r0);
                        out[1] = r1 * y1 / (sbar + r1);
                        out[2] = y2 / (sbar + 1);
                    } else {
                        out[0] = y0;
                        out[1] = y1;
                        out[2] = y2;
                    }
                } else {
                    out[0] = 0;
                    closest2(e1, e2, y1, y2, out, 1, 2);
                }
            } else if (y0 > 0) {
                out[1] = 0;
                closest2(e0, e2, y0, y2, out, 0, 2);
            } else {
                out[0] = 0;
                out[1] = 0;
                out[2] = e2;
            }
            return;
        }
        // y2 == 0: the closest point may leave the z = 0 plane (inside points near the thin axis)
        double denom0 = e0 * e0 - e2 * e2;
        double denom1 = e1 * e1 - e2 * e2;
        double numer0 = e0 * y0;
        double numer1 = e1 * y1;
        if (numer0 < denom0 && numer1 < denom1) {
            double xde0 = numer0 / denom0;
            double xde1 = numer1 / denom1;
            double discr = 1 - xde0 * xde0 - xde1 * xde1;
            if (discr > 0) {
                out[0] = e0 * xde0;
                out[1] = e1 * xde1;
                out[2] = e2 * Math.sqrt(discr);
                return;
            }
        }
        out[2] = 0;
        closest2(e0, e1, y0, y1, out, 0, 1);
    }

    /** The ellipse (x/e0)² + (y/e1)² = 1, e0 ≥ e1, first-quadrant point (y0, y1): closest point into out[o], out[p]. */
    private static void closest2(double e0, double e1, double y0, double y1, double[] out, int o, int p) {
        if (y1 > 0) {
            if (y0 > 0) {
                double z0 = y0 / e0;
                double z1 = y1 / e1;
                double g = z0 * z0 + z1 * z1 - 1;
                if (g != 0) {
                    double r0 = (e0 / e1) * (e0 / e1);
                    double sbar = root2(r0, z0, z1, g);
                    out[o] = r0 * y0 / (sbar + r0);
                    out[p] = y1 / (sbar + 1);
                } else {
                    out[o] = y0;
                    out[p] = y1;
                }
            } else {
                out[o] = 0;
                out[p] = e1;
            }
            return;
        }
        double numer0 = e0 * y0;
        double denom0 = e0 * e0 - e1 * e1;
        if (numer0 < denom0) {
            double xde0 = numer0 / denom0;
            out[o] = e0 * xde0;
            out[p] = e1 * Math.sqrt(Math.max(0, 1 - xde0 * xde0));
        } else {
            out[o] = e0;
            out[p] = 0;
        }
    }

    private static double root2(double r0, double z0, double z1, double g) {
        double n0 = r0 * z0;
        double s0 = z1 - 1;
        double s1 = g < 0 ? 0 : Math.hypot(n0, z1) - 1;
        double s = 0;
        for (int i = 0; i < MAX_STEPS; i++) {
            s = 0.5 * (s0 + s1);
            if (s == s0 || s == s1) {
                break;
            }
            double a = n0 / (s + r0);
            double b = z1 / (s + 1);
            double f = a * a + b * b - 1;
            if (f > 0) {
                s0 = s;
            } else if (f < 0) {
                s1 = s;
            } else {
                break;
            }
        }
        return s;
    }

    private static double root3(double r0, double r1, double z0, double z1, double z2, double g) {
        double n0 = r0 * z0;
        double n1 = r1 * z1;
        double s0 = z2 - 1;
        double s1 = g < 0 ? 0 : Math.sqrt(n0 * n0 + n1 * n1 + z2 * z2) - 1;
        double s = 0;
        for (int i = 0; i < MAX_STEPS; i++) {
            s = 0.5 * (s0 + s1);
            if (s == s0 || s == s1) {
                break;
            }
            double a = n0 / (s + r0);
            double b = n1 / (s + r1);
            double c = z2 / (s + 1);
            double f = a * a + b * b + c * c - 1;
            if (f > 0) {
                s0 = s;
            } else if (f < 0) {
                s1 = s;
            } else {
                break;
            }
        }
        return s;
    }
}
