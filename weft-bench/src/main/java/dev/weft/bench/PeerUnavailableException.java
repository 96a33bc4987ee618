package dev.weft.bench;

/** A peer engine cannot run here: its native library is missing or does not load. The message says what is missing. */
public final class PeerUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PeerUnavailableException(String message) {
        super(message);
    }

    public PeerUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
