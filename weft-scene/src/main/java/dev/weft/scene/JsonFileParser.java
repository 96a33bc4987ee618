package dev.weft.scene;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Parses JSON text with Jackson's streaming parser into {@link JsonValue}s that keep their locations.
 * Comments ({@code //}, {@code /* *}{@code /}) are allowed, as people annotate scene files; a key written
 * twice in one object is an error (the second would silently win); nesting is bounded, so a hostile file
 * cannot exhaust the stack.
 */
final class JsonFileParser {
    private static final int MAX_DEPTH = 64;
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH)
                    .maxStringLength(1 << 20).maxNumberLength(100).build())
            .build();

    private final String file;
    private final JsonParser parser;

    private JsonFileParser(String file, JsonParser parser) {
        this.file = file;
        this.parser = parser;
    }

    /** The document in {@code text}; {@code file} names it in errors. */
    static JsonValue parse(String file, String text) {
        try (JsonParser p = FACTORY.createParser(text)) {
            JsonFileParser reader = new JsonFileParser(file, p);
            JsonToken first = p.nextToken();
            if (first == null) {
                throw new SceneFileException(file, 1, 1, "", "the file is empty; a scene is a JSON object {...}");
            }
            JsonValue root = reader.value("", first);
            JsonToken after = p.nextToken();
            if (after != null) {
                throw reader.here("", "text after the end of the scene object: " + after.asString());
            }
            return root;
        } catch (JsonParseException e) {
            JsonLocation at = e.getLocation();
            throw new SceneFileException(file, Math.max(1, at.getLineNr()), Math.max(1, at.getColumnNr()), "",
                    "not valid JSON: " + plain(e.getOriginalMessage()));
        } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
            throw new SceneFileException(file, 1, 1, "", "too deeply nested or too long (at most " + MAX_DEPTH
                    + " levels): " + e.getMessage());
        } catch (IOException e) {
            throw new SceneFileException(file, 1, 1, "", "cannot be read: " + e.getMessage());
        }
    }

    /** Jackson's message without its hints to programmers (which feature to enable). */
    private static String plain(String message) {
        int hint = message.indexOf(": enable `");
        String m = hint < 0 ? message : message.substring(0, hint);
        hint = m.indexOf("\n at [Source");
        return hint < 0 ? m : m.substring(0, hint);
    }

    private JsonValue value(String path, JsonToken t) throws IOException {
        JsonLocation at = parser.currentTokenLocation();
        int line = at.getLineNr();
        int column = at.getColumnNr();
        switch (t) {
            case START_OBJECT: {
                LinkedHashMap<String, JsonValue> fields = new LinkedHashMap<>();
                for (JsonToken k = parser.nextToken(); k != JsonToken.END_OBJECT; k = parser.nextToken()) {
                    String key = parser.currentName();
                    String child = path.isEmpty() ? key : path + "." + key;
                    JsonLocation keyAt = parser.currentTokenLocation();
                    if (fields.containsKey(key)) {
                        throw here(child, "written twice in one object (the first at line "
                                + fields.get(key).line + ")");
                    }
                    fields.put(key, value(child, parser.nextToken()).keyAt(keyAt.getLineNr(), keyAt.getColumnNr()));
                }
                return JsonValue.object(file, path, line, column, fields);
            }
            case START_ARRAY: {
                List<JsonValue> items = new ArrayList<>();
                for (JsonToken k = parser.nextToken(); k != JsonToken.END_ARRAY; k = parser.nextToken()) {
                    items.add(value(path + "[" + items.size() + "]", k));
                }
                return JsonValue.array(file, path, line, column, items);
            }
            case VALUE_STRING:
                return JsonValue.scalar(JsonValue.Kind.STRING, file, path, line, column, parser.getText());
            case VALUE_NUMBER_INT:
                return JsonValue.scalar(JsonValue.Kind.NUMBER, file, path, line, column, parser.getNumberValue());
            case VALUE_NUMBER_FLOAT:
                return JsonValue.scalar(JsonValue.Kind.NUMBER, file, path, line, column, parser.getDoubleValue());
            case VALUE_TRUE:
            case VALUE_FALSE:
                return JsonValue.scalar(JsonValue.Kind.BOOLEAN, file, path, line, column, t == JsonToken.VALUE_TRUE);
            case VALUE_NULL:
                return JsonValue.scalar(JsonValue.Kind.NULL, file, path, line, column, null);
            default:
                throw here(path, "unexpected " + t);
        }
    }

    private SceneFileException here(String path, String problem) {
        JsonLocation at = parser.currentTokenLocation();
        return new SceneFileException(file, Math.max(1, at.getLineNr()), Math.max(1, at.getColumnNr()), path, problem);
    }
}
