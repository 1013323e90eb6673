package dist.objectspace;

import com.google.protobuf.ByteString;
import dist.node.proto.SpaceMessage;
import dist.report.NodeCounters;
import dist.transport.Endpoint;
import dist.transport.Inbound;
import java.time.Duration;
import java.util.concurrent.ExecutionException;

/** Object-space bytes in and out of the transport's envelopes. */
final class SpaceMessages {
    /** Monitor waits and enters last as long as the program wants. */
    static final Duration BLOCKING = Duration.ofDays(365);

    private SpaceMessages() {}

    static SpaceMessage wrap(byte[] body) {
        NodeCounters.OBJECT_BYTES_SENT.add(body.length);
        return SpaceMessage.newBuilder().setBody(ByteString.copyFrom(body)).build();
    }

    static byte[] bytes(Inbound message) {
        byte[] body = message.decode(SpaceMessage.parser()).getBody().toByteArray();
        NodeCounters.OBJECT_BYTES_RECEIVED.add(body.length);
        return body;
    }

    /** A request whose reply this thread waits for; an interrupt is kept for the caller to act on. */
    static byte[] call(Endpoint endpoint, String peer, int type, byte[] body, Duration timeout) {
        boolean interrupted = false;
        var reply = request(endpoint, peer, type, body, timeout);
        try {
            while (true) {
                try {
                    return bytes(reply.get());
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
    static java.util.concurrent.CompletableFuture<Inbound> request(Endpoint endpoint, String peer, int type, byte[] body,
                                                                   Duration timeout) {
        return InterruptGate.writing(() -> endpoint.request(peer, type, wrap(body), timeout));
    }

    static void send(Endpoint endpoint, String peer, int type, byte[] body) {
        InterruptGate.writing(() -> {
            endpoint.send(peer, type, wrap(body));
            return null;
        });
    }

    static byte[] longBytes(long value) {
        return java.nio.ByteBuffer.allocate(8).putLong(value).array();
    }

    static long longOf(byte[] bytes) {
        return java.nio.ByteBuffer.wrap(bytes).getLong();
    }
}
