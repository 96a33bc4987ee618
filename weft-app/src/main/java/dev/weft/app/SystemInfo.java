package dev.weft.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What a benchmark ran on. */
final class SystemInfo {
    private SystemInfo() {
    }

    /** The JVM and its version, as a benchmark's header and CSV name it. */
    static String jdk() {
        return System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version");
    }

    /** The CPU model and how many logical CPUs this JVM sees. */
    static String cpu() {
        return cpuModel() + " (" + Runtime.getRuntime().availableProcessors() + " logical CPUs)";
    }

    /** The CPU model from /proc/cpuinfo where there is one, else the OS architecture. */
    static String cpuModel() {
        Path info = Path.of("/proc/cpuinfo");
        if (Files.isReadable(info)) {
            try {
                for (String line : Files.readAllLines(info)) {
                    if (line.startsWith("model name")) {
                        return line.substring(line.indexOf(':') + 1).trim();
                    }
                }
            } catch (IOException e) {
                // fall through to the architecture
            }
        }
        return System.getProperty("os.arch");
    }
}
