package dev.weft.core.collide;

import java.util.List;
import java.util.Random;

/** The analytic colliders under test, each with an independent surface sampler and implicit test. */
final class AnalyticShapes {
    interface Factory {
        RigidCollider make(float[] position, float thickness, float friction);
    }

    interface Sampler {
        /** Writes a random surface point (body frame) into out. */
        void sample(Random rnd, float[] out);
    }

    interface Implicit {
        /** Zero on the surface (body frame); for solids negative inside. */
        double value(double x, double y, double z);
    }

    /** @param size a length that fits inside the shape's smallest dimension (for aiming at its core) */
    record Shape(String name, boolean solid, float size, Factory factory, Sampler sampler, Implicit implicit) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final float FUNNEL_A = 0.5f;
    static final float FUNNEL_Y_MIN = -1.2f;
    static final float FUNNEL_Y_MAX = 0f;

    private AnalyticShapes() {
    }

    static List<Shape> all() {
        return List.of(
                new Shape("sphere", true, 0.3f, (p, t, f) -> new SphereCollider("sphere", p, 0.3f, t, f),
                        (r, o) -> {
                            direction(r, o);
                            scale(o, 0.3f, 0.3f, 0.3f);
                        },
                        (x, y, z) -> Math.sqrt(x * x + y * y + z * z) - 0.3),
                new Shape("box", true, 0.1f,
                        (p, t, f) -> new BoxCollider("box", p, new float[] {0.4f, 0.1f, 0.25f}, t, f),
                        (r, o) -> {
                            float[] h = {0.4f, 0.1f, 0.25f};
                            int axis = r.nextInt(3);
                            for (int k = 0; k < 3; k++) {
                                o[k] = (2 * r.nextFloat() - 1) * h[k];
                            }
                            o[axis] = r.nextBoolean() ? h[axis] : -h[axis];
                        },
                        (x, y, z) -> Math.max(Math.abs(x) - 0.4, Math.max(Math.abs(y) - 0.1, Math.abs(z) - 0.25))),
                new Shape("ellipsoid", true, 0.08f,
                        (p, t, f) -> new EllipsoidCollider("ellipsoid", p, new float[] {0.5f, 0.1f, 0.25f}, t, f),
                        (r, o) -> {
                            direction(r, o);
                            scale(o, 0.5f, 0.1f, 0.25f);
                        },
                        (x, y, z) -> Math.sqrt(sq(x / 0.5) + sq(y / 0.1) + sq(z / 0.25)) - 1),
                new Shape("capsule", true, 0.1f,
                        (p, t, f) -> new CapsuleCollider("capsule", p, 0.12f, 0.3f, t, f),
                        (r, o) -> {
                            direction(r, o);
                            scale(o, 0.12f, 0.12f, 0.12f);
                            float y = (2 * r.nextFloat() - 1) * 0.3f;
                            if (r.nextBoolean()) {
                                // the cylindrical part
                                float len = (float) Math.hypot(o[0], o[2]);
                                if (len > 0) {
                                    o[0] *= 0.12f / len;
                                    o[2] *= 0.12f / len;
                                }
                                o[1] = y;
                            } else {
                                o[1] += o[1] >= 0 ? 0.3f : -0.3f;
                            }
                        },
                        (x, y, z) -> Math.sqrt(x * x + sq(y - Math.max(-0.3, Math.min(0.3, y))) + z * z) - 0.12),
                new Shape("cylinder", true, 0.1f,
                        (p, t, f) -> new CylinderCollider("cylinder", p, 0.2f, 0.3f, t, f),
                        (r, o) -> {
                            double phi = 2 * Math.PI * r.nextDouble();
                            if (r.nextInt(3) == 0) {
                                double rad = 0.2 * Math.sqrt(r.nextDouble());
                                o[0] = (float) (rad * Math.cos(phi));
                                o[1] = r.nextBoolean() ? 0.3f : -0.3f;
                                o[2] = (float) (rad * Math.sin(phi));
                            } else {
                                o[0] = (float) (0.2 * Math.cos(phi));
                                o[1] = (2 * r.nextFloat() - 1) * 0.3f;
                                o[2] = (float) (0.2 * Math.sin(phi));
                            }
                        },
                        (x, y, z) -> Math.max(Math.hypot(x, z) - 0.2, Math.abs(y) - 0.3)),
                new Shape("rectangle", false, 0.3f,
                        (p, t, f) -> new RectangleCollider("rectangle", p, 0.5f, 0.3f, t, f),
                        (r, o) -> {
                            o[0] = (2 * r.nextFloat() - 1) * 0.5f;
                            o[1] = 0f;
                            o[2] = (2 * r.nextFloat() - 1) * 0.3f;
                        },
                        (x, y, z) -> Math.abs(y) + Math.max(0, Math.abs(x) - 0.5) + Math.max(0, Math.abs(z) - 0.3)),
                new Shape("funnel", false, 0.2f,
                        (p, t, f) -> new FunnelCollider("funnel", p, FUNNEL_A, FUNNEL_Y_MIN, FUNNEL_Y_MAX, t, f),
                        (r, o) -> {
                            double s = FUNNEL_Y_MIN + (FUNNEL_Y_MAX - FUNNEL_Y_MIN) * r.nextDouble();
                            double rad = Math.exp(s / FUNNEL_A);
                            double phi = 2 * Math.PI * r.nextDouble();
                            o[0] = (float) (rad * Math.cos(phi));
                            o[1] = (float) s;
                            o[2] = (float) (rad * Math.sin(phi));
                        },
                        (x, y, z) -> y < FUNNEL_Y_MIN - 1e-6 || y > FUNNEL_Y_MAX + 1e-6 ? 1
                                : Math.hypot(x, z) - Math.exp(y / FUNNEL_A)));
    }

    static void direction(Random r, float[] o) {
        double z = 2 * r.nextDouble() - 1;
        double phi = 2 * Math.PI * r.nextDouble();
        double s = Math.sqrt(1 - z * z);
        o[0] = (float) (s * Math.cos(phi));
        o[1] = (float) (s * Math.sin(phi));
        o[2] = (float) z;
    }

    private static void scale(float[] o, float a, float b, float c) {
        o[0] *= a;
        o[1] *= b;
        o[2] *= c;
    }

    private static double sq(double v) {
        return v * v;
    }
}
