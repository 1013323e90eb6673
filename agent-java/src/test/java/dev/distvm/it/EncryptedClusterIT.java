package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A program runs across nodes whose every connection is encrypted (encrypt=true on loopback). */
class EncryptedClusterIT {
    @Test
    void aTwoNodeRunWithEncryptionGivesTheProgramsOutput() throws Exception {
        try (Jvm home = Jvm.home("nodes=2,encrypt=true", Jvm.TEST_CLASSES.toString(), "itapp.TwoThreads")) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(90)), home.output());
            assertEquals(List.of("count=1000 box=42"), home.stdout(), home.output());
            assertEquals(1, home.announcedWorkers().size(), home.output());
        }
    }
}
