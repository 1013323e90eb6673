package dev.distvm.transport;

/** No reply arrived within the request's timeout; the peer may be dead or overloaded. */
public final class RequestTimeoutException extends TransportException {
    public RequestTimeoutException(String message) {
        super(message);
    }
}
