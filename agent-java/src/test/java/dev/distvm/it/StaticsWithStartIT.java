package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A placed thread receives, with its start, the statics its code uses that the home has
 * initialized, instead of fetching each at its first use; a class the home has not initialized
 * yet is still fetched at first use, so its initializer runs when it would on one JVM.
 */
class StaticsWithStartIT {
    @TempDir
    Path temp;

    @Test
    void initializedStaticsTravelWithTheStartAndAnUninitializedClassIsFetchedAtFirstUse() throws Exception {
        Path report = temp.resolve("statics.json");
        // Three nodes: main at the home, each of the two threads on a worker of its own.
        try (Jvm home = Jvm.home("nodes=3,report=" + report, Jvm.TEST_CLASSES.toString(), "itapp.statics.StaticsWithStart")) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(180)), home.output());
            assertEquals(List.of("Late initialized", "table sum 1350000, late sum 10"), home.stdout(), home.output());
            String json = Files.readString(report);
            RunReports.assertThreadsRanOnEveryNode(json, 3);
            List<Long> fetched = RunReports.objectSpaceCounter(json, "staticsFetched");
            // table-reader's worker fetched nothing (Table came with the start); late-reader's fetched Late only.
            assertEquals(List.of(0L, 1L), fetched.subList(1, 3).stream().sorted().toList(), json);
        }
    }
}
