package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
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
        String json = Jvm.reportOfARunLikePlain(temp.resolve("run.json"), 2, List.of(), PROGRAM);
        RunReports.assertPlacedOnAWorker(json, "stateless-0");
        for (int t = 0; t < 4; t++) {
            assertTrue(json.contains("\"stateful-" + t + ": kept home: instances of itapp.PerNodeState$"), json);
            assertTrue(json.contains("\"interface-" + t + ": kept home: instances of itapp.PerNodeState$Results"), json);
        }
        assertTrue(json.contains("is state the other nodes would not see"), json);
        assertTrue(json.contains("its field CELLS holds an object each node makes itself"), json);
    }
}
