package dev.weft.core.metrics;

import dev.weft.core.model.DistanceConstraints;
import dev.weft.core.model.DistanceKind;
import dev.weft.core.model.Model;

/**
 * Measures every solver reports. Serial and in a fixed order, so values are reproducible.
 */
public final class ClothMetrics {
    private ClothMetrics() {
    }

    /**
     * Seed 001 eq. 4.1: the sum over stretch and shear constraints of (|x_a − x_b| − L)², in m².
     * Distance-bending constraints are not part of it.
     */
    public static double residual(Model model, float[] x) {
        DistanceConstraints d = model.distances();
        int[] p = d.particles();
        float[] rest = d.restLength();
        byte[] kind = d.kind();
        byte bend = DistanceKind.BEND.code();
        double sum = 0;
        for (int c = 0; c < rest.length; c++) {
            if (kind[c] == bend) {
                continue;
            }
            double e = length(x, p[2 * c], p[2 * c + 1]) - rest[c];
            sum += e * e;
        }
        return sum;
    }

    /**
     * Largest relative elongation (|x_a − x_b| − L) / L over stretch constraints; 0.01 is 1 %. Seams
     * (rest length 0) have no strain and are left out; their gap is {@link #widestSeamGap}.
     */
    public static double maxStrain(Model model, float[] x) {
        DistanceConstraints d = model.distances();
        int[] p = d.particles();
        float[] rest = d.restLength();
        byte[] kind = d.kind();
        byte stretch = DistanceKind.STRETCH.code();
        double max = 0;
        for (int c = 0; c < rest.length; c++) {
            if (kind[c] != stretch || rest[c] == 0f) {
                continue;
            }
            double strain = (length(x, p[2 * c], p[2 * c + 1]) - rest[c]) / rest[c];
            max = Math.max(max, strain);
        }
        return max;
    }

    /** The widest gap, in m, between the two particles of a seam (a distance constraint of rest length 0); 0 without seams. */
    public static double widestSeamGap(Model model, float[] x) {
        DistanceConstraints d = model.distances();
        int[] p = d.particles();
        float[] rest = d.restLength();
        double max = 0;
        for (int c = 0; c < rest.length; c++) {
            if (rest[c] == 0f) {
                max = Math.max(max, length(x, p[2 * c], p[2 * c + 1]));
            }
        }
        return max;
    }

    /** Σ ½ m |v|² over free particles, in J. */
    public static double kineticEnergy(Model model, float[] v) {
        float[] w = model.invMass();
        double e = 0;
        for (int i = 0; i < w.length; i++) {
            if (w[i] > 0f) {
                double v2 = (double) v[3 * i] * v[3 * i] + (double) v[3 * i + 1] * v[3 * i + 1]
                        + (double) v[3 * i + 2] * v[3 * i + 2];
                e += 0.5 * v2 / w[i];
            }
        }
        return e;
    }

    /** Σ m v over free particles (pinned ones are held by the world), in kg·m/s: x, y, z. */
    public static double[] linearMomentum(Model model, float[] v) {
        float[] w = model.invMass();
        double[] p = new double[3];
        for (int i = 0; i < w.length; i++) {
            if (w[i] > 0f) {
                p[0] += v[3 * i] / w[i];
                p[1] += v[3 * i + 1] / w[i];
                p[2] += v[3 * i + 2] / w[i];
            }
        }
        return p;
    }

    /** Gravitational potential energy Σ m g·(−x) of free particles relative to the origin, in J. */
    public static double gravitationalEnergy(Model model, float[] x, float[] gravity) {
        float[] w = model.invMass();
        double e = 0;
        for (int i = 0; i < w.length; i++) {
            if (w[i] > 0f) {
                double gx = (double) gravity[0] * x[3 * i] + (double) gravity[1] * x[3 * i + 1]
                        + (double) gravity[2] * x[3 * i + 2];
                e -= gx / w[i];
            }
        }
        return e;
    }

    /** Index of the first particle with a non-finite coordinate, or −1. */
    public static int firstNonFinite(float[] xyz) {
        for (int i = 0; i < xyz.length; i++) {
            if (!Float.isFinite(xyz[i])) {
                return i / 3;
            }
        }
        return -1;
    }

    private static double length(float[] x, int a, int b) {
        double dx = x[3 * b] - x[3 * a];
        double dy = x[3 * b + 1] - x[3 * a + 1];
        double dz = x[3 * b + 2] - x[3 * a + 2];
        return Math.sqrt(dx * dx + dy * dy + dz * dz);
    }
}
