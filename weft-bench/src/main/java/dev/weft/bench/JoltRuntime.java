package dev.weft.bench;

import com.github.stephengold.joltjni.Jolt;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Jolt Physics' process-wide setup, done once: the jolt-jni native library loaded from the classpath
 * (the {@value #NATIVES_ARTIFACT} jar holds it; a JVM loads a native library only from a file, so it is
 * copied to a temporary file first), then Jolt's allocator, callbacks, factory and types registered.
 */
public final class JoltRuntime {
    /** The Maven artifact that carries the native library. */
    public static final String NATIVES_ARTIFACT = "com.github.stephengold:jolt-jni-Linux64:0.9.9:ReleaseSp";
    /** The library's path inside that jar. */
    static final String LIBRARY_RESOURCE = "linux/x86-64/com/github/stephengold/libjoltjni.so";

    private static boolean started;

    private JoltRuntime() {
    }

    /** Loads and initializes Jolt unless done already; a {@link PeerUnavailableException} says what is missing. */
    public static synchronized void ensureStarted() {
        if (started) {
            return;
        }
        loadNativeLibrary();
        Jolt.registerDefaultAllocator();
        Jolt.installDefaultAssertCallback();
        Jolt.installDefaultTraceCallback();
        if (!Jolt.newFactory()) {
            throw new PeerUnavailableException("Jolt Physics did not start (its factory could not be created)");
        }
        Jolt.registerTypes();
        started = true;
    }

    private static void loadNativeLibrary() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new PeerUnavailableException("Jolt Physics runs here only on Linux x86-64 (its natives, "
                    + NATIVES_ARTIFACT + ", are built for that alone); this is " + os + " " + arch);
        }
        Path file;
        try (InputStream in = JoltRuntime.class.getClassLoader().getResourceAsStream(LIBRARY_RESOURCE)) {
            if (in == null) {
                throw new PeerUnavailableException("Jolt Physics' native library (" + LIBRARY_RESOURCE
                        + ") is not on the classpath: add the artifact " + NATIVES_ARTIFACT + " (Linux x86-64 only)");
            }
            file = Files.createTempFile("libjoltjni", ".so");
            file.toFile().deleteOnExit();
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new PeerUnavailableException("cannot copy Jolt Physics' native library to a temporary file: "
                    + e.getMessage(), e);
        }
        try {
            System.load(file.toAbsolutePath().toString());
        } catch (UnsatisfiedLinkError e) {
            throw new PeerUnavailableException("Jolt Physics' native library from " + NATIVES_ARTIFACT
                    + " does not load on this machine (Linux x86-64 only): " + e.getMessage(), e);
        }
    }
}
