package dev.weft.scene;

import dev.weft.core.InvalidInputException;
import dev.weft.core.model.Material;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Materials of a scene file: the named ones of its {@code materials} section and those written in place
 * (a body's, a seam's thread). An object starts from {@code base} (a named material, or {@code "cloth"},
 * {@link Material#cloth()}, the default) and sets any of the fields in SI units; a string names a
 * material.
 */
final class MaterialReader {
    static final String[] KEYS = {"base", "stretch", "shear", "bend", "damping", "strainDamping", "tearStrain",
        "friction", "density", "thickness"};
    private final Map<String, Material> named = new LinkedHashMap<>();

    MaterialReader(JsonValue section) {
        if (section == null) {
            return;
        }
        Fields.of(section, "materials", section.kind == JsonValue.Kind.OBJECT
                ? section.fields().keySet().toArray(new String[0]) : new String[0]);
        for (Map.Entry<String, JsonValue> e : section.fields().entrySet()) {
            if ("cloth".equals(e.getKey())) {
                throw e.getValue().keyError("'cloth' is the built-in cotton; name this material otherwise");
            }
            named.put(e.getKey(), read(e.getValue()));
        }
    }

    /** The material {@code v} names or describes. */
    Material read(JsonValue v) {
        if (v.kind == JsonValue.Kind.STRING) {
            return byName(v, v.text());
        }
        Fields f = Fields.of(v, "a material", KEYS);
        Material m = f.has("base") ? byName(f.get("base"), Fields.string(f.get("base"))) : Material.cloth();
        try {
            m = m.withStretch(f.stiffness("stretch", m.stretchStiffness(), "N/m"));
            m = m.withShear(f.stiffness("shear", m.shearStiffness(), "N/m"));
            m = m.withBend((float) f.number("bend", m.bendStiffness(), 0, 1e9, "N·m"));
            m = m.withDamping((float) f.number("damping", m.damping(), 0, 1e9, "1/s"));
            m = new Material(m.stretchStiffness(), m.shearStiffness(), m.bendStiffness(), m.damping(),
                    (float) f.number("strainDamping", m.strainDamping(), 0, 1e9, "s"),
                    tearStrain(f, m.tearStrain()), (float) f.number("friction", m.friction(), 0, 1e9, "(grip factor)"),
                    (float) f.number("density", m.density(), Double.MIN_VALUE, 1e9, "kg/m²"),
                    (float) f.number("thickness", m.thickness(), 0, 1e9, "m"));
        } catch (SceneFileException e) {
            throw e;
        } catch (InvalidInputException e) {
            throw v.error(e.getMessage());
        }
        return m;
    }

    private static float tearStrain(Fields f, float fallback) {
        JsonValue v = f.get("tearStrain");
        if (v == null) {
            return fallback;
        }
        if (v.kind == JsonValue.Kind.STRING && "inf".equals(v.text())) {
            return Float.POSITIVE_INFINITY;
        }
        return (float) Fields.number(v, Double.MIN_VALUE, 1e9, "(0.3: tears at 30 % stretch) or \"inf\" (never)");
    }

    private Material byName(JsonValue at, String name) {
        if ("cloth".equals(name)) {
            return Material.cloth();
        }
        Material m = named.get(name);
        if (m == null) {
            throw at.error("no material '" + name + "'; defined: cloth" + (named.isEmpty() ? ""
                    : ", " + String.join(", ", named.keySet())) + " (a material must be defined before it is used)");
        }
        return m;
    }
}
