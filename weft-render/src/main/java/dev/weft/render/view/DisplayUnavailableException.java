package dev.weft.render.view;

/** No window can be opened: no display server to show it on, or one without OpenGL 3.3. */
public final class DisplayUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** How to get a display on a machine without one. */
    public static final String FIX = "run on a desktop session, or under a virtual X server: xvfb-run -a weft view ... "
            + "(Debian/Ubuntu: apt-get install xvfb xauth)";

    public DisplayUnavailableException(String problem) {
        super(problem + "; " + FIX);
    }
}
