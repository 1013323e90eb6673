package dev.distvm.transport;

import dev.distvm.fuzz.DecoderContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * What an authenticated peer's connection delivers, read as a node reads it: frames, whole or in
 * pieces, until the stream ends ({@link FrameChannel}; the documented failure is an IOException),
 * in clear when the input's first byte is even, sealed under a fixed session key when it is odd
 * (then nothing but IOException may come of frames the key did not seal). Over a real loopback
 * socket, since a frame is read as its bytes arrive.
 */
public final class FrameStreamFuzz {
    private static final ServerSocketChannel LISTENER = listener();
    private static final byte[] SESSION_KEY = new byte[32];
    /**
     * A piece is read into an array of its announced length (an authenticated peer's, up to
     * {@link FrameChannel#PIECE_BYTES}); small pieces here, so that what the contract checks is that
     * a frame of many pieces costs no more than the bytes that arrived.
     */
    private static final int PIECE_BYTES = 64 << 10;

    private FrameStreamFuzz() {}

    public static void fuzzerTestOneInput(byte[] stream) throws Throwable {
        DecoderContract.check(stream, () -> {
            try (SocketChannel peer = SocketChannel.open(LISTENER.getLocalAddress());
                 SocketChannel accepted = LISTENER.accept()) {
                peer.write(ByteBuffer.wrap(stream)); // a fuzz input fits the socket's buffers: this does not block
                peer.shutdownOutput();
                boolean sealed = stream.length > 0 && (stream[0] & 1) == 1;
                FrameChannel frames = new FrameChannel(accepted, TransportConfig.DEFAULT_MAX_FRAME_BYTES,
                        sealed ? FrameCipher.forAcceptor(SESSION_KEY) : null, PIECE_BYTES);
                while (true) {
                    frames.read();
                }
            }
        }, IOException.class);
    }

    private static ServerSocketChannel listener() {
        try {
            return ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
