package dev.distvm.transport;

import static dev.distvm.transport.Endpoints.ECHO;
import static dev.distvm.transport.Endpoints.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Int32Value;
import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Endpoints that ask for encryption: their connections are sealed whichever side asked. */
class EndpointEncryptionTest {
    private final Endpoints endpoints = new Endpoints();

    @AfterEach
    void close() {
        endpoints.close();
    }

    @Test
    void anEncryptingClientIsServedByAServerInClearAndTheOtherWayRound() {
        Endpoint plainServer = endpoints.openEchoServer();
        Endpoint encryptingServer = Endpoints.withEcho(endpoints.open(endpoints.config().withEncryption(true)));
        Endpoint encryptingClient = endpoints.open(endpoints.config().withEncryption(true));
        Endpoint plainClient = endpoints.open();

        assertTrue(encryptingServer.encrypted() && !plainServer.encrypted());
        assertEquals(2, encryptingClient.call(plainServer.address(), ECHO, number(1), Int32Value.parser()).getValue());
        assertEquals(3, plainClient.call(encryptingServer.address(), ECHO, number(2), Int32Value.parser()).getValue());
        assertEquals(4, encryptingClient.call(encryptingServer.address(), ECHO, number(3), Int32Value.parser()).getValue());
    }

    @Test
    void aFrameInClearOnAConnectionTheServerEncryptsIsRefusedAndNothingIsServed() throws IOException {
        Endpoint server = Endpoints.withEcho(endpoints.open(endpoints.config().withEncryption(true)));
        try (RawClient client = RawClient.connectAuthenticated(server, endpoints.secret())) {
            // Requests in clear: the server reads the first's length as a sealed frame's and waits
            // for a tag's worth of bytes more, which the next ones bring.
            for (int id = 1; id <= 4; id++) {
                client.writeFrame(RawClient.request(id, ECHO, number(id)).build());
            }

            assertTrue(client.closedByPeer(), "a frame that does not open closes the connection");
        }
        assertEquals(0, server.counters().messagesReceived());
        assertFalse(server.counters().messagesSent() > 0, "nothing answered");
    }
}
