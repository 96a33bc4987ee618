package dev.weft.render;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Ends EGL when the test launcher's session closes, on the thread that ran the tests, as {@code weft}'s main does
 * ({@link EglHeadlessContext#shutdown}): on NVIDIA's driver a test JVM otherwise ended in SIGSEGV inside
 * libEGL_nvidia.so after printing its results (H100 runs, docs/glsl-compute.md). Registered through
 * META-INF/services for Surefire and the console launcher alike.
 */
public final class EglShutdownListener implements LauncherSessionListener {
    @Override
    public void launcherSessionClosed(LauncherSession session) {
        EglHeadlessContext.shutdown();
    }
}
