package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Int32Value;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.Handshake;
import dev.distvm.transport.TransportConfig;
import dev.distvm.transport.proto.Envelope;
import dev.distvm.transport.proto.Kind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Attacks on a node's endpoint in a JVM of its own by peers without the secret: what they hear
 * holds nothing secret and no application data, and what they send is never served.
 */
class AuthenticationIT {
    /** Longer than the time a node gives a connection to authenticate: a read that outlasts it is a hang. */
    private static final int READ_TIMEOUT_MILLIS = 30_000;

    private final ClusterSecret secret = ClusterSecret.random();
    private Target target;

    @BeforeEach
    void startTarget() throws Exception {
        target = Target.start(secret);
    }

    @AfterEach
    void stopTarget() {
        if (target != null) {
            target.close();
        }
    }

    @Test
    void aPeerWithAWrongSecretHearsTheChallengeAndTheFixedRefusalOnly() throws Exception {
        Handshake guess = Handshake.opener(ClusterSecret.of("a guess at the secret"), Endpoint.HANDSHAKE_MAGIC, false);
        byte[] received;
        try (Socket socket = connect()) {
            ByteBuffer out = ByteBuffer.allocate(Handshake.MAX_MESSAGE_BYTES);
            guess.start(out);
            send(socket, out);
            byte[] challenge = socket.getInputStream().readNBytes(guess.wanted());
            guess.take(ByteBuffer.wrap(challenge), out.clear());
            send(socket, out);
            socket.getOutputStream().write(frame(echoRequest()));
            byte[] rest = readToTheEnd(socket);
            received = ByteBuffer.allocate(challenge.length + rest.length).put(challenge).put(rest).array();

            byte[] refusal = Handshake.REFUSAL.getBytes(StandardCharsets.US_ASCII);
            assertArrayEquals(ByteBuffer.allocate(2 + refusal.length).put((byte) 1).put((byte) refusal.length)
                    .put(refusal).array(), rest, "after the challenge, nothing but the fixed refusal");
        }
        assertNull(SecretExposure.findIn(received, secret), "received: " + HexFormat.of().formatHex(received));
        assertEquals(0, target.query("served"), "no handler ran");
    }

    @Test
    void aPeerSendingGarbageHearsNothingAndIsDisconnected() throws Exception {
        byte[] garbage = new byte[4096];
        new Random(13).nextBytes(garbage);
        try (Socket socket = connect()) {
            socket.getOutputStream().write(garbage);
            socket.getOutputStream().write(frame(echoRequest()));
            byte[] received = readToTheEnd(socket);

            assertEquals(0, received.length, "a stranger hears nothing: " + HexFormat.of().formatHex(received));
        }
        assertEquals(0, target.query("served"), "no handler ran");
    }

    @Test
    void aRecordedConnectionReplayedVerbatimIsRefusedAndServesNothing() throws Exception {
        byte[] recorded;
        try (RecordingProxy proxy = new RecordingProxy(target.socketAddress());
             Endpoint member = Endpoint.open(TransportConfig.loopback(secret))) {
            assertEquals(42, member.call(proxy.address(), EndpointTarget.ECHO, Int32Value.of(41), Int32Value.parser(),
                    Duration.ofSeconds(30)).getValue());
            recorded = proxy.recorded();
        }
        assertEquals(1, target.query("served"));
        assertTrue(recorded.length > 37 + 32, "the recording holds the handshake and a request: " + recorded.length);
        long rejectedBefore = target.query("rejected");

        byte[] answered;
        try (Socket replay = connect()) {
            replay.getOutputStream().write(recorded);
            answered = readToTheEnd(replay);
        }

        assertEquals(1, target.query("served"), "the replayed request was not served");
        assertEquals(rejectedBefore + 1, target.query("rejected"), "the replaying connection was refused");
        byte[] refusal = Handshake.REFUSAL.getBytes(StandardCharsets.US_ASCII);
        assertEquals(37 + 2 + refusal.length, answered.length, "a fresh challenge, then the refusal, and nothing else");
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.connect(target.socketAddress());
        socket.setSoTimeout(READ_TIMEOUT_MILLIS);
        return socket;
    }

    private static void send(Socket socket, ByteBuffer out) throws IOException {
        OutputStream stream = socket.getOutputStream();
        stream.write(out.array(), 0, out.position());
    }

    /** All the node sends until it closes the connection; fails the test if it never does. */
    private static byte[] readToTheEnd(Socket socket) throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[4096];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                received.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the node neither answered nor closed the connection within "
                    + READ_TIMEOUT_MILLIS + " ms; received " + received.size() + " bytes", e);
        } catch (IOException reset) {
            // a reset also ends the connection
        }
        return received.toByteArray();
    }

    private static Envelope echoRequest() {
        return Envelope.newBuilder().setVersion(Endpoint.PROTOCOL_VERSION).setCorrelation(1).setType(EndpointTarget.ECHO)
                .setKind(Kind.REQUEST).setBody(Int32Value.of(1).toByteString()).build();
    }

    private static byte[] frame(Envelope envelope) {
        byte[] body = envelope.toByteArray();
        return ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array();
    }
}
