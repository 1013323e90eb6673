package dev.distvm.transport;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Arrays;

/**
 * Length-prefixed frames on a blocking, authenticated socket: {@code [int length][length bytes]};
 * on an encrypted connection the bytes are the frame sealed by its {@link FrameCipher} (the
 * length then counts the tag too). A frame longer than a piece ({@link #PIECE_BYTES}) travels as
 * consecutive pieces, each with its own prefix whose top bit says that more follow (and, when
 * encrypted, sealed on its own with that prefix as associated data): no single read allocates more
 * than a piece before its bytes arrive, and a message of any size that fits in a Java array gets
 * through. Writes are serialized by the caller's lock (so frames to one peer keep their order, and
 * a frame's pieces stay together); reads belong to the connection's reader thread.
 */
final class FrameChannel {
    /** Frames up to this size (nearly all) travel whole, read into an array of their announced length. */
    static final int PIECE_BYTES = 16 << 20;
    private static final int MORE_PIECES = 0x8000_0000;
    private static final int INPUT_BUFFER_BYTES = 64 * 1024;
    /** Sealed frames up to this size reuse one array, grown as needed; larger ones, rare, get their own. */
    private static final int MAX_SEAL_BUFFER_BYTES = 4 << 20;

    private final SocketChannel channel;
    private final int maxFrameBytes;
    private final int pieceBytes;
    /** Null on a connection in clear. */
    private final FrameCipher cipher;
    private final ByteBuffer piecePrefix = ByteBuffer.allocate(4);
    private byte[] sealBuffer = new byte[0];
    /** Bytes read from the socket and not yet taken, between position and limit. */
    private final ByteBuffer in = ByteBuffer.allocate(INPUT_BUFFER_BYTES).flip();

    FrameChannel(SocketChannel channel, int maxFrameBytes, FrameCipher cipher) {
        this(channel, maxFrameBytes, cipher, PIECE_BYTES);
    }

    /** With pieces of {@code pieceBytes}: small ones let a test see a frame cut in pieces without sending megabytes. */
    FrameChannel(SocketChannel channel, int maxFrameBytes, FrameCipher cipher, int pieceBytes) {
        this.channel = channel;
        this.maxFrameBytes = maxFrameBytes;
        this.pieceBytes = pieceBytes;
        this.cipher = cipher;
    }

    /** Writes one frame, held in {@code length} bytes from {@code frame[offset]} with its 4-byte length prefix. */
    void write(byte[] frame, int offset, int length) throws IOException {
        int body = length - 4;
        if (cipher == null && body <= pieceBytes) {
            writeFully(ByteBuffer.wrap(frame, offset, length)); // the common case: the prefix is in place already
            return;
        }
        int at = offset + 4;
        int left = body;
        do {
            int piece = Math.min(left, pieceBytes);
            left -= piece;
            writePiece(frame, at, piece, left > 0);
            at += piece;
        } while (left > 0);
    }

    private void writePiece(byte[] bytes, int offset, int length, boolean more) throws IOException {
        int flag = more ? MORE_PIECES : 0;
        if (cipher == null) {
            piecePrefix.clear().putInt(0, length | flag);
            ByteBuffer[] both = {piecePrefix, ByteBuffer.wrap(bytes, offset, length)};
            while (both[1].hasRemaining()) {
                channel.write(both);
            }
            return;
        }
        int sealedLength = length + FrameCipher.TAG_BYTES;
        byte[] sealed = sealBuffer(4 + sealedLength);
        ByteBuffer.wrap(sealed).putInt(0, sealedLength | flag);
        cipher.seal(sealedLength | flag, bytes, offset, length, sealed, 4);
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
     * Reads the next frame's body, joining its pieces. Reads are buffered: one system call usually
     * brings a whole small frame, often several.
     *
     * @throws FrameTooLargeException when a piece's or the frame's length is out of bounds; the
     *         stream can no longer be trusted and the connection must be closed
     */
    byte[] read() throws IOException {
        byte[] frame = null;
        int filled = 0;
        boolean more;
        do {
            fill(4);
            int prefix = in.getInt();
            more = (prefix & MORE_PIECES) != 0;
            int length = prefix & ~MORE_PIECES;
            int plainLength = cipher == null ? length : length - FrameCipher.TAG_BYTES;
            if (plainLength < 0) {
                throw new IOException("a frame too short to be sealed arrived on an encrypted connection; closing it");
            }
            if (length > pieceBytes + (cipher == null ? 0 : FrameCipher.TAG_BYTES) || (long) filled + plainLength > maxFrameBytes) {
                throw new FrameTooLargeException((long) filled + length, maxFrameBytes);
            }
            byte[] piece = readPiece(length);
            piece = cipher == null ? piece : cipher.open(prefix, piece);
            if (frame == null) {
                if (!more) {
                    return piece;
                }
                frame = piece; // a frame over a piece: the whole grows as its pieces arrive
                filled = piece.length;
                continue;
            }
            if (filled + piece.length > frame.length) {
                frame = Arrays.copyOf(frame, (int) Math.min(maxFrameBytes, Math.max(2L * frame.length, (long) filled + piece.length)));
            }
            System.arraycopy(piece, 0, frame, filled, piece.length);
            filled += piece.length;
        } while (more);
        return filled == frame.length ? frame : Arrays.copyOf(frame, filled);
    }

    /** One piece's {@code length} bytes, first from the input buffer, then straight from the socket. */
    private byte[] readPiece(int length) throws IOException {
        byte[] piece = new byte[length];
        int filled = Math.min(length, in.remaining());
        in.get(piece, 0, filled);
        ByteBuffer rest = ByteBuffer.wrap(piece, filled, length - filled);
        while (rest.hasRemaining()) {
            if (channel.read(rest) < 0) {
                throw new EOFException("connection closed by peer");
            }
        }
        return piece;
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
        FrameTooLargeException(long length, int max) {
            super("frame length " + length + " is outside 0.." + max);
        }
    }
}
