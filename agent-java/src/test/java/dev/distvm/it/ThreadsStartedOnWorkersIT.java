package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Main joins and asks about threads that placed threads started on their nodes (3 nodes: both
 * parents run on workers, so every child is started on one). On 35c0459 main's joins returned at
 * once and it printed {@code [0, 0, 0, 0]} and {@code NEW} states with status 0.
 */
class ThreadsStartedOnWorkersIT {
    private static final List<String> EXPECTED = List.of("[225000000, 225000000, 225000000, 225000000]",
            "child-0 false TERMINATED child-1 false TERMINATED child-2 false TERMINATED child-3 false TERMINATED");

    @Test
    void mainJoinsAndAsksAboutThreadsThatPlacedThreadsStarted() throws Exception {
        for (String children : List.of("grandchildren", "launched", "joined")) {
            try (Jvm home = Jvm.home("nodes=3", Jvm.TEST_CLASSES.toString(), "itapp.ThreadsStartedOnWorkers", children)) {
                assertEquals(0, home.awaitExit(Duration.ofSeconds(120)), children + "\n" + home.output());
                assertEquals(EXPECTED, home.stdout(), children + "\n" + home.output());
            }
        }
    }
}
