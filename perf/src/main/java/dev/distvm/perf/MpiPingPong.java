package dev.distvm.perf;

import dev.distvm.mpi.launch.MpiRun;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mpibench.PingPongRanks;

/**
 * MPI ping-pong between two processes on loopback, measured side by side in one run: dist MPI
 * ({@code mpirun -np 2}, ranks as JVMs; and {@code --threads}, ranks as threads of one JVM), a raw blocking NIO socket ping-pong between two JVMs (the
 * floor: from a {@code byte[]} as the MPI program holds its data, and from native memory), and
 * Open MPI's C ping-pong over TCP when its binary is given. Latency is the mean round
 * trip of a 1-byte message (one way is half of it); bandwidth is 2 x 1 MiB per round trip. Every side times its round trips
 * after as many untimed ones, and dist's ranks after as many rounds of them as it takes their JVMs
 * to stop compiling (steady state: dist's longer code path keeps the compilers busy for seconds on
 * a slow machine, taking a core from the ranks; the raw loop is compiled within a few trips).
 *
 * <p>usage: MpiPingPong [--repeats 3] [--openmpi PATH_TO_COMPILED_PINGPONG]
 */
public final class MpiPingPong {
    public static final int SMALL = 1;
    public static final int LARGE = 1 << 20;
    public static final int SMALL_TRIPS = 20_000;
    public static final int LARGE_TRIPS = 1000;
    private static final Pattern RESULT = Pattern.compile("latency_us ([0-9.]+) bandwidth_MBps ([0-9.]+)");

    private MpiPingPong() {}

    record Result(double latencyMicros, double bandwidthMBps) {}

    public static void main(String[] args) throws Exception {
        int repeats = 3;
        String openMpi = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--repeats" -> repeats = Integer.parseInt(args[++i]);
                case "--openmpi" -> openMpi = args[++i];
                case "--raw-server" -> {
                    rawServer(Boolean.parseBoolean(args[++i]));
                    return;
                }
                case "-h", "--help" -> {
                    System.out.println("usage: MpiPingPong [--repeats N] [--openmpi PATH_TO_COMPILED_PINGPONG]");
                    return;
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (try --help)");
            }
        }
        List<Result> raw = new ArrayList<>();
        List<Result> rawDirect = new ArrayList<>();
        List<Result> dist = new ArrayList<>();
        List<Result> threads = new ArrayList<>();
        List<Result> open = new ArrayList<>();
        List<Result> openShared = new ArrayList<>();
        for (int r = 0; r < repeats; r++) {
            raw.add(raw(false));
            rawDirect.add(raw(true));
            dist.add(distMpi());
            threads.add(distThreads());
            if (openMpi != null) {
                open.add(openMpi(openMpi, "tcp,self", "--mca", "btl_tcp_if_include", "lo"));
                openShared.add(openMpi(openMpi, "vader,self"));
            }
            System.out.printf("repeat %d: raw byte[] %s, raw direct %s, dist %s, dist threads %s%s%n", r + 1, raw.get(r),
                    rawDirect.get(r), dist.get(r), threads.get(r),
                    openMpi == null ? "" : ", open mpi " + open.get(r) + ", open mpi shared memory " + openShared.get(r));
        }
        Result rawMedian = median(raw);
        Result distMedian = median(dist);
        System.out.printf("%-28s %14s %16s%n", "(medians)", "round trip 1 B", "bandwidth 1 MiB");
        Result directMedian = median(rawDirect);
        print("raw NIO socket, byte[]", rawMedian);
        print("raw NIO socket, direct", directMedian);
        print("dist MPI", distMedian);
        Result threadsMedian = median(threads);
        print("dist MPI, threads", threadsMedian);
        System.out.printf("dist/raw(byte[]) latency: %.2fx (target <= 1.0x); bandwidth: %.0f%% (target >= 90%%)%n",
                distMedian.latencyMicros() / rawMedian.latencyMicros(),
                100 * distMedian.bandwidthMBps() / rawMedian.bandwidthMBps());
        System.out.printf("dist/raw(direct) latency: %.2fx; bandwidth: %.0f%%%n",
                distMedian.latencyMicros() / directMedian.latencyMicros(),
                100 * distMedian.bandwidthMBps() / directMedian.bandwidthMBps());
        System.out.printf("dist threads: %.2f us one way (target <= 2 us), %.0f MB/s (target >= 5000 MB/s);"
                        + " %.3fx the raw byte[] socket's round trip%n", threadsMedian.latencyMicros() / 2,
                threadsMedian.bandwidthMBps(), threadsMedian.latencyMicros() / rawMedian.latencyMicros());
        if (openMpi != null) {
            Result openMedian = median(open);
            print("Open MPI (C, TCP)", openMedian);
            System.out.printf("dist/Open MPI latency: %.2fx; dist/Open MPI bandwidth: %.0f%%%n",
                    distMedian.latencyMicros() / openMedian.latencyMicros(),
                    100 * distMedian.bandwidthMBps() / openMedian.bandwidthMBps());
            Result sharedMedian = median(openShared);
            print("Open MPI (C, shared memory)", sharedMedian);
            System.out.printf("dist threads/Open MPI shared memory latency: %.2fx; bandwidth: %.0f%%%n",
                    threadsMedian.latencyMicros() / sharedMedian.latencyMicros(),
                    100 * threadsMedian.bandwidthMBps() / sharedMedian.bandwidthMBps());
        } else {
            System.out.println("Open MPI: not measured (give --openmpi, see perf/mpi-pingpong.sh)");
        }
    }

    private static void print(String name, Result result) {
        System.out.printf("%-28s %11.1f us %11.0f MB/s%n", name, result.latencyMicros(), result.bandwidthMBps());
    }

    private static Result median(List<Result> results) {
        double[] latency = results.stream().mapToDouble(Result::latencyMicros).sorted().toArray();
        double[] bandwidth = results.stream().mapToDouble(Result::bandwidthMBps).sorted().toArray();
        return new Result(latency[latency.length / 2], bandwidth[bandwidth.length / 2]);
    }

    // ---- dist MPI -----------------------------------------------------------------------------

    private static Result distMpi() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = MpiRun.run(new String[] {"-np", "2", "--", "-cp", System.getProperty("java.class.path"),
                PingPongRanks.class.getName()}, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        return parsed("dist MPI ping-pong", exit, out.toString(StandardCharsets.UTF_8));
    }

    /** The same ranks as threads of one JVM ({@code mpirun --threads}), in a JVM of their own as a user would run them. */
    private static Result distThreads() throws IOException, InterruptedException {
        String classPath = System.getProperty("java.class.path");
        return ofProcess("dist MPI ping-pong in threads mode", new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classPath,
                MpiRun.class.getName(), "-np", "2", "--threads", "--", "-cp", classPath, PingPongRanks.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT));
    }

    /** The result line that {@code builder}'s process prints on its output. */
    private static Result ofProcess(String what, ProcessBuilder builder) throws IOException, InterruptedException {
        Process run = builder.start();
        String text = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return parsed(what, run.waitFor(), text);
    }

    private static Result parsed(String what, int exit, String text) {
        Matcher m = RESULT.matcher(text);
        if (exit != 0 || !m.find()) {
            throw new IllegalStateException(what + " failed (exit " + exit + "): " + text);
        }
        return new Result(Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)));
    }

    // ---- Open MPI -----------------------------------------------------------------------------

    /** Open MPI's C ping-pong, its two ranks talking through the byte transfer layers {@code btl} (TCP or shared memory). */
    private static Result openMpi(String binary, String btl, String... options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "2",
                "--mca", "btl", btl));
        command.addAll(List.of(options));
        command.addAll(List.of(binary, String.valueOf(SMALL_TRIPS), String.valueOf(LARGE_TRIPS)));
        return ofProcess("Open MPI ping-pong (" + btl + ")", new ProcessBuilder(command).redirectErrorStream(true));
    }

    // ---- raw socket ---------------------------------------------------------------------------

    /**
     * A raw blocking ping-pong. {@code direct}: from native memory on both sides, the floor of the
     * socket itself; otherwise from a {@code byte[]} on both sides, as two Java programs holding their
     * data in arrays (like MPI buffers) would send it over a plain socket: the JDK copies it to native
     * memory and back.
     */
    static Result raw(boolean direct) throws IOException, InterruptedException {
        return raw(direct, List.of());
    }

    /** The same, the echo server's JVM started through {@code launcher} (e.g. {@code taskset -c 1}). */
    static Result raw(boolean direct, List<String> launcher) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), MpiPingPong.class.getName(), "--raw-server",
                String.valueOf(direct)));
        Process server = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(server.getInputStream()))) {
            int port = Integer.parseInt(lines.readLine().trim());
            try (SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port))) {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ByteBuffer buffer = direct ? ByteBuffer.allocateDirect(LARGE) : ByteBuffer.wrap(new byte[LARGE]);
                bounce(channel, buffer, SMALL, SMALL_TRIPS);
                double latency = bounce(channel, buffer, SMALL, SMALL_TRIPS);
                bounce(channel, buffer, LARGE, LARGE_TRIPS);
                double large = bounce(channel, buffer, LARGE, LARGE_TRIPS);
                return new Result(latency * 1e6, 2.0 * LARGE / large / 1e6);
            }
        } finally {
            server.destroy();
            server.waitFor();
        }
    }

    /** Mean seconds per round trip of {@code size} bytes each way. */
    private static double bounce(SocketChannel channel, ByteBuffer buffer, int size, int trips) throws IOException {
        long start = System.nanoTime();
        for (int i = 0; i < trips; i++) {
            buffer.clear().limit(size);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            buffer.clear().limit(size);
            while (buffer.hasRemaining()) {
                if (channel.read(buffer) < 0) {
                    throw new IOException("raw ping-pong server closed the connection");
                }
            }
        }
        return (System.nanoTime() - start) / 1e9 / trips;
    }

    /**
     * Echoes whatever arrives, in the sizes the client uses (it knows them: small, then large), from
     * the same kind of buffer as the client's.
     */
    private static void rawServer(boolean direct) throws IOException {
        try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            System.out.println(((InetSocketAddress) listener.getLocalAddress()).getPort());
            System.out.flush();
            try (SocketChannel channel = listener.accept()) {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ByteBuffer buffer = direct ? ByteBuffer.allocateDirect(LARGE) : ByteBuffer.wrap(new byte[LARGE]);
                int[] sizes = {SMALL, SMALL, LARGE, LARGE};
                int[] trips = {SMALL_TRIPS, SMALL_TRIPS, LARGE_TRIPS, LARGE_TRIPS};
                for (int phase = 0; phase < sizes.length; phase++) {
                    for (int i = 0; i < trips[phase]; i++) {
                        buffer.clear().limit(sizes[phase]);
                        while (buffer.hasRemaining()) {
                            if (channel.read(buffer) < 0) {
                                return;
                            }
                        }
                        buffer.flip();
                        while (buffer.hasRemaining()) {
                            channel.write(buffer);
                        }
                    }
                }
            }
        }
    }
}
