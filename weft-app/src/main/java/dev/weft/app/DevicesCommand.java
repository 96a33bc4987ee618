package dev.weft.app;

import dev.weft.opencl.OpenClDevice;
import dev.weft.opencl.OpenClDevices;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code weft devices}: the OpenCL platforms and devices of this machine, with their memory and compute
 * units, numbered as {@code --device N} names them. No OpenCL runtime is an error naming what to install
 * (exit status 5, as a missing renderer).
 */
@Command(name = "devices", mixinStandardHelpOptions = true,
        description = "List the OpenCL platforms and devices (memory, compute units), numbered for --device.")
final class DevicesCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        List<OpenClDevice> devices = OpenClDevices.list();
        String platform = null;
        for (OpenClDevice d : devices) {
            if (!d.platformName().equals(platform)) {
                platform = d.platformName();
                out.printf(Locale.ROOT, "platform: %s%n", platform);
            }
            out.printf(Locale.ROOT, "  device %d: %s%n", d.index(), d.deviceName());
            out.printf(Locale.ROOT, "    type %s, %s, global memory %.2f GiB, %d compute units, double precision: %s%n",
                    d.type(), d.version(), d.globalMemory() / (1024.0 * 1024 * 1024), d.computeUnits(),
                    d.fp64() ? "yes" : "no");
        }
        out.flush();
        return 0;
    }
}
