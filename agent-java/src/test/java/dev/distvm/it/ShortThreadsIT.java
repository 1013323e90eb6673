package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Threads of a task that computes for microseconds stay home once its placed ones showed it; others are placed. */
class ShortThreadsIT {
    private static final String PROGRAM = "itapp.BriefTasks";

    @TempDir
    Path temp;

    @Test
    void aTaskWhosePlacedThreadsComputedBrieflyRunsAtTheHome() throws Exception {
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
            RunReports.assertPlacedOnAWorker(json, "brief-0");
            // The last round starts after 190 brief threads ended, many of them on the worker.
            assertTrue(Pattern.compile("\"brief-19\\d: kept home: its task's placed threads computed for less than 2 ms")
                    .matcher(json).find(), json);
            RunReports.assertPlacedOnAWorker(json, "long-0");
        }
    }
}
