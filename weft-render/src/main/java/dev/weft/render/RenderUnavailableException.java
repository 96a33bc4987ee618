package dev.weft.render;

/** OpenGL could not be set up: no EGL/Mesa libraries, no driver, or too old an OpenGL. */
public final class RenderUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What to install on Debian / Ubuntu to render without a display or GPU. */
    public static final String INSTALL_HINT = "to render without a display or GPU install Mesa's EGL and software "
            + "rasteriser (Debian/Ubuntu: apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri)";

    public RenderUnavailableException(String message) {
        super(message + "; " + INSTALL_HINT);
    }

    public RenderUnavailableException(String message, Throwable cause) {
        super(message + "; " + INSTALL_HINT, cause);
    }
}
