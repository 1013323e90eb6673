package dev.distvm.transport;

import com.google.protobuf.MessageLite;
import java.util.concurrent.CompletionStage;

/**
 * Handles one message type. Runs on the reader thread of the connection the message came on, so
 * it must not block (that connection would stall): work that waits (disk, locks, other nodes)
 * returns an unfinished stage and completes it elsewhere.
 * For a one-way message the result is ignored; for a request it is the reply.
 * Throwing {@link RefusedException} answers REFUSED with its message; any other exception
 * answers HANDLER_FAILED.
 */
@FunctionalInterface
public interface Handler {
    CompletionStage<? extends MessageLite> handle(Inbound message) throws Exception;

    /** A handler that answers at once. */
    @FunctionalInterface
    interface Immediate {
        MessageLite handle(Inbound message) throws Exception;
    }

    /**
     * Handles a message type whose bodies are raw bytes rather than a Protocol Buffers message: it
     * reads {@link Inbound#bodyBuffer()} and answers a request with a {@link WireBuffer} (or null
     * for an empty reply), which goes to the socket without being copied.
     */
    @FunctionalInterface
    interface Raw {
        CompletionStage<WireBuffer> handle(Inbound message) throws Exception;
    }

    /** A request the handler declines, with the reason the requester will see. */
    final class RefusedException extends Exception {
        public RefusedException(String reason) {
            super(reason);
        }
    }
}
