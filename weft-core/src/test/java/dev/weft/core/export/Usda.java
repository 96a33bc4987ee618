package dev.weft.core.export;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads back the parts of a .usda file the exporter tests check: prim blocks, values, time samples. */
final class Usda {
    private static final Pattern NUMBER = Pattern.compile("-?[0-9][0-9.]*(E-?[0-9]+)?|-?Infinity|NaN");

    private Usda() {
    }

    /** The body of {@code def <type> "<name>"}, up to its closing brace; null if there is none. */
    static String prim(String text, String type, String name) {
        int at = text.indexOf("    def " + type + " \"" + name + "\"\n    {\n");
        if (at < 0) {
            return null;
        }
        return text.substring(at, text.indexOf("\n    }\n", at) + 1);
    }

    /** The plain value of {@code declaration} in a prim block (text after " = " on its line), or null. */
    static String value(String prim, String declaration) {
        String key = "        " + declaration + " = ";
        int at = prim.indexOf(key);
        if (at < 0) {
            return null;
        }
        int end = prim.indexOf('\n', at);
        String v = prim.substring(at + key.length(), end);
        return v.endsWith(" (") ? v.substring(0, v.length() - 2) : v;
    }

    /** The time samples of {@code declaration} (time code to value text, in file order), or null. */
    static Map<Integer, String> samples(String prim, String declaration) {
        String key = "        " + declaration + ".timeSamples = {\n";
        int at = prim.indexOf(key);
        if (at < 0) {
            return null;
        }
        Map<Integer, String> samples = new LinkedHashMap<>();
        int line = at + key.length();
        while (!prim.startsWith("        }\n", line)) {
            int end = prim.indexOf('\n', line);
            String text = prim.substring(line, end).trim();
            int colon = text.indexOf(": ");
            if (!text.endsWith(",") || colon < 0) {
                throw new IllegalArgumentException("not a time sample: " + text);
            }
            samples.put(Integer.parseInt(text.substring(0, colon)), text.substring(colon + 2, text.length() - 1));
            line = end + 1;
        }
        return samples;
    }

    /** The numbers of an array value ({@code [(1, 2, 3), ...]} or {@code [1, 2]}), in order. */
    static float[] numbers(String value) {
        Matcher m = NUMBER.matcher(value);
        float[] out = new float[16];
        int n = 0;
        while (m.find()) {
            if (n == out.length) {
                out = java.util.Arrays.copyOf(out, 2 * n);
            }
            out[n++] = Float.parseFloat(m.group());
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /** The number of tuples in an array value. */
    static int tuples(String value) {
        return (int) value.chars().filter(c -> c == '(').count();
    }

    /** A header field's value ({@code name = value} in the layer's metadata), or null. */
    static String header(String text, String name) {
        String head = text.substring(0, text.indexOf("\n)\n"));
        Matcher m = Pattern.compile("\n    " + name + " = (.*)\n").matcher(head + "\n");
        return m.find() ? m.group(1) : null;
    }
}
