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
 * Enums and interfaces are initialized on every node: threads whose code counts in an enum's fields
 * or fills an array an interface holds run at the home (before, each node counted in its own
 * constants and filled its own array, and main printed the home's: a wrong answer, exit 0), while
 * threads using enums that hold no state are still placed.
 */
class PerNodeStateIT {
    private static final String PROGRAM = "itapp.PerNodeState";

    @TempDir
    Path temp;

    @Test
    void threadsCountingInEnumsRunAtTheHomeAndStatelessOnesArePlaced() throws Exception {
        List<String> expected;
        try (Jvm plain = Jvm.plain(List.of(), Jvm.TEST_CLASSES.toString(), PROGRAM)) {
            assertEquals(0, plain.awaitExit(Duration.ofSeconds(60)), plain.output());
            expected = plain.stdout();
        }
        Path report = temp.resolve("run.json");
        try (Jvm home = Jvm.home("nodes=2,report=" + report, Jvm.TEST_CLASSES.toString(), PROGRAM)) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(120)), home.output());
            assertEquals(expected, home.stdout(), home.output());
            String json = Files.readString(report);
            RunReports.assertPlacedOnAWorker(json, "stateless-0");
            for (int t = 0; t < 4; t++) {
                assertTrue(json.contains("\"stateful-" + t + ": kept home: instances of itapp.PerNodeState$"), json);
                assertTrue(json.contains("\"interface-" + t + ": kept home: instances of itapp.PerNodeState$Results"), json);
            }
            assertTrue(json.contains("is state the other nodes would not see"), json);
            assertTrue(json.contains("its field CELLS holds an object each node makes itself"), json);
        }
    }
}
