package dev.weft.scene;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One value of a JSON document with where it was written: its key path from the root and the line and
 * column of its first character. Jackson's trees drop locations once parsed; a scene file's errors need
 * them after parsing (a negative stiffness is found when the material is built), so the parser keeps them.
 */
final class JsonValue {
    enum Kind { OBJECT, ARRAY, STRING, NUMBER, BOOLEAN, NULL }

    final Kind kind;
    final String file;
    final String path;
    final int line;
    final int column;
    /** Where the key of an object member was written (its value's place for array items and the root). */
    private int keyLine;
    private int keyColumn;
    private final Object value;

    private JsonValue(Kind kind, String file, String path, int line, int column, Object value) {
        this.kind = kind;
        this.file = file;
        this.path = path;
        this.line = line;
        this.column = column;
        this.keyLine = line;
        this.keyColumn = column;
        this.value = value;
    }

    /** Records where this member's key was written (the parser knows it before the value). */
    JsonValue keyAt(int line, int column) {
        keyLine = line;
        keyColumn = column;
        return this;
    }

    /** An error at this member's key (an unknown or misplaced key). */
    SceneFileException keyError(String problem) {
        return new SceneFileException(file, keyLine, keyColumn, path, problem);
    }

    static JsonValue object(String file, String path, int line, int column, LinkedHashMap<String, JsonValue> fields) {
        return new JsonValue(Kind.OBJECT, file, path, line, column, fields);
    }

    static JsonValue array(String file, String path, int line, int column, List<JsonValue> items) {
        return new JsonValue(Kind.ARRAY, file, path, line, column, items);
    }

    static JsonValue scalar(Kind kind, String file, String path, int line, int column, Object value) {
        return new JsonValue(kind, file, path, line, column, value);
    }

    /** The fields of an object, in the order written. */
    @SuppressWarnings("unchecked")
    Map<String, JsonValue> fields() {
        return Collections.unmodifiableMap((Map<String, JsonValue>) value);
    }

    @SuppressWarnings("unchecked")
    List<JsonValue> items() {
        return Collections.unmodifiableList((List<JsonValue>) value);
    }

    String text() {
        return (String) value;
    }

    /** A number as written (double precision, as JSON numbers are). */
    double number() {
        return ((Number) value).doubleValue();
    }

    boolean isInteger() {
        return value instanceof Long || value instanceof Integer || value instanceof java.math.BigInteger;
    }

    boolean bool() {
        return (Boolean) value;
    }

    /** An error at this value. */
    SceneFileException error(String problem) {
        return new SceneFileException(file, line, column, path, problem);
    }

    /** What this value is, for messages: "a string", "an object", ... */
    String describe() {
        switch (kind) {
            case OBJECT:
                return "an object";
            case ARRAY:
                return "an array";
            case STRING:
                return "the string \"" + value + "\"";
            case NUMBER:
                return "the number " + value;
            case BOOLEAN:
                return String.valueOf(value);
            default:
                return "null";
        }
    }
}
