package dev.weft.opencl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * OpenCL drivers built on LLVM (PoCL's, NVIDIA's compiler) install their own SIGSEGV handler when they
 * load, replacing the JVM's, which HotSpot needs: it reads a protected page to stop threads at a
 * safepoint. The next GC then kills the process with no message (measured: a {@code weft bench} run
 * on PoCL and one on an H200 died that way; {@code -Xcheck:jni} names libLLVM as the new handler). The JVM's
 * libjsig, preloaded, chains the handlers instead; the {@code weft} launcher and the test forks preload it.
 * Where it is missing this says so once, on standard error, before the driver loads.
 */
final class SignalChaining {
    private static boolean checked;

    private SignalChaining() {
    }

    /** Warns once when this is Linux and libjsig is not loaded in this process. */
    static synchronized void warnIfMissing() {
        if (checked) {
            return;
        }
        checked = true;
        Path maps = Path.of("/proc/self/maps");
        if (!Files.isReadable(maps)) {
            return; // not Linux: the drivers there are not known to do this
        }
        try {
            if (Files.readString(maps).contains("libjsig")) {
                return;
            }
        } catch (IOException e) {
            return;
        }
        System.err.println("weft: warning: OpenCL drivers built on LLVM replace the JVM's SIGSEGV handler, and the "
                + "JVM can then die at a random garbage collection; start Java with LD_PRELOAD="
                + Path.of(System.getProperty("java.home"), "lib", "libjsig.so") + " (the weft launcher does)");
    }
}
