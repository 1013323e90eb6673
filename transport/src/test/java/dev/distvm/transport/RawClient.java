package dev.distvm.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.MessageLite;
import dev.distvm.transport.proto.Envelope;
import dev.distvm.transport.proto.ErrorReply;
import dev.distvm.transport.proto.Kind;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Speaks the wire format by hand (after the handshake, frames of a 4-byte big-endian length and
 * an Envelope), so that a test can send what a well-behaved Endpoint never would.
 */
final class RawClient implements AutoCloseable {
    /** A missing answer then fails the test instead of hanging the build. */
    private static final int READ_TIMEOUT_MILLIS = (int) Await.LIVENESS.toMillis();

    private final SocketChannel channel;
    private final DataInputStream in;

    private RawClient(SocketChannel channel) throws IOException {
        this.channel = channel;
        channel.socket().setSoTimeout(READ_TIMEOUT_MILLIS);
        this.in = new DataInputStream(channel.socket().getInputStream());
    }

    static RawClient connect(Endpoint endpoint) throws IOException {
        return new RawClient(SocketChannel.open(Endpoint.socketAddress(endpoint.address())));
    }

    /** Connects from another loopback address (any of 127.0.0.0/8), as a client on another host would. */
    static RawClient connectFrom(String localAddress, Endpoint endpoint) throws IOException {
        SocketChannel channel = SocketChannel.open();
        channel.bind(new InetSocketAddress(localAddress, 0));
        channel.connect(Endpoint.socketAddress(endpoint.address()));
        return new RawClient(channel);
    }

    /** Proves the secret on this connection, as a dist peer opens every connection. */
    RawClient authenticate(ClusterSecret secret) throws IOException {
        OpenerHandshake.authenticate(channel, "test server", secret, Endpoint.HANDSHAKE_MAGIC);
        return this;
    }

    /** Connects and proves the secret, as a dist peer opens every connection. */
    static RawClient connectAuthenticated(Endpoint endpoint, ClusterSecret secret) throws IOException {
        return connect(endpoint).authenticate(secret);
    }

    static Envelope.Builder request(long correlation, int type, MessageLite body) {
        return Envelope.newBuilder()
                .setVersion(Endpoint.PROTOCOL_VERSION)
                .setCorrelation(correlation)
                .setType(type)
                .setKind(Kind.REQUEST)
                .setBody(body.toByteString());
    }

    void write(byte[] bytes) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    void writeFrame(byte[] body) throws IOException {
        write(ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array());
    }

    void writeFrame(Envelope envelope) throws IOException {
        writeFrame(envelope.toByteArray());
    }

    /** Only the length of a frame, as a peer announcing a frame it never sends. */
    void writeLength(int length) throws IOException {
        write(ByteBuffer.allocate(4).putInt(length).array());
    }

    Envelope readEnvelope() throws IOException {
        byte[] body = new byte[in.readInt()];
        in.readFully(body);
        return Envelope.parseFrom(body);
    }

    ErrorReply readError() throws IOException {
        Envelope envelope = readEnvelope();
        assertEquals(Kind.ERROR, envelope.getKind(), "expected an error envelope, got " + envelope);
        return ErrorReply.parseFrom(envelope.getBody());
    }

    /** True when the endpoint closed the connection; false when it is still open after the read timeout. */
    boolean closedByPeer() throws IOException {
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (EOFException | SocketException e) {
            // a reset also means the endpoint dropped the connection
            return true;
        }
    }

    /** True when the endpoint closed the connection within {@code millis}. */
    boolean closedByPeerWithin(int millis) throws IOException {
        int usual = channel.socket().getSoTimeout();
        channel.socket().setSoTimeout(millis);
        try {
            return closedByPeer();
        } finally {
            channel.socket().setSoTimeout(usual);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
