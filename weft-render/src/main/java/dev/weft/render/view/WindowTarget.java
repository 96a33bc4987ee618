package dev.weft.render.view;

import static org.lwjgl.glfw.GLFW.glfwSwapBuffers;
import static org.lwjgl.opengl.GL33.*;

import dev.weft.render.RenderTarget;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.nio.ByteBuffer;
import org.lwjgl.system.MemoryUtil;

/**
 * A GLFW window's default framebuffer as a {@link RenderTarget}: a frame ends by presenting it (swapping
 * buffers), after reading it back first when a screenshot was asked for.
 */
final class WindowTarget implements RenderTarget {
    private final long window;
    private int width;
    private int height;
    private boolean capture;
    private BufferedImage captured;
    /** Drawn over each finished frame before it is read back and presented (the panel), or null. */
    private Runnable overlay;

    WindowTarget(long window, int width, int height) {
        this.window = window;
        resized(width, height);
    }

    void resized(int w, int h) {
        width = Math.max(1, w);
        height = Math.max(1, h);
    }

    @Override
    public int width() {
        return width;
    }

    @Override
    public int height() {
        return height;
    }

    @Override
    public void bind() {
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, width, height);
    }

    void overlay(Runnable r) {
        overlay = r;
    }

    /** The next frame is read back before it is presented ({@link #captured()}). */
    void captureNext() {
        capture = true;
    }

    /** The frame read back, RGB top row first, or null. */
    BufferedImage captured() {
        return captured;
    }

    @Override
    public void endFrame() {
        if (overlay != null) {
            overlay.run();
        }
        if (capture) {
            capture = false;
            captured = readBack();
        }
        glfwSwapBuffers(window);
    }

    private BufferedImage readBack() {
        ByteBuffer pixels = MemoryUtil.memAlloc(3 * width * height);
        try {
            glReadBuffer(GL_BACK);
            glPixelStorei(GL_PACK_ALIGNMENT, 1);
            glReadPixels(0, 0, width, height, GL_BGR, GL_UNSIGNED_BYTE, pixels);
            BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_3BYTE_BGR);
            byte[] raster = ((DataBufferByte) image.getRaster().getDataBuffer()).getData();
            int row = 3 * width;
            for (int y = 0; y < height; y++) { // OpenGL's rows run bottom-up
                pixels.get((height - 1 - y) * row, raster, y * row, row);
            }
            return image;
        } finally {
            MemoryUtil.memFree(pixels);
        }
    }
}
