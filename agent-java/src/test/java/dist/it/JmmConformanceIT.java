package dist.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java memory model cases of {@code itapp.jmm.Conformance}, rewritten by dist, on a 2-node
 * cluster. Every thread runs at the home until the object space exists (the report's placements
 * say so, and this test checks that they do), so today this checks that the rewriting keeps the
 * single-JVM meaning of monitors, synchronized methods, wait/notify, interrupts, class
 * initialization and identity hashes; the same program is the suite the object space must pass.
 */
class JmmConformanceIT {
    private static final List<String> CASES = List.of(
            "synchronized-visibility", "volatile-visibility", "start-join-visibility", "volatile-flag-spin",
            "volatile-array-spin", "notify-all-several-waiters", "notify-wakes-one", "timed-wait",
            "interrupt-waiting", "interrupt-sleeping", "reentrant-synchronized", "static-synchronized",
            "class-initializer-once", "identity-by-two-paths", "identity-hash");

    @TempDir
    Path temp;

    @Test
    void everyCaseHoldsOnTwoNodes() throws Exception {
        Path report = temp.resolve("run.json");
        try (Jvm home = Jvm.home("nodes=2,report=" + report, Jvm.TEST_CLASSES.toString(), "itapp.jmm.Conformance")) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(120)), home.output());
            assertEquals(CASES.stream().map(c -> c + " ok").toList(), home.stdout(), home.output());
            String json = Files.readString(report);
            assertTrue(json.matches("(?s).*\"placements\": \\[\"sync-reader: kept home: the global object space is not"
                    + " implemented yet.*"), json);
            assertTrue(json.matches("(?s).*\"monitorOperations\": \\{\"local\": [1-9]\\d{4,}.*"), json);
        }
    }
}
