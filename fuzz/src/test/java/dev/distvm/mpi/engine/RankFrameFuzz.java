package dev.distvm.mpi.engine;

import dev.distvm.fuzz.DecoderContract;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What another rank's connection delivers after a valid hello, read as a rank reads it: frames
 * of {@code [payload length][header][payload]} through {@link SocketDevice} into a
 * {@link Messenger} that has posted no receive (so each payload is kept whole). A bad frame
 * closes the connection; nothing else may happen. Over a real loopback socket, with a rank of its
 * own per input.
 */
public final class RankFrameFuzz {
    private static final long TOKEN = 42;
    /** Progress steps per input: an accept, the reads of at most a few kilobytes, the end. */
    private static final int STEPS = 8;

    private RankFrameFuzz() {}

    public static void fuzzerTestOneInput(byte[] frames) throws Throwable {
        DecoderContract.check(frames, () -> {
            try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
                InetSocketAddress address = (InetSocketAddress) listener.getLocalAddress();
                SocketDevice[] device = new SocketDevice[1];
                try (Messenger rank = new Messenger(0, 2, inbox -> device[0] = (SocketDevice) Messenger.opened(
                        () -> new SocketDevice(0, TOKEN, listener, List.of(address, address), inbox)));
                     SocketChannel peer = SocketChannel.open(address)) {
                    ByteBuffer hello = ByteBuffer.allocate(16 + frames.length)
                            .put("dmp1".getBytes(StandardCharsets.US_ASCII)).putLong(TOKEN).putInt(1).put(frames).flip();
                    peer.write(hello); // a fuzz input fits the socket's buffers: this does not block
                    peer.shutdownOutput();
                    for (int step = 0; step < STEPS; step++) {
                        device[0].progress(1_000_000);
                    }
                }
            }
        }, IOException.class);
    }
}
