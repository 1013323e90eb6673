package dev.distvm.transport;

/** A connection's {@link Handshake} failed: one side does not hold the cluster secret the other does. */
public final class AuthenticationException extends TransportException {
    public AuthenticationException(String peer, String failure) {
        super("cannot connect to " + peer + ": " + failure);
    }
}
