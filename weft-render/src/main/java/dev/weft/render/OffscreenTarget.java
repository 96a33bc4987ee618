package dev.weft.render;

import static org.lwjgl.opengl.GL33.*;

import dev.weft.core.InvalidInputException;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.nio.ByteBuffer;
import org.lwjgl.system.MemoryUtil;

/**
 * A framebuffer object to draw into without a window: colour and depth renderbuffers, multisampled
 * when {@code samples > 1} (resolved into a single-sample framebuffer at {@link #endFrame()}), read
 * back into an image.
 */
public final class OffscreenTarget implements RenderTarget, AutoCloseable {
    /** Largest side accepted (16K is about what GL_MAX_RENDERBUFFER_SIZE allows on llvmpipe). */
    public static final int MAX_SIDE = 16384;

    private final int width;
    private final int height;
    private final int samples;
    private final int drawFbo;
    private final int colorRb;
    private final int depthRb;
    private final int resolveFbo;
    private final int resolveRb;
    private final ByteBuffer pixels;
    private BufferedImage image;

    /** Needs a current OpenGL context. */
    public OffscreenTarget(int width, int height, int samples) {
        if (width < 1 || width > MAX_SIDE) {
            throw new InvalidInputException("width", "must be between 1 and " + MAX_SIDE + " pixels, got " + width);
        }
        if (height < 1 || height > MAX_SIDE) {
            throw new InvalidInputException("height", "must be between 1 and " + MAX_SIDE + " pixels, got " + height);
        }
        int maxSamples = glGetInteger(GL_MAX_SAMPLES);
        if (samples < 1 || samples > Math.max(1, maxSamples)) {
            throw new InvalidInputException("samples", "must be between 1 and " + Math.max(1, maxSamples)
                    + " (this OpenGL's GL_MAX_SAMPLES), got " + samples);
        }
        this.width = width;
        this.height = height;
        this.samples = samples;
        colorRb = glGenRenderbuffers();
        glBindRenderbuffer(GL_RENDERBUFFER, colorRb);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples > 1 ? samples : 0, GL_RGBA8, width, height);
        depthRb = glGenRenderbuffers();
        glBindRenderbuffer(GL_RENDERBUFFER, depthRb);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples > 1 ? samples : 0, GL_DEPTH_COMPONENT24, width,
                height);
        drawFbo = glGenFramebuffers();
        glBindFramebuffer(GL_FRAMEBUFFER, drawFbo);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colorRb);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depthRb);
        checkComplete("draw");
        if (samples > 1) {
            resolveRb = glGenRenderbuffers();
            glBindRenderbuffer(GL_RENDERBUFFER, resolveRb);
            glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
            resolveFbo = glGenFramebuffers();
            glBindFramebuffer(GL_FRAMEBUFFER, resolveFbo);
            glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, resolveRb);
            checkComplete("resolve");
        } else {
            resolveRb = 0;
            resolveFbo = drawFbo;
        }
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        pixels = MemoryUtil.memAlloc(3 * width * height);
    }

    private static void checkComplete(String which) {
        int status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
        if (status != GL_FRAMEBUFFER_COMPLETE) {
            throw new IllegalStateException("the " + which + " framebuffer is incomplete (status 0x"
                    + Integer.toHexString(status) + ")");
        }
    }

    @Override
    public int width() {
        return width;
    }

    @Override
    public int height() {
        return height;
    }

    public int samples() {
        return samples;
    }

    @Override
    public void bind() {
        glBindFramebuffer(GL_FRAMEBUFFER, drawFbo);
        glViewport(0, 0, width, height);
    }

    @Override
    public void endFrame() {
        if (resolveFbo != drawFbo) {
            glBindFramebuffer(GL_READ_FRAMEBUFFER, drawFbo);
            glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolveFbo);
            glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        }
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    }

    /**
     * The last finished frame as an RGB image, top row first. The image object is reused by the next
     * call: copy it if it must outlive the next frame.
     */
    public BufferedImage readImage() {
        glBindFramebuffer(GL_READ_FRAMEBUFFER, resolveFbo);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        // BGR is the byte order of TYPE_3BYTE_BGR, so rows copy over without reordering channels
        glReadPixels(0, 0, width, height, GL_BGR, GL_UNSIGNED_BYTE, pixels);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
        if (image == null) {
            image = new BufferedImage(width, height, BufferedImage.TYPE_3BYTE_BGR);
        }
        byte[] raster = ((DataBufferByte) image.getRaster().getDataBuffer()).getData();
        int row = 3 * width;
        // OpenGL's rows run bottom-up, an image's top-down
        for (int y = 0; y < height; y++) {
            pixels.get((height - 1 - y) * row, raster, y * row, row);
        }
        return image;
    }

    @Override
    public void close() {
        glDeleteFramebuffers(drawFbo);
        glDeleteRenderbuffers(colorRb);
        glDeleteRenderbuffers(depthRb);
        if (resolveFbo != drawFbo) {
            glDeleteFramebuffers(resolveFbo);
            glDeleteRenderbuffers(resolveRb);
        }
        MemoryUtil.memFree(pixels);
    }
}
