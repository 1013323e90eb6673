package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * System.in of worker threads is the home's: threads at the home and on a worker share one input,
 * byte by byte and in bulk, to its end, and the program prints what it prints on one JVM given the
 * same input.
 */
class StandardInputIT {
    private static final String PROGRAM = "itapp.StdinReaders";

    @TempDir
    Path temp;

    /** 30 numbered lines, then enough free text (some of it not ASCII) for several 8 KiB reads. */
    private static String input() {
        StringBuilder input = new StringBuilder("30\n");
        for (int i = 0; i < 30; i++) {
            input.append(i).append(" word-").append(i * 7 % 30).append('\n');
        }
        for (int i = 0; i < 600; i++) {
            input.append("line ").append(i).append(i % 5 == 0 ? " grüße ✓ " : " plain ").append("x".repeat(i % 40))
                    .append('\n');
        }
        return input.toString();
    }

    @Test
    void threadsOnEveryNodeReadTheHomesStandardInputAsOneJvmWould() throws Exception {
        List<String> expected;
        try (Jvm plain = Jvm.plain(List.of(), Jvm.TEST_CLASSES.toString(), PROGRAM)) {
            plain.feedStdin(input());
            assertEquals(0, plain.awaitExit(Duration.ofSeconds(60)), plain.output());
            expected = plain.stdout();
        }
        assertEquals(31, expected.size(), String.join("\n", expected));
        Path report = temp.resolve("run.json");
        try (Jvm home = Jvm.home("nodes=2,report=" + report, Jvm.TEST_CLASSES.toString(), PROGRAM)) {
            home.feedStdin(input());
            assertEquals(0, home.awaitExit(Duration.ofSeconds(90)), home.output());
            assertEquals(expected, home.stdout(), home.output());
            String json = Files.readString(report);
            RunReports.assertPlacedOnAWorker(json, "line-reader-0");
            RunReports.assertPlacedOnAWorker(json, "bulk-reader");
        }
    }
}
