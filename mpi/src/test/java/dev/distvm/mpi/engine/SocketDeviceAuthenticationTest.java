package dev.distvm.mpi.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.transport.AuthenticationException;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.Handshake;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Two ranks' socket devices on real loopback sockets: links prove the job's secret, strangers are refused. */
class SocketDeviceAuthenticationTest {
    private static final ClusterSecret SECRET = ClusterSecret.of("job secret");
    private static final int MESSAGES = 200;

    private final List<AutoCloseable> opened = new ArrayList<>();
    /** A thread per task: the common pool may have a single worker, and each rank's thread must run at once. */
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
        threads.shutdownNow();
    }

    @Test
    void ranksSendingToEachOtherAtOnceAuthenticateWhileAStrangerWithAWrongSecretIsRefused() throws Exception {
        ServerSocketChannel[] listeners = {listener(), listener()};
        List<InetSocketAddress> addresses = addresses(listeners);
        Messenger[] ranks = {messenger(0, SECRET, listeners[0], addresses), messenger(1, SECRET, listeners[1], addresses)};
        CompletableFuture<byte[]> stranger = CompletableFuture.supplyAsync(() -> strangerWithAWrongSecret(addresses.get(1)),
                threads);

        // Both ranks open their link to the other at the same moment, and each answers only from inside MPI.
        List<CompletableFuture<List<Integer>>> received = new ArrayList<>();
        for (int rank = 0; rank < 2; rank++) {
            Messenger self = ranks[rank];
            int peer = 1 - rank;
            received.add(CompletableFuture.supplyAsync(() -> exchange(self, peer), threads));
        }

        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
            expected.add(i);
        }
        assertEquals(expected, received.get(0).get(60, TimeUnit.SECONDS));
        assertEquals(expected, received.get(1).get(60, TimeUnit.SECONDS));
        byte[] refusal = Handshake.REFUSAL.getBytes(StandardCharsets.US_ASCII);
        byte[] heard = ranks[1].await(stranger.orTimeout(60, TimeUnit.SECONDS)); // rank 1 answers from inside MPI
        assertArrayEquals(ByteBuffer.allocate(2 + refusal.length).put((byte) 1).put((byte) refusal.length).put(refusal)
                .array(), heard, "after the challenge, the stranger hears the refusal and nothing else");
    }

    @Test
    void aRankWithAnotherSecretCannotOpenALink() throws Exception {
        ServerSocketChannel[] listeners = {listener(), listener()};
        List<InetSocketAddress> addresses = addresses(listeners);
        Messenger intruder = messenger(0, ClusterSecret.of("not the job's"), listeners[0], addresses);
        Messenger member = messenger(1, SECRET, listeners[1], addresses);
        CompletableFuture<Void> serving = CompletableFuture.runAsync(() -> {
            try {
                member.await(new CompletableFuture<Void>().completeOnTimeout(null, 5, TimeUnit.SECONDS));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, threads);

        AuthenticationException refused = assertThrows(AuthenticationException.class, () -> intruder.send(1, 0, 0, 1, bytes(7)));
        assertTrue(refused.getMessage().contains(ClusterSecret.ENV), refused.getMessage());
        serving.get(60, TimeUnit.SECONDS);
    }

    /** Sends {@link #MESSAGES} numbered messages to {@code peer} and receives as many from it. */
    private static List<Integer> exchange(Messenger self, int peer) {
        try {
            List<PostedReceive> receives = new ArrayList<>();
            for (int i = 0; i < MESSAGES; i++) {
                receives.add(self.receive(0, peer, i, (length, first) -> null));
            }
            for (int i = 0; i < MESSAGES; i++) {
                self.send(peer, 0, i, 1, bytes(i));
            }
            List<Integer> values = new ArrayList<>();
            for (PostedReceive receive : receives) {
                values.add(ByteBuffer.wrap(self.await(receive.arrival()).payload()).getInt());
            }
            return values;
        } catch (Exception e) {
            throw new IllegalStateException("rank " + self.rank() + " failed", e);
        }
    }

    /** Connects with a wrong secret, proves nothing, sends a frame anyway; returns what it heard after the challenge. */
    private static byte[] strangerWithAWrongSecret(InetSocketAddress rank) {
        Handshake guess = Handshake.opener(ClusterSecret.of("a guess"), "dmp2", false);
        try (Socket socket = new Socket()) {
            socket.connect(rank);
            socket.setSoTimeout(30_000);
            ByteBuffer out = ByteBuffer.allocate(Handshake.MAX_MESSAGE_BYTES);
            guess.start(out);
            socket.getOutputStream().write(out.array(), 0, out.position());
            InputStream in = socket.getInputStream();
            guess.take(ByteBuffer.wrap(in.readNBytes(guess.wanted())), out.clear());
            socket.getOutputStream().write(out.array(), 0, out.position());
            socket.getOutputStream().write(ByteBuffer.allocate(8).putInt(0).putInt(1).array());
            ByteArrayOutputStream heard = new ByteArrayOutputStream();
            in.transferTo(heard);
            return heard.toByteArray();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Payload bytes(int value) {
        byte[] bytes = ByteBuffer.allocate(4).putInt(value).array();
        return new Payload() {
            @Override
            public int size() {
                return bytes.length;
            }

            @Override
            public int write(int from, ByteBuffer out) {
                int n = Math.min(out.remaining(), bytes.length - from);
                out.put(bytes, from, n);
                return n;
            }
        };
    }

    private ServerSocketChannel listener() throws Exception {
        ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        opened.add(listener);
        return listener;
    }

    private static List<InetSocketAddress> addresses(ServerSocketChannel... listeners) throws Exception {
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (ServerSocketChannel listener : listeners) {
            addresses.add((InetSocketAddress) listener.getLocalAddress());
        }
        return addresses;
    }

    private Messenger messenger(int rank, ClusterSecret secret, ServerSocketChannel listener,
                                List<InetSocketAddress> addresses) {
        Messenger messenger = new Messenger(rank, addresses.size(),
                inbox -> Messenger.opened(() -> new SocketDevice(rank, secret, listener, addresses, inbox)));
        opened.add(messenger);
        return messenger;
    }
}
