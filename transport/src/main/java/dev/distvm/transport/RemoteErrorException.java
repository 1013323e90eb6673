package dev.distvm.transport;

import dev.distvm.transport.proto.ErrorCode;

/** The peer answered a request with an error reply. */
public final class RemoteErrorException extends TransportException {
    private final ErrorCode code;

    public RemoteErrorException(ErrorCode code, String message) {
        super(code + ": " + message);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }
}
