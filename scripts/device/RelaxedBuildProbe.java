package dev.weft.opencl;

/**
 * Device probe (issue #16: NVIDIA's compiler did not finish the relaxed builds of the contacts, vertex-triangle, air
 * and implicit kernels in a minute, where the strict ones take about a second). Builds SOURCES ("a.cl+b.cl", after
 * the solvers' shared sources when the first arg is "solver", else alone) with exactly OPTIONS on the preferred device
 * and prints the time. Run each variant in its own JVM under `timeout`: which option makes the compiler stall?
 * Build: javac -d .devbundle/probe -cp weft-app/target/weft.jar scripts/device/RelaxedBuildProbe.java
 */
public final class RelaxedBuildProbe {
    public static void main(String[] a) {
        boolean solver = a[0].equals("solver");
        String sources = a[1];
        String options = a.length > 2 ? String.join(" ", java.util.Arrays.copyOfRange(a, 2, a.length)) : "";
        OpenClDevice device = OpenClDevices.pick(OpenClDevices.PREFERRED);
        try (OpenClContext cl = new OpenClContext(device)) {
            long t0 = System.nanoTime();
            if (solver) {
                cl.buildSolverRelaxed(sources, options);
            } else {
                cl.buildRelaxed(sources, options);
            }
            System.out.printf("BUILT %s [%s] in %.0f ms on %s%n", sources, options, (System.nanoTime() - t0) / 1e6,
                    device.deviceName());
        }
    }
}
