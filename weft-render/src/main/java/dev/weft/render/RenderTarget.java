package dev.weft.render;

/**
 * Where a frame is drawn: an offscreen framebuffer ({@link OffscreenTarget}) or, for the interactive
 * viewer, a window's default framebuffer. The renderer draws into whatever target it is given, with
 * the target's OpenGL context current on the calling thread.
 */
public interface RenderTarget {
    int width();

    int height();

    /** Makes this target's framebuffer the one draws go to. */
    void bind();

    /**
     * Called right after the renderer cleared the target, before it draws the scene: a target part of which an
     * opaque overlay will cover (the viewer's panel) marks that part as drawn, so the scene is not shaded there.
     */
    default void cleared() {
    }

    /** Called when a frame is complete: a window presents it, an offscreen target makes it readable. */
    void endFrame();
}
