package dev.weft.core.model;

import dev.weft.core.InvalidInputException;
import dev.weft.core.util.Check;

/**
 * A rectangular cloth of {@code cols × rows} particles spanning {@code width × height} metres.
 * Particle (row, col) sits at {@code origin + col·width/(cols−1)·u + row·height/(rows−1)·v}, so row 0
 * is the "top" edge and column 0 the "left" edge. {@code u} and {@code v} are unit vectors along the
 * columns and rows: {@link #HORIZONTAL} lies in the XZ plane, {@link #VERTICAL} hangs in the XY plane.
 *
 * Its mass is its material's density times its area ({@link Material#density()}).
 *
 * @param shear     add diagonal shear constraints (seed 001's 4-neighbour lattice has none)
 */
public record GridClothSpec(String name, int cols, int rows, float width, float height,
                            float[] origin, float[] u, float[] v, boolean shear) {
    public static final float[][] HORIZONTAL = {{1, 0, 0}, {0, 0, 1}};
    public static final float[][] VERTICAL = {{1, 0, 0}, {0, -1, 0}};

    public GridClothSpec {
        Check.atLeast(name + ".cols", cols, 2);
        Check.atLeast(name + ".rows", rows, 2);
        Check.positive(name + ".width", width);
        Check.positive(name + ".height", height);
        Check.vector3(name + ".origin", origin);
        Check.vector3(name + ".u", u);
        Check.vector3(name + ".v", v);
        float[] n = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
        if (n[0] * n[0] + n[1] * n[1] + n[2] * n[2] < 1e-12f) {
            throw new InvalidInputException(name + ".u/v", "the two axes must be non-zero and not parallel");
        }
        u = normalized(u);
        v = normalized(v);
        origin = origin.clone();
    }

    /** A horizontal cloth with its top-left particle at the origin. */
    public static GridClothSpec of(String name, int cols, int rows, float width, float height) {
        return new GridClothSpec(name, cols, rows, width, height, new float[3], HORIZONTAL[0], HORIZONTAL[1],
                true);
    }

    public GridClothSpec withOrigin(float x, float y, float z) {
        return new GridClothSpec(name, cols, rows, width, height, new float[] {x, y, z}, u, v, shear);
    }

    public GridClothSpec withAxes(float[] uAxis, float[] vAxis) {
        return new GridClothSpec(name, cols, rows, width, height, origin, uAxis, vAxis, shear);
    }


    public GridClothSpec withShear(boolean withShear) {
        return new GridClothSpec(name, cols, rows, width, height, origin, u, v, withShear);
    }

    public int particleCount() {
        return cols * rows;
    }

    private static float[] normalized(float[] a) {
        float len = (float) Math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
        return new float[] {a[0] / len, a[1] / len, a[2] / len};
    }
}
