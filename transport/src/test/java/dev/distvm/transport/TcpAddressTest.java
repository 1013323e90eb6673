package dev.distvm.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Int32Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TcpAddressTest {
    private final Endpoints endpoints = new Endpoints();

    @AfterEach
    void closeEndpoints() {
        endpoints.close();
    }

    @Test
    void aMissingPortIsTheDefaultAndABadFormIsRefusedNamingTheOption() {
        assertEquals("tcp://10.0.0.1:0", TcpAddress.normalize("--bind", "tcp://10.0.0.1", 0));
        assertEquals("tcp://host.example:7000", TcpAddress.normalize("--bind", "tcp://host.example:7000", 0));
        for (String bad : new String[] {"10.0.0.1:7000", "tcp://", "tcp://a b:1", "tcp://h:65536", "udp://h:1", "tcp://h:1/x"}) {
            var e = assertThrows(IllegalArgumentException.class, () -> TcpAddress.normalize("--advertise", bad, 0));
            assertEquals("--advertise must look like tcp://HOST[:PORT] with a port up to 65535, got '" + bad + "'",
                    e.getMessage());
        }
    }

    @Test
    void withoutPortKeepsTheHost() {
        assertEquals("tcp://10.0.0.1", TcpAddress.withoutPort("tcp://10.0.0.1:7000"));
        assertEquals("tcp://host.example", TcpAddress.withoutPort("tcp://host.example"));
        assertThrows(IllegalArgumentException.class, () -> TcpAddress.withoutPort("10.0.0.1:7000"));
    }

    @Test
    void loopbackIsToldFromOtherAddresses() {
        assertTrue(TcpAddress.isLoopback("tcp://127.0.0.1:1"));
        assertTrue(TcpAddress.isLoopback("tcp://127.8.9.10:1"));
        assertTrue(TcpAddress.isLoopback("tcp://localhost:1"));
        assertFalse(TcpAddress.isLoopback("tcp://10.0.0.1:1"));
        assertFalse(TcpAddress.isLoopback("tcp://0.0.0.0:1"));
    }

    @Test
    void anEndpointBoundToEveryInterfaceRefusesToStartWithoutAnAdvertisedAddress() {
        TransportConfig wildcard = endpoints.config().withBindAddress("tcp://0.0.0.0:0");

        TransportException refused = assertThrows(TransportException.class, () -> endpoints.open(wildcard));

        assertTrue(refused.getMessage().contains("listens on every interface of this host but names none that peers"
                + " could connect to: say which with --advertise tcp://HOST[:PORT]"), refused.getMessage());
    }

    @Test
    void anEndpointToldToAdvertiseGivesPeersThatAddressWithItsBoundPortWhenNoneIsNamed() {
        Endpoint endpoint = Endpoints.withEcho(endpoints.open(endpoints.config().withBindAddress("tcp://0.0.0.0:0")
                .withAdvertisedAddress("tcp://127.0.0.1")));
        assertTrue(endpoint.address().matches("tcp://127\\.0\\.0\\.1:[1-9]\\d*"), endpoint.address());

        // The advertised address is one a peer really reaches this endpoint at.
        Endpoint peer = endpoints.open();
        assertEquals(8, peer.call(endpoint.address(), Endpoints.ECHO, Endpoints.number(7), Int32Value.parser()).getValue());

        assertEquals("tcp://203.0.113.9:7777", endpoints.open(endpoints.config()
                .withAdvertisedAddress("tcp://203.0.113.9:7777")).address());
    }

    @Test
    void aWildcardIsNeverAdvertised() {
        TransportException refused = assertThrows(TransportException.class, () -> endpoints.open(
                endpoints.config().withBindAddress("tcp://0.0.0.0:0").withAdvertisedAddress("tcp://0.0.0.0:0")));
        assertTrue(refused.getMessage().contains("is a wildcard, not one peers can connect to"), refused.getMessage());
    }
}
