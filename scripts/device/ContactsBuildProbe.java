package dev.weft.opencl;

import java.util.ArrayList;
import java.util.List;

/**
 * Device probe (issue #16: NVIDIA's compiler takes minutes over contacts.cl, options or not). Builds one variant of
 * the shared sources (cpu_rounding.cl, colliders.cl, position_step.cl) plus a solver source with the solver's strict
 * options and prints the time; run each variant in its own JVM under `timeout` with CUDA_CACHE_DISABLE=1.
 * Variants: `program A.cl+B.cl` (the shared sources and those as the solver builds them; `none` for the shared sources
 * alone), `kernel K` (contacts.cl with every kernel but K left out), `noinline` (contacts.cl with the colliders' large
 * functions marked noinline, so each kernel calls one copy instead of inlining it), `noinline-kernel K`.
 * Build: javac -d .devbundle/probe -cp weft-app/target/weft.jar scripts/device/ContactsBuildProbe.java
 */
public final class ContactsBuildProbe {
    private static final String SHARED = "cpu_rounding.cl+colliders.cl+position_step.cl";
    private static final String[] LARGE = {"static float3 collide_all(", "static void collide_pinned(",
        "static bool animated_closest(", "static float rigid_distance("};

    public static void main(String[] a) {
        String mode = a[0];
        String arg = a.length > 1 ? a[1] : "";
        OpenClDevice device = OpenClDevices.pick(OpenClDevices.PREFERRED);
        String options = "-cl-fp32-correctly-rounded-divide-sqrt";
        StringBuilder shared = new StringBuilder();
        for (String part : SHARED.split("\\+")) {
            shared.append(OpenClContext.resource(part)).append('\n');
        }
        String source;
        if (mode.equals("program")) {
            StringBuilder named = new StringBuilder(shared);
            for (String part : arg.equals("none") ? new String[0] : arg.split("\\+")) {
                named.append(OpenClContext.resource(part)).append('\n');
            }
            source = named.toString();
        } else {
            String contacts = OpenClContext.resource("contacts.cl");
            String all = shared + contacts;
            if (mode.startsWith("noinline")) {
                for (String f : LARGE) {
                    if (!all.contains(f)) {
                        throw new IllegalStateException("no " + f);
                    }
                    all = all.replace(f, "__attribute__((noinline)) " + f);
                }
            }
            source = mode.endsWith("kernel") ? onlyKernel(all, arg) : all;
        }
        try (OpenClContext cl = new OpenClContext(device)) {
            long t0 = System.nanoTime();
            cl.buildSource(mode + " " + arg, source, options);
            System.out.printf("BUILT %s %s in %.0f ms on %s%n", mode, arg, (System.nanoTime() - t0) / 1e6,
                    device.deviceName());
        }
    }

    /** The source with every __kernel function but {@code keep} removed (bodies matched by braces). */
    static String onlyKernel(String s, String keep) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        List<String> seen = new ArrayList<>();
        while (true) {
            int k = s.indexOf("__kernel void ", at);
            if (k < 0) {
                out.append(s, at, s.length());
                break;
            }
            int nameStart = k + "__kernel void ".length();
            String name = s.substring(nameStart, s.indexOf('(', nameStart)).trim();
            seen.add(name);
            int open = s.indexOf('{', nameStart);
            int depth = 0;
            int end = open;
            for (; end < s.length(); end++) {
                char c = s.charAt(end);
                if (c == '{') {
                    depth++;
                } else if (c == '}' && --depth == 0) {
                    break;
                }
            }
            out.append(s, at, k);
            if (name.equals(keep)) {
                out.append(s, k, end + 1);
            }
            at = end + 1;
        }
        if (!seen.contains(keep)) {
            throw new IllegalStateException("no kernel " + keep + " among " + seen);
        }
        return out.toString();
    }
}
