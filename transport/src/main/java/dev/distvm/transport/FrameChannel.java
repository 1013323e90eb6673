package dev.distvm.transport;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Length-prefixed frames on a blocking socket: a 4-byte magic when the connection opens, then
 * frames of {@code [int length][length bytes]}. Writes are serialized by the caller's lock
 * (so frames to one peer keep their order); reads belong to the connection's reader thread.
 */
final class FrameChannel {
    /** Opens every connection, so that a stray client (HTTP, a port scanner) is recognised at once. */
    static final byte[] MAGIC = "dst1".getBytes(StandardCharsets.US_ASCII);
    private static final int INPUT_BUFFER_BYTES = 64 * 1024;

    private final SocketChannel channel;
    private final int maxFrameBytes;
    /** Bytes read from the socket and not yet taken, between position and limit. */
    private final ByteBuffer in = ByteBuffer.allocate(INPUT_BUFFER_BYTES).flip();

    FrameChannel(SocketChannel channel, int maxFrameBytes) {
        this.channel = channel;
        this.maxFrameBytes = maxFrameBytes;
    }

    /** Writes one frame, held in {@code length} bytes from {@code frame[offset]} with its 4-byte length prefix. */
    void write(byte[] frame, int offset, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(frame, offset, length);
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    void writeMagic() throws IOException {
        write(MAGIC, 0, MAGIC.length);
    }

    /** Reads the peer's magic; false when the peer does not speak dist. */
    boolean readMagic() throws IOException {
        fill(MAGIC.length);
        byte[] magic = new byte[MAGIC.length];
        in.get(magic);
        return Arrays.equals(magic, MAGIC);
    }

    /**
     * Reads the next frame's body. Reads are buffered: one system call usually brings a whole
     * small frame, often several. The body's array grows as its bytes arrive (doubling), so a peer
     * that announces a large frame and sends little of it costs this node little.
     *
     * @throws FrameTooLargeException when the announced length is out of bounds; the stream can no
     *         longer be trusted and the connection must be closed
     */
    byte[] read() throws IOException {
        fill(4);
        int length = in.getInt(in.position());
        if (length < 0 || length > maxFrameBytes) {
            throw new FrameTooLargeException(length, maxFrameBytes);
        }
        in.position(in.position() + 4);
        int filled = Math.min(length, in.remaining());
        byte[] body = new byte[Math.min(length, Math.max(filled, INPUT_BUFFER_BYTES))];
        in.get(body, 0, filled);
        while (filled < length) {
            if (filled == body.length) {
                body = Arrays.copyOf(body, (int) Math.min(length, 2L * body.length));
            }
            int read = channel.read(ByteBuffer.wrap(body, filled, body.length - filled));
            if (read < 0) {
                throw new EOFException("connection closed by peer");
            }
            filled += read;
        }
        return body;
    }

    /** Makes at least {@code count} unread bytes available in the input buffer. */
    private void fill(int count) throws IOException {
        if (in.remaining() >= count) {
            return;
        }
        in.compact();
        try {
            while (in.position() < count) {
                if (channel.read(in) < 0) {
                    throw new EOFException("connection closed by peer");
                }
            }
        } finally {
            in.flip();
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
