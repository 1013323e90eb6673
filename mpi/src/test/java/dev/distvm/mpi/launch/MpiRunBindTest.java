package dev.distvm.mpi.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MpiRunBindTest {
    @Test
    void theJobListensOnLoopbackUnlessBoundElsewhere() throws Exception {
        assertEquals("tcp://127.0.0.1:0", MpiRun.Launch.parse(new String[] {"-np", "2", "--", "-cp", "app", "Main"}).bind());
        assertEquals("tcp://10.0.0.5:7000", MpiRun.Launch.parse(
                new String[] {"-np", "2", "--bind", "tcp://10.0.0.5:7000", "--", "-cp", "app", "Main"}).bind());
        assertEquals("tcp://10.0.0.5:0", MpiRun.Launch.parse(
                new String[] {"-np", "2", "--bind", "tcp://10.0.0.5", "--", "-cp", "app", "Main"}).bind());
    }

    @Test
    void aBadOrWildcardBindOrOneForThreadsIsRefusedSayingWhy() {
        assertRefused("--bind must look like tcp://HOST[:PORT]", "-np", "2", "--bind", "10.0.0.5:7000", "--", "-cp", "app", "Main");
        assertRefused("is every interface; the ranks must tell each other one address", "-np", "2", "--bind", "tcp://0.0.0.0:7000", "--",
                "-cp", "app", "Main");
        assertRefused("--bind is for ranks that are JVMs", "-np", "2", "--threads", "--bind", "tcp://10.0.0.5", "--",
                "-cp", "app", "Main");
    }

    private static void assertRefused(String expected, String... args) {
        var e = assertThrows(IllegalArgumentException.class, () -> MpiRun.Launch.parse(args));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
