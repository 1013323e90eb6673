package dev.distvm.perf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Network namespaces that stand for hosts: each has loopback up and one address, 10.201.0.(i+1),
 * on a bridge that lives in a namespace of its own, so the machine's own network is not touched
 * (and two sets of hosts, each on its own bridge, do not see each other). Names carry a prefix and
 * this JVM's pid, so a run that crashed before {@link #close()} does not collide with the next,
 * which removes what such runs left behind.
 */
public final class EmulatedHosts implements AutoCloseable {
    private final String prefix;
    private final Pattern ours;
    private final long pid = ProcessHandle.current().pid();
    private final String bridge;
    private final List<String> hosts = new ArrayList<>();

    private EmulatedHosts(String prefix) {
        this.prefix = prefix;
        this.ours = Pattern.compile(prefix + "(\\d+)-\\w+");
        this.bridge = prefix + pid + "-br";
    }

    /**
     * Creates {@code count} hosts on one bridge, named with {@code prefix} (a few letters).
     *
     * @throws IllegalStateException naming what is missing when this is not root or {@code ip netns} does not work
     */
    public static EmulatedHosts create(String prefix, int count) throws IOException, InterruptedException {
        requireRootAndIp();
        EmulatedHosts namespaces = new EmulatedHosts(prefix);
        namespaces.removeLeftoversOfDeadRuns();
        try {
            ip("netns", "add", namespaces.bridge);
            ip("-n", namespaces.bridge, "link", "add", "br0", "type", "bridge");
            ip("-n", namespaces.bridge, "link", "set", "br0", "up");
            for (int i = 0; i < count; i++) {
                namespaces.addHost(i);
            }
            return namespaces;
        } catch (IOException | InterruptedException | RuntimeException e) {
            namespaces.close();
            throw e;
        }
    }

    private void addHost(int i) throws IOException, InterruptedException {
        String host = prefix + pid + "-h" + i;
        ip("netns", "add", host);
        hosts.add(host);
        String port = "v" + pid + "h" + i;
        ip("link", "add", port, "netns", bridge, "type", "veth", "peer", "name", "eth0", "netns", host);
        ip("-n", bridge, "link", "set", port, "master", "br0");
        ip("-n", bridge, "link", "set", port, "up");
        ip("-n", host, "addr", "add", address(i) + "/24", "dev", "eth0");
        ip("-n", host, "link", "set", "eth0", "up");
        ip("-n", host, "link", "set", "lo", "up");
    }

    /** The address of host {@code i} on the bridge. */
    public String address(int i) {
        return "10.201.0." + (i + 1);
    }

    /** {@code command} to run on host {@code i}. */
    public List<String> on(int i, List<String> command) {
        List<String> inHost = new ArrayList<>(List.of("ip", "netns", "exec", hosts.get(i)));
        inHost.addAll(command);
        return inHost;
    }

    /** The processes that run on host {@code i} (in its network namespace). */
    public List<Long> pids(int i) throws IOException, InterruptedException {
        return output("ip", "netns", "pids", hosts.get(i)).lines().map(String::strip).filter(line -> !line.isEmpty())
                .map(Long::parseLong).toList();
    }

    /** Deletes the namespaces (their veth pairs go with them); the processes in them must be stopped first. */
    @Override
    public void close() {
        List<String> all = new ArrayList<>(hosts);
        all.add(bridge);
        for (String namespace : all) {
            try {
                runQuietly("ip", "netns", "del", namespace);
            } catch (IOException | InterruptedException e) {
                // the next run removes what is left, as a leftover of a dead pid
            }
        }
    }

    private static void requireRootAndIp() throws IOException, InterruptedException {
        String uid = output("id", "-u").strip();
        if (!uid.equals("0")) {
            throw new IllegalStateException("emulated hosts need root (uid 0, as in CI) to create network namespaces;"
                    + " this runs as uid " + uid);
        }
        try {
            output("ip", "netns", "list");
        } catch (IOException e) {
            throw new IllegalStateException("emulated hosts need `ip netns` (Debian: apt-get install iproute2): "
                    + e.getMessage(), e);
        }
    }

    private void removeLeftoversOfDeadRuns() throws IOException, InterruptedException {
        for (String line : output("ip", "netns", "list").split("\n")) {
            Matcher leftover = ours.matcher(line);
            if (leftover.lookingAt() && ProcessHandle.of(Long.parseLong(leftover.group(1))).isEmpty()) {
                runQuietly("ip", "netns", "del", leftover.group());
            }
        }
    }

    private static void ip(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(arguments));
        output(command.toArray(String[]::new));
    }

    private static void runQuietly(String... command) throws IOException, InterruptedException {
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start().waitFor(30, TimeUnit.SECONDS);
    }

    /** Runs {@code command} and returns its output; fails naming the command and its output unless it exits 0. */
    private static String output(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IOException("`" + String.join(" ", command) + "` failed: " + output.strip());
        }
        return output;
    }
}
