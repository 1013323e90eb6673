package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dist's flight-recorder events in recordings of the home and of its worker, read back with the
 * JDK's {@code jfr} tool. Every JVM of a local cluster records when {@code JDK_JAVA_OPTIONS} asks
 * for a recording into a directory (each writes a file named with its pid).
 */
class FlightEventsIT {
    @TempDir
    Path directory;

    /**
     * A 2-node run of itapp.OnDemandShapes, whose worker faults on the arrays the home sent it on
     * demand: a {@code dist.ArrayFault} at the worker for each fault, and a {@code dist.ArrayFaultServed}
     * at the home for each answer, as many of one as of the other.
     */
    @Test
    void eachFaultOfTheWorkerAndEachAnswerOfTheHomeIsAnEvent() throws Exception {
        Recordings recordings = run("itapp.OnDemandShapes", false);
        String served = jfr("print", "--events", "dist.ArrayFaultServed", recordings.home().toString());
        Matcher event = Pattern.compile("dist\\.ArrayFaultServed \\{\\s+startTime = [^\\n]+\\s+duration = [^\\n]+\\s+"
                + "worker = (\\d+)\\s+arrayClass = \"([^\"]+)\"\\s+chunks = (\\d+)\\s+bytes = [^\\n]+").matcher(served);
        assertTrue(event.find(), "no dist.ArrayFaultServed event read back:\n" + served);
        assertTrue(Integer.parseInt(event.group(1)) > 1, "the worker is not the home: " + event.group());
        assertTrue(event.group(2).endsWith("[]"), event.group());
        assertTrue(Integer.parseInt(event.group(3)) > 0, event.group());

        String faults = jfr("print", "--events", "dist.ArrayFault", recordings.worker().toString());
        Matcher fault = Pattern.compile("dist\\.ArrayFault \\{\\s+startTime = [^\\n]+\\s+duration = [^\\n]+\\s+"
                + "arrayClass = \"([^\"]+\\[\\])\"\\s+chunks = [1-9]\\d*\\s+bytes = [^\\n]+").matcher(faults);
        assertTrue(fault.find(), "no dist.ArrayFault event in the worker's recording:\n" + faults);
        assertEquals(count(served, "dist.ArrayFaultServed {"), count(faults, "dist.ArrayFault {"),
                "a fault for each answer:\n" + faults + "\n" + served);
    }

    /**
     * itapp.ProfiledWork on 2 nodes: its two threads, one on each node, take the counter's monitor
     * in turn, so the worker asks the home for it and gets it from the other node.
     */
    @Test
    void theWorkersRemoteMonitorEntersAndHandOversAreEvents() throws Exception {
        Recordings recordings = run("itapp.ProfiledWork", true);
        String enters = jfr("print", "--events", "dist.RemoteMonitorEnter", recordings.worker().toString());
        assertTrue(Pattern.compile("dist\\.RemoteMonitorEnter \\{\\s+startTime = [^\\n]+\\s+duration = [^\\n]+\\s+"
                + "monitorClass = \"itapp\\.ProfiledWork\\$Counter\"").matcher(enters).find(), enters);
        String handOvers = jfr("print", "--events", "dist.MonitorHandOver", recordings.worker().toString());
        assertTrue(handOvers.contains("monitorClass = \"itapp.ProfiledWork$Counter\""), handOvers);
    }

    private record Recordings(Path home, Path worker) {}

    /** Runs {@code program} on 2 nodes with every JVM recording; ends it by closing its input when asked. */
    private Recordings run(String program, boolean endByInput) throws Exception {
        Path recordings = Files.createDirectories(directory.resolve("recordings"));
        long homePid;
        try (Jvm home = Jvm.start(Map.of("JDK_JAVA_OPTIONS", "-XX:StartFlightRecording:filename=" + recordings + "/"),
                List.of("-agentpath:" + Jvm.NATIVE, "-javaagent:" + Jvm.DIST_JAR + "=nodes=2", "-cp", Jvm.TEST_CLASSES.toString(),
                        program))) {
            homePid = home.pid();
            if (endByInput) {
                home.awaitLine("^round 3: ", Duration.ofSeconds(60));
                home.process().getOutputStream().close();
            }
            assertEquals(0, home.awaitExit(Duration.ofSeconds(120)), home.output());
        }
        // The worker ends once the home has; its recording is written as it exits.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        List<Path> files = recordingsIn(recordings);
        while (files.size() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(200);
            files = recordingsIn(recordings);
        }
        assertEquals(2, files.size(), "one recording per JVM: " + files);
        String homeName = "-pid-" + homePid + "-";
        Path home = files.stream().filter(file -> file.getFileName().toString().contains(homeName)).findFirst().orElseThrow();
        Path worker = files.stream().filter(file -> !file.equals(home)).findFirst().orElseThrow();
        return new Recordings(home, worker);
    }

    private static List<Path> recordingsIn(Path directory) throws Exception {
        try (Stream<Path> listed = Files.list(directory)) {
            return listed.filter(file -> file.toString().endsWith(".jfr")).sorted().toList();
        }
    }

    private static long count(String text, String part) {
        return text.split(Pattern.quote(part), -1).length - 1L;
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
