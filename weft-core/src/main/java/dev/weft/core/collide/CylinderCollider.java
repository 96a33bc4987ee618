package dev.weft.core.collide;

import dev.weft.core.util.Check;

/** A solid cylinder with flat caps, its axis along the body's y from −halfHeight to halfHeight. */
public final class CylinderCollider extends RigidCollider {
    private final float radius;
    private final float halfHeight;

    public CylinderCollider(String name, float[] center, float radius, float halfHeight, float thickness,
                            float friction) {
        super(name, center, false, thickness, friction);
        this.radius = Check.positive(name + ".radius", radius);
        this.halfHeight = Check.positive(name + ".halfHeight", halfHeight);
    }

    public float radius() {
        return radius;
    }

    /** Half the height along the body's y. */
    public float halfHeight() {
        return halfHeight;
    }

    @Override
    public float boundingRadius() {
        return (float) Math.sqrt(radius * radius + halfHeight * halfHeight);
    }

    @Override
    protected float localDistance(float x, float y, float z, float[] n) {
        float rho = (float) Math.sqrt(x * x + z * z);
        float ux = 1f; // radial unit vector; on the axis any is as good
        float uz = 0f;
        if (rho > 1e-12f) {
            ux = x / rho;
            uz = z / rho;
        }
        float qr = rho - radius;
        float qy = Math.abs(y) - halfHeight;
        if (qr > 0f || qy > 0f) {
            // outside: closest point of the (rho, y) rectangle [0, r] x [-h, h]
            float dr = Math.max(qr, 0f);
            float dy = y - Math.max(-halfHeight, Math.min(halfHeight, y));
            float d = (float) Math.sqrt(dr * dr + dy * dy);
            n[0] = ux * dr / d;
            n[1] = dy / d;
            n[2] = uz * dr / d;
            return d;
        }
        if (qr >= qy) {
            n[0] = ux;
            n[1] = 0f;
            n[2] = uz;
            return qr;
        }
        n[0] = 0f;
        n[1] = y >= 0f ? 1f : -1f;
        n[2] = 0f;
        return qy;
    }
}
