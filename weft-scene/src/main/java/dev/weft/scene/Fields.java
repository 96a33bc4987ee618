package dev.weft.scene;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The fields of one JSON object of a scene file, read by key with their types and ranges checked. The
 * keys an object may hold are declared when it is opened, and any other key is an error at that key
 * naming the allowed ones (a typo must not be ignored: {@code "stifness": 5} would leave the default).
 */
final class Fields {
    private final JsonValue object;

    private Fields(JsonValue object) {
        this.object = object;
    }

    /** {@code value} as an object of {@code what} holding only {@code allowed} keys. */
    static Fields of(JsonValue value, String what, String... allowed) {
        if (value.kind != JsonValue.Kind.OBJECT) {
            throw value.error("must be an object {...} (" + what + "), got " + value.describe());
        }
        for (java.util.Map.Entry<String, JsonValue> e : value.fields().entrySet()) {
            if (!List.of(allowed).contains(e.getKey())) {
                String near = nearest(e.getKey(), allowed);
                throw e.getValue().keyError("unknown key '" + e.getKey() + "' in " + what
                        + (near == null ? "" : " (did you mean '" + near + "'?)") + "; allowed here: "
                        + String.join(", ", allowed));
            }
        }
        return new Fields(value);
    }

    JsonValue value() {
        return object;
    }

    boolean has(String key) {
        return object.fields().containsKey(key);
    }

    /** The value at {@code key}, or null when absent. */
    JsonValue get(String key) {
        return object.fields().get(key);
    }

    JsonValue required(String key, String what) {
        JsonValue v = get(key);
        if (v == null) {
            throw object.error("missing '" + key + "': " + what);
        }
        return v;
    }

    /** A number at {@code key} within [min, max], or {@code fallback} when absent. */
    double number(String key, double fallback, double min, double max, String unit) {
        JsonValue v = get(key);
        return v == null ? fallback : number(v, min, max, unit);
    }

    static double number(JsonValue v, double min, double max, String unit) {
        if (v.kind != JsonValue.Kind.NUMBER) {
            throw v.error("must be a number" + range(min, max, unit) + ", got " + v.describe());
        }
        double d = v.number();
        if (!Double.isFinite(d) || d < min || d > max) {
            throw v.error("must be a number" + range(min, max, unit) + ", got " + fmt(d));
        }
        return d;
    }

    /** A float at {@code key} within [min, max]; {@code "inf"} where {@code infinite} allows it. */
    float stiffness(String key, float fallback, String unit) {
        JsonValue v = get(key);
        if (v == null) {
            return fallback;
        }
        if (v.kind == JsonValue.Kind.STRING && "inf".equals(v.text())) {
            return Float.POSITIVE_INFINITY;
        }
        if (v.kind != JsonValue.Kind.NUMBER || !(v.number() > 0) || !Double.isFinite(v.number())) {
            throw v.error("must be a number > 0" + (unit.isEmpty() ? "" : " in " + unit) + " or \"inf\" (rigid), got "
                    + v.describe());
        }
        return (float) v.number();
    }

    int integer(String key, int fallback, int min, int max) {
        JsonValue v = get(key);
        return v == null ? fallback : integer(v, min, max);
    }

    static int integer(JsonValue v, int min, int max) {
        if (v.kind != JsonValue.Kind.NUMBER || !v.isInteger() || v.number() < min || v.number() > max) {
            throw v.error("must be a whole number" + range(min, max, "") + ", got " + v.describe());
        }
        return (int) v.number();
    }

    boolean bool(String key, boolean fallback) {
        JsonValue v = get(key);
        if (v == null) {
            return fallback;
        }
        if (v.kind != JsonValue.Kind.BOOLEAN) {
            throw v.error("must be true or false, got " + v.describe());
        }
        return v.bool();
    }

    String string(String key, String fallback) {
        JsonValue v = get(key);
        return v == null ? fallback : string(v);
    }

    static String string(JsonValue v) {
        if (v.kind != JsonValue.Kind.STRING) {
            throw v.error("must be a string, got " + v.describe());
        }
        return v.text();
    }

    /** One of {@code allowed} at {@code key}, or {@code fallback} when absent. */
    String choice(String key, String fallback, String... allowed) {
        JsonValue v = get(key);
        return v == null ? fallback : choice(v, allowed);
    }

    static String choice(JsonValue v, String... allowed) {
        String s = v.kind == JsonValue.Kind.STRING ? v.text() : null;
        if (s == null || !List.of(allowed).contains(s)) {
            String near = s == null ? null : nearest(s, allowed);
            throw v.error("must be one of " + String.join(", ", allowed) + ", got " + v.describe()
                    + (near == null ? "" : " (did you mean '" + near + "'?)"));
        }
        return s;
    }

    /** Three finite numbers [x, y, z] at {@code key}, or {@code fallback} when absent. */
    float[] vec3(String key, float[] fallback) {
        JsonValue v = get(key);
        return v == null ? (fallback == null ? null : fallback.clone()) : vec3(v);
    }

    static float[] vec3(JsonValue v) {
        if (v.kind != JsonValue.Kind.ARRAY || v.items().size() != 3) {
            throw v.error("must be three numbers [x, y, z], got " + v.describe()
                    + (v.kind == JsonValue.Kind.ARRAY ? " of " + v.items().size() : ""));
        }
        float[] out = new float[3];
        for (int k = 0; k < 3; k++) {
            out[k] = (float) number(v.items().get(k), -1e9, 1e9, "");
        }
        return out;
    }

    /** The array at {@code key} (empty when absent). */
    List<JsonValue> array(String key) {
        JsonValue v = get(key);
        if (v == null) {
            return List.of();
        }
        if (v.kind != JsonValue.Kind.ARRAY) {
            throw v.error("must be an array [...], got " + v.describe());
        }
        return v.items();
    }

    /** Strings at {@code key}, each one of {@code allowed}. */
    List<String> choices(String key, String... allowed) {
        List<String> out = new ArrayList<>();
        for (JsonValue v : array(key)) {
            out.add(choice(v, allowed));
        }
        return out;
    }

    private static String range(double min, double max, String unit) {
        String u = unit.isEmpty() ? "" : " " + unit;
        boolean low = min > -1e9;
        boolean high = max < 1e9;
        if (low && high && min != Double.MIN_VALUE) {
            return " from " + fmt(min) + " to " + fmt(max) + u;
        }
        String lower = !low ? "" : min == Double.MIN_VALUE ? " > 0" : min == 0 ? " >= 0" : " >= " + fmt(min);
        String upper = !high ? "" : (low ? " and" : "") + " <= " + fmt(max);
        return lower + upper + u;
    }

    private static String fmt(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf((long) d) : String.format(Locale.ROOT, "%g", d);
    }

    /** The allowed word closest to {@code word} within two edits, or null. */
    static String nearest(String word, String... allowed) {
        String best = null;
        int bestDistance = 3;
        for (String a : allowed) {
            int d = editDistance(word.toLowerCase(Locale.ROOT), a.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = a;
            }
        }
        return best;
    }

    private static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
