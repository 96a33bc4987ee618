package dev.weft.render.compute;

/**
 * Which OpenGL driver the tests' compute shaders run on. The test command installs Mesa, so a missing
 * OpenGL 4.3 is a failure (ComputeContext.open throws), never a skip, as for the renderer's tests.
 */
final class GlslDriver {
    private static String description;

    private GlslDriver() {
    }

    /**
     * The compute context's EGL platform, OpenGL version and renderer, found once: from the context a test
     * already opened where there is one (NVIDIA's driver fails every context after a process's first, so a
     * probe of its own after the solver's would fail the test on the probe).
     */
    static synchronized String description() {
        if (description == null) {
            description = ComputeContext.firstDescription();
        }
        if (description == null) {
            try (ComputeContext c = ComputeContext.open()) {
                description = c.description();
            }
        }
        return description;
    }

    /**
     * Mesa's llvmpipe, where the shaders must give the CPU's bits: it rounds division and square root
     * correctly, and 'precise' keeps it from fusing or reassociating.
     */
    static boolean cpuBits() {
        return description().contains("llvmpipe");
    }
}
