package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.exit.Exits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;

/**
 * A worker killed with SIGKILL while it runs an application thread: the home must not wait for
 * that thread forever, nor print a result computed without it; it ends with {@link Exits#NODE_LOST}
 * and a message naming the node and the thread, and the killed worker's directory does not outlive
 * the run.
 */
class NodeLossIT {
    /** Guards against a hang only: the home learns of the death within seconds. */
    private static final Duration HOME_MUST_END_WITHIN = Duration.ofSeconds(120);

    @Test
    void aWorkerKilledWhileItRunsAThreadEndsTheRunWithAnErrorNamingNodeAndThread() throws Exception {
        try (Jvm home = Jvm.home("nodes=2", Jvm.TEST_CLASSES.toString(), "itapp.LongWorkers")) {
            KilledWorker killed = killAWorkerRunningAThread(home);
            int status = home.awaitExit(HOME_MUST_END_WITHIN);
            assertEquals(Exits.NODE_LOST, status, home.output());
            String output = home.output();
            assertTrue(output.matches("(?s).*\\[dist] error: node \\d+ \\(pid " + killed.pid
                    + " on [^)]*\\) died while it ran thread [^\\n]*" + killed.thread + ".*"), output);
            assertFalse(home.stdout().stream().anyMatch(line -> line.startsWith("result")), output);
        }
    }

    @Test
    void theDirectoryOfAWorkerKilledWithSigkillIsGoneAfterTheRun() throws Exception {
        try (Jvm home = Jvm.home("nodes=2", Jvm.TEST_CLASSES.toString(), "itapp.LongWorkers")) {
            home.awaitLine("cluster of 2 nodes ready", Duration.ofSeconds(90));
            long worker = home.announcedWorkers().get(0);
            List<Path> directories = directoriesOwnedBy(worker);
            assertEquals(1, directories.size(), "the worker's directory, marked with its pid\n" + home.output());
            ProcessHandle.of(worker).ifPresent(ProcessHandle::destroyForcibly);
            home.awaitExit(HOME_MUST_END_WITHIN);
            assertFalse(Files.exists(directories.get(0)), directories.get(0) + " outlived the run\n" + home.output());
        }
    }

    private record KilledWorker(long pid, String thread) {}

    /** Waits until a thread says it runs in a worker's process, and kills that process with SIGKILL. */
    private static KilledWorker killAWorkerRunningAThread(Jvm home) throws InterruptedException {
        home.awaitLine("cluster of 2 nodes ready", Duration.ofSeconds(90));
        long worker = home.announcedWorkers().get(0);
        Matcher running = home.awaitLine("(long-worker-\\d) runs in pid " + worker, Duration.ofSeconds(90));
        ProcessHandle.of(worker).orElseThrow().destroyForcibly();
        return new KilledWorker(worker, running.group(1));
    }

    private static List<Path> directoriesOwnedBy(long pid) throws IOException {
        List<Path> owned = new ArrayList<>();
        Path temp = Path.of(System.getProperty("java.io.tmpdir"));
        try (DirectoryStream<Path> directories = Files.newDirectoryStream(temp, "dist-worker-*")) {
            for (Path directory : directories) {
                Path owner = directory.resolve("owner.pid");
                if (Files.exists(owner) && Files.readString(owner, StandardCharsets.US_ASCII).trim().equals(Long.toString(pid))) {
                    owned.add(directory);
                }
            }
        }
        return owned;
    }
}
