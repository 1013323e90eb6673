package dist.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What dist cannot share yet never gives a wrong answer: a thread that reaches such an object
 * when it starts stays at the home (and the program prints what it prints on one JVM), and one
 * that reaches it later on a worker stops the run with a message naming the class.
 */
class UnsupportedIT {
    private static final String ARRAY_LIST = "instances of java.util.ArrayList cannot be shared between nodes";

    @TempDir
    Path temp;

    @Test
    void aThreadThatCapturesAJdkCollectionStaysHome() throws Exception {
        Path report = temp.resolve("run.json");
        try (Jvm home = Jvm.home("nodes=2,report=" + report, Jvm.TEST_CLASSES.toString(),
                "itapp.unsupported.CapturesJdkCollection")) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(90)), home.output());
            assertEquals(List.of("[item-0, item-1, item-2, item-3]"), home.stdout(), home.output());
            String json = Files.readString(report);
            assertTrue(json.contains("\"collector-1: kept home: " + ARRAY_LIST), json);
        }
    }

    @Test
    void aWorkerThreadThatReachesAJdkCollectionStopsTheRunNamingIt() throws Exception {
        try (Jvm home = Jvm.home("nodes=2", Jvm.TEST_CLASSES.toString(), "itapp.unsupported.StoresJdkCollection")) {
            assertEquals(70, home.awaitExit(Duration.ofSeconds(90)), home.output());
            assertEquals(List.of(), home.stdout(), home.output());
            assertTrue(home.output().contains("[dist] error: thread storer-") && home.output().contains(ARRAY_LIST),
                    home.output());
        }
    }
}
