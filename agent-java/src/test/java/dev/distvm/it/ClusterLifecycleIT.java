package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A local cluster's life: start, run report, and the workers' end whichever way the home ends. */
class ClusterLifecycleIT {
    private static final Duration WORKERS_MUST_EXIT_WITHIN = Duration.ofSeconds(5);

    @TempDir
    Path temp;

    @Test
    void killingTheHomeWithSigkillEndsEveryWorkerWithinFiveSeconds() throws Exception {
        try (Jvm home = Jvm.home("nodes=3", Jvm.TEST_CLASSES.toString(), "itapp.Sleeper")) {
            home.awaitLine("cluster of 3 nodes ready", Duration.ofSeconds(90));
            home.awaitLine("sleeper started", Duration.ofSeconds(30));
            List<Long> workers = home.announcedWorkers();
            assertEquals(2, workers.size(), home.output());
            List<ProcessHandle> handles = new ArrayList<>();
            for (long pid : workers) {
                handles.add(ProcessHandle.of(pid).orElseThrow(() -> new AssertionError("worker " + pid + " not running")));
            }

            home.process().destroyForcibly(); // SIGKILL: no shutdown hook runs in the home
            home.process().waitFor();
            for (ProcessHandle worker : handles) {
                assertExitsWithin(worker, WORKERS_MUST_EXIT_WITHIN);
            }
        }
    }

    @Test
    void aNormalEndWritesTheReportAndLeavesNoWorkerBehind() throws Exception {
        Path report = temp.resolve("run.json");
        try (Jvm home = Jvm.home("nodes=2,report=" + report, Jvm.TEST_CLASSES.toString(), "itapp.TwoThreads")) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(90)), home.output());
            assertEquals(List.of("count=1000 box=42"), home.stdout(), home.output());
            List<Long> workers = home.announcedWorkers();
            assertEquals(1, workers.size(), home.output());
            for (long pid : workers) {
                Optional<ProcessHandle> worker = ProcessHandle.of(pid);
                if (worker.isPresent()) {
                    assertExitsWithin(worker.get(), WORKERS_MUST_EXIT_WITHIN);
                }
            }

            String json = Files.readString(report);
            assertTrue(json.contains("\"version\": 1"), json);
            assertTrue(json.contains("\"pid\": " + home.pid() + ", \"role\": \"home\""), json);
            assertTrue(json.contains("\"pid\": " + workers.get(0) + ", \"role\": \"worker\""), json);
            assertTrue(json.matches("(?s).*\\{\"name\": \"main\", \"id\": \\d+, \"kind\": \"main\"}.*"), json);
            assertTrue(json.contains("\"name\": \"counter\""), json);
            assertTrue(json.contains("\"name\": \"adder\""), json);
            assertTrue(json.matches("(?s).*\"messagesSent\": [1-9].*"), json);
            assertTrue(json.contains("\"unreachable\": []"), json);
        }
    }

    @Test
    void fourNodeClusterHasFourDistinctProcesses() throws Exception {
        try (Jvm home = Jvm.home("nodes=4", Jvm.TEST_CLASSES.toString(), "itapp.TwoThreads")) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(120)), home.output());
            List<Long> pids = new ArrayList<>(home.announcedWorkers());
            pids.add(home.pid());
            assertEquals(4, new HashSet<>(pids).size(), home.output());
        }
    }

    @Test
    void anUnknownAgentOptionStopsTheJvmAndListsTheValidOptions() throws Exception {
        try (Jvm home = Jvm.home("nodes=2,colour=blue", Jvm.TEST_CLASSES.toString(), "itapp.TwoThreads")) {
            assertEquals(2, home.awaitExit(Duration.ofSeconds(30)), home.output());
            home.awaitLine("unknown dist agent option 'colour'", Duration.ofSeconds(1));
            home.awaitLine("failure-timeout", Duration.ofSeconds(1));
            assertTrue(home.stdout().isEmpty(), "main must not run: " + home.output());
        }
    }

    @Test
    void aBadOptionValueNamesTheOptionAndItsRange() throws Exception {
        try (Jvm home = Jvm.home("nodes=zero", Jvm.TEST_CLASSES.toString(), "itapp.TwoThreads")) {
            assertEquals(2, home.awaitExit(Duration.ofSeconds(30)), home.output());
            home.awaitLine("nodes must be a whole number from 1 to 64, got 'zero'", Duration.ofSeconds(1));
            assertFalse(home.stdout().contains("count=1000 box=42"), home.output());
        }
    }

    private static void assertExitsWithin(ProcessHandle process, Duration limit) throws Exception {
        CompletableFuture<ProcessHandle> exit = process.onExit();
        try {
            exit.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            process.destroyForcibly();
            throw new AssertionError("process " + process.pid() + " still alive " + limit + " after its home ended");
        }
    }
}
