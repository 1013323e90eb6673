package dev.distvm.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class AgentOptionsTest {
    @Test
    void noOptionsMeanAOneNodeHomeOnLoopback() {
        AgentOptions options = AgentOptions.parse(null);
        assertEquals(AgentOptions.Role.HOME, options.role());
        assertEquals(1, options.nodes());
        assertNull(options.join());
        assertEquals("tcp://127.0.0.1:0", options.bind());
        assertEquals(Duration.ofSeconds(30), options.failureTimeout());
    }

    @Test
    void everyOptionIsRead() {
        AgentOptions options = AgentOptions.parse(
                "nodes=4,report=out/run.json,failure-timeout=1500,verbose=true,bind=tcp://127.0.0.1:7000");
        assertEquals(4, options.nodes());
        assertEquals(Path.of("out/run.json"), options.report());
        assertEquals(Duration.ofMillis(1500), options.failureTimeout());
        assertTrue(options.verbose());
        assertEquals("tcp://127.0.0.1:7000", options.bind());

        AgentOptions worker = AgentOptions.parse("role=worker,join=tcp://10.0.0.1:5555,parent=42");
        assertEquals(AgentOptions.Role.WORKER, worker.role());
        assertEquals("tcp://10.0.0.1:5555", worker.join());
        assertEquals(42, worker.parentPid());
    }

    @Test
    void bindAndAdvertiseTakeAnAddressWhosePortMayBeLeftOut() {
        AgentOptions options = AgentOptions.parse("role=worker,join=tcp://10.0.0.1:7000,bind=tcp://0.0.0.0,"
                + "advertise=tcp://10.0.0.2");
        assertEquals("tcp://0.0.0.0:0", options.bind());
        assertEquals("tcp://10.0.0.2:0", options.advertise());
        assertEquals("tcp://10.0.0.2:7001", AgentOptions.parse("advertise=tcp://10.0.0.2:7001").advertise());
        assertNull(AgentOptions.parse("bind=tcp://10.0.0.2:7001").advertise());
    }

    @Test
    void badBindAndAdvertiseAddressesAreRefusedNamingTheForm() {
        assertMessage("bind=10.0.0.2:7000", "bind must look like tcp://HOST[:PORT] with a port up to 65535, got '10.0.0.2:7000'");
        assertMessage("bind=tcp://10.0.0.2:70000", "bind must look like tcp://HOST[:PORT] with a port up to 65535");
        assertMessage("advertise=tcp://", "advertise must look like tcp://HOST[:PORT]");
        assertMessage("advertise=tcp://host:port", "advertise must look like tcp://HOST[:PORT]");
    }

    @Test
    void anUnknownKeyIsNamedAndTheValidOnesListed() {
        var e = assertThrows(AgentOptions.InvalidOptionException.class, () -> AgentOptions.parse("nodes=2,colour=red"));
        assertTrue(e.getMessage().startsWith("unknown dist agent option 'colour'"), e.getMessage());
        for (String key : AgentOptions.VALID.keySet()) {
            assertTrue(e.getMessage().contains(key), "usage lists " + key);
        }
    }

    @Test
    void badValuesAreRefusedWithTheirRange() {
        assertMessage("nodes=0", "nodes must be a whole number from 1 to 64, got '0'");
        assertMessage("nodes=65", "nodes must be a whole number from 1 to 64, got '65'");
        assertMessage("failure-timeout=600001", "failure-timeout must be a whole number from 200 to 600000");
        assertMessage("failure-timeout=199", "failure-timeout must be a whole number from 200 to 600000");
        assertMessage("verbose=yes", "verbose must be true or false, got 'yes'");
        assertMessage("role=boss", "role must be home or worker, got 'boss'");
        assertMessage("join=localhost:5555", "join must look like tcp://HOST:PORT");
        assertMessage("nodes", "is not of the form key=value");
        assertMessage("report=", "report needs a file name");
    }

    @Test
    void roleCombinationsThatCannotWorkAreRefused() {
        assertMessage("role=worker", "a worker needs join=tcp://HOST:PORT");
        assertMessage("role=worker,join=tcp://127.0.0.1:1,nodes=2", "nodes and report are options of the home");
    }

    private static void assertMessage(String arguments, String expected) {
        var e = assertThrows(AgentOptions.InvalidOptionException.class, () -> AgentOptions.parse(arguments));
        assertTrue(e.getMessage().contains(expected), "for '" + arguments + "': " + e.getMessage());
    }
}
