package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thread.activeCount(), Thread.enumerate and their ThreadGroup forms at the home count the program's threads of every node
 * and none of dist's: a main that polls the count until only it is left gets every share (it read
 * zeros when placed threads did not count, and waited forever when dist's threads did).
 */
class ThreadCountIT {
    private static final String PROGRAM = "itapp.ActiveCountWait";
    private static final List<String> EXPECTED = List.of("239999988 5 [main, share-0, share-1, share-2, share-3] 1 [main]");

    @TempDir
    Path temp;

    @Test
    void mainWaitingForTheCountToDropSeesEveryThreadOfEveryNode() throws Exception {
        try (Jvm plain = Jvm.plain(List.of(), Jvm.TEST_CLASSES.toString(), PROGRAM)) {
            assertEquals(0, plain.awaitExit(Duration.ofSeconds(60)), plain.output());
            assertEquals(EXPECTED, plain.stdout(), plain.output());
        }
        for (int nodes : new int[] {1, 2}) {
            Path report = temp.resolve("run-" + nodes + ".json");
            try (Jvm home = Jvm.home("nodes=" + nodes + ",report=" + report, Jvm.TEST_CLASSES.toString(), PROGRAM)) {
                assertEquals(0, home.awaitExit(Duration.ofSeconds(90)), home.output());
                assertEquals(EXPECTED, home.stdout(), home.output());
                if (nodes == 2) {
                    RunReports.assertThreadsRanOnEveryNode(Files.readString(report), nodes);
                }
            }
        }
    }
}
