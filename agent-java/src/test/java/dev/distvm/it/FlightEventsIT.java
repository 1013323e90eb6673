package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dist's flight-recorder events in a recording of the home, read back with the JDK's {@code jfr}
 * tool: a 2-node run of itapp.OnDemandShapes, whose worker faults on the arrays the home sent it on
 * demand, records a {@code dist.ArrayFaultServed} event for each answer, with the worker, the
 * array's class, the chunks and the bytes.
 */
class FlightEventsIT {
    @TempDir
    Path directory;

    @Test
    void theHomesRecordingHasAnEventForEachFaultItAnswered() throws Exception {
        Path recording = directory.resolve("home.jfr");
        try (Jvm home = Jvm.home("nodes=2,report=" + directory.resolve("report.json"),
                List.of("-XX:StartFlightRecording:filename=" + recording), Jvm.TEST_CLASSES.toString(), "itapp.OnDemandShapes")) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(120)), home.output());
        }
        String events = jfr("print", "--events", "dist.ArrayFaultServed", recording.toString());
        Matcher event = Pattern.compile("dist\\.ArrayFaultServed \\{\\s+startTime = [^\\n]+\\s+duration = [^\\n]+\\s+"
                + "worker = (\\d+)\\s+arrayClass = \"([^\"]+)\"\\s+chunks = (\\d+)\\s+bytes = [^\\n]+").matcher(events);
        assertTrue(event.find(), "no dist.ArrayFaultServed event read back:\n" + events);
        assertTrue(Integer.parseInt(event.group(1)) > 1, "the worker is not the home: " + event.group());
        assertTrue(event.group(2).endsWith("[]"), event.group());
        assertTrue(Integer.parseInt(event.group(3)) > 0, event.group());
    }

    /** Runs the JDK's {@code jfr} tool; returns what it printed, failing unless it exits 0. */
    private static String jfr(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jfr").toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "jfr did not end");
            assertEquals(0, process.exitValue(), printed);
            return printed;
        } finally {
            process.destroyForcibly();
        }
    }
}
