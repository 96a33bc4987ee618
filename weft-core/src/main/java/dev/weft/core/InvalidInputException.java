package dev.weft.core;

/**
 * Bad input from a user: a scene or mesh file, a command-line flag, a parameter value.
 * The message always names where the problem is (file and line, or parameter) and what is allowed,
 * so that it can be shown to a person as it is, without a stack trace.
 */
public class InvalidInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final int line;

    /** A problem with a named thing (a parameter, a flag, a file as a whole). */
    public InvalidInputException(String source, String problem) {
        this(source, 0, problem);
    }

    /** A problem at a line of a file; {@code line} counts from 1. */
    public InvalidInputException(String source, int line, String problem) {
        super(line > 0 ? source + ":" + line + ": " + problem : source + ": " + problem);
        this.source = source;
        this.line = line;
    }

    /** The file, parameter or flag the problem is in. */
    public String source() {
        return source;
    }

    /** The line (from 1) in {@link #source()}, or 0 where there is no line. */
    public int line() {
        return line;
    }
}
