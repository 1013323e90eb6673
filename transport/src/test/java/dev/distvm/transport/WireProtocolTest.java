package dev.distvm.transport;

import static dev.distvm.transport.Endpoints.ECHO;
import static dev.distvm.transport.Endpoints.UNHANDLED;
import static dev.distvm.transport.Endpoints.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Int32Value;
import dev.distvm.transport.proto.Envelope;
import dev.distvm.transport.proto.ErrorCode;
import dev.distvm.transport.proto.ErrorReply;
import dev.distvm.transport.proto.Kind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What an endpoint does with frames a well-behaved peer would never send, seen from a raw socket. */
class WireProtocolTest {
    private static final ClusterSecret SECRET = ClusterSecret.of("wire protocol test");
    private static final int MAX_FRAME_BYTES = 4096;
    private static final long CORRELATION = 77;

    private final Endpoints endpoints = new Endpoints();
    private Endpoint server;

    @BeforeEach
    void openServer() {
        TransportConfig loopback = TransportConfig.loopback(SECRET);
        server = Endpoints.withEcho(endpoints.open(
                new TransportConfig(loopback.bindAddress(), SECRET, MAX_FRAME_BYTES, loopback.requestTimeout())));
    }

    @AfterEach
    void closeEndpoints() {
        endpoints.close();
    }

    static Stream<Arguments> rejectedFrames() {
        Envelope valid = RawClient.request(CORRELATION, ECHO, number(1)).build();
        // Tag 0x0F is field 1 with wire type 7, which does not exist: no protobuf parser accepts it.
        byte[] garbage = {0x0f, 0x13, 0x37, (byte) 0xff, 0x00};
        return Stream.of(
                Arguments.of("garbage", garbage, ErrorCode.MALFORMED, 0L),
                Arguments.of("version 99", valid.toBuilder().setVersion(99).build().toByteArray(),
                        ErrorCode.VERSION_MISMATCH, CORRELATION),
                Arguments.of("a reply sent as a request", valid.toBuilder().setKind(Kind.REPLY).build().toByteArray(),
                        ErrorCode.MALFORMED, CORRELATION),
                Arguments.of("unknown type", valid.toBuilder().setType(UNHANDLED).build().toByteArray(),
                        ErrorCode.UNKNOWN_TYPE, CORRELATION));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejectedFrames")
    void rejectedFrameIsAnsweredWithItsErrorCodeAndTheConnectionStaysUsable(
            String description, byte[] frame, ErrorCode expected, long expectedCorrelation) throws IOException {
        try (RawClient client = RawClient.connectAuthenticated(server, SECRET)) {
            client.writeFrame(frame);

            Envelope answer = client.readEnvelope();
            ErrorReply error = ErrorReply.parseFrom(answer.getBody());
            assertEquals(Kind.ERROR, answer.getKind());
            assertEquals(expected, error.getCode(), error.getMessage());
            assertEquals(expectedCorrelation, answer.getCorrelation(), "the error answers the request it refuses");
            assertTrue(!error.getMessage().isBlank(), "the error says why");

            assertServesAValidRequest(client);
        }
    }

    @Test
    void frameAnnouncingMoreThanTheLimitIsAnsweredMalformedThenTheConnectionIsClosed() throws IOException {
        try (RawClient client = RawClient.connectAuthenticated(server, SECRET)) {
            client.writeLength(MAX_FRAME_BYTES + 1);

            ErrorReply error = client.readError();
            assertEquals(ErrorCode.MALFORMED, error.getCode());
            assertTrue(error.getMessage().contains(String.valueOf(MAX_FRAME_BYTES)), error.getMessage());
            assertTrue(client.closedByPeer(), "a stream whose framing is lost cannot be trusted further");
        }
        assertServesNewConnections();
    }

    @Test
    void clientWithTheWrongMagicIsDisconnectedAndOthersAreStillServed() throws IOException {
        try (RawClient stranger = RawClient.connect(server)) {
            stranger.write("GET /index.html HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));

            assertTrue(stranger.closedByPeer(), "a client that does not speak dist is dropped");
        }
        Await.until("the stranger was counted as rejected", () -> server.counters().rejected() == 1);
        assertServesNewConnections();
    }

    private void assertServesNewConnections() throws IOException {
        try (RawClient client = RawClient.connectAuthenticated(server, SECRET)) {
            assertServesAValidRequest(client);
        }
        Endpoint peer = endpoints.open(TransportConfig.loopback(SECRET));
        assertEquals(2, peer.call(server.address(), ECHO, number(1), Int32Value.parser()).getValue());
    }

    private static void assertServesAValidRequest(RawClient client) throws IOException {
        client.writeFrame(RawClient.request(CORRELATION + 1, ECHO, number(20)).build());

        Envelope reply = client.readEnvelope();
        assertEquals(Kind.REPLY, reply.getKind(), reply.toString());
        assertEquals(CORRELATION + 1, reply.getCorrelation());
        assertEquals(21, Int32Value.parseFrom(reply.getBody()).getValue());
    }
}
