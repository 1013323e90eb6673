package dev.distvm.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.coordinator.proto.NodeState;
import dev.distvm.coordinator.proto.Role;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Suspect, then confirm, on a made-up clock; the suspects' ports are real. */
class FailureDetectorTest {
    private static final long MS = 1_000_000;
    private static final MembershipSettings SETTINGS =
            new MembershipSettings(Duration.ofMillis(500), Duration.ofSeconds(30)).bySilenceAlone();
    private static final long CHECK = SETTINGS.checkPeriod().toNanos();

    private ServerSocket listening;

    @BeforeEach
    void listen() throws IOException {
        listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            try {
                while (true) {
                    listening.accept().close(); // a live node's kernel accepts: the probe proves nothing
                }
            } catch (IOException e) {
                // closed by the test
            }
        }, "test-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterEach
    void close() throws IOException {
        listening.close();
    }

    private static NodeInfo node(int id, int port, long pid) {
        return NodeInfo.newBuilder().setId(id).setRole(Role.WORKER).setAddress("tcp://127.0.0.1:" + port)
                .setPid(pid).setHost(DeathEvidence.HOST).setState(NodeState.ALIVE).build();
    }

    /** Checks at every check period from {@code from} to {@code to}, as the detector's thread does; all deaths. */
    private static List<FailureDetector.Death> checkEveryPeriod(FailureDetector detector, long from, long to) {
        List<FailureDetector.Death> deaths = new java.util.ArrayList<>();
        for (long t = from; t <= to; t += CHECK) {
            deaths.addAll(detector.check(t));
        }
        return deaths;
    }

    private static void assertOneDeathBecause(String cause, List<FailureDetector.Death> deaths) {
        assertEquals(1, deaths.size(), deaths.toString());
        assertTrue(deaths.get(0).cause().contains(cause), deaths.get(0).cause());
    }

    @Test
    void aSuspectWhosePortStillAcceptsIsDeclaredDeadOnlyAtTheFailureTimeout() {
        FailureDetector detector = new FailureDetector(SETTINGS, "test", 0);
        detector.watch(node(1, listening.getLocalPort(), 0), 0);

        assertEquals(List.of(), checkEveryPeriod(detector, CHECK, 29_900 * MS), "suspected, not yet dead");
        List<FailureDetector.Death> deaths = checkEveryPeriod(detector, 29_900 * MS + CHECK, 30_200 * MS);

        assertOneDeathBecause("past the failure timeout of 30000 ms", deaths);
    }

    @Test
    void aSuspectIsShownWithItsSilenceUntilItIsHeardFrom() {
        FailureDetector detector = new FailureDetector(SETTINGS, "test", 0);
        detector.watch(node(1, listening.getLocalPort(), 0), 0);
        detector.watch(node(2, listening.getLocalPort(), 0), 0);
        for (long t = CHECK; t <= 5_000 * MS; t += CHECK) {
            detector.heard(2, t); // node 2 beats, node 1 has gone quiet
            detector.check(t);
        }

        assertEquals(Map.of(1, 5_000L), detector.suspicions(5_000 * MS), "node 1 silent for 5 s");
        detector.heard(1, 5_100 * MS);
        assertEquals(Map.of(), detector.suspicions(5_100 * MS));
    }

    @Test
    void aSuspectWhosePortRefusesIsDeclaredDeadAtOnce() throws IOException {
        int port = listening.getLocalPort();
        listening.close();
        FailureDetector detector = new FailureDetector(SETTINGS, "test", 0);
        detector.watch(node(1, port, 0), 0);

        assertEquals(List.of(), checkEveryPeriod(detector, CHECK, 1000 * MS), "two beats late is no suspicion yet");
        List<FailureDetector.Death> deaths = checkEveryPeriod(detector, 1000 * MS + CHECK, 5000 * MS);

        assertOneDeathBecause("refuses connections", deaths);
    }

    @Test
    void aSuspectWhoseProcessHereHasExitedIsDeclaredDeadAtOnce() throws Exception {
        Process exited = new ProcessBuilder("true").start();
        exited.waitFor();
        MembershipSettings asking = new MembershipSettings(SETTINGS.heartbeat(), SETTINGS.failureTimeout());
        FailureDetector detector = new FailureDetector(asking, "test", 0);
        detector.watch(node(1, listening.getLocalPort(), exited.pid()), 0);

        List<FailureDetector.Death> deaths = checkEveryPeriod(detector, CHECK, 5000 * MS);

        assertOneDeathBecause("its process " + exited.pid() + " has exited", deaths);
    }

    @Test
    void heartbeatsKeepANodeAliveAndClearSuspicion() {
        FailureDetector detector = new FailureDetector(SETTINGS, "test", 0);
        detector.watch(node(1, listening.getLocalPort(), 0), 0);

        assertEquals(List.of(), checkEveryPeriod(detector, CHECK, 20_000 * MS));
        detector.heard(1, 20_000 * MS);

        assertEquals(List.of(), checkEveryPeriod(detector, 20_000 * MS + CHECK, 49_000 * MS),
                "silence counts from the last heartbeat");
    }

    @Test
    void timeWhenTheDetectorItselfDidNotRunIsNotCountedAsSilence() {
        FailureDetector detector = new FailureDetector(SETTINGS, "test", 0);
        detector.watch(node(1, listening.getLocalPort(), 0), 0);

        // This process was stopped for a minute: the first check after it finds everyone silent.
        assertEquals(List.of(), detector.check(60_000 * MS));
        assertEquals(List.of(), checkEveryPeriod(detector, 60_000 * MS + CHECK, 85_000 * MS));
    }

    @Test
    void aNodeOfTheDetectorsOwnProcessIsNeverDeclaredDead() {
        MembershipSettings asking = new MembershipSettings(SETTINGS.heartbeat(), SETTINGS.failureTimeout());
        FailureDetector detector = new FailureDetector(asking, "test", 0);
        detector.watch(node(1, listening.getLocalPort(), ProcessHandle.current().pid()), 0);

        assertEquals(List.of(), checkEveryPeriod(detector, CHECK, 120_000 * MS));
    }
}
