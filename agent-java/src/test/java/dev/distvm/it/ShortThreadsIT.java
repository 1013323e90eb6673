package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
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
        String json = Jvm.reportOfARunLikePlain(temp.resolve("run.json"), 2, List.of(), PROGRAM);
        RunReports.assertPlacedOnAWorker(json, "brief-0");
        // The last round starts after 190 brief threads ended, many of them on the worker.
        assertTrue(Pattern.compile("\"brief-19\\d: kept home: its task's placed threads computed for less than 2 ms")
                .matcher(json).find(), json);
        RunReports.assertPlacedOnAWorker(json, "long-0");
    }
}
