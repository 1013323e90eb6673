package dev.distvm.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.distvm.coordinator.proto.JoinRequest;
import dev.distvm.coordinator.proto.Role;
import org.junit.jupiter.api.Test;

class MembersTest {
    private static JoinRequest joining(Role role, int pid) {
        return JoinRequest.newBuilder().setRole(role).setAddress("tcp://127.0.0.1:" + (40000 + pid)).setPid(pid)
                .setHost("localhost").build();
    }

    @Test
    void aHomesOwnCoordinatorNumbersItsHomeOneEvenWhenAWorkerJoinsFirst() {
        Members members = new Members(true);
        assertEquals(2, members.add(joining(Role.WORKER, 11), 0).getId());
        assertEquals(1, members.add(joining(Role.HOME, 10), 0).getId());
        assertEquals(3, members.add(joining(Role.WORKER, 12), 0).getId());
        assertEquals(4, members.add(joining(Role.HOME, 13), 0).getId(), "number 1 is taken: a second home is numbered as any node");
    }

    @Test
    void aStandaloneCoordinatorNumbersNodesInTheOrderTheyJoin() {
        Members members = new Members(false);
        assertEquals(1, members.add(joining(Role.WORKER, 11), 0).getId());
        assertEquals(2, members.add(joining(Role.HOME, 10), 0).getId());
    }
}
