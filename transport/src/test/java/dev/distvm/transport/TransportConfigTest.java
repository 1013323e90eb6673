package dev.distvm.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TransportConfigTest {
    private static final ClusterSecret SECRET = ClusterSecret.of("config test");

    @Test
    void addressThatIsNotTcpIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TransportConfig("udp://127.0.0.1:0", SECRET, 4096, Duration.ofSeconds(1)));
        assertTrue(e.getMessage().contains("udp://127.0.0.1:0"), e.getMessage());
    }

    @Test
    void frameLimitUnderOneKilobyteIsRejected() {
        assertThrows(IllegalArgumentException.class,
                () -> new TransportConfig("tcp://127.0.0.1:0", SECRET, 1023, Duration.ofSeconds(1)));
        assertEquals(1024, new TransportConfig("tcp://127.0.0.1:0", SECRET, 1024, Duration.ofSeconds(1)).maxFrameBytes());
    }

    @Test
    void loopbackBindsAFreePortOnLoopbackWithTheDefaults() {
        TransportConfig config = TransportConfig.loopback(SECRET);
        assertEquals("tcp://127.0.0.1:0", config.bindAddress());
        assertEquals(TransportConfig.DEFAULT_MAX_FRAME_BYTES, config.maxFrameBytes());
        assertEquals(TransportConfig.DEFAULT_REQUEST_TIMEOUT, config.requestTimeout());
    }
}
