package dev.distvm.transport;

import static dev.distvm.transport.Endpoints.ECHO;
import static dev.distvm.transport.Endpoints.number;
import static dev.distvm.transport.Endpoints.numberIn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Raw bodies: sent from a {@link WireBuffer} without a copy, checked and ordered as any message. */
class EndpointRawBodyTest {
    private static final int RAW = 103;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Endpoints endpoints = new Endpoints();

    @AfterEach
    void closeEndpoints() {
        endpoints.close();
    }

    private static WireBuffer longs(long... values) {
        WireBuffer buffer = new WireBuffer();
        for (long value : values) {
            buffer.appendLong(value);
        }
        return buffer;
    }

    @Test
    void aRawRequestIsAnsweredWithARawReply() throws Exception {
        Endpoint server = endpoints.open();
        server.registerRaw(RAW, m -> {
            ByteBuffer in = m.bodyBuffer();
            return CompletableFuture.completedFuture(longs(in.getLong() + in.getLong()));
        });
        Endpoint client = endpoints.open();

        Inbound reply = client.request(server.address(), RAW, longs(40, 2), TIMEOUT).get();

        assertEquals(42, reply.bodyBuffer().getLong());
        assertEquals(42, reply.bodyBuffer().getLong(0), "index 0 is the body's first byte, wherever it lies in its frame");
        assertEquals(8, reply.bodyBuffer().remaining());
    }

    @Test
    void oneBufferReusedForEverySendKeepsTheOrderWithMessageSends() {
        int count = 1000;
        Endpoint receiver = endpoints.open();
        List<Long> received = Collections.synchronizedList(new ArrayList<>());
        receiver.registerRaw(RAW, m -> {
            received.add(m.bodyBuffer().getLong());
            return null;
        });
        receiver.registerImmediate(ECHO, m -> {
            received.add((long) numberIn(m));
            return null;
        });
        Endpoint sender = endpoints.open();

        WireBuffer buffer = new WireBuffer();
        for (int i = 0; i < count; i++) {
            if (i % 3 == 0) {
                sender.send(receiver.address(), ECHO, number(i));
            } else {
                buffer.clear();
                buffer.appendLong(i);
                sender.send(receiver.address(), RAW, buffer);
            }
        }

        Await.until("all " + count + " messages received", () -> received.size() >= count);
        synchronized (received) {
            assertEquals(IntStream.range(0, count).mapToObj(i -> (long) i).toList(), received);
        }
    }

    @Test
    void aRawRequestFromAnotherClusterIsRefused() {
        Endpoint server = endpoints.open();
        server.registerRaw(RAW, m -> CompletableFuture.completedFuture(longs(1)));
        Endpoint stranger = Endpoint.open(TransportConfig.loopback(ClusterSecret.random()));
        try {
            ExecutionException failure = assertThrows(ExecutionException.class,
                    () -> stranger.request(server.address(), RAW, longs(1), TIMEOUT).get());
            assertInstanceOf(AuthenticationException.class, failure.getCause());
        } finally {
            stranger.close();
        }
    }

    @Test
    void aRawBodyOverTheFrameLimitIsRefusedOnSend() {
        Endpoint receiver = endpoints.open();
        Endpoint sender = endpoints.open(endpoints.config(1024));
        WireBuffer large = new WireBuffer();
        large.appendView(2048);

        TransportException refused = assertThrows(TransportException.class, () -> sender.send(receiver.address(), RAW, large));
        assertEquals(true, refused.getMessage().contains("frame limit of 1024"), refused.getMessage());
    }
}
