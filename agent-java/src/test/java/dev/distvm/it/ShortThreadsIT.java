package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
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
        String json = Jvm.reportOfARunLikePlain(temp.resolve("run.json"), 2, List.of(), PROGRAM);
        RunReports.assertPlacedOnAWorker(json, "brief-0");
        // The last round starts after 190 brief threads ended, many of them on the worker.
        assertTrue(Pattern.compile("\"brief-19\\d: kept home: its task's placed threads computed for less than 2 ms")
                .matcher(json).find(), json);
        RunReports.assertPlacedOnAWorker(json, "long-0");
    }

    /** At the end the home says in one line where the 201 threads ran: some on each node, some kept home. */
    @Test
    void theHomeSaysAtTheEndWhereTheThreadsRan() throws Exception {
        try (Jvm home = Jvm.home("nodes=2", Jvm.TEST_CLASSES.toString(), PROGRAM)) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(120)), home.output());
            List<String> lines = home.stderr().stream().filter(line -> line.startsWith("[dist] threads ran on: ")).toList();
            assertEquals(1, lines.size(), home.output());
            Matcher m = Pattern.compile("\\[dist] threads ran on: node (\\d+) \\(home\\) (\\d+) \\+ (\\d+) kept home, node (\\d+) (\\d+)"
                    + " \\(--verbose says why a thread was kept home\\)").matcher(lines.get(0));
            assertTrue(m.matches(), lines.get(0));
            assertNotEquals(m.group(1), m.group(4));
            int[] counts = {Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), Integer.parseInt(m.group(5))};
            assertEquals(201, counts[0] + counts[1] + counts[2], lines.get(0));
            assertTrue(counts[1] > 0 && counts[2] > 0, lines.get(0));
        }
    }
}
