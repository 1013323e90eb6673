package dev.distvm.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.coordinator.proto.NodeState;
import dev.distvm.coordinator.proto.NodeTable;
import dev.distvm.coordinator.proto.Role;
import org.junit.jupiter.api.Test;

class StatusTableTest {
    private static NodeInfo node(int id, Role role, long pid) {
        return NodeInfo.newBuilder().setId(id).setRole(role).setPid(pid).setAddress("tcp://127.0.0.1:" + (7000 + id))
                .setState(NodeState.ALIVE).setJoinedAtMillis(1_000).build();
    }

    @Test
    void aSuspectedNodeIsShownAsSuspectWithItsSilenceAndWhatHappensNext() {
        NodeTable table = NodeTable.newBuilder()
                .addNodes(node(1, Role.HOME, 101)).addNodes(node(2, Role.WORKER, 102))
                .putSuspectedSilentMillis(2, 4_200).setFailureTimeoutMillis(30_000).setNowMillis(11_000).build();

        String printed = Main.StatusTable.format(table);

        assertTrue(printed.matches("(?s).*\\n1\\s+home\\s+alive\\s+101\\s.*"), printed);
        assertTrue(printed.matches("(?s).*\\n2\\s+worker\\s+suspect\\s+102\\s.*"), printed);
        assertTrue(printed.contains("node 2 is suspected: silent for 4.2 s; it is declared dead when its death is"
                + " certain, or after 30.0 s of silence, unless it is heard from"), printed);
    }

    @Test
    void aNodeAlreadyDeclaredDeadIsShownDeadNotSuspect() {
        NodeTable table = NodeTable.newBuilder()
                .addNodes(node(3, Role.WORKER, 103).toBuilder().setState(NodeState.DEAD))
                .putSuspectedSilentMillis(3, 31_000).setFailureTimeoutMillis(30_000).build();

        String printed = Main.StatusTable.format(table);

        assertTrue(printed.matches("(?s).*\\n3\\s+worker\\s+dead\\s+103\\s.*"), printed);
        assertFalse(printed.contains("suspected"), printed);
    }
}
