package dev.distvm.transport;

import static dev.distvm.transport.Endpoints.ECHO;
import static dev.distvm.transport.Endpoints.SILENT;
import static dev.distvm.transport.Endpoints.UNHANDLED;
import static dev.distvm.transport.Endpoints.number;
import static dev.distvm.transport.Endpoints.numberIn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.BytesValue;
import com.google.protobuf.Int32Value;
import com.google.protobuf.MessageLite;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One-way delivery, timeouts, lost peers, counters and limits of an endpoint. */
class EndpointDeliveryTest {
    /** Long enough that a request failing through its timeout cannot pass for one failing at once. */
    private static final Duration LONG_TIMEOUT = Duration.ofSeconds(60);

    private final Endpoints endpoints = new Endpoints();

    @AfterEach
    void closeEndpoints() {
        endpoints.close();
    }

    /** A server whose SILENT handler takes requests and never answers them. */
    private Endpoint openSilentServer() {
        Endpoint server = endpoints.openEchoServer();
        server.register(SILENT, m -> new CompletableFuture<MessageLite>());
        return server;
    }

    @Test
    void oneWayMessagesToOnePeerArriveInTheOrderSent() {
        int count = 1000;
        Endpoint receiver = endpoints.open();
        List<Integer> received = Collections.synchronizedList(new ArrayList<>());
        receiver.registerImmediate(ECHO, m -> {
            received.add(numberIn(m));
            return null;
        });
        Endpoint sender = endpoints.open();

        for (int i = 0; i < count; i++) {
            sender.send(receiver.address(), ECHO, number(i));
        }

        Await.until("all " + count + " messages received", () -> received.size() >= count);
        synchronized (received) {
            assertEquals(IntStream.range(0, count).boxed().toList(), received);
        }
    }

    @Test
    void requestThatIsNeverAnsweredFailsWithRequestTimeoutException() {
        Endpoint server = openSilentServer();
        Endpoint client = endpoints.open();

        RequestTimeoutException timeout = Await.failure(
                client.request(server.address(), SILENT, number(1), Duration.ofMillis(200)), RequestTimeoutException.class);

        assertTrue(timeout.getMessage().contains(server.address()), timeout.getMessage());
        assertThrows(RequestTimeoutException.class,
                () -> client.call(server.address(), SILENT, number(2), Int32Value.parser(), Duration.ofMillis(200)));
    }

    @Test
    void requestToAPortWhereNothingListensFailsWithoutWaitingForItsTimeout() throws IOException {
        String nobody = addressWhereNothingListens();
        Endpoint client = endpoints.open();

        TransportException failure = Await.failure(
                client.request(nobody, ECHO, number(1), LONG_TIMEOUT), TransportException.class);

        assertNotEquals(RequestTimeoutException.class, failure.getClass(), failure.toString());
        assertTrue(failure.getMessage().contains(nobody), failure.getMessage());
        assertThrows(TransportException.class, () -> client.send(nobody, ECHO, number(2)));
    }

    @Test
    void aConnectionOpenedAheadCarriesTheFirstMessageAndAFailedOneIsReportedByIt() throws IOException {
        Endpoint server = endpoints.openEchoServer();
        Endpoint client = endpoints.open();
        client.openConnection(server.address());
        assertEquals(8, client.call(server.address(), ECHO, number(7), Int32Value.parser(), LONG_TIMEOUT).getValue());

        String nobody = addressWhereNothingListens();
        client.openConnection(nobody); // nothing listens: not this call's to report
        TransportException failure = assertThrows(TransportException.class, () -> client.send(nobody, ECHO, number(2)));
        assertTrue(failure.getMessage().contains(nobody), failure.getMessage());
    }

    private static String addressWhereNothingListens() throws IOException {
        try (ServerSocketChannel probe = ServerSocketChannel.open()) {
            probe.bind(new InetSocketAddress("127.0.0.1", 0));
            return "tcp://127.0.0.1:" + ((InetSocketAddress) probe.getLocalAddress()).getPort();
        }
    }

    @Test
    void disconnectFailsTheRequestsInFlightToThatPeerOnlyAndTheNextRequestReconnects() {
        Endpoint server = openSilentServer();
        Endpoint other = openSilentServer();
        Endpoint client = endpoints.open();
        CompletableFuture<Inbound> toServer = client.request(server.address(), SILENT, number(1), LONG_TIMEOUT);
        CompletableFuture<Inbound> toOther = client.request(other.address(), SILENT, number(1), LONG_TIMEOUT);
        // The request must have reached the server, or disconnect could win the race with the send.
        Await.until("the server received the request", () -> server.counters().messagesReceived() == 1);

        client.disconnect(server.address());

        TransportException failure = Await.failure(toServer, TransportException.class);
        assertNotEquals(RequestTimeoutException.class, failure.getClass(), failure.toString());
        assertTrue(failure.getMessage().contains("disconnected"), failure.getMessage());
        assertFalse(toOther.isDone(), "a request to another peer is not affected");
        assertEquals(2, client.call(server.address(), ECHO, number(1), Int32Value.parser()).getValue());
    }

    @Test
    void closingAnEndpointFailsItsPendingRequestsAndRefusesNewOnes() {
        Endpoint server = openSilentServer();
        Endpoint client = endpoints.open();
        CompletableFuture<Inbound> pending = client.request(server.address(), SILENT, number(1), LONG_TIMEOUT);

        client.close();

        TransportException failure = Await.failure(pending, TransportException.class);
        assertTrue(failure.getMessage().contains("closed"), failure.getMessage());
        assertThrows(TransportException.class, () -> client.send(server.address(), ECHO, number(1)));
    }

    @Test
    void countersTrackMessagesAndBytesInBothDirections() {
        Endpoint server = endpoints.openEchoServer();
        Endpoint client = endpoints.open();

        client.call(server.address(), ECHO, number(1), Int32Value.parser());
        // The server counts its reply after writing it, so it may do so after the client has read it.
        Await.until("the server counted its reply", () -> server.counters().messagesSent() == 1);

        TransportCounters c = client.counters();
        TransportCounters s = server.counters();
        assertEquals(1, c.messagesSent());
        assertEquals(1, s.messagesReceived());
        assertEquals(1, c.messagesReceived());
        assertTrue(c.bytesSent() > 0, "a request has bytes");
        assertEquals(c.bytesSent(), s.bytesReceived(), "what one side sent is what the other received");
        assertEquals(s.bytesSent(), c.bytesReceived());
        assertEquals(0, s.rejected());

        long sentBefore = c.messagesSent();
        assertThrows(RemoteErrorException.class, () -> client.call(server.address(), UNHANDLED, number(1), Int32Value.parser()));
        assertEquals(sentBefore + 1, c.messagesSent());
        assertEquals(2, s.messagesReceived());
        assertEquals(1, s.rejected(), "a request nobody handles is counted as rejected");
    }

    @Test
    void messageOverTheFrameLimitIsRefusedOnSendNamingTheLimit() {
        Endpoint server = endpoints.openEchoServer();
        Endpoint client = endpoints.open(endpoints.config(1024));
        BytesValue tooBig = BytesValue.of(ByteString.copyFrom(new byte[2048]));

        TransportException onSend = assertThrows(TransportException.class, () -> client.send(server.address(), ECHO, tooBig));
        TransportException onRequest = Await.failure(client.request(server.address(), ECHO, tooBig), TransportException.class);

        assertTrue(onSend.getMessage().contains("1024"), onSend.getMessage());
        assertTrue(onRequest.getMessage().contains("1024"), onRequest.getMessage());
        assertEquals(0, client.counters().messagesSent(), "nothing was put on the wire");
    }

    @Test
    void openingOnAnAddressAlreadyInUseFailsNamingTheAddress() {
        Endpoint first = endpoints.open();

        TransportException e = assertThrows(TransportException.class,
                () -> endpoints.open(endpoints.config().withBindAddress(first.address())));
        assertTrue(e.getMessage().contains(first.address()), e.getMessage());
    }
}
