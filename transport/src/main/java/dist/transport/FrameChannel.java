package dist.transport;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * Length-prefixed frames on a blocking socket: a 4-byte magic when the connection opens, then
 * frames of {@code [int length][length bytes]}. Writes are serialized by the caller's lock
 * (so frames to one peer keep their order); reads belong to the connection's reader thread.
 */
final class FrameChannel {
    /** Opens every connection, so that a stray client (HTTP, a port scanner) is recognised at once. */
    static final byte[] MAGIC = "dst1".getBytes(StandardCharsets.US_ASCII);

    private final SocketChannel channel;
    private final int maxFrameBytes;
    private final ByteBuffer header = ByteBuffer.allocate(4);

    FrameChannel(SocketChannel channel, int maxFrameBytes) {
        this.channel = channel;
        this.maxFrameBytes = maxFrameBytes;
    }

    SocketChannel channel() {
        return channel;
    }

    /** Writes one frame that already holds its 4-byte length prefix. */
    void write(byte[] frame) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(frame);
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    void writeMagic() throws IOException {
        write(MAGIC);
    }

    /** Reads the peer's magic; false when the peer does not speak dist. */
    boolean readMagic() throws IOException {
        ByteBuffer magic = ByteBuffer.allocate(MAGIC.length);
        readFully(magic);
        return java.util.Arrays.equals(magic.array(), MAGIC);
    }

    /**
     * Reads the next frame's body.
     *
     * @throws FrameTooLargeException when the announced length is out of bounds; the stream can no
     *         longer be trusted and the connection must be closed
     */
    byte[] read() throws IOException {
        header.clear();
        readFully(header);
        int length = header.getInt(0);
        if (length < 0 || length > maxFrameBytes) {
            throw new FrameTooLargeException(length, maxFrameBytes);
        }
        ByteBuffer body = ByteBuffer.allocate(length);
        readFully(body);
        return body.array();
    }

    private void readFully(ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                throw new EOFException("connection closed by peer");
            }
        }
    }

    void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // closing: nothing left to do with the socket
        }
    }

    static final class FrameTooLargeException extends IOException {
        FrameTooLargeException(int length, int max) {
            super("frame length " + length + " is outside 0.." + max);
        }
    }
}
