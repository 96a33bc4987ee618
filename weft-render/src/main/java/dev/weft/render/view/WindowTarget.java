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
    /** Framebuffer pixels x, y (from the bottom), width, height the overlay covers opaquely; width 0: none. */
    private final int[] covered = new int[4];

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

    /**
     * The rectangle of framebuffer pixels (x and y from the top-left, as the window's input and the panel count
     * them) that the overlay will cover opaquely in the frames from now on; a width or height of 0 for none.
     */
    void covered(int x, int y, int w, int h) {
        int x0 = Math.max(0, x);
        int y0 = Math.max(0, y);
        int x1 = Math.min(width, x + w);
        int y1 = Math.min(height, y + h);
        covered[0] = x0;
        covered[1] = height - y1; // OpenGL counts rows from the bottom
        covered[2] = Math.max(0, x1 - x0);
        covered[3] = Math.max(0, y1 - y0);
    }

    /**
     * The depth under the opaque overlay is set to the near plane, so every fragment of the scene there fails the
     * depth test before it is shaded: the panel covers about a third of a 960 x 540 window, most of it floor, which
     * llvmpipe would otherwise shade for nothing (docs/viewer-speed.md). The picture is the same: those pixels are
     * the panel's.
     */
    @Override
    public void cleared() {
        if (covered[2] == 0 || covered[3] == 0) {
            return;
        }
        glEnable(GL_SCISSOR_TEST);
        glScissor(covered[0], covered[1], covered[2], covered[3]);
        glClearDepth(0.0);
        glClear(GL_DEPTH_BUFFER_BIT);
        glClearDepth(1.0);
        glDisable(GL_SCISSOR_TEST);
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
