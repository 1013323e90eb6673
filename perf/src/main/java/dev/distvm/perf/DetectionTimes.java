package dev.distvm.perf;

import dev.distvm.coordinator.proto.MembershipType;
import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.coordinator.proto.NodeState;
import dev.distvm.coordinator.proto.NodeTable;
import dev.distvm.coordinator.proto.StatusRequest;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.TransportConfig;
import dev.distvm.transport.TransportException;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * How long a standalone coordinator takes to declare a worker dead: one killed with SIGKILL (found
 * by evidence: its process is gone) and one stopped with SIGSTOP and left stopped (silence like a
 * lost host's: only the failure timeout ends it). Times run from the signal to the first status
 * that shows the worker DEAD, polled every 20 ms.
 */
public final class DetectionTimes {
    private static final String USAGE = """
            usage: ./dist perf detection [--rounds 3] [--failure-timeout MS]
              Starts a coordinator (default failure timeout unless given) and workers from build/dist.jar,
              kills one worker and stops another per round, and prints how long each took to be declared dead.""";
    private static final Duration POLL = Duration.ofMillis(20);

    private final Path distJar;
    private final ClusterSecret secret = ClusterSecret.random();
    private final List<String> coordinatorOptions;
    private final List<Process> started = new ArrayList<>();

    private DetectionTimes(Path distJar, List<String> coordinatorOptions) {
        this.distJar = distJar;
        this.coordinatorOptions = coordinatorOptions;
    }

    public static void main(String[] args) throws Exception {
        BenchmarkOptions options = BenchmarkOptions.parse(args, USAGE, Set.of("--rounds", "--failure-timeout", "--build"),
                Set.of(), false);
        int rounds = options.count("--rounds", 3);
        List<String> coordinatorOptions = options.value("--failure-timeout", null) == null ? List.of()
                : List.of("--failure-timeout", String.valueOf(options.count("--failure-timeout", 30_000)));
        DetectionTimes benchmark = new DetectionTimes(Path.of(options.value("--build", "build")).resolve("dist.jar"),
                coordinatorOptions);
        try {
            benchmark.run(rounds);
        } finally {
            benchmark.started.forEach(Process::destroyForcibly);
        }
    }

    private void run(int rounds) throws Exception {
        String address = "tcp://127.0.0.1:" + freePort();
        List<String> command = new ArrayList<>(List.of(java(), "-jar", distJar.toString(), "coordinator", "--bind", address));
        command.addAll(coordinatorOptions);
        start(command);
        System.out.println("coordinator " + address + " " + String.join(" ", coordinatorOptions));
        System.out.println("| round | SIGKILL: declared dead after | SIGSTOP (left stopped): declared dead after |");
        System.out.println("| --- | --- | --- |");
        try (Endpoint client = Endpoint.open(TransportConfig.loopback(secret))) {
            for (int round = 1; round <= rounds; round++) {
                Process killed = worker(client, address);
                Process stopped = worker(client, address);
                long killMillis = timeToDeath(client, address, killed, "KILL");
                long stopMillis = timeToDeath(client, address, stopped, "STOP");
                stopped.destroyForcibly();
                System.out.println("| " + round + " | " + killMillis + " ms | " + stopMillis + " ms |");
            }
        }
    }

    private Process worker(Endpoint client, String address) throws Exception {
        Process worker = start(List.of(java(), "-javaagent:" + distJar + "=role=worker,join=" + address,
                "-cp", distJar.toString(), "dev.distvm.agent.WorkerMain"));
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (stateOnceListening(client, address, worker.pid()).filter(s -> s == NodeState.ALIVE).isEmpty()) {
            if (System.nanoTime() > deadline || !worker.isAlive()) {
                throw new IllegalStateException("worker " + worker.pid() + " did not join " + address);
            }
            Thread.sleep(POLL.toMillis());
        }
        return worker;
    }

    private long timeToDeath(Endpoint client, String address, Process worker, String signal) throws Exception {
        long sent = System.nanoTime();
        if (new ProcessBuilder("kill", "-" + signal, String.valueOf(worker.pid())).inheritIO().start().waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + worker.pid() + " failed");
        }
        long deadline = sent + Duration.ofMinutes(15).toNanos();
        while (state(client, address, worker.pid()).filter(s -> s == NodeState.DEAD).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("worker " + worker.pid() + " not declared dead within 15 minutes");
            }
            Thread.sleep(POLL.toMillis());
        }
        return (System.nanoTime() - sent) / 1_000_000;
    }

    /** The state, or empty while the coordinator, just started, does not listen yet. */
    private static Optional<NodeState> stateOnceListening(Endpoint client, String address, long pid) {
        try {
            return state(client, address, pid);
        } catch (TransportException e) {
            return Optional.empty();
        }
    }

    private static Optional<NodeState> state(Endpoint client, String address, long pid) {
        NodeTable table = client.call(address, MembershipType.STATUS_VALUE, StatusRequest.getDefaultInstance(),
                NodeTable.parser(), Duration.ofSeconds(10));
        return table.getNodesList().stream().filter(n -> n.getPid() == pid).map(NodeInfo::getState).findFirst();
    }

    private Process start(List<String> command) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put(ClusterSecret.ENV, secret.value());
        Process process = builder.start();
        started.add(process);
        return process;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
