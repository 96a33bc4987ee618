package dev.weft.app;

import dev.weft.core.InvalidInputException;
import dev.weft.core.model.Material;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelObject;
import dev.weft.core.model.TetConstraints;
import dev.weft.core.scene.Scene;
import picocli.CommandLine.Option;

/**
 * Command-line options that change what every body of a scene is made of ({@link Material}); the same
 * cloth then runs under whichever solver {@code --solver} names.
 */
final class MaterialOptions {
    @Option(names = "--stretch", paramLabel = "K",
            description = "Stretch stiffness of every body in N/m, or inf for inextensible (xpbd, pbd, relaxation "
                    + "only) (default: the scene's; cotton 2000).")
    String stretch;

    @Option(names = "--shear", paramLabel = "K",
            description = "Shear stiffness of every body in N/m, or inf (default: the scene's; cotton 500).")
    String shear;

    @Option(names = "--bend", paramLabel = "B",
            description = "Bending rigidity of every body in N·m (default: the scene's; cotton 1e-4).")
    Float bend;

    @Option(names = "--damping", paramLabel = "D",
            description = "Velocity damping of every body in 1/s (default: the scene's; 1).")
    Float damping;

    @Option(names = "--tear-strain", paramLabel = "S",
            description = "Every body tears where a stretch or shear constraint is stretched past 1 + S "
                    + "(0.3: 30 %%), or inf: never (default: the scene's).")
    String tearStrain;

    @Option(names = "--thickness", paramLabel = "M",
            description = "Contact thickness of every body's sheet in m: its particles stay half of it further off "
                    + "every collider, and two bodies' particles at least their half-thicknesses' sum apart "
                    + "(default: the scene's, 0).")
    Float thickness;

    /** One line for a person: {@code stretch 2000 N/m, shear 500 N/m, bend 1e-04 N·m, damping 1 1/s, 0.2 kg/m²}. */
    /**
     * Body {@code o}'s material as {@link #describe(Material)} says it, but a rope's or a voxel body's mass is
     * its own (per length, per volume), not the material's areal density: for those, the body's mass in kg.
     */
    static String describe(Model model, int o) {
        ModelObject body = model.objects().get(o);
        if (body.type() == ModelObject.Type.TET_BODY) {
            return describeElastic(model, body);
        }
        String s = describe(model.material(o));
        if (body.type() == ModelObject.Type.ROPE || body.type() == ModelObject.Type.VOXEL_BODY) {
            double mass = 0;
            float[] w = model.invMass();
            for (int i = body.firstParticle(); i < body.firstParticle() + body.particleCount(); i++) {
                mass += w[i] > 0f ? 1.0 / w[i] : 0.0;
            }
            s = s.substring(0, s.lastIndexOf(", ")) + ", " + number((float) mass) + " kg";
        }
        return s;
    }

    /**
     * A tetrahedral body: its elasticity (E and ν back from the Lamé parameters its tetrahedra carry), its
     * tetrahedra and mass, and of its material what it uses (damping, grip, thickness): {@code E 300 kPa,
     * Poisson 0.45, 3392 tetrahedra, 0.88 kg, damping 0.5 1/s, grip 0.8, 24 mm thick}.
     */
    static String describeElastic(Model model, ModelObject body) {
        TetConstraints t = model.tets();
        int[] p = t.particles();
        int count = 0;
        double mu = 0;
        double lambda = 0;
        for (int c = 0; c < t.count(); c++) {
            if (p[4 * c] >= body.firstParticle() && p[4 * c] < body.firstParticle() + body.particleCount()) {
                if (count++ == 0) {
                    mu = t.shearModulus()[c];
                    lambda = t.lameLambda()[c];
                }
            }
        }
        // E = μ(3λ + 2μ)/(λ + μ), ν = λ / (2(λ + μ)); λ = ∞: E = 3μ, ν = 0.5
        double e = Double.isInfinite(lambda) ? 3 * mu : mu * (3 * lambda + 2 * mu) / (lambda + mu);
        double nu = Double.isInfinite(lambda) ? 0.5 : lambda / (2 * (lambda + mu));
        double mass = 0;
        float[] w = model.invMass();
        for (int i = body.firstParticle(); i < body.firstParticle() + body.particleCount(); i++) {
            mass += w[i] > 0f ? 1.0 / w[i] : 0.0;
        }
        Material m = model.material(model.objects().indexOf(body));
        String s = "E " + pascals(e) + ", Poisson " + number((float) nu) + ", " + count + " tetrahedra, "
                + number((float) mass) + " kg, damping " + number(m.damping()) + " 1/s";
        if (m.friction() != 1f) {
            s += ", grip " + number(m.friction());
        }
        if (m.thickness() > 0f) {
            s += ", " + number(1000f * m.thickness()) + " mm thick";
        }
        return s;
    }

    private static String pascals(double pa) {
        return pa >= 1e9 ? number((float) (pa / 1e9)) + " GPa" : pa >= 1e6 ? number((float) (pa / 1e6)) + " MPa"
                : pa >= 1e3 ? number((float) (pa / 1e3)) + " kPa" : number((float) pa) + " Pa";
    }

    static String describe(Material m) {
        String s = "stretch " + number(m.stretchStiffness()) + " N/m, shear " + number(m.shearStiffness())
                + " N/m, bend " + number(m.bendStiffness()) + " N·m, damping " + number(m.damping()) + " 1/s";
        if (m.friction() != 1f) {
            s += ", grip " + number(m.friction());
        }
        if (m.tearStrain() < Float.POSITIVE_INFINITY) {
            s += ", tears at strain " + number(m.tearStrain());
        }
        if (m.thickness() > 0f) {
            s += ", " + number(1000f * m.thickness()) + " mm thick";
        }
        return s + ", " + number(m.density()) + " kg/m²";
    }

    /** 2000, 0.5, 1e-04, inf. */
    private static String number(float v) {
        if (v == Float.POSITIVE_INFINITY) {
            return "inf";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e7f) {
            return Long.toString((long) v);
        }
        return Math.abs(v) < 1e-2f ? String.format(java.util.Locale.ROOT, "%.2e", v).replaceAll("\\.?0+e", "e")
                : String.format(java.util.Locale.ROOT, "%.3g", v).replaceAll("\\.?0+$", "");
    }

    @Option(names = "--stiffness", paramLabel = "K",
            description = "Stretch and shear stiffness of every body in N/m at once (what pd's --stiffness set before "
                    + "the material moved into the model; now for every solver).")
    Float stiffness;

    @Option(names = "--verlet-damping", paramLabel = "K",
            description = "Seed 002's Verlet share k in (0, 1] kept per 1/60 s, as a damping rate of -60 ln k per "
                    + "second for every body (k = 0.99 is 0.6/s); --damping gives the rate itself.")
    Float verletDamping;

    @Option(names = "--friction", paramLabel = "G",
            description = "Grip of every body: a factor on every contact's friction coefficients (0: frictionless, "
                    + "0.5 silk-like; default: the scene's, 1).")
    Float friction;

    @Option(names = "--material", paramLabel = "KEY=VALUE",
            description = "Set one field of every body's material (repeatable): stretch, shear (N/m or inf), bend "
                    + "(N·m), density (kg/m², cloths), friction (grip), damping (1/s), strainDamping (s), thickness "
                    + "(m), tearStrain (or inf). The same as the flag of that name where there is one.")
    java.util.Map<String, String> fields;

    /** The --material keys. */
    static final java.util.List<String> KEYS = java.util.List.of("stretch", "shear", "bend", "density", "friction",
            "damping", "strainDamping", "thickness", "tearStrain");

    /** True when some option was given. */
    boolean any() {
        return stretch != null || shear != null || bend != null || damping != null || tearStrain != null
                || friction != null || stiffness != null || verletDamping != null || thickness != null
                || (fields != null && !fields.isEmpty());
    }

    /** Moves the --material KEY=VALUE fields onto the flags they stand for (one of the two, not both). */
    private void takeFields() {
        if (fields == null) {
            return;
        }
        for (java.util.Map.Entry<String, String> e : fields.entrySet()) {
            String key = e.getKey();
            String v = e.getValue();
            String flag = "--material " + key;
            switch (key) {
                case "stretch": stretch = once(flag, "--stretch", stretch, v); break;
                case "shear": shear = once(flag, "--shear", shear, v); break;
                case "bend": bend = once(flag, "--bend", bend, number(flag, v, "a rigidity >= 0 in N·m")); break;
                case "damping": damping = once(flag, "--damping", damping, number(flag, v, "a rate >= 0 in 1/s")); break;
                case "friction": friction = once(flag, "--friction", friction, number(flag, v, "a grip >= 0")); break;
                case "thickness":
                    thickness = once(flag, "--thickness", thickness, number(flag, v, "a thickness >= 0 in m"));
                    break;
                case "tearStrain": tearStrain = once(flag, "--tear-strain", tearStrain, v); break;
                case "density": {
                    float d = number(flag, v, "a mass per area > 0 in kg/m²");
                    if (!(d > 0f) || !Float.isFinite(d)) {
                        throw new InvalidInputException(flag, "must be a mass per area > 0 in kg/m² (cotton 0.2), got " + v);
                    }
                    density = d;
                    break;
                }
                case "strainDamping": {
                    float b = number(flag, v, "a time >= 0 in s");
                    if (!(b >= 0f) || !Float.isFinite(b)) {
                        throw new InvalidInputException(flag, "must be a time >= 0 in s (cotton 2.5e-5), got " + v);
                    }
                    strainDamping = b;
                    break;
                }
                default:
                    throw new InvalidInputException("--material", "unknown field '" + key + "'; allowed: "
                            + String.join(", ", KEYS));
            }
        }
        fields = null;
    }

    private Float density;
    private Float strainDamping;

    private static <T> T once(String given, String flag, T already, T value) {
        if (already != null) {
            throw new InvalidInputException(given, "and " + flag + " set the same field; give one");
        }
        return value;
    }

    /** {@code scene} with its bodies' materials changed as the options say. */
    Scene apply(Scene scene) {
        if (!any()) {
            return scene;
        }
        takeFields();
        Model model = scene.model();
        Material[] materials = new Material[model.objects().size()];
        for (int o = 0; o < materials.length; o++) {
            materials[o] = apply(model.material(o));
        }
        return scene.withModel(model.withMaterials(materials));
    }

    /**
     * A rigid material (--stretch or --shear inf) only the position-based solvers can take: an error naming
     * the flag for the others, before anything runs.
     */
    void checkSolver(Model model, String solver) {
        if ("xpbd".equals(solver) || "pbd".equals(solver) || "relaxation".equals(solver)) {
            return;
        }
        for (int o = 0; o < model.objects().size(); o++) {
            Material m = model.material(o);
            if (m.stretchStiffness() == Float.POSITIVE_INFINITY || m.shearStiffness() == Float.POSITIVE_INFINITY) {
                String flag = m.stretchStiffness() == Float.POSITIVE_INFINITY ? "--stretch" : "--shear";
                throw new InvalidInputException(flag, "inf (rigid) is for xpbd, pbd and relaxation only; the " + solver
                        + " solver needs a finite stiffness in N/m (cotton: " + (flag.equals("--stretch") ? 2000 : 500)
                        + ")");
            }
        }
    }

    private Material apply(Material m) {
        if (stiffness != null) {
            if (stretch != null || shear != null) {
                throw new InvalidInputException("--stiffness", "sets --stretch and --shear at once; give either it "
                        + "or them");
            }
            if (!(stiffness > 0f) || !Float.isFinite(stiffness)) {
                throw new InvalidInputException("--stiffness", "must be a finite number > 0 (N/m), got " + stiffness);
            }
            m = m.withStretch(stiffness).withShear(stiffness);
        }
        if (verletDamping != null) {
            if (damping != null) {
                throw new InvalidInputException("--verlet-damping", "is --damping given as seed 002's k; give one");
            }
            if (!(verletDamping > 0f && verletDamping <= 1f)) {
                throw new InvalidInputException("--verlet-damping", "must be in (0, 1] (1 = undamped), got "
                        + verletDamping);
            }
            m = m.withDamping((float) (-60.0 * Math.log(verletDamping)));
        }
        if (stretch != null) {
            m = m.withStretch(stiffness("--stretch", stretch));
        }
        if (shear != null) {
            m = m.withShear(stiffness("--shear", shear));
        }
        if (bend != null) {
            if (!(bend >= 0f) || !Float.isFinite(bend)) {
                throw new InvalidInputException("--bend", "must be a finite number >= 0 (N·m), got " + bend);
            }
            m = m.withBend(bend);
        }
        if (damping != null) {
            if (!(damping >= 0f) || !Float.isFinite(damping)) {
                throw new InvalidInputException("--damping", "must be a finite number >= 0 (1/s), got " + damping);
            }
            m = m.withDamping(damping);
        }
        if (friction != null) {
            if (!(friction >= 0f) || !Float.isFinite(friction)) {
                throw new InvalidInputException("--friction", "must be a finite number >= 0 (a factor on the "
                        + "contacts' friction: 0 frictionless, 1 their own), got " + friction);
            }
            m = m.withFriction(friction);
        }
        if (thickness != null) {
            if (!(thickness >= 0f) || !Float.isFinite(thickness)) {
                throw new InvalidInputException("--thickness", "must be a finite number >= 0 (m), got " + thickness);
            }
            m = m.withThickness(thickness);
        }
        if (density != null) {
            m = m.withDensity(density);
        }
        if (strainDamping != null) {
            m = new Material(m.stretchStiffness(), m.shearStiffness(), m.bendStiffness(), m.damping(), strainDamping,
                    m.tearStrain(), m.friction(), m.density(), m.thickness());
        }
        if (tearStrain != null) {
            float s = number("--tear-strain", tearStrain, "a strain > 0 (0.3: tears at 30 % stretch) or inf");
            if (!(s > 0f)) {
                throw new InvalidInputException("--tear-strain", "must be a strain > 0 (0.3: tears at 30 % stretch) "
                        + "or inf, got " + tearStrain);
            }
            m = m.withTearStrain(s);
        }
        return m;
    }

    private static float stiffness(String flag, String text) {
        float k = number(flag, text, "a stiffness > 0 in N/m, or inf");
        if (!(k > 0f)) {
            throw new InvalidInputException(flag, "must be a stiffness > 0 in N/m, or inf, got " + text);
        }
        return k;
    }

    private static float number(String flag, String text, String allowed) {
        String t = text.trim();
        if ("inf".equalsIgnoreCase(t) || "infinity".equalsIgnoreCase(t)) {
            return Float.POSITIVE_INFINITY;
        }
        try {
            float v = Float.parseFloat(t);
            if (Float.isNaN(v)) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new InvalidInputException(flag, "must be " + allowed + ", got '" + text + "'");
        }
    }
}
