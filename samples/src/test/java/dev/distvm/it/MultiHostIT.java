package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.transport.ClusterSecret;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster over three hosts, each a network namespace with its own address on a bridge, started
 * only with {@code ./dist} commands as a user would: a coordinator on host 0, a worker on each of
 * hosts 1 and 2, and the home of a run on host 0. Every link between hosts is off loopback, so
 * every connection is encrypted (the transport's default there). Needs root and {@code ip netns};
 * without them it fails saying so.
 */
class MultiHostIT {
    private static final Path SAMPLES = DistOnHosts.SAMPLES;
    private static final List<String> PI = List.of("samples.pi.Pi", "4", "2000000");
    private static final Duration START = Duration.ofSeconds(90);

    private static final Pattern ALIVE_WORKER = Pattern.compile("(?m)^\\d+\\s+worker\\s+alive\\s+(\\d+)\\s");

    private final ClusterSecret secret = ClusterSecret.random();
    /** The pids of the two workers every test starts with. */
    private final Set<Long> workers = new HashSet<>();
    private DistOnHosts hosts;
    private String coordinator;

    @TempDir
    Path temp;

    @BeforeEach
    void startCoordinatorAndTwoWorkersOnThreeHosts() throws Exception {
        hosts = new DistOnHosts("distit", 3);
        coordinator = "tcp://" + hosts.address(0) + ":7000";
        dist(0, secret.value(), "coordinator", "--bind", coordinator)
                .awaitLine("coordinator listening at " + coordinator, START);
        List<Jvm> started = new ArrayList<>();
        for (int host = 1; host <= 2; host++) {
            started.add(dist(host, secret.value(), "worker", "--join", coordinator, "--bind", "tcp://" + hosts.address(host)));
        }
        workers.addAll(started.stream().map(Jvm::pid).toList());
        awaitAlive(started, () -> workers);
    }

    @AfterEach
    void stopEverythingThenRemoveTheHosts() {
        if (hosts != null) {
            hosts.close();
        }
    }

    @Test
    void aSampleRunFromAThirdHostPrintsWhatAPlainJvmPrintsWithThreadsOnBothWorkers() throws Exception {
        assertRunsLikeAPlainJvmOnBothWorkers();
    }

    @Test
    void aWorkerWithAWrongSecretIsRefusedAndTheClusterStillRuns() throws Exception {
        Jvm stranger = dist(2, ClusterSecret.random().value(), "worker", "--join", coordinator,
                "--bind", "tcp://" + hosts.address(2));
        assertNotEquals(0, stranger.awaitExit(START), stranger.output());
        stranger.awaitLine("refused to admit this node: .*authentication failed.*set " + ClusterSecret.ENV,
                Duration.ofSeconds(1));

        assertRunsLikeAPlainJvmOnBothWorkers();
    }

    @Test
    void aWorkerThatKeepsServingServesTheNextRunAfterTheOthersHaveEnded() throws Exception {
        Jvm keeps = dist(2, secret.value(), "worker", "--join", coordinator, "--bind", "tcp://" + hosts.address(2),
                "--keep-serving");
        awaitAlive(List.of(keeps), () -> {
            Set<Long> all = new HashSet<>(workers);
            all.addAll(currentWorkerOf(keeps));
            return all;
        });
        Set<Long> first = currentWorkerOf(keeps);
        assertRunsLikeAPlainJvmWithThreadsOnEveryNode(4);

        keeps.awaitLine("a fresh worker joins for the next", START);
        awaitAlive(List.of(keeps), () -> currentWorkerOf(keeps));
        assertTrue(Collections.disjoint(first, currentWorkerOf(keeps)), "a fresh JVM serves the next run");
        assertRunsLikeAPlainJvmWithThreadsOnEveryNode(2);
    }

    private void assertRunsLikeAPlainJvmOnBothWorkers() throws Exception {
        assertRunsLikeAPlainJvmWithThreadsOnEveryNode(3);
    }

    /** Pi from host 0 prints what a plain JVM prints, with threads on each of the {@code nodes} (home included). */
    private void assertRunsLikeAPlainJvmWithThreadsOnEveryNode(int nodes) throws Exception {
        List<String> expected = Jvm.plainStdout(SAMPLES.toString(), PI);
        Path report = temp.resolve("run.json");
        List<String> run = new ArrayList<>(List.of("run", "--join", coordinator, "--bind", "tcp://" + hosts.address(0),
                "--report", report.toString(), "--", "-cp", SAMPLES.toString()));
        run.addAll(PI);
        Jvm home = dist(0, secret.value(), run.toArray(String[]::new));
        assertEquals(0, home.awaitExit(Duration.ofSeconds(180)), home.output());
        assertEquals(expected, home.stdout(), home.output());
        RunReports.assertThreadsRanOnEveryNode(Files.readString(report), nodes);
    }

    private Jvm dist(int host, String clusterSecret, String... arguments) throws Exception {
        return hosts.dist(host, clusterSecret, List.of(arguments));
    }

    /**
     * Waits until `./dist status` on the coordinator's host lists exactly the workers of {@code pids}
     * alive (by pid: a worker that has just exited may still be listed alive for a moment); fails at
     * once if one of {@code processes} exits.
     */
    private void awaitAlive(List<Jvm> processes, Supplier<Set<Long>> pids) throws Exception {
        long deadline = System.nanoTime() + START.toNanos();
        String table = "";
        while (System.nanoTime() < deadline) {
            for (Jvm process : processes) {
                if (!process.process().isAlive()) {
                    throw new AssertionError("worker " + process.pid() + " exited with status " + process.process().exitValue()
                            + " instead of joining\n" + process.output());
                }
            }
            Jvm status = dist(0, secret.value(), "status", "--coordinator", coordinator);
            if (status.awaitExit(Duration.ofSeconds(60)) == 0) {
                table = String.join("\n", status.stdout());
                Set<Long> alive = new HashSet<>();
                Matcher worker = ALIVE_WORKER.matcher(table);
                while (worker.find()) {
                    alive.add(Long.parseLong(worker.group(1)));
                }
                if (alive.equals(pids.get())) {
                    return;
                }
            }
            Thread.sleep(500);
        }
        StringBuilder outputs = new StringBuilder();
        processes.forEach(p -> outputs.append(p.output()));
        throw new AssertionError("workers " + pids.get() + " not alive within " + START + "; last status:\n" + table + "\n"
                + outputs);
    }

    /**
     * The pid of the worker JVM that a `./dist worker --keep-serving` script runs now; between two
     * JVMs, a pid that no table lists, so that waiting for it goes on.
     */
    private static Set<Long> currentWorkerOf(Jvm keepServing) {
        Set<Long> current = keepServing.process().children().filter(ProcessHandle::isAlive).map(ProcessHandle::pid)
                .collect(Collectors.toSet());
        return current.isEmpty() ? Set.of(-1L) : current;
    }
}
