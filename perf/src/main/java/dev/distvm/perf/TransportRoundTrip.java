package dev.distvm.perf;

import com.google.protobuf.ByteString;
import com.google.protobuf.BytesValue;
import dev.distvm.common.DaemonThreads;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.TransportConfig;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.DoubleSupplier;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * Small-message round trip between two JVMs on loopback: dist's transport (request/reply through
 * {@link Endpoint}) against the floor, a raw blocking NIO socket echo, measured in the same run
 * with rounds interleaved so that all see the same machine. Prints both and their ratio. JeroMQ's
 * own round trip (a DEALER talking straight to a ROUTER, no dist code around them) is measured
 * beside them: it is the reason the transport is not built on ZeroMQ sockets. The transport is
 * measured twice, in clear and encrypted (AES-CTR and HMAC-SHA256, {@code encrypt=true}), for the round trip and
 * for bandwidth (one-way 1 MiB messages, then a request that all of them have arrived before): first in
 * JVMs that have sent nothing yet, then after a long warm-up.
 *
 * <p>usage: TransportRoundTrip [--payload BYTES] [--rounds N] [--per-round N]
 */
public final class TransportRoundTrip {
    private static final int ECHO = 1000;
    private static final int SINK = 1001;
    private static final int BULK_BYTES = 1 << 20;
    private static final int BULK_MESSAGES = 64;

    private TransportRoundTrip() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--echo-server")) {
            echoServer();
            return;
        }
        BenchmarkOptions options = BenchmarkOptions.parse(args,
                "usage: TransportRoundTrip [--payload BYTES] [--rounds N] [--per-round N]",
                Set.of("--payload", "--rounds", "--per-round"), Set.of(), false);
        int payload = options.count("--payload", 64);
        int rounds = options.count("--rounds", 7);
        int perRound = options.count("--per-round", 20_000);
        run(payload, rounds, perRound);
    }

    private static void run(int payload, int rounds, int perRound) throws Exception {
        ClusterSecret secret = ClusterSecret.random();
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), TransportRoundTrip.class.getName(), "--echo-server");
        builder.environment().put(ClusterSecret.ENV, secret.value());
        builder.redirectError(ProcessBuilder.Redirect.INHERIT);
        Process server = builder.start();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(server.getInputStream()))) {
            String[] addresses = lines.readLine().split(" ");
            int rawPort = Integer.parseInt(addresses[0]);
            String transportAddress = addresses[1];
            String zmqAddress = addresses[2];
            try (SocketChannel raw = SocketChannel.open(new InetSocketAddress("127.0.0.1", rawPort));
                 Endpoint endpoint = Endpoint.open(TransportConfig.loopback(secret));
                 Endpoint encrypting = Endpoint.open(TransportConfig.loopback(secret).withEncryption(true));
                 ZContext zmq = new ZContext(1)) {
                ZMQ.Socket dealer = zmq.createSocket(SocketType.DEALER);
                dealer.connect(zmqAddress);
                byte[] zmqMessage = new byte[payload];
                Runnable zmqTrip = () -> {
                    dealer.send(zmqMessage, 0);
                    dealer.recv(0);
                };
                raw.setOption(StandardSocketOptions.TCP_NODELAY, true);
                RawClient rawClient = new RawClient(raw, payload);
                BytesValue message = BytesValue.of(ByteString.copyFrom(new byte[payload]));
                Runnable rawTrip = rawClient::roundTrip;
                Runnable transportTrip = () -> endpoint.call(transportAddress, ECHO, message, BytesValue.parser());
                Runnable encryptedTrip = () -> encrypting.call(transportAddress, ECHO, message, BytesValue.parser());
                BytesValue bulk = BytesValue.of(ByteString.copyFrom(new byte[BULK_BYTES]));
                Runnable plainBulk = () -> bulk(endpoint, transportAddress, bulk);
                Runnable encryptedBulk = () -> bulk(encrypting, transportAddress, bulk);

                System.out.printf("transport round trip, %d-byte payload, %d rounds of %d, JVMs on loopback (%s)%n",
                        payload, rounds, perRound, System.getProperty("java.vm.version"));
                // What a run's first large messages pay: the first 64 MiB each endpoint sends, before
                // anything else, while the cipher's code runs interpreted. The clear endpoint goes
                // first, so that the transport's own cold code counts against it, not against encryption.
                double freshPlainMillis = time(plainBulk, 1) / 1_000;
                double freshEncryptedMillis = time(encryptedBulk, 1) / 1_000;
                time(rawTrip, perRound);
                time(transportTrip, perRound);
                time(zmqTrip, perRound);
                time(encryptedTrip, perRound);
                double[] encryptedMicros = new double[rounds];
                double[] plainBulkMbps = new double[rounds];
                double[] encryptedBulkMbps = new double[rounds];
                double[] rawMicros = new double[rounds];
                double[] transportMicros = new double[rounds];
                double[] zmqMicros = new double[rounds];
                for (int r = 0; r < rounds; r++) {
                    rawMicros[r] = time(rawTrip, perRound);
                    transportMicros[r] = time(transportTrip, perRound);
                    zmqMicros[r] = time(zmqTrip, perRound);
                    encryptedMicros[r] = time(encryptedTrip, perRound);
                    System.out.printf("  round %d: raw socket %.1f us, dist transport %.1f us (encrypted %.1f us), "
                            + "jeromq %.1f us%n", r + 1, rawMicros[r], transportMicros[r], encryptedMicros[r], zmqMicros[r]);
                }
                // Bandwidth after the round trips, so that its garbage does not disturb them. The cipher
                // runs interpreted until the JIT compiles its intrinsics: hence a long warm-up.
                time(plainBulk, 8);
                time(encryptedBulk, 8);
                CpuMeter plainCpu = new CpuMeter(server);
                CpuMeter encryptedCpu = new CpuMeter(server);
                for (int r = 0; r < rounds; r++) {
                    plainBulkMbps[r] = megabytesPerSecond(plainCpu.during(() -> time(plainBulk, 4)));
                    encryptedBulkMbps[r] = megabytesPerSecond(encryptedCpu.during(() -> time(encryptedBulk, 4)));
                    System.out.printf("  round %d: bandwidth %.0f MB/s in clear, %.0f MB/s encrypted%n", r + 1,
                            plainBulkMbps[r], encryptedBulkMbps[r]);
                }
                double rawMedian = median(rawMicros);
                double transportMedian = median(transportMicros);
                double zmqMedian = median(zmqMicros);
                System.out.printf("raw NIO socket round trip (median): %.1f us%n", rawMedian);
                System.out.printf("dist transport round trip (median): %.1f us%n", transportMedian);
                System.out.printf("jeromq dealer/router round trip (median): %.1f us%n", zmqMedian);
                System.out.printf("ratio transport/raw: %.2fx (target <= 1.5x)%n", transportMedian / rawMedian);
                System.out.printf("ratio jeromq/raw: %.2fx%n", zmqMedian / rawMedian);
                double encryptedMedian = median(encryptedMicros);
                double plainBandwidth = median(plainBulkMbps);
                double encryptedBandwidth = median(encryptedBulkMbps);
                System.out.printf("encryption, side by side (medians):%n");
                System.out.printf("  round trip: %.1f us in clear, %.1f us encrypted: %.2fx (target <= 1.15x)%n",
                        transportMedian, encryptedMedian, encryptedMedian / transportMedian);
                System.out.printf("  bandwidth, %d x 1 MiB one way: %.0f MB/s in clear, %.0f MB/s encrypted: %.0f%% "
                        + "(target >= 80%%)%n", BULK_MESSAGES, plainBandwidth, encryptedBandwidth,
                        100 * encryptedBandwidth / plainBandwidth);
                System.out.printf("  the first %d MiB in fresh JVMs (connections opened included): %.0f ms in clear, "
                        + "%.0f ms encrypted: %.2fx%n", BULK_MESSAGES * BULK_BYTES >> 20, freshPlainMillis,
                        freshEncryptedMillis, freshEncryptedMillis / freshPlainMillis);
                double megabytes = (double) rounds * 4 * BULK_MESSAGES * BULK_BYTES / 1e6;
                double plainCpuPerMegabyte = plainCpu.millis() / megabytes;
                double encryptedCpuPerMegabyte = encryptedCpu.millis() / megabytes;
                int cores = Runtime.getRuntime().availableProcessors();
                double encryptedCeiling = cores * 1000 / encryptedCpuPerMegabyte;
                System.out.printf("  CPU time of both ends per MB: %.3f ms in clear, %.3f ms encrypted (+%.3f ms for sealing "
                        + "and opening); with both ends sharing this machine's %d cores, encrypted bandwidth cannot "
                        + "exceed %.0f MB/s, %.0f%% of clear%n", plainCpuPerMegabyte, encryptedCpuPerMegabyte,
                        encryptedCpuPerMegabyte - plainCpuPerMegabyte, cores, encryptedCeiling,
                        100 * encryptedCeiling / plainBandwidth);
            }
        } finally {
            server.destroy();
            server.waitFor();
        }
    }

    /** CPU time spent by this JVM and the echo server while measured work runs. */
    private static final class CpuMeter {
        private final ProcessHandle server;
        private long nanos;

        CpuMeter(Process server) {
            this.server = server.toHandle();
        }

        /** Runs {@code work}, adding both processes' CPU time meanwhile; returns what the work returned. */
        double during(DoubleSupplier work) {
            long before = total();
            double result = work.getAsDouble();
            nanos += total() - before;
            return result;
        }

        double millis() {
            return nanos / 1e6;
        }

        private long total() {
            return cpuNanos(ProcessHandle.current()) + cpuNanos(server);
        }

        private static long cpuNanos(ProcessHandle process) {
            return process.info().totalCpuDuration().orElseThrow(
                    () -> new IllegalStateException("the CPU time of process " + process.pid() + " is not available")).toNanos();
        }
    }

    /** Sends {@link #BULK_MESSAGES} one way, then a request: its reply comes after all of them were handled. */
    private static void bulk(Endpoint endpoint, String peer, BytesValue message) {
        for (int i = 0; i < BULK_MESSAGES; i++) {
            endpoint.send(peer, SINK, message);
        }
        endpoint.call(peer, ECHO, BytesValue.getDefaultInstance(), BytesValue.parser());
    }

    /** The bandwidth of {@link #bulk} taking {@code micros}. */
    private static double megabytesPerSecond(double micros) {
        return (double) BULK_MESSAGES * BULK_BYTES / micros;
    }

    /** Mean microseconds per round trip over {@code count} trips. */
    private static double time(Runnable trip, int count) {
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            trip.run();
        }
        return (System.nanoTime() - start) / 1_000.0 / count;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /** A blocking length-prefixed echo client: the floor a transport on this machine can reach. */
    private static final class RawClient {
        private final SocketChannel channel;
        private final ByteBuffer out;
        private final ByteBuffer in;

        RawClient(SocketChannel channel, int payload) {
            this.channel = channel;
            this.out = ByteBuffer.allocateDirect(4 + payload);
            this.in = ByteBuffer.allocateDirect(4 + payload);
        }

        void roundTrip() {
            try {
                out.clear();
                out.putInt(out.capacity() - 4);
                out.position(out.capacity());
                out.flip();
                while (out.hasRemaining()) {
                    channel.write(out);
                }
                in.clear();
                while (in.hasRemaining()) {
                    if (channel.read(in) < 0) {
                        throw new IOException("echo server closed the connection");
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static void echoServer() throws IOException, InterruptedException {
        ClusterSecret secret = ClusterSecret.fromEnvironment();
        Endpoint endpoint = Endpoint.open(TransportConfig.loopback(secret));
        endpoint.registerImmediate(ECHO, message -> message.decode(BytesValue.parser()));
        endpoint.registerRaw(SINK, message -> CompletableFuture.completedFuture(null));
        ZContext zmq = new ZContext(1);
        ZMQ.Socket router = zmq.createSocket(SocketType.ROUTER);
        int zmqPort = router.bindToRandomPort("tcp://127.0.0.1");
        DaemonThreads.start("jeromq-echo", () -> {
            while (true) {
                byte[] identity = router.recv(0);
                byte[] message = router.recv(0);
                router.send(identity, ZMQ.SNDMORE);
                router.send(message, 0);
            }
        });
        ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        System.out.println(((InetSocketAddress) listener.getLocalAddress()).getPort() + " " + endpoint.address()
                + " tcp://127.0.0.1:" + zmqPort);
        System.out.flush();
        try (SocketChannel channel = listener.accept()) {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ByteBuffer header = ByteBuffer.allocateDirect(4);
            ByteBuffer body = ByteBuffer.allocateDirect(1 << 20);
            ByteBuffer[] reply = {header, body};
            while (true) {
                header.clear();
                if (!readFully(channel, header)) {
                    break;
                }
                header.flip();
                body.clear().limit(header.getInt());
                if (!readFully(channel, body)) {
                    break;
                }
                header.flip();
                body.flip();
                while (body.hasRemaining()) {
                    channel.write(reply);
                }
            }
        }
        endpoint.close();
        System.exit(0);
    }

    private static boolean readFully(SocketChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                return false;
            }
        }
        return true;
    }
}
