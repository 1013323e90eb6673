package dev.distvm.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Frames through {@link FrameChannel} over real loopback sockets, with pieces of {@value #PIECE}
 * bytes so that a frame of a few kilobytes already travels in several: whole frames come out in
 * clear and encrypted, and a sealed stream with a piece altered, dropped or swapped fails to open.
 */
class FrameChannelTest {
    private static final int PIECE = 1024;
    private static final byte[] SESSION = new byte[32];
    private static final int[] SIZES = {0, 1, PIECE - 1, PIECE, PIECE + 1, 3 * PIECE + 5};

    private final ServerSocketChannel listener = listen();

    @AfterEach
    void close() throws IOException {
        listener.close();
    }

    @ParameterizedTest(name = "encrypted {0}")
    @ValueSource(booleans = {false, true})
    void framesOfEverySizeAroundAPieceArriveWholeAndInOrder(boolean encrypted) throws IOException {
        byte[] wire = wireBytes(encrypted);
        try (Pair pair = new Pair(listener)) {
            FrameChannel reader = pair.reader(encrypted);
            pair.feed(wire);
            for (int size : SIZES) {
                assertArrayEquals(frame(size), reader.read(), "frame of " + size + " bytes");
            }
        }
    }

    @Test
    void sealedFramesShowNoPlaintextAndAnAlteredDroppedOrSwappedPieceFailsToOpen() throws IOException {
        byte[] wire = wireBytes(true);
        assertFalse(contains(wire, Arrays.copyOfRange(frame(3 * PIECE + 5), 2 * PIECE, 2 * PIECE + 64)), "no plaintext on the wire");
        int last = wire.length - (3 * PIECE + 5 + 4 * FrameCipher.TAG_BYTES); // the last frame's pieces start after its length
        int secondPiece = last + PIECE + FrameCipher.TAG_BYTES;
        int sealedPiece = PIECE + FrameCipher.TAG_BYTES;

        byte[] altered = wire.clone();
        altered[secondPiece + 10] ^= 1;
        byte[] dropped = concat(Arrays.copyOfRange(wire, 0, secondPiece), Arrays.copyOfRange(wire, secondPiece + sealedPiece, wire.length));
        byte[] swapped = concat(Arrays.copyOfRange(wire, 0, last), Arrays.copyOfRange(wire, secondPiece, secondPiece + sealedPiece),
                Arrays.copyOfRange(wire, last, secondPiece), Arrays.copyOfRange(wire, secondPiece + sealedPiece, wire.length));
        for (byte[] tampered : new byte[][] {altered, dropped, swapped}) {
            try (Pair pair = new Pair(listener)) {
                FrameChannel reader = pair.reader(true);
                pair.feed(tampered);
                for (int i = 0; i < SIZES.length - 1; i++) {
                    assertEquals(SIZES[i], reader.read().length, "the frames before the tampered one are intact");
                }
                assertThrows(IOException.class, reader::read);
            }
        }
    }

    /** The bytes a writer puts on the wire for one frame of each of {@link #SIZES}. */
    private byte[] wireBytes(boolean encrypted) throws IOException {
        try (Pair pair = new Pair(listener)) {
            FrameChannel writer = new FrameChannel(pair.opened, TransportConfig.DEFAULT_MAX_FRAME_BYTES,
                    encrypted ? FrameCipher.forOpener(SESSION) : null, PIECE);
            for (int size : SIZES) {
                byte[] prefixed = new byte[4 + size];
                ByteBuffer.wrap(prefixed).putInt(size);
                System.arraycopy(frame(size), 0, prefixed, 4, size);
                writer.write(prefixed, 0, prefixed.length);
            }
            pair.opened.shutdownOutput();
            return pair.drain();
        }
    }

    private static byte[] frame(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return true;
            }
        }
        return false;
    }

    private static ServerSocketChannel listen() {
        try {
            return ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Two connected loopback sockets. */
    private static final class Pair implements AutoCloseable {
        final SocketChannel opened;
        final SocketChannel accepted;

        Pair(ServerSocketChannel listener) throws IOException {
            opened = SocketChannel.open(listener.getLocalAddress());
            accepted = listener.accept();
        }

        FrameChannel reader(boolean encrypted) {
            return new FrameChannel(accepted, TransportConfig.DEFAULT_MAX_FRAME_BYTES,
                    encrypted ? FrameCipher.forAcceptor(SESSION) : null, PIECE);
        }

        /** Sends {@code bytes} (a few kilobytes: they fit the socket's buffers) and ends the stream. */
        void feed(byte[] bytes) throws IOException {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                opened.write(buffer);
            }
            opened.shutdownOutput();
        }

        byte[] drain() throws IOException {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteBuffer buffer = ByteBuffer.allocate(4096);
            while (accepted.read(buffer.clear()) >= 0) {
                out.write(buffer.array(), 0, buffer.position());
            }
            return out.toByteArray();
        }

        @Override
        public void close() throws IOException {
            opened.close();
            accepted.close();
        }
    }
}
