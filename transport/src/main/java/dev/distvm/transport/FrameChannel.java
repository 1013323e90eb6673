package dev.distvm.transport;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Arrays;

/**
 * Length-prefixed frames on a blocking, authenticated socket: {@code [int length][length bytes]};
 * on an encrypted connection the bytes are the frame sealed by its {@link FrameCipher} (the
 * length then counts the tag too). Writes are serialized by the caller's lock
 * (so frames to one peer keep their order); reads belong to the connection's reader thread.
 */
final class FrameChannel {
    private static final int INPUT_BUFFER_BYTES = 64 * 1024;
    /** Sealed frames up to this size reuse one array, grown as needed; larger ones, rare, get their own. */
    private static final int MAX_SEAL_BUFFER_BYTES = 4 << 20;

    private final SocketChannel channel;
    private final int maxFrameBytes;
    /** Null on a connection in clear. */
    private final FrameCipher cipher;
    private byte[] sealBuffer = new byte[0];
    /** Bytes read from the socket and not yet taken, between position and limit. */
    private final ByteBuffer in = ByteBuffer.allocate(INPUT_BUFFER_BYTES).flip();

    FrameChannel(SocketChannel channel, int maxFrameBytes, FrameCipher cipher) {
        this.channel = channel;
        this.maxFrameBytes = cipher == null ? maxFrameBytes : maxFrameBytes + FrameCipher.TAG_BYTES;
        this.cipher = cipher;
    }

    /** Writes one frame, held in {@code length} bytes from {@code frame[offset]} with its 4-byte length prefix. */
    void write(byte[] frame, int offset, int length) throws IOException {
        if (cipher == null) {
            writeFully(ByteBuffer.wrap(frame, offset, length));
            return;
        }
        int sealedLength = length - 4 + FrameCipher.TAG_BYTES;
        byte[] sealed = sealBuffer(4 + sealedLength);
        ByteBuffer.wrap(sealed).putInt(0, sealedLength);
        cipher.seal(sealedLength, frame, offset + 4, length - 4, sealed, 4);
        writeFully(ByteBuffer.wrap(sealed, 0, 4 + sealedLength));
    }

    private byte[] sealBuffer(int bytes) {
        if (bytes <= sealBuffer.length) {
            return sealBuffer;
        }
        if (bytes > MAX_SEAL_BUFFER_BYTES) {
            return new byte[bytes];
        }
        sealBuffer = new byte[Math.max(bytes, Math.min(2 * sealBuffer.length, MAX_SEAL_BUFFER_BYTES))];
        return sealBuffer;
    }

    private void writeFully(ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
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
        return cipher == null ? body : cipher.open(length, body);
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
