package dev.distvm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dist's flight events are made only once something records: in a JVM where nobody started a
 * recording, a hand-over makes no event (loading the first event class registered JFR's metadata:
 * 80-100 ms of the thread, at a worker's first remote enter in every run), and a recording started
 * later, from {@code jcmd} or the API, gets the events from then on. In a JVM of its own, since
 * other tests may have started the test JVM's recorder.
 */
class FlightEventsTest {
    /** Run in the child JVM: prints what it saw, one line per step. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            Object lock = new Object();
            MonitorHandOverCounts.acrossNodes(lock);
            System.out.println("before a recording: events " + FlightEvents.recording());
            try (Recording recording = new Recording()) {
                recording.enable("dist.MonitorHandOver");
                recording.start();
                System.out.println("while recording: events " + FlightEvents.recording());
                MonitorHandOverCounts.acrossNodes(lock);
                recording.stop();
                recording.dump(Path.of(args[0]));
            }
        }
    }

    @Test
    void noEventIsMadeBeforeARecordingAndOneStartedLaterGetsThem(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("later.jfr");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Child.class.getName(), file.toString())
                .redirectErrorStream(true).start();
        try {
            String output = new String(child.getInputStream().readAllBytes());
            if (!child.waitFor(60, TimeUnit.SECONDS)) {
                throw new AssertionError("the child JVM did not end: " + output);
            }
            assertEquals(0, child.exitValue(), output);
            assertEquals(List.of("before a recording: events false", "while recording: events true"),
                    output.lines().toList());
            List<RecordedEvent> events = RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().equals("dist.MonitorHandOver")).toList();
            assertEquals(1, events.size(), "the hand-over made while recording, and only that one");
            assertEquals("java.lang.Object", events.get(0).getString("monitorClass"));
        } finally {
            child.destroyForcibly();
        }
        Files.deleteIfExists(file);
    }
}
