package dev.distvm.node;

/** A node cannot start; the message names the cause and the fix, and is all the user sees. */
public final class StartupException extends RuntimeException {
    public StartupException(String message) {
        super(message);
    }
}
