package dev.distvm.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MembershipSettingsTest {
    @ParameterizedTest
    @ValueSource(longs = {0, -1, -500})
    void heartbeatThatIsNotPositiveIsRejected(long millis) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new MembershipSettings(Duration.ofMillis(millis), Duration.ofSeconds(2)));
        assertTrue(e.getMessage().contains("heartbeat"), e.getMessage());
    }

    @Test
    void failureTimeoutShorterThanTwoHeartbeatsIsRejectedNamingBoth() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new MembershipSettings(Duration.ofMillis(500), Duration.ofMillis(999)));
        assertTrue(e.getMessage().contains("999 ms"), e.getMessage());
        assertTrue(e.getMessage().contains("1000 ms"), e.getMessage());
    }

    @Test
    void failureTimeoutOfExactlyTwoHeartbeatsIsAccepted() {
        MembershipSettings settings = new MembershipSettings(Duration.ofMillis(500), Duration.ofMillis(1000));
        assertEquals(Duration.ofMillis(1000), settings.failureTimeout());
    }

    @Test
    void defaultsAreValidSettings() {
        MembershipSettings copy = new MembershipSettings(MembershipSettings.DEFAULT.heartbeat(),
                MembershipSettings.DEFAULT.failureTimeout());
        assertEquals(MembershipSettings.DEFAULT, copy);
    }

    @Test
    void shortFailureTimeoutBeatsFourTimesPerTimeout() {
        MembershipSettings settings = MembershipSettings.withFailureTimeout(Duration.ofMillis(600));
        assertEquals(Duration.ofMillis(150), settings.heartbeat());
        assertEquals(Duration.ofMillis(600), settings.failureTimeout());
    }

    @Test
    void longFailureTimeoutKeepsTheDefaultHeartbeat() {
        MembershipSettings settings = MembershipSettings.withFailureTimeout(Duration.ofSeconds(30));
        assertEquals(MembershipSettings.DEFAULT.heartbeat(), settings.heartbeat());
        assertEquals(Duration.ofSeconds(30), settings.failureTimeout());
    }
}
