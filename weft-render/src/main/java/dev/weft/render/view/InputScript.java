package dev.weft.render.view;

import static org.lwjgl.glfw.GLFW.*;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import dev.weft.core.InvalidInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Timed input for the viewer ({@code weft view --script FILE.json}): mouse moves, presses and releases
 * at window pixels, wheel notches, keys and panel values, each at a drawn frame. Replayed through
 * {@link ViewerInput}, the handlers a person's input takes. With a script the simulation runs in
 * lock-step, one simulated frame per drawn frame, so a replay does the same every time.
 *
 * <pre>{@code
 * { "events": [
 *     { "frame": 5,  "type": "move", "x": 480, "y": 300 },
 *     { "frame": 6,  "type": "press", "button": "left", "shift": false },
 *     { "frame": 40, "type": "release", "button": "left" },
 *     { "frame": 50, "type": "key", "key": "B" },
 *     { "frame": 55, "type": "scroll", "notches": 1 },
 *     { "frame": 60, "type": "set", "name": "tearing", "value": 1 } ] }
 * }</pre>
 */
public final class InputScript {
    /** One event: what to do at which drawn frame (0 = before the first frame is drawn). */
    public record Event(int frame, String type, double x, double y, int code, int mods, String name, double value,
                        String text) {
        void replay(ViewerInput input) {
            switch (type) {
                case "move":
                    input.cursorMoved(x, y);
                    break;
                case "press":
                    input.mouseButton(code, true, mods);
                    break;
                case "release":
                    input.mouseButton(code, false, mods);
                    break;
                case "key":
                    input.key(code, mods);
                    break;
                case "scroll":
                    input.scrolled(value);
                    break;
                case "set":
                    if (text != null) {
                        input.set(name, text);
                    } else {
                        input.set(name, value);
                    }
                    break;
                default:
                    throw new IllegalStateException(type);
            }
        }
    }

    private static final Map<String, Set<String>> KEYS = Map.of(
            "move", Set.of("frame", "type", "x", "y"),
            "press", Set.of("frame", "type", "button", "shift"),
            "release", Set.of("frame", "type", "button"),
            "key", Set.of("frame", "type", "key", "shift"),
            "scroll", Set.of("frame", "type", "notches"),
            "set", Set.of("frame", "type", "name", "value"));
    // "set" takes a number, or a solver's name for "solver"

    private static final JsonFactory FACTORY = JsonFactory.builder().enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
            .build();

    private final List<Event> events;
    private int next;

    public InputScript(List<Event> events) {
        this.events = List.copyOf(events);
    }

    public List<Event> events() {
        return events;
    }

    /** The last frame any event is at. */
    public int lastFrame() {
        return events.isEmpty() ? 0 : events.get(events.size() - 1).frame();
    }

    /** Replays the events at frames up to {@code frame} not replayed yet. */
    void replayUpTo(int frame, ViewerInput input) {
        while (next < events.size() && events.get(next).frame() <= frame) {
            events.get(next++).replay(input);
        }
    }

    /** Reads a script file; bad content is an {@link InvalidInputException} naming the file, line and column. */
    public static InputScript read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new InvalidInputException("--script", "cannot read " + file + ": " + e.getMessage());
        }
        return parse(file.toString(), text);
    }

    static InputScript parse(String file, String text) {
        List<Event> events = new ArrayList<>();
        try (JsonParser p = FACTORY.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw error(file, p, "a script is a JSON object {\"events\": [...]}");
            }
            boolean seen = false;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                if (!"events".equals(key)) {
                    throw error(file, p, "unknown key '" + key + "'; a script has only \"events\"");
                }
                seen = true;
                if (p.nextToken() != JsonToken.START_ARRAY) {
                    throw error(file, p, "\"events\" must be an array of event objects");
                }
                int lastFrame = 0;
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    Event e = event(file, p);
                    if (e.frame() < lastFrame) {
                        throw error(file, p, "events must be in order of frame: frame " + e.frame()
                                + " after frame " + lastFrame);
                    }
                    lastFrame = e.frame();
                    events.add(e);
                }
            }
            if (!seen) {
                throw error(file, p, "a script needs \"events\": [...]");
            }
        } catch (JsonParseException e) {
            JsonLocation at = e.getLocation();
            throw new InvalidInputException("--script", file + ":" + at.getLineNr() + ":" + at.getColumnNr()
                    + ": not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new InvalidInputException("--script", "cannot read " + file + ": " + e.getMessage());
        }
        return new InputScript(events);
    }

    private static Event event(String file, JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw error(file, p, "each event is an object such as {\"frame\": 5, \"type\": \"move\", \"x\": 10, "
                    + "\"y\": 20}");
        }
        JsonLocation start = p.currentTokenLocation();
        Map<String, Object> f = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken v = p.nextToken();
            Object value;
            if (v == JsonToken.VALUE_NUMBER_INT || v == JsonToken.VALUE_NUMBER_FLOAT) {
                value = p.getDoubleValue();
            } else if (v == JsonToken.VALUE_STRING) {
                value = p.getText();
            } else if (v == JsonToken.VALUE_TRUE || v == JsonToken.VALUE_FALSE) {
                value = v == JsonToken.VALUE_TRUE;
            } else {
                throw error(file, p, "'" + key + "' must be a number, a string or true/false");
            }
            if (f.put(key, value) != null) {
                throw error(file, p, "'" + key + "' is given twice");
            }
        }
        String where = file + ":" + start.getLineNr() + ":" + start.getColumnNr() + ": ";
        Object type = f.get("type");
        if (!(type instanceof String) || !KEYS.containsKey(type)) {
            throw new InvalidInputException("--script", where + "an event's \"type\" must be one of "
                    + String.join(", ", KEYS.keySet().stream().sorted().toList()) + ", got " + type);
        }
        for (String key : f.keySet()) {
            if (!KEYS.get(type).contains(key)) {
                throw new InvalidInputException("--script", where + "a '" + type + "' event has no '" + key
                        + "'; it takes " + KEYS.get(type).stream().sorted().toList());
            }
        }
        int frame = (int) number(where, f, "frame", 0, 1e7);
        boolean shift = f.get("shift") instanceof Boolean b && b;
        int mods = shift ? GLFW_MOD_SHIFT : 0;
        switch ((String) type) {
            case "move":
                return new Event(frame, "move", number(where, f, "x", -1e5, 1e5), number(where, f, "y", -1e5, 1e5), 0,
                        0, null, 0, null);
            case "press":
            case "release":
                return new Event(frame, (String) type, 0, 0, button(where, f), mods, null, 0, null);
            case "key":
                return new Event(frame, "key", 0, 0, key(where, f), mods, null, 0, null);
            case "scroll":
                return new Event(frame, "scroll", 0, 0, 0, 0, null, number(where, f, "notches", -100, 100), null);
            default: {
                Object name = f.get("name");
                if ("solver".equals(name) || "mode".equals(name) || "inner".equals(name)) {
                    if (!(f.get("value") instanceof String text)) {
                        throw new InvalidInputException("--script", where + "\"" + name + "\" takes a name as "
                                + "\"value\", got " + f.get("value"));
                    }
                    return new Event(frame, "set", 0, 0, 0, 0, (String) name, 0, text);
                }
                if (!(name instanceof String) || !List.of(ViewerInput.PANEL_VALUES).contains(name)) {
                    throw new InvalidInputException("--script", where + "a 'set' event's \"name\" must be solver, mode, inner or "
                            + "one of " + String.join(", ", ViewerInput.PANEL_VALUES) + ", got " + name);
                }
                return new Event(frame, "set", 0, 0, 0, 0, (String) name, number(where, f, "value", -1e9, 1e9), null);
            }
        }
    }

    private static double number(String where, Map<String, Object> f, String key, double min, double max) {
        Object v = f.get(key);
        if (!(v instanceof Double d) || !(d >= min && d <= max)) {
            throw new InvalidInputException("--script", where + "'" + key + "' must be a number in [" + min + ", "
                    + max + "], got " + v);
        }
        return d;
    }

    private static int button(String where, Map<String, Object> f) {
        Object b = f.getOrDefault("button", "left");
        switch (String.valueOf(b)) {
            case "left":
                return GLFW_MOUSE_BUTTON_LEFT;
            case "right":
                return GLFW_MOUSE_BUTTON_RIGHT;
            case "middle":
                return GLFW_MOUSE_BUTTON_MIDDLE;
            default:
                throw new InvalidInputException("--script", where + "\"button\" must be left, right or middle, got "
                        + b);
        }
    }

    /** Keys by name: a letter, a digit, "space", "period", "escape". */
    private static int key(String where, Map<String, Object> f) {
        Object k = f.get("key");
        String s = k instanceof String str ? str.toUpperCase(Locale.ROOT) : "";
        if (s.length() == 1 && s.charAt(0) >= 'A' && s.charAt(0) <= 'Z') {
            return GLFW_KEY_A + (s.charAt(0) - 'A');
        }
        if (s.length() == 1 && s.charAt(0) >= '0' && s.charAt(0) <= '9') {
            return GLFW_KEY_0 + (s.charAt(0) - '0');
        }
        switch (s) {
            case "SPACE":
                return GLFW_KEY_SPACE;
            case "PERIOD":
            case ".":
                return GLFW_KEY_PERIOD;
            case "ESCAPE":
                return GLFW_KEY_ESCAPE;
            default:
                throw new InvalidInputException("--script", where + "\"key\" must be a letter, a digit, space, "
                        + "period or escape, got " + k);
        }
    }

    private static InvalidInputException error(String file, JsonParser p, String problem) {
        JsonLocation at = p.currentTokenLocation();
        return new InvalidInputException("--script", file + ":" + at.getLineNr() + ":" + at.getColumnNr() + ": "
                + problem);
    }
}
