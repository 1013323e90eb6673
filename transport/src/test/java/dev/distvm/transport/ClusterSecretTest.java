package dev.distvm.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClusterSecretTest {
    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "\t\n"})
    void emptySecretIsRejectedNamingTheVariableToSet(String secret) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ClusterSecret.of(secret));
        assertTrue(e.getMessage().contains(ClusterSecret.ENV), e.getMessage());
    }

    @Test
    void printingASecretDoesNotRevealIt() {
        ClusterSecret secret = ClusterSecret.of("do-not-log-me");
        assertFalse(secret.toString().contains("do-not-log-me"), secret.toString());
        assertEquals("do-not-log-me", secret.value());
    }
}
