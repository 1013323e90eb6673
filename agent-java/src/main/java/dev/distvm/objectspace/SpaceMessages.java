package dev.distvm.objectspace;

import dev.distvm.report.NodeCounters;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.Handler;
import dev.distvm.transport.Inbound;
import dev.distvm.transport.WireBuffer;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Object-space bytes in and out of the transport. They are an envelope's raw body: sent from the
 * {@link WireBuffer} they were written into, and read from a view of the frame they arrived in.
 */
final class SpaceMessages {
    /** Monitor waits and enters last as long as the program wants. */
    static final Duration BLOCKING = Duration.ofDays(365);

    private SpaceMessages() {}

    /** Answers a request at once, on the transport's reader thread. */
    @FunctionalInterface
    interface Answer {
        WireBuffer answer(Inbound message) throws Exception;
    }

    /**
     * Registers the handler of an object-space type for messages from {@code from} (others are
     * refused unread); its replies count as object-space bytes sent.
     */
    static void serve(Endpoint endpoint, Senders from, int type, Handler.Raw handler) {
        endpoint.registerRaw(type, m -> {
            if (!from.accepts().test(m.sender())) {
                throw new Handler.RefusedException("node " + m.sender() + " is not " + from.who()
                        + ", so its object-space messages are not taken");
            }
            return handler.handle(m).thenApply(SpaceMessages::counted);
        });
    }

    static void serveAtOnce(Endpoint endpoint, Senders from, int type, Answer answer) {
        serve(endpoint, from, type, m -> CompletableFuture.completedFuture(answer.answer(m)));
    }

    private static WireBuffer counted(WireBuffer reply) {
        if (reply != null) {
            NodeCounters.OBJECT_BYTES_SENT.add(reply.length());
        }
        return reply;
    }

    /** A small message that is not a {@link WireWriter}'s (a number, a line of output): copied into a buffer. */
    static WireBuffer of(byte[] bytes) {
        WireBuffer buffer = new WireBuffer(bytes.length);
        buffer.appendBytes(bytes);
        return buffer;
    }

    static WireBuffer ofInt(int value) {
        WireBuffer buffer = new WireBuffer(Integer.BYTES);
        buffer.appendInt(value);
        return buffer;
    }

    static WireBuffer ofLong(long value) {
        WireBuffer buffer = new WireBuffer(Long.BYTES);
        buffer.appendLong(value);
        return buffer;
    }

    /** A message's bytes: a view of the frame it came in, counted as object-space bytes received. */
    static ByteBuffer body(Inbound message) {
        ByteBuffer body = message.bodyBuffer();
        NodeCounters.OBJECT_BYTES_RECEIVED.add(body.remaining());
        return body;
    }

    /** A small message's bytes, copied out of its frame. */
    static byte[] bytes(ByteBuffer body) {
        byte[] bytes = new byte[body.remaining()];
        body.get(bytes);
        return bytes;
    }

    static long longOf(ByteBuffer body) {
        return body.getLong(0);
    }

    /** A request whose reply this thread waits for; an interrupt is kept for the caller to act on. */
    static ByteBuffer call(Endpoint endpoint, String peer, int type, WireBuffer body, Duration timeout) {
        return body(await(request(endpoint, peer, type, body, timeout)));
    }

    /**
     * Waits for an answer; an interrupt is kept for the caller to act on. Throws
     * IllegalStateException when no answer came (the run cannot go on coherently).
     */
    static <T> T await(Future<T> answer) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return answer.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    throw new IllegalStateException("dist: the home did not answer an object-space request (" + e.getCause()
                            + "); the run cannot go on coherently", e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Sends a request (the caller then waits for the reply as it likes); see {@link InterruptGate}. */
    static CompletableFuture<Inbound> request(Endpoint endpoint, String peer, int type, WireBuffer body, Duration timeout) {
        NodeCounters.OBJECT_BYTES_SENT.add(body.length());
        return InterruptGate.writing(() -> endpoint.request(peer, type, body, timeout));
    }

    static void send(Endpoint endpoint, String peer, int type, WireBuffer body) {
        NodeCounters.OBJECT_BYTES_SENT.add(body.length());
        InterruptGate.writing(() -> {
            endpoint.send(peer, type, body);
            return null;
        });
    }
}
