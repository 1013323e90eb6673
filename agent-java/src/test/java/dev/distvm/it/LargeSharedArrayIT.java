package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A shared array of 96 MiB, filled half by a thread on a worker: more than the 64 MiB a message
 * could once be (the run then stopped); the transport now sends it in pieces, and every byte is right.
 */
class LargeSharedArrayIT {
    @Test
    void aNinetySixMebibyteArrayHalfWrittenOnAWorkerComesBackWhole() throws Exception {
        try (Jvm home = Jvm.home("nodes=2", Jvm.TEST_CLASSES.toString(), "itapp.LargeSharedArray")) {
            home.awaitLine("cluster of 2 nodes ready", Duration.ofSeconds(90));
            long worker = home.announcedWorkers().get(0);
            assertEquals(0, home.awaitExit(Duration.ofMinutes(5)), home.output());
            assertTrue(home.stdout().contains("large array: all " + (96 << 20) + " bytes right"), home.output());
            assertTrue(home.stdout().stream().anyMatch(line -> line.matches("filler-\\d runs in pid " + worker)),
                    "a filler ran on the worker\n" + home.output());
        }
    }
}
