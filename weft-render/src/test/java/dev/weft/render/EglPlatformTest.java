package dev.weft.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.weft.core.InvalidInputException;
import org.lwjgl.opengl.GL11;
import org.lwjgl.opengl.GL15;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link EglHeadlessContext#PLATFORM_PROPERTY}: the EGL device platform (NVIDIA's headless path; Mesa offers it
 * too, with its software device) and Mesa's surfaceless platform each give a working OpenGL context, named in
 * its description; a platform weft does not know is refused naming the ones it does.
 */
class EglPlatformTest {
    /**
     * A display still open in this process (NVIDIA's driver keeps its contexts for reuse, so after any other test)
     * fixes the platform and the contexts: there the other tests show what these would.
     */
    @BeforeEach
    void noDisplayOpenYet() {
        assumeFalse(EglHeadlessContext.displayOpen(), "a display is open already in this process");
    }

    @AfterEach
    void automaticAgain() {
        boolean reuseTurnedOn = "true".equals(System.getProperty(EglHeadlessContext.REUSE_PROPERTY));
        System.clearProperty(EglHeadlessContext.PLATFORM_PROPERTY);
        System.clearProperty(EglHeadlessContext.REUSE_PROPERTY);
        System.clearProperty(EglHeadlessContext.SHARE_PROPERTY);
        if (reuseTurnedOn) {
            EglHeadlessContext.destroyKept();
        }
    }

    /**
     * With reuse on (NVIDIA's default), a context is made at OpenGL 4.3 whatever was asked, and once closed it is
     * handed to the next request up to that version and draws there; one still in use is not handed out; GLSL
     * compute contexts opened one after another each pass their self-check in a kept context.
     */
    @Test
    void aClosedContextIsReusedByTheNextRequestUpToItsVersionAndStillDraws() {
        System.setProperty(EglHeadlessContext.REUSE_PROPERTY, "true");
        long first;
        try (EglHeadlessContext gl = EglHeadlessContext.create()) {
            first = gl.handle();
            assertThat(clearAndRead(64)).isEqualTo(0x404040);
        }
        try (EglHeadlessContext compute = EglHeadlessContext.create(4, 3)) {
            assertThat(compute.handle()).as("the kept context, made at 4.3 for a 3.3 request").isEqualTo(first);
            try (EglHeadlessContext other = EglHeadlessContext.create()) {
                assertThat(other.handle()).as("a context of its own: the kept one is in use").isNotEqualTo(first);
                assertThat(clearAndRead(32)).isEqualTo(0x202020);
            }
            compute.makeCurrent();
            assertThat(clearAndRead(128)).isEqualTo(0x808080);
        }
        for (int round = 0; round < 3; round++) {
            try (dev.weft.render.compute.ComputeContext c = dev.weft.render.compute.ComputeContext.open()) {
                assertThat(c.description()).startsWith("EGL ");
            }
        }
    }

    /**
     * What {@code weft}'s main does last (NVIDIA's driver crashes at exit while a context or the display lives): the
     * kept contexts are destroyed and the display is closed; a second call finds nothing left to do.
     */
    @Test
    void shutdownDestroysTheKeptContextsAndClosesTheDisplay() {
        System.setProperty(EglHeadlessContext.REUSE_PROPERTY, "true");
        try (EglHeadlessContext gl = EglHeadlessContext.create()) {
            assertThat(clearAndRead(64)).isEqualTo(0x404040);
        }
        assertThat(EglHeadlessContext.displayOpen()).as("the closed context is kept, on its display").isTrue();
        EglHeadlessContext.shutdown();
        assertThat(EglHeadlessContext.displayOpen()).isFalse();
        EglHeadlessContext.shutdown();
        assertThat(EglHeadlessContext.displayOpen()).isFalse();
    }

    @Test
    void aReuseValueOtherThanAutoTrueOrFalseIsRefused() {
        System.setProperty(EglHeadlessContext.REUSE_PROPERTY, "sometimes");
        assertThatThrownBy(EglHeadlessContext::create).isInstanceOf(InvalidInputException.class)
                .hasMessage("-Dweft.egl.reuse: 'sometimes' must be auto, true or false");
    }

    /**
     * With sharing on (NVIDIA's default: there a context outside the first one's share group is broken), a context
     * made while another is open sees the buffers made there, with their contents; with it off it sees none.
     */
    @Test
    void aContextMadeWithSharingOnSeesTheOpenOnesBuffersAndWithItOffDoesNot() {
        for (boolean share : new boolean[] {true, false}) {
            System.setProperty(EglHeadlessContext.SHARE_PROPERTY, Boolean.toString(share));
            try (EglHeadlessContext first = EglHeadlessContext.create(4, 3)) {
                int buffer = GL15.glGenBuffers();
                GL15.glBindBuffer(GL15.GL_ARRAY_BUFFER, buffer);
                GL15.glBufferData(GL15.GL_ARRAY_BUFFER, new float[] {1.5f, -2.25f, 3f}, GL15.GL_STATIC_DRAW);
                GL11.glFinish();
                try (EglHeadlessContext second = EglHeadlessContext.create(4, 3)) {
                    assertThat(second.isCurrent()).isTrue();
                    assertThat(GL15.glIsBuffer(buffer)).as("share %s: the first context's buffer seen", share)
                            .isEqualTo(share);
                    if (share) {
                        float[] read = new float[3];
                        GL15.glBindBuffer(GL15.GL_ARRAY_BUFFER, buffer);
                        GL15.glGetBufferSubData(GL15.GL_ARRAY_BUFFER, 0L, read);
                        assertThat(read).containsExactly(1.5f, -2.25f, 3f);
                    }
                }
                first.makeCurrent();
                GL15.glDeleteBuffers(buffer);
            }
        }
    }

    @Test
    void aShareValueOtherThanAutoTrueOrFalseIsRefused() {
        System.setProperty(EglHeadlessContext.SHARE_PROPERTY, "often");
        assertThatThrownBy(EglHeadlessContext::create).isInstanceOf(InvalidInputException.class)
                .hasMessage("-Dweft.egl.share: 'often' must be auto, true or false");
    }

    /** Clears a 4 × 4 target to grey {@code level}/255 in the current context; the colour read back. */
    private static int clearAndRead(int level) {
        try (OffscreenTarget target = new OffscreenTarget(4, 4, 1)) {
            target.bind();
            float grey = level / 255f; // exactly a byte: no driver's rounding of a half to decide
            org.lwjgl.opengl.GL11.glClearColor(grey, grey, grey, 1f);
            org.lwjgl.opengl.GL11.glClear(org.lwjgl.opengl.GL11.GL_COLOR_BUFFER_BIT);
            target.endFrame();
            return target.readImage().getRGB(1, 1) & 0xFFFFFF;
        }
    }

    @Test
    void theDeviceAndTheSurfacelessPlatformEachOpenAContextThatDraws() {
        for (String platform : new String[] {"device", "surfaceless"}) {
            System.setProperty(EglHeadlessContext.PLATFORM_PROPERTY, platform);
            try (EglHeadlessContext gl = EglHeadlessContext.create();
                 OffscreenTarget target = new OffscreenTarget(4, 4, 1)) {
                assertThat(gl.description()).startsWith("EGL " + platform + " (");
                target.bind();
                org.lwjgl.opengl.GL11.glClearColor(64 / 255f, 128 / 255f, 192 / 255f, 1f);
                org.lwjgl.opengl.GL11.glClear(org.lwjgl.opengl.GL11.GL_COLOR_BUFFER_BIT);
                target.endFrame();
                int rgb = target.readImage().getRGB(1, 1) & 0xFFFFFF;
                assertThat(rgb).as("%s: the cleared colour read back", platform).isEqualTo(0x4080C0);
            }
        }
    }

    @Test
    void anUnknownPlatformIsRefusedNamingTheKnownOnes() {
        System.setProperty(EglHeadlessContext.PLATFORM_PROPERTY, "vulkan");
        assertThatThrownBy(EglHeadlessContext::create).isInstanceOf(InvalidInputException.class)
                .hasMessage("-Dweft.egl.platform: 'vulkan' is not an EGL platform weft knows: auto, device, surfaceless "
                        + "or default");
    }
}
