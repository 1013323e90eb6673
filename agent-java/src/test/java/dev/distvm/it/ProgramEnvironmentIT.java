package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Placed threads read the program's system properties as the home has them (a -D option, one main
 * set before starting them), and its default locale and time zone; a property a placed thread sets
 * is the home's after join, and so is the name one gives itself; what they print goes into the
 * stream main put in place of System.out; an exception they catch has their frames only (no frame
 * of dist's between Thread.run and the task, and none below a Thread subclass's run).
 * Before, the threads on the worker read the defaults ("100/null", "3.25", the machine's zone),
 * printed on the terminal, and main read null: wrong output, exit 0.
 */
class ProgramEnvironmentIT {
    private static final String PROGRAM = "itapp.EnvironmentReaders";
    private static final List<String> OPTIONS = List.of("-Ditapp.size=7");

    @TempDir
    Path temp;

    @Test
    void placedThreadsReadAndSetTheProgramsProperties() throws Exception {
        assertEquals(List.of("captured printed by thread 0, printed by thread 1, printed by thread 2, printed by thread 3",
                "[7/fast/0 3,25 Asia/Tokyo, 7/fast/0 4,25 Asia/Tokyo, 7/fast/0 5,25 Asia/Tokyo,"
                + " 7/fast/0 6,25 Asia/Tokyo]", "names | reader-0 | reader-1 | reader-2, renamed by itself | reader-3",
                trace(0), trace(1), trace(2), trace(3), "set by thread 0",
                "thread 10 <- itapp.EnvironmentReaders.traceOfAFailure <- itapp.EnvironmentReaders$Tracer.run"
                        + " | its own stack: java.lang.Thread.getStackTrace itapp.EnvironmentReaders$Tracer.run",
                "thread 11 <- itapp.EnvironmentReaders.traceOfAFailure <- itapp.EnvironmentReaders$Tracer.run"
                        + " | its own stack: java.lang.Thread.getStackTrace itapp.EnvironmentReaders$Tracer.run"), Jvm.plainStdout(Jvm.TEST_CLASSES.toString(), List.of("-Ditapp.size=7", PROGRAM)));
        String json = Jvm.reportOfARunLikePlain(temp.resolve("run.json"), 2, OPTIONS, PROGRAM);
        RunReports.assertPlacedOnAWorker(json, "reader-0");
        RunReports.assertPlacedOnAWorker(json, "reader-2");
        assertTrue(Pattern.compile("\"tracer-\\d: node \\d+\"").matcher(json).find(), json); // a worker: any number
    }

    /** What a thread prints of an exception it caught: its frames, with no node's below its task. */
    private static String trace(int thread) {
        return "thread " + thread + " <- itapp.EnvironmentReaders.traceOfAFailure <- itapp.EnvironmentReaders.lambda$main$0"
                + " <- java.lang.Thread.run";
    }
}
