package dev.weft.app;

import dev.weft.core.lab.ConvergenceExperiment;
import dev.weft.core.model.Model;
import dev.weft.core.solver.Solver;
import dev.weft.opencl.OpenClDevice;
import dev.weft.opencl.OpenClDevices;
import dev.weft.opencl.OpenClPdSolver;
import dev.weft.opencl.OpenClXpbdSolver;
import java.util.Locale;

/**
 * Device A/B of a weft-opencl change: OpenCL steps/s of {@code weft bench --table gpu}'s xpbd and pd rows at one size,
 * read back every step and every tenth. Args: LABEL SIDE SAMPLES. Build it against the shaded jar
 * ({@code javac -d .devbundle/ab -cp weft-app/target/weft.jar scripts/device/ReadBackAB.java}), then on the device
 * run it with the new jar and with the old weft-opencl jar ahead of it on the class path, alternating:
 * {@code java -cp .devbundle/ab[:.devbundle/ab/old-opencl.jar]:weft.jar dev.weft.app.ReadBackAB new 1024 5}
 * (scripts/device/run-open-items.sh). Lives in dev.weft.app for the gpu table's package-private scenes.
 */
public final class ReadBackAB {
    public static void main(String[] a) {
        String label = a[0];
        int side = Integer.parseInt(a[1]);
        int samples = Integer.parseInt(a[2]);
        OpenClDevice device = TimedDevice.pick(OpenClDevices.PREFERRED).device();
        for (String solver : new String[] {"xpbd", "pd"}) {
            boolean pd = solver.equals("pd");
            Model model = pd ? ConvergenceExperiment.HANGING.model(side, 1000f) : GpuTableBench.xpbdCloth(side);
            float step = pd ? ConvergenceExperiment.STEP : GpuTableBench.XPBD_STEP;
            for (int readback : new int[] {1, 10}) {
                try (Solver s = pd ? new OpenClPdSolver(GpuTableBench.PD_RBGS_10, device)
                        : new OpenClXpbdSolver(GpuTableBench.xpbdSettings(), device)) {
                    double rate = GpuTableBench.stepsPerSecond(s, model, step, readback, 1, samples);
                    System.out.printf(Locale.ROOT, "%s %s %dx%d readback %d: %.1f steps/s %.3f ms/step%n", label, solver,
                            side, side, readback, rate, 1e3 / rate);
                }
            }
        }
    }
}
