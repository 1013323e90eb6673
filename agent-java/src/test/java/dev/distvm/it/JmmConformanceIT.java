package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java memory model cases of {@code itapp.jmm.Conformance} on 2 and 4 nodes: each case starts at
 * least four threads, which the placement spreads over every node (checked in the run report), so
 * visibility, monitors, wait/notify, interrupts, class initialization and identity hold across JVMs.
 */
class JmmConformanceIT {
    private static final List<String> CASES = List.of(
            "synchronized-visibility", "volatile-visibility", "start-join-visibility", "volatile-flag-spin",
            "volatile-array-spin", "volatile-static-spin", "dekker", "iriw", "iriw-split", "notify-all-several-waiters", "notify-wakes-one",
            "wait-notify-need-the-monitor", "timed-wait",
            "interrupt-waiting", "interrupt-sleeping", "interrupts-publish-writes", "reentrant-synchronized", "own-monitors-made-by-the-threads",
            "published-while-locked", "requests-waited-on-by-their-makers", "lock-hand-over-chain", "static-synchronized",
            "class-initializer-once", "identity-by-two-paths", "identity-hash", "string-identity", "one-chunk-many-writers", "one-chunk-written-by-two-nodes",
            "large-array-few-elements", "arrays-written-by-jdk-code", "thread-names",
            "lambdas-reached-by-tasks", "plain-object-locks", "thread-locals",
            "hashes-under-jdk-superclasses", "threads-asking-about-themselves", "peers-asked-of-themselves",
            "peers-joined-and-interrupted", "thread-objects-as-mailboxes", "latches-and-barriers",
            "waiting-methods-called-at-home",
            "exceptions-stored-by-threads", "clones-of-shared-objects", "big-numbers-by-value",
            "records-and-fieldless-jdk-superclasses", "immutable-collections-by-value",
            "waits-on-thread-objects", "stack-sizes-asked-for", "thread-groups", "peterson-locks",
            "statics-named-through-subclasses", "statics-named-across-packages",
            "strings-with-unpaired-surrogates", "jdk-enum-constants-by-value",
            "identity-of-values-that-travel-by-value");

    @TempDir
    Path temp;

    @Test
    void everyCaseHoldsOnTwoNodes() throws Exception {
        runOn(2);
    }

    @Test
    void everyCaseHoldsOnFourNodes() throws Exception {
        runOn(4);
    }

    private void runOn(int nodes) throws Exception {
        Path report = temp.resolve("run-" + nodes + ".json");
        try (Jvm home = Jvm.home("nodes=" + nodes + ",report=" + report, Jvm.TEST_CLASSES.toString(),
                "itapp.jmm.Conformance")) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(120)), home.output());
            assertEquals(CASES.stream().map(c -> c + " ok").toList(), home.stdout(), home.output());
            String json = Files.readString(report);
            RunReports.assertThreadsRanOnEveryNode(json, nodes);
            // Every case's threads can travel, lambdas reached by their tasks included.
            assertFalse(json.contains("kept home"), json);
            // The baton's ring passes through the workers: each of its 40 rounds brings the monitor
            // to a worker's baton thread from another node (its wait gives it back at every round).
            long[] baton = RunReports.monitorHandOvers(json, "itapp.jmm.Cases$Baton");
            assertTrue(baton[1] >= 40, "hand-overs of the baton across nodes: " + baton[1] + "\n" + json);
            // The rendezvous's waiting methods ran at the home once other nodes used its monitor.
            long[] rendezvous = RunReports.monitorHandOvers(json, "itapp.jmm.Rendezvous$Counting");
            assertTrue(rendezvous[2] > 0, "calls of the rendezvous run at the home: " + rendezvous[2] + "\n" + json);
            // Plain Objects are locks of every node: the case's counters crossed nodes under them.
            assertTrue(RunReports.monitorHandOvers(json, "java.lang.Object")[1] > 0, json);
            long pushes = RunReports.objectSpaceCounter(json, "volatilePushes").stream().mapToLong(Long::longValue).sum();
            assertTrue(pushes > 0, json);
            // The 32 MB array of one-chunk-written-by-two-nodes went on demand: its chunks were fetched.
            assertTrue(RunReports.onDemandFetches(json, "int[]") > 0, json);
        }
    }
}
