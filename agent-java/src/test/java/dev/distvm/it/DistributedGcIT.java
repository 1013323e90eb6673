package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Copies and masters that no node reaches any more are freed: a program that forks and joins
 * thousands of short threads, each with its own task and array, ends holding about what it
 * holds alive (a total), not a copy or master per thread.
 */
class DistributedGcIT {
    private static final int THREADS = 3000;
    /** Far below a copy per thread placed on the worker (about half of them), far above what is alive. */
    private static final long HELD_AT_MOST = 50;

    @TempDir
    Path temp;

    @Test
    void aForkJoinProgramEndsHoldingItsLiveDataNotACopyPerThread() throws Exception {
        Path report = temp.resolve("gc.json");
        try (Jvm home = Jvm.home("nodes=2,report=" + report, Jvm.TEST_CLASSES.toString(), "itapp.gc.ForkJoinMany",
                String.valueOf(THREADS))) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(240)), home.output());
            long elements = THREADS * 8L;
            assertEquals(List.of("sum " + elements * (elements - 1) / 2 + " ok"), home.stdout(), home.output());
            String json = Files.readString(report);
            RunReports.assertThreadsRanOnEveryNode(json, 2);
            List<Long> homed = RunReports.objectSpaceCounter(json, "objectsHomed");
            List<Long> copies = RunReports.objectSpaceCounter(json, "copiesHeld");
            List<Long> tombstones = RunReports.objectSpaceCounter(json, "tombstones");
            assertEquals(2, homed.size(), json);
            assertTrue(homed.get(0) <= HELD_AT_MOST, "masters held at the home: " + homed + "\n" + json);
            assertTrue(copies.get(1) <= HELD_AT_MOST, "copies held on the worker: " + copies + "\n" + json);
            assertTrue(tombstones.get(1) <= HELD_AT_MOST, "tombstones on the worker: " + tombstones + "\n" + json);
            // The report lists the first threads and counts the rest.
            assertTrue(json.contains("\"threadsNotListed\": "), json);
        }
    }
}
