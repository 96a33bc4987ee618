package dev.weft.core.export;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict little JSON parser for reading the glTF JSON chunk back in tests (the project has no JSON
 * library): objects become maps, arrays lists, numbers doubles. Rejects trailing garbage.
 */
final class MiniJson {
    private final String s;
    private int i;

    private MiniJson(String s) {
        this.s = s;
    }

    static Object parse(String text) {
        MiniJson p = new MiniJson(text);
        Object v = p.value();
        p.space();
        if (p.i != text.length()) {
            throw p.error("trailing characters");
        }
        return v;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> array(Object o) {
        return (List<Object>) o;
    }

    static long integer(Object o) {
        double d = (Double) o;
        if (d != Math.rint(d)) {
            throw new IllegalArgumentException(d + " is not an integer");
        }
        return (long) d;
    }

    private Object value() {
        space();
        if (i >= s.length()) {
            throw error("unexpected end");
        }
        char c = s.charAt(i);
        switch (c) {
            case '{':
                return objectValue();
            case '[':
                return arrayValue();
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                return number();
        }
    }

    private Map<String, Object> objectValue() {
        Map<String, Object> m = new LinkedHashMap<>();
        i++;
        space();
        if (s.charAt(i) == '}') {
            i++;
            return m;
        }
        while (true) {
            space();
            String key = string();
            space();
            expect(':');
            if (m.put(key, value()) != null) {
                throw error("duplicate key " + key);
            }
            space();
            if (s.charAt(i) == '}') {
                i++;
                return m;
            }
            expect(',');
        }
    }

    private List<Object> arrayValue() {
        List<Object> a = new ArrayList<>();
        i++;
        space();
        if (s.charAt(i) == ']') {
            i++;
            return a;
        }
        while (true) {
            a.add(value());
            space();
            if (s.charAt(i) == ']') {
                i++;
                return a;
            }
            expect(',');
        }
    }

    private String string() {
        expect('"');
        StringBuilder b = new StringBuilder();
        while (true) {
            char c = s.charAt(i++);
            if (c == '"') {
                return b.toString();
            }
            if (c < 0x20) {
                throw error("control character in a string");
            }
            if (c == '\\') {
                char e = s.charAt(i++);
                switch (e) {
                    case 'u':
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                        break;
                    case 'n':
                        b.append('\n');
                        break;
                    case 't':
                        b.append('\t');
                        break;
                    case 'r':
                        b.append('\r');
                        break;
                    case 'b':
                        b.append('\b');
                        break;
                    case 'f':
                        b.append('\f');
                        break;
                    default:
                        b.append(e);
                }
            } else {
                b.append(c);
            }
        }
    }

    private Double number() {
        int start = i;
        while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        String t = s.substring(start, i);
        if (!t.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?")) {
            throw error("not a JSON number: '" + t + "'");
        }
        return Double.parseDouble(t);
    }

    private Object literal(String word, Object value) {
        if (!s.startsWith(word, i)) {
            throw error("expected " + word);
        }
        i += word.length();
        return value;
    }

    private void expect(char c) {
        if (i >= s.length() || s.charAt(i) != c) {
            throw error("expected '" + c + "'");
        }
        i++;
    }

    private void space() {
        while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("JSON at " + i + ": " + what);
    }
}
