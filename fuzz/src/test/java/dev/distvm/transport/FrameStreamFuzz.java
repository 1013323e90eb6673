package dev.distvm.transport;

import dev.distvm.fuzz.DecoderContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * What a peer's connection delivers, read as a node reads it: the magic, then frames until the
 * stream ends ({@link FrameChannel}; the documented failure is an IOException). Over a real
 * loopback socket, since a frame is read as its bytes arrive.
 */
public final class FrameStreamFuzz {
    private static final ServerSocketChannel LISTENER = listener();

    private FrameStreamFuzz() {}

    public static void fuzzerTestOneInput(byte[] stream) throws Throwable {
        DecoderContract.check(stream, () -> {
            try (SocketChannel peer = SocketChannel.open(LISTENER.getLocalAddress());
                 SocketChannel accepted = LISTENER.accept()) {
                peer.write(ByteBuffer.wrap(stream)); // a fuzz input fits the socket's buffers: this does not block
                peer.shutdownOutput();
                FrameChannel frames = new FrameChannel(accepted, TransportConfig.DEFAULT_MAX_FRAME_BYTES);
                if (frames.readMagic()) {
                    while (true) {
                        frames.read();
                    }
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
