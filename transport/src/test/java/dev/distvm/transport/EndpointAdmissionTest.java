package dev.distvm.transport;

import static dev.distvm.transport.Endpoints.ECHO;
import static dev.distvm.transport.Endpoints.number;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Int32Value;
import dev.distvm.transport.proto.Envelope;
import dev.distvm.transport.proto.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What a peer that has not proved the secret gets from an endpoint: a bounded share, then the door. */
class EndpointAdmissionTest {
    private static final ClusterSecret SECRET = ClusterSecret.of("admission test");

    private final Endpoints endpoints = new Endpoints();
    private final Endpoint server = Endpoints.withEcho(endpoints.open(TransportConfig.loopback(SECRET)));
    private final List<RawClient> idle = new ArrayList<>();

    @AfterEach
    void close() throws IOException {
        for (RawClient client : idle) {
            client.close();
        }
        endpoints.close();
    }

    @Test
    void aPeerWithAnotherSecretHearsTheChallengeAndTheFixedRefusalAndNothingElse() throws IOException {
        Handshake guess = Handshake.opener(ClusterSecret.of("a guess"), Endpoint.HANDSHAKE_MAGIC, false);
        try (Socket socket = new Socket()) {
            socket.connect(socketAddress());
            socket.setSoTimeout((int) Await.LIVENESS.toMillis());
            ByteBuffer out = ByteBuffer.allocate(Handshake.MAX_MESSAGE_BYTES);
            guess.start(out);
            socket.getOutputStream().write(out.array(), 0, out.position());
            InputStream in = socket.getInputStream();
            byte[] challenge = in.readNBytes(guess.wanted());
            guess.take(ByteBuffer.wrap(challenge), out.clear());
            socket.getOutputStream().write(out.array(), 0, out.position());
            socket.getOutputStream().write(RawClient.request(1, ECHO, number(1)).build().toByteArray());

            byte[] rest = in.readAllBytes(); // to the end: the endpoint closes the connection

            byte[] refusal = Handshake.REFUSAL.getBytes(StandardCharsets.US_ASCII);
            byte[] expected = ByteBuffer.allocate(2 + refusal.length).put((byte) 1).put((byte) refusal.length)
                    .put(refusal).array();
            assertArrayEquals(expected, rest, "after the challenge, only the fixed refusal: "
                    + new String(rest, StandardCharsets.ISO_8859_1));
        }
        Await.until("the refused peer was counted", () -> server.counters().rejected() == 1);
        assertEquals(0, server.counters().messagesReceived(), "nothing it sent was read as an envelope");
    }

    @Test
    void connectionsOverThePerAddressLimitAreClosedAtOnceAndOtherAddressesAreServed() throws IOException {
        for (int i = 0; i < UnauthenticatedLimits.PER_ADDRESS; i++) {
            idle.add(RawClient.connectFrom("127.0.0.1", server));
        }
        // Accepted in order: once the last of these is pending, the limit is full.
        try (RawClient excess = RawClient.connectFrom("127.0.0.1", server)) {
            assertTrue(excess.closedByPeer(), "the 65th unauthenticated connection from one address is closed");
        }
        assertEquals(1, server.counters().rejected());
        assertFalse(idle.get(0).closedByPeerWithin(100), "the ones within the limit wait for their handshake");

        try (RawClient other = RawClient.connectFrom("127.0.0.2", server).authenticate(SECRET)) {
            other.writeFrame(RawClient.request(5, ECHO, number(41)).build());
            Envelope reply = other.readEnvelope();
            assertEquals(Kind.REPLY, reply.getKind());
            assertEquals(42, Int32Value.parseFrom(reply.getBody()).getValue());
        }
    }

    @Test
    void aConnectionThatDoesNotAuthenticateIsClosedAfterTheTimeoutAndCostsNothingAfter() throws IOException {
        try (Socket silent = new Socket()) {
            silent.connect(socketAddress());
            silent.setSoTimeout((int) (UnauthenticatedLimits.TIMEOUT.toMillis() * 3));
            assertEquals(-1, silent.getInputStream().read(), "closed by the endpoint, having said nothing");
        }
        assertEquals(1, server.counters().rejected());
        Endpoint member = endpoints.open(TransportConfig.loopback(SECRET));
        assertEquals(2, member.call(server.address(), ECHO, number(1), Int32Value.parser()).getValue());
    }

    @Test
    void aPeerAnnouncingAHugeFrameBeforeAuthenticatingIsClosedWithoutAnAnswer() throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(socketAddress());
            socket.setSoTimeout((int) Await.LIVENESS.toMillis());
            byte[] announce = new byte[40];
            Arrays.fill(announce, (byte) 0x7f); // not the magic; "length" 0x7f7f7f7f
            socket.getOutputStream().write(announce);
            assertEquals(-1, socket.getInputStream().read(), "closed at once, nothing answered");
        }
        Await.until("the stranger was counted", () -> server.counters().rejected() == 1);
    }

    private InetSocketAddress socketAddress() {
        return Endpoint.socketAddress(server.address());
    }
}
