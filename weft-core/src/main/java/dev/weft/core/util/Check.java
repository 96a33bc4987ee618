package dev.weft.core.util;

import dev.weft.core.InvalidInputException;

/** Parameter checks that fail with a message naming the parameter and what is allowed. */
public final class Check {
    private Check() {
    }

    public static float finite(String name, float v) {
        if (!Float.isFinite(v)) {
            throw new InvalidInputException(name, "must be a finite number, got " + v);
        }
        return v;
    }

    public static float positive(String name, float v) {
        if (!Float.isFinite(v) || v <= 0f) {
            throw new InvalidInputException(name, "must be a finite number > 0, got " + v);
        }
        return v;
    }

    public static float nonNegative(String name, float v) {
        if (!Float.isFinite(v) || v < 0f) {
            throw new InvalidInputException(name, "must be a finite number >= 0, got " + v);
        }
        return v;
    }

    public static double positive(String name, double v) {
        if (!Double.isFinite(v) || v <= 0.0) {
            throw new InvalidInputException(name, "must be a finite number > 0, got " + v);
        }
        return v;
    }

    public static int atLeast(String name, int v, int min) {
        if (v < min) {
            throw new InvalidInputException(name, "must be an integer >= " + min + ", got " + v);
        }
        return v;
    }

    public static float[] vector3(String name, float[] v) {
        if (v == null || v.length != 3) {
            throw new InvalidInputException(name, "must be a vector of 3 numbers");
        }
        for (float c : v) {
            finite(name, c);
        }
        return v;
    }
}
