package dev.distvm.transport;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Arrays;

/**
 * Length-prefixed frames on a blocking, authenticated socket.
 *
 * <p>In clear: {@code [int length][length bytes]}. A frame longer than a piece ({@link
 * #PIECE_BYTES}) travels as consecutive pieces, each with its own prefix whose top bit says that
 * more follow: no single read allocates more than a piece before its bytes arrive, and a message
 * of any size that fits in a Java array gets through.
 *
 * <p>Encrypted: {@code [int length]} then the frame in sealed pieces of {@link #SEALED_PIECE_BYTES}
 * (the last one shorter, a frame of no bytes one empty piece), each followed by its tag and sealed
 * by the {@link FrameCipher} with the length as associated data. Small pieces are what make
 * encryption nearly free: a piece is sealed into a buffer that stays in the core's cache while the
 * socket copies it, and opened from such a buffer straight into the frame's array, so the bulk of
 * a frame is touched no more often than in clear. A frame over a piece gets its array only once
 * its first piece proved the length genuine.
 *
 * <p>Writes are serialized by the caller's lock (so frames to one peer keep their order, and a
 * frame's pieces stay together); reads belong to the connection's reader thread.
 */
final class FrameChannel {
    /** Frames up to this size (nearly all) travel whole, read into an array of their announced length. */
    static final int PIECE_BYTES = 16 << 20;
    /** Small enough for a piece and its copies to stay in a core's cache, large enough that a piece's fixed costs vanish. */
    static final int SEALED_PIECE_BYTES = 256 << 10;
    private static final int MORE_PIECES = 0x8000_0000;
    private static final int INPUT_BUFFER_BYTES = 64 * 1024;
    private final SocketChannel channel;
    private final int maxFrameBytes;
    private final int pieceBytes;
    private final int sealedPieceBytes;
    /** Null on a connection in clear. */
    private final FrameCipher cipher;
    private final ByteBuffer piecePrefix = ByteBuffer.allocate(4);
    /** Where the writer seals a piece; grown to the largest piece written, at most a sealed piece and its prefix. */
    private byte[] sealBuffer = new byte[0];
    /** Where the reader takes a sealed piece that did not arrive whole in {@link #in}; grown like {@link #sealBuffer}. */
    private byte[] openBuffer = new byte[0];
    /** Bytes read from the socket and not yet taken, between position and limit. */
    private final ByteBuffer in = ByteBuffer.allocate(INPUT_BUFFER_BYTES).flip();

    FrameChannel(SocketChannel channel, int maxFrameBytes, FrameCipher cipher) {
        this(channel, maxFrameBytes, cipher, PIECE_BYTES);
    }

    /** With pieces of at most {@code pieceBytes}: small ones let a test see a frame cut in pieces without sending megabytes. */
    FrameChannel(SocketChannel channel, int maxFrameBytes, FrameCipher cipher, int pieceBytes) {
        this.channel = channel;
        this.maxFrameBytes = maxFrameBytes;
        this.pieceBytes = pieceBytes;
        this.sealedPieceBytes = Math.min(pieceBytes, SEALED_PIECE_BYTES);
        this.cipher = cipher;
    }

    /** Writes one frame, held in {@code length} bytes from {@code frame[offset]} with its 4-byte length prefix. */
    void write(byte[] frame, int offset, int length) throws IOException {
        int body = length - 4;
        if (cipher != null) {
            writeSealed(frame, offset + 4, body);
        } else if (body <= pieceBytes) {
            writeFully(ByteBuffer.wrap(frame, offset, length)); // the common case: the prefix is in place already
        } else {
            writeInPieces(frame, offset + 4, body);
        }
    }

    private void writeInPieces(byte[] bytes, int offset, int length) throws IOException {
        int left = length;
        do {
            int piece = Math.min(left, pieceBytes);
            left -= piece;
            piecePrefix.clear().putInt(0, piece | (left > 0 ? MORE_PIECES : 0));
            ByteBuffer[] both = {piecePrefix, ByteBuffer.wrap(bytes, offset, piece)};
            while (both[1].hasRemaining()) {
                channel.write(both);
            }
            offset += piece;
        } while (left > 0);
    }

    private void writeSealed(byte[] bytes, int offset, int length) throws IOException {
        int written = 0;
        do {
            int piece = Math.min(length - written, sealedPieceBytes);
            int start = written == 0 ? 4 : 0; // the frame's length goes before its first piece only
            int end = start + piece + FrameCipher.TAG_BYTES;
            sealBuffer = atLeast(sealBuffer, end);
            ByteBuffer out = ByteBuffer.wrap(sealBuffer, 0, end);
            if (start > 0) {
                out.putInt(0, length);
            }
            cipher.seal(length, bytes, offset + written, piece, sealBuffer, start);
            writeFully(out);
            written += piece;
        } while (written < length);
    }

    /** {@code buffer}, or a larger one when it holds fewer than {@code bytes}: doubled, up to what a sealed piece needs. */
    private static byte[] atLeast(byte[] buffer, int bytes) {
        if (bytes <= buffer.length) {
            return buffer;
        }
        return new byte[Math.max(bytes, Math.min(2 * buffer.length, 4 + SEALED_PIECE_BYTES + FrameCipher.TAG_BYTES))];
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
        return cipher == null ? readClear() : readSealed();
    }

    private byte[] readClear() throws IOException {
        byte[] frame = null;
        int filled = 0;
        boolean more;
        do {
            fill(4);
            int prefix = in.getInt();
            more = (prefix & MORE_PIECES) != 0;
            int length = prefix & ~MORE_PIECES;
            if (length > pieceBytes || (long) filled + length > maxFrameBytes) {
                throw new FrameTooLargeException((long) filled + length, maxFrameBytes);
            }
            byte[] piece = readPiece(length);
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

    private byte[] readSealed() throws IOException {
        fill(4);
        int length = in.getInt();
        if (length < 0 || length > maxFrameBytes) {
            throw new FrameTooLargeException(length, maxFrameBytes);
        }
        // A frame of one piece costs no more than that piece; a longer one's array waits until its
        // first piece has proved the announced length genuine.
        byte[] frame = length <= sealedPieceBytes ? new byte[length] : null;
        int opened = 0;
        do {
            int piece = Math.min(length - opened, sealedPieceBytes);
            int sealedLength = piece + FrameCipher.TAG_BYTES;
            if (in.remaining() >= sealedLength && frame != null) {
                cipher.open(length, in.array(), in.arrayOffset() + in.position(), sealedLength, frame, opened);
                in.position(in.position() + sealedLength);
            } else {
                openBuffer = atLeast(openBuffer, sealedLength);
                readFully(openBuffer, sealedLength);
                if (frame == null) {
                    cipher.open(length, openBuffer, 0, sealedLength, openBuffer, 0);
                    frame = new byte[length];
                    System.arraycopy(openBuffer, 0, frame, 0, piece);
                } else {
                    cipher.open(length, openBuffer, 0, sealedLength, frame, opened);
                }
            }
            opened += piece;
        } while (opened < length);
        return frame;
    }

    /** One piece's {@code length} bytes, in an array of their own. */
    private byte[] readPiece(int length) throws IOException {
        byte[] piece = new byte[length];
        readFully(piece, length);
        return piece;
    }

    /** {@code length} bytes into {@code bytes}, first from the input buffer, then straight from the socket. */
    private void readFully(byte[] bytes, int length) throws IOException {
        int filled = Math.min(length, in.remaining());
        in.get(bytes, 0, filled);
        ByteBuffer rest = ByteBuffer.wrap(bytes, filled, length - filled);
        while (rest.hasRemaining()) {
            if (channel.read(rest) < 0) {
                throw new EOFException("connection closed by peer");
            }
        }
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
