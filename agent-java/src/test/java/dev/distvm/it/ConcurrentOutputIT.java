package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What one call of {@code printf} prints stays together when threads of several nodes print at
 * once, as it does on one JVM (whose stream holds its lock for the whole call): the lines are
 * the plain JVM's, whole, and the two lines of each call are adjacent.
 */
class ConcurrentOutputIT {
    private static final String PROGRAM = "itapp.PrintingThreads";

    @TempDir
    Path temp;

    @Test
    void eachCallOfEveryNodesThreadsPrintsWhole() throws Exception {
        List<String> expected = Jvm.plainStdout(Jvm.TEST_CLASSES.toString(), List.of(PROGRAM));
        assertEquals(3201, expected.size());
        Path report = temp.resolve("run.json");
        try (Jvm home = Jvm.home("nodes=2,report=" + report, Jvm.TEST_CLASSES.toString(), PROGRAM)) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(90)), home.output());
            List<String> printed = home.stdout();
            List<String> unexpected = new ArrayList<>(printed);
            expected.forEach(unexpected::remove);
            assertEquals(List.of(), unexpected.subList(0, Math.min(5, unexpected.size())), "lines cut or mixed");
            assertEquals(expected.size(), printed.size(), home.output());
            for (int i = 0; i < printed.size(); i++) {
                if (printed.get(i).endsWith(": end")) {
                    String call = printed.get(i).substring(0, printed.get(i).length() - " end".length());
                    assertEquals(call, printed.get(i - 1).substring(0, call.length()),
                            "line " + i + " does not follow the first line of its call");
                }
            }
            String json = Files.readString(report);
            RunReports.assertPlacedOnAWorker(json, "printer-0");
        }
    }

    /**
     * Under a locale whose charset is ASCII, a plain JVM prints {@code ?} for each char beyond it;
     * a placed thread's text is encoded as the home's stream encodes (a worker's stream encoded
     * UTF-8 always, whatever the home's locale, and its lines differed from main's).
     */
    @Test
    void textBeyondAsciiIsEncodedAsTheHomesStreamEncodesIt() throws Exception {
        Map<String, String> asciiLocale = Map.of("LANG", "C", "LC_ALL", "C");
        List<String> program = List.of("-cp", Jvm.TEST_CLASSES.toString(), "itapp.NonAsciiOutput");
        List<String> expected = List.of("printer 0 h?llo ?? ? done", "printer 1 h?llo ?? ? done", "main h?llo");
        try (Jvm plain = Jvm.start(asciiLocale, program)) {
            assertEquals(0, plain.awaitExit(Duration.ofSeconds(60)), plain.output());
            assertEquals(expected, plain.stdout(), plain.output());
        }
        Path report = temp.resolve("ascii.json");
        List<String> arguments = new ArrayList<>(List.of("-agentpath:" + Jvm.NATIVE,
                "-javaagent:" + Jvm.DIST_JAR + "=nodes=2,report=" + report));
        arguments.addAll(program);
        try (Jvm home = Jvm.start(asciiLocale, arguments)) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(90)), home.output());
            assertEquals(expected, home.stdout(), home.output());
        }
        RunReports.assertPlacedOnAWorker(Files.readString(report), "non-ascii-0");
    }
}
