package dev.distvm.transport;

import com.google.protobuf.Empty;
import com.google.protobuf.MessageLite;
import dev.distvm.common.Log;
import dev.distvm.transport.proto.Envelope;
import dev.distvm.transport.proto.ErrorCode;
import dev.distvm.transport.proto.ErrorReply;
import dev.distvm.transport.proto.Kind;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The table of handlers, one per message type, and the answering of what peers send: a checked
 * envelope goes to its type's handler, whose result (or failure) goes back on the connection the
 * request came on, as a REPLY or an ERROR.
 */
final class Responder {
    /** A {@link Handler} or a {@link Handler.Raw}: its stage completes with a message or a {@link WireBuffer}. */
    private interface Served {
        CompletionStage<?> handle(Inbound message) throws Exception;
    }

    private final Map<Integer, Served> handlers = new ConcurrentHashMap<>();
    private final EnvelopeFrames frames;
    private final TransportCounters counters;

    Responder(EnvelopeFrames frames, TransportCounters counters) {
        this.frames = frames;
        this.counters = counters;
    }

    void register(int type, Handler handler) {
        register(type, (Served) handler::handle);
    }

    void register(int type, Handler.Raw handler) {
        register(type, (Served) handler::handle);
    }

    private void register(int type, Served handler) {
        if (handlers.putIfAbsent(type, handler) != null) {
            throw new IllegalStateException("type " + type + " has a handler already");
        }
    }

    void unregister(int type) {
        handlers.remove(type);
    }

    /** Hands a checked request or one-way envelope to its handler; the answer goes back when it is ready. */
    void serve(Connection connection, Envelope envelope) {
        Served handler = handlers.get(envelope.getType());
        if (handler == null) {
            refuse(connection, envelope.getCorrelation(), ErrorCode.UNKNOWN_TYPE,
                    "this node does not handle that kind of message (is it running the same version of dist?)");
            return;
        }
        Inbound message = new Inbound(envelope.getSender(), envelope.getType(), envelope.getKind(),
                envelope.getCorrelation(), envelope.getBody());
        CompletionStage<?> answer;
        try {
            answer = handler.handle(message);
            if (answer == null) {
                throw new IllegalStateException("the handler returned no CompletionStage");
            }
        } catch (Exception e) {
            answer = CompletableFuture.failedFuture(e);
        }
        answer.whenComplete((reply, failure) -> answer(connection, message, reply, failure));
    }

    void refuse(Connection connection, InboundChecks.Refusal refusal) {
        refuse(connection, refusal.correlation, refusal.code, refusal.getMessage());
    }

    /** Answers ERROR (and counts and logs the refusal); the connection goes on serving. */
    void refuse(Connection connection, long correlation, ErrorCode code, String text) {
        counters.rejected.increment();
        Log.warn("refused a message from " + connection.peer() + ": " + code + ": " + text);
        ErrorReply error = ErrorReply.newBuilder().setCode(code).setMessage(text).build();
        write(connection, frames.frame(Kind.ERROR, correlation, 0, error));
    }

    private void answer(Connection connection, Inbound message, Object reply, Throwable failure) {
        if (failure instanceof CompletionException && failure.getCause() != null) {
            failure = failure.getCause();
        }
        if (failure == null && message.kind() == Kind.REQUEST) {
            try {
                write(connection, reply instanceof WireBuffer raw
                        ? frames.frame(Kind.REPLY, message.correlation(), message.type(), raw)
                        : frames.frame(Kind.REPLY, message.correlation(), message.type(),
                                reply == null ? Empty.getDefaultInstance() : (MessageLite) reply));
                return;
            } catch (TransportException tooLarge) {
                failure = tooLarge; // the requester hears why instead of waiting for its timeout
            }
        }
        if (failure != null) {
            ErrorCode code = failure instanceof Handler.RefusedException ? ErrorCode.REFUSED
                    : failure instanceof Inbound.BadBodyException ? ErrorCode.BAD_BODY
                    : ErrorCode.HANDLER_FAILED;
            String text = code == ErrorCode.HANDLER_FAILED ? failure.toString() : failure.getMessage();
            refuse(connection, message.correlation(), code, text);
        }
    }

    private void write(Connection connection, EnvelopeFrames.Frame frame) {
        try {
            connection.send(frame);
            counters.sent(frame.length());
        } catch (IOException e) {
            Log.debug("could not answer " + connection.peer() + ": " + e.getMessage());
            connection.close();
        }
    }
}
