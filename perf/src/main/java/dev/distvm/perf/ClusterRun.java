package dev.distvm.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of a program on an emulated cluster of {@code nodes} nodes, started only with
 * {@code ./dist} commands as on real hosts: a coordinator on host 0 (outside the quotas: it is not on
 * any object's path), then a worker per further node, each in its own CPU quota, and when the
 * coordinator lists them all alive, the home on host 0 in its quota. Encrypted, every node is a host
 * of its own and every link leaves loopback (so it is encrypted, the transport's rule); in clear, the
 * nodes share host 0 and talk over its loopback, each still in its own quota.
 */
final class ClusterRun {
    /** The documented kernel-time convention (samples.KernelTime): the last such line on standard error counts. */
    static final Pattern KERNEL_TIME = Pattern.compile("(?m)^kernel time: ([0-9.]+) ms$");
    /** A node of the run report and the threads it ran. */
    private static final Pattern NODE_THREADS = Pattern.compile("\"role\": \"\\w+\",\\s*\"threads\": \\[([^\\]]*)\\]");
    private static final Pattern ALIVE_WORKER = Pattern.compile("(?m)^\\d+\\s+worker\\s+alive\\s+\\d+\\s");
    private static final Duration CLUSTER_READY = Duration.ofSeconds(120);
    private static final int COORDINATOR_PORT = 7000;

    /** What one run gave: its output, times, and why it failed if it did. */
    record Result(List<String> stdout, OptionalDouble kernelMillis, double wholeMillis, int nodesWithThreads, String failure) {}

    private final Path dist;
    private final EmulatedHosts hosts;
    private final CpuQuotas quotas;
    private final Path scratch;
    private final Map<String, String> environment;

    ClusterRun(Path dist, EmulatedHosts hosts, CpuQuotas quotas, Path scratch, Map<String, String> environment) {
        this.dist = dist;
        this.hosts = hosts;
        this.quotas = quotas;
        this.scratch = scratch;
        this.environment = environment;
    }

    Result run(int nodes, boolean encrypted, List<String> program, Duration timeout) throws IOException, InterruptedException {
        String coordinator = "tcp://" + address(0, encrypted) + ":" + COORDINATOR_PORT;
        List<Process> started = new ArrayList<>();
        try {
            started.add(start(0, null, "coordinator", List.of("coordinator", "--bind", coordinator)));
            // A worker that finds no coordinator listening gives up: on a busy machine the coordinator may take seconds.
            String noCoordinator = awaitWorkers(coordinator, 0, started);
            if (noCoordinator != null) {
                return new Result(List.of(), OptionalDouble.empty(), 0, 0, noCoordinator);
            }
            for (int node = 1; node < nodes; node++) {
                started.add(start(encrypted ? node : 0, node, "worker-" + node, List.of("worker", "--join", coordinator,
                        "--bind", "tcp://" + address(node, encrypted))));
            }
            String notReady = awaitWorkers(coordinator, nodes - 1, started);
            if (notReady != null) {
                return new Result(List.of(), OptionalDouble.empty(), 0, 0, notReady);
            }
            Path report = scratch.resolve("report.json");
            Files.deleteIfExists(report);
            List<String> run = new ArrayList<>(List.of("run", "--join", coordinator, "--bind", "tcp://" + address(0, encrypted),
                    "--report", report.toString(), "--"));
            run.addAll(program);
            long begin = System.nanoTime();
            Process home = start(0, 0, "home", run);
            started.add(home);
            boolean ended = home.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            double whole = (System.nanoTime() - begin) / 1e6;
            String stderr = Files.readString(log("home", "err"));
            List<String> stdout = Files.readAllLines(log("home", "out"));
            if (!ended) {
                return new Result(stdout, OptionalDouble.empty(), whole, 0, "did not end within " + timeout.toSeconds() + " s");
            }
            if (home.exitValue() != 0) {
                return new Result(stdout, OptionalDouble.empty(), whole, 0, "exit status " + home.exitValue() + ": "
                        + lastLines(stderr, 3));
            }
            return new Result(stdout, kernelMillis(stderr), whole, nodesWithThreads(report), null);
        } finally {
            stopAll(started);
        }
    }

    private String address(int node, boolean encrypted) {
        return encrypted ? hosts.address(node) : "127.0.0.1";
    }

    /** {@code ./dist ARGS} on {@code host}, in {@code node}'s quota (none if null), its output into files named {@code name}. */
    private Process start(int host, Integer node, String name, List<String> arguments) throws IOException {
        List<String> command = new ArrayList<>(List.of(dist.toString()));
        command.addAll(arguments);
        // The quota outside: `ip netns exec` mounts a sysfs of the namespace's own, without the cgroups.
        List<String> onHost = hosts.on(host, command);
        ProcessBuilder builder = new ProcessBuilder(node == null ? onHost : quotas.confine(node, onHost))
                .redirectOutput(log(name, "out").toFile()).redirectError(log(name, "err").toFile());
        builder.environment().putAll(environment);
        return builder.start();
    }

    private Path log(String name, String stream) {
        return scratch.resolve(name + "." + stream);
    }

    /** Waits until the coordinator answers and lists {@code count} workers alive; returns why not, or null. */
    private String awaitWorkers(String coordinator, int count, List<Process> started) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + CLUSTER_READY.toNanos();
        while (System.nanoTime() < deadline) {
            for (int node = 0; node < started.size(); node++) {
                if (!started.get(node).isAlive()) {
                    String name = node == 0 ? "coordinator" : "worker-" + node;
                    return "the " + name + " exited with status " + started.get(node).exitValue()
                            + " before the cluster was ready: " + lastLines(Files.readString(log(name, "err")), 3);
                }
            }
            Process status = start(0, null, "status", List.of("status", "--coordinator", coordinator));
            if (!status.waitFor(60, TimeUnit.SECONDS)) {
                status.destroyForcibly().waitFor();
            } else if (status.exitValue() == 0) {
                Matcher alive = ALIVE_WORKER.matcher(Files.readString(log("status", "out")));
                int found = 0;
                while (alive.find()) {
                    found++;
                }
                if (found == count) {
                    return null;
                }
            }
            Thread.sleep(300);
        }
        return "the coordinator did not list " + count + " workers alive within " + CLUSTER_READY.toSeconds() + " s";
    }

    /** The nodes that ran at least one of the program's threads (main aside), from the run report. */
    private static int nodesWithThreads(Path report) throws IOException {
        Matcher node = NODE_THREADS.matcher(Files.exists(report) ? Files.readString(report) : "");
        int count = 0;
        while (node.find()) {
            if (node.group(1).contains("\"kind\": \"placed\"") || node.group(1).contains("\"kind\": \"started\"")) {
                count++;
            }
        }
        return count;
    }

    static OptionalDouble kernelMillis(String stderr) {
        Matcher line = KERNEL_TIME.matcher(stderr);
        OptionalDouble last = OptionalDouble.empty();
        while (line.find()) {
            last = OptionalDouble.of(Double.parseDouble(line.group(1)));
        }
        return last;
    }

    private static String lastLines(String text, int count) {
        List<String> lines = text.lines().toList();
        return String.join(" | ", lines.subList(Math.max(0, lines.size() - count), lines.size()));
    }

    /**
     * Workers end with their home, which has ended or timed out: they get ten seconds to do so. Then
     * whatever still runs (the coordinator, a stuck node) is stopped, JVMs first.
     */
    private static void stopAll(List<Process> started) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (Process node : started.subList(1, started.size())) {
            node.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        for (Process process : started) {
            process.descendants().forEach(ProcessHandle::destroy);
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor();
            }
        }
    }
}
