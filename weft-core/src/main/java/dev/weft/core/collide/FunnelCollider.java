package dev.weft.core.collide;

import dev.weft.core.InvalidInputException;
import dev.weft.core.util.Check;

/**
 * Seed 001's funnel (§5.3.5): the surface of revolution x = u cos v, y = a ln u, z = u sin v about
 * the body's y axis, i.e. radius r(y) = e^(y/a), cut to yMin ≤ y ≤ yMax. A two-sided shell: cloth
 * inside stays inside and cloth outside stays outside.
 *
 * <p>The seed projects in the horizontal plane only ("if this were to be implemented properly, the
 * displacement would have to be calculated in three dimensions"); this class does that: the closest
 * point of the profile curve in the particle's meridian half-plane, found by sampling the part of
 * the curve that can be closer than the point straight across, then Newton's method safeguarded by
 * bisection on the derivative of the squared distance.
 *
 * <p>The exponential is {@link StrictMath#exp} (fdlibm's), not {@link Math#exp}, whose HotSpot intrinsic
 * may differ from it in the last bit: the OpenCL backend's colliders.cl computes fdlibm's exp, so the
 * device gives this collider's bits.
 */
public final class FunnelCollider extends RigidCollider {
    private static final int SAMPLES = 12;
    private static final int NEWTON_STEPS = 30;

    private final float a;
    private final float yMin;
    private final float yMax;
    private final float bound;

    /**
     * @param a    the seed's shape parameter (radius e-folds every {@code a} metres of height), &gt; 0
     * @param yMin lower cut (body frame)
     * @param yMax upper cut, &gt; yMin
     */
    public FunnelCollider(String name, float[] position, float a, float yMin, float yMax, float thickness,
                          float friction) {
        super(name, position, true, thickness, friction);
        this.a = Check.positive(name + ".a", a);
        this.yMin = Check.finite(name + ".yMin", yMin);
        this.yMax = Check.finite(name + ".yMax", yMax);
        if (!(yMax > yMin)) {
            throw new InvalidInputException(name + ".yMax", "must be greater than yMin " + yMin + ", got " + yMax);
        }
        float rMax = radiusAt(yMax);
        if (!Float.isFinite(rMax) || rMax > 1e4f) {
            throw new InvalidInputException(name + ".yMax", "gives a rim radius e^(yMax/a) = " + rMax
                    + " m; keep it below 10^4 m");
        }
        bound = (float) Math.sqrt(rMax * rMax + Math.max(yMin * yMin, yMax * yMax));
    }

    /** The shape parameter: the radius grows e-fold every {@code a} metres of height. */
    public float a() {
        return a;
    }

    public float yMin() {
        return yMin;
    }

    public float yMax() {
        return yMax;
    }

    /** The funnel's radius at body height y (inside [yMin, yMax]). */
    public float radiusAt(float y) {
        return (float) StrictMath.exp(y / a);
    }

    @Override
    public float boundingRadius() {
        return bound;
    }

    @Override
    protected boolean convex() {
        return false;
    }

    @Override
    protected float localDistance(float x, float y, float z, float[] n) {
        double rho = Math.sqrt((double) x * x + (double) z * z);
        double ux = 1;
        double uz = 0;
        if (rho > 1e-12) {
            ux = x / rho;
            uz = z / rho;
        }
        double py = y;
        double inv = 1.0 / a;
        // Any closer curve point lies within the distance to the curve point at the same height.
        double s0 = Math.max(yMin, Math.min(yMax, py));
        double e = StrictMath.exp(s0 * inv);
        double reach = Math.sqrt((e - rho) * (e - rho) + (s0 - py) * (s0 - py));
        double lo = Math.max(yMin, py - reach);
        double hi = Math.min(yMax, py + reach);
        double best = s0;
        double bestF = reach * reach;
        double step = (hi - lo) / (SAMPLES - 1);
        int bestK = -1;
        for (int k = 0; k < SAMPLES; k++) {
            double s = k == SAMPLES - 1 ? hi : lo + k * step;
            double es = StrictMath.exp(s * inv);
            double f = (es - rho) * (es - rho) + (s - py) * (s - py);
            if (f < bestF) {
                bestF = f;
                best = s;
                bestK = k;
            }
        }
        if (step > 0) {
            // refine the stationary point of f(s) = (e^(s/a) − rho)² + (s − y)² around the best sample
            double bl = bestK > 0 ? best - step : Math.max(lo, best - step);
            double bh = bestK >= 0 && bestK < SAMPLES - 1 ? best + step : Math.min(hi, best + step);
            double gl = slope(bl, rho, py, inv);
            double gh = slope(bh, rho, py, inv);
            if (gl < 0 && gh > 0) {
                double s = best;
                for (int k = 0; k < NEWTON_STEPS; k++) {
                    double es = StrictMath.exp(s * inv);
                    double g = (es - rho) * es * inv + (s - py);
                    if (g < 0) {
                        bl = s;
                    } else {
                        bh = s;
                    }
                    double gp = es * es * inv * inv + (es - rho) * es * inv * inv + 1;
                    double next = gp > 0 ? s - g / gp : Double.NaN;
                    if (!(next > bl && next < bh)) {
                        next = 0.5 * (bl + bh);
                    }
                    if (Math.abs(next - s) < 1e-12) {
                        s = next;
                        break;
                    }
                    s = next;
                }
                double es = StrictMath.exp(s * inv);
                double f = (es - rho) * (es - rho) + (s - py) * (s - py);
                if (f < bestF) {
                    best = s;
                }
            }
        }
        double ec = StrictMath.exp(best * inv);
        double dr = rho - ec;
        double dy = py - best;
        double dist = Math.sqrt(dr * dr + dy * dy);
        // normal of the + (outer) side at the closest point: (1, −r'(y)) with r' = e^(y/a) / a
        double slope = ec * inv;
        double nl = Math.sqrt(1 + slope * slope);
        double nr = 1 / nl;
        double ny = -slope / nl;
        double side = dr * nr + dy * ny >= 0 ? 1 : -1;
        if (dist > 1e-9) {
            nr = side * dr / dist;
            ny = side * dy / dist;
        }
        n[0] = (float) (nr * ux);
        n[1] = (float) ny;
        n[2] = (float) (nr * uz);
        return (float) (side * dist);
    }

    /** Half the derivative of the squared meridian distance at curve height s. */
    private static double slope(double s, double rho, double py, double inv) {
        double es = StrictMath.exp(s * inv);
        return (es - rho) * es * inv + (s - py);
    }
}
