package dev.distvm.mpi.engine;

import dev.distvm.common.DaemonThreads;
import dev.distvm.fuzz.DecoderContract;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.OpenerHandshake;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * What another rank's connection delivers once it has proved the job's secret and said who it is,
 * read as a rank reads it: frames of {@code [payload length][header][payload]} through
 * {@link SocketDevice} into a {@link Messenger} that has posted no receive (so each payload is kept
 * whole). A bad frame closes the connection; nothing else may happen. Over a real loopback socket,
 * with a rank of its own per input.
 */
public final class RankFrameFuzz {
    private static final ClusterSecret SECRET = ClusterSecret.of("fuzz");
    /** Progress steps per input: an accept, the reads of at most a few kilobytes, the end. */
    private static final int STEPS = 8;
    /** The peer proves the secret on a thread of its own: the rank answers only while this one drives its progress. */
    private static final ExecutorService PEER = Executors.newSingleThreadExecutor(DaemonThreads.named("fuzz-peer"));

    private RankFrameFuzz() {}

    public static void fuzzerTestOneInput(byte[] frames) throws Throwable {
        DecoderContract.check(frames, () -> {
            try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
                InetSocketAddress address = (InetSocketAddress) listener.getLocalAddress();
                SocketDevice[] device = new SocketDevice[1];
                try (Messenger rank = new Messenger(0, 2, inbox -> device[0] = (SocketDevice) Messenger.opened(
                        () -> new SocketDevice(0, SECRET, listener, List.of(address, address), inbox)));
                     SocketChannel peer = SocketChannel.open(address)) {
                    CompletableFuture<Void> proved = CompletableFuture.runAsync(() -> prove(peer, address), PEER);
                    while (!proved.isDone()) {
                        device[0].progress(1_000_000);
                    }
                    proved.join();
                    ByteBuffer hello = ByteBuffer.allocate(SocketDevice.HELLO_BYTES + frames.length)
                            .putInt(1).put(frames).flip();
                    peer.write(hello); // a fuzz input fits the socket's buffers: this does not block
                    peer.shutdownOutput();
                    for (int step = 0; step < STEPS; step++) {
                        device[0].progress(1_000_000);
                    }
                }
            }
        }, IOException.class);
    }

    private static void prove(SocketChannel peer, InetSocketAddress rank) {
        try {
            OpenerHandshake.authenticate(peer, "rank 0 at " + rank, SECRET, SocketDevice.MAGIC);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
