package dev.weft.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What a benchmark ran on. */
final class SystemInfo {
    private SystemInfo() {
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
