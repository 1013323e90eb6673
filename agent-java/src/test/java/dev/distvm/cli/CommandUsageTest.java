package dev.distvm.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class CommandUsageTest {
    @Test
    void eachCommandsHelpIsThatCommandsUsageAlone() {
        String coordinator = Main.usage("coordinator");
        assertTrue(coordinator.startsWith("usage: dist coordinator --bind tcp://HOST:PORT"), coordinator);
        assertTrue(coordinator.contains("DIST_SECRET"), coordinator);
        assertFalse(coordinator.contains("status --coordinator"), coordinator);
        String status = Main.usage("status");
        assertTrue(status.startsWith("usage: dist status --coordinator tcp://HOST:PORT"), status);
        assertFalse(status.contains("run a coordinator"), status);
        assertTrue(Main.usage("archive").startsWith("usage: dist archive\n"), Main.usage("archive"));
    }

    @Test
    void helpAmongAnOptionsArgumentsAsksForTheUsage() {
        var help = assertThrows(Main.HelpRequested.class,
                () -> new Main.Options(List.of("--coordinator", "tcp://127.0.0.1:1", "--help"), "status", "--coordinator"));
        assertTrue(help.command.equals("status"), help.command);
    }
}
