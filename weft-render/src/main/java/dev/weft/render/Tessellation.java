package dev.weft.render;

/** Triangle meshes of collider shapes, built once: positions, unit normals and counter-clockwise triangles. */
record Tessellation(float[] positions, float[] normals, int[] triangles) {

    /**
     * A square of side {@code 2 halfSize} in the plane through {@code center} with unit normal
     * {@code normal}, facing along the normal; {@code u} and {@code v} receive the in-plane axes.
     */
    static Tessellation square(float[] center, float[] normal, float halfSize, float[] u, float[] v) {
        planeAxes(normal, u, v);
        float[] p = new float[12];
        float[] n = new float[12];
        float[][] corners = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
        for (int c = 0; c < 4; c++) {
            for (int d = 0; d < 3; d++) {
                p[3 * c + d] = center[d] + halfSize * (corners[c][0] * u[d] + corners[c][1] * v[d]);
                n[3 * c + d] = normal[d];
            }
        }
        // (u × v) = normal, so corners in (u, v) counter-clockwise order face along the normal
        return new Tessellation(p, n, new int[] {0, 1, 2, 0, 2, 3});
    }

    /** Two unit axes spanning the plane with this unit normal, such that u × v = normal. */
    static void planeAxes(float[] normal, float[] u, float[] v) {
        // start from the world axis least aligned with the normal (X for a floor, so the grid follows X and Z)
        float ax = Math.abs(normal[0]);
        float ay = Math.abs(normal[1]);
        float az = Math.abs(normal[2]);
        float[] seed = ax <= ay && ax <= az ? new float[] {1, 0, 0} : ay <= az ? new float[] {0, 1, 0}
                : new float[] {0, 0, 1};
        // v = normal × seed, u = v × normal
        v[0] = normal[1] * seed[2] - normal[2] * seed[1];
        v[1] = normal[2] * seed[0] - normal[0] * seed[2];
        v[2] = normal[0] * seed[1] - normal[1] * seed[0];
        float len = (float) Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        v[0] /= len;
        v[1] /= len;
        v[2] /= len;
        u[0] = v[1] * normal[2] - v[2] * normal[1];
        u[1] = v[2] * normal[0] - v[0] * normal[2];
        u[2] = v[0] * normal[1] - v[1] * normal[0];
    }
}
