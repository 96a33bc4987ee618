package dev.weft.core.collide;

/**
 * Where a ray met a model's surface: triangle index, ray parameter t (the hit is origin + t·direction)
 * and the barycentric weights of the triangle's three particles at the hit (they sum to 1).
 */
public record TriangleHit(int triangle, float t, float b0, float b1, float b2) {
    /** The weight of corner k (0, 1, 2). */
    public float weight(int k) {
        return k == 0 ? b0 : k == 1 ? b1 : b2;
    }
}
