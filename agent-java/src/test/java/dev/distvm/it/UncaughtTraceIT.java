package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A thread placed on a worker that ends with an uncaught exception: the default handler runs at the
 * home and prints the trace a plain JVM prints, without dist's frames or its loader's name.
 */
class UncaughtTraceIT {
    private static final String PROGRAM = "itapp.uncaught.ThrowsOnAWorker";

    @TempDir
    Path temp;

    @Test
    void theDefaultHandlerPrintsThePlainJvmsTrace() throws Exception {
        List<String> plainTrace;
        try (Jvm plain = Jvm.plain(List.of(), Jvm.TEST_CLASSES.toString(), PROGRAM)) {
            assertEquals(0, plain.awaitExit(Duration.ofSeconds(60)), plain.output());
            plainTrace = plain.stderr();
        }
        Path report = temp.resolve("run.json");
        try (Jvm home = Jvm.home("nodes=2,report=" + report, Jvm.TEST_CLASSES.toString(), PROGRAM)) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(90)), home.output());
            assertEquals(List.of("done"), home.stdout(), home.output());
            List<String> trace = home.stderr().stream().filter(line -> !line.startsWith("[dist] ")).toList();
            assertEquals(plainTrace, trace, home.output());
            String json = Files.readString(report);
            RunReports.assertPlacedOnAWorker(json, "thrower-0");
            RunReports.assertPlacedOnAWorker(json, "thrower-1");
        }
    }
}
