package dev.distvm.coordinator;

import static dev.distvm.coordinator.TestCluster.LIVENESS;
import static dev.distvm.coordinator.TestCluster.MARGIN;
import static dev.distvm.coordinator.TestCluster.PATIENT;
import static dev.distvm.coordinator.TestCluster.QUICK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.coordinator.TestCluster.Node;
import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.coordinator.proto.NodeState;
import dev.distvm.coordinator.proto.Role;
import dev.distvm.coordinator.proto.LeaveRequest;
import dev.distvm.coordinator.proto.MembershipType;
import dev.distvm.coordinator.proto.NodeTable;
import dev.distvm.coordinator.proto.StatusRequest;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.TransportException;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Silent nodes declared dead, and nodes that lose their coordinator. */
class FailureDetectionTest {
    /** The longest a failure may take to be reported: the timeout, plus slack for a busy machine. */
    private static Duration reportBound(TestCluster cluster) {
        return cluster.settings().failureTimeout().plus(MARGIN);
    }

    @Test
    void nodeWhoseHeartbeatsStopIsDeclaredDeadAndTheOthersHearIt() throws Exception {
        try (TestCluster cluster = TestCluster.start(QUICK)) {
            Node home = cluster.join(Role.HOME);
            Node worker = cluster.join(Role.WORKER);
            assertTrue(home.membership().awaitAlive(2, LIVENESS));

            worker.crash();

            NodeInfo dead = home.events().awaitChange(worker.id(), NodeState.DEAD, reportBound(cluster));
            assertEquals(worker.endpoint().address(), dead.getAddress());
            assertEquals(NodeState.DEAD, home.membership().node(worker.id()).orElseThrow().getState());
            assertFalse(home.membership().alive().stream().anyMatch(n -> n.getId() == worker.id()));
            NodeInfo listed = home.membership().status().getNodesList().stream()
                    .filter(n -> n.getId() == worker.id()).findFirst().orElseThrow();
            assertEquals(NodeState.DEAD, listed.getState(), "the coordinator's table keeps the dead node");
        }
    }

    @Test
    void whenTwoMembersDieTogetherTheSurvivorHearsOfBoth() throws Exception {
        try (TestCluster cluster = TestCluster.start(QUICK)) {
            // Ids in this order: each death is announced to the other dead node before the survivor.
            Node first = cluster.join(Role.WORKER);
            Node second = cluster.join(Role.WORKER);
            Node survivor = cluster.join(Role.HOME);
            assertTrue(first.membership().awaitAlive(3, LIVENESS));
            assertTrue(second.membership().awaitAlive(3, LIVENESS));

            first.crash();
            second.crash();

            survivor.events().awaitChange(first.id(), NodeState.DEAD, reportBound(cluster));
            survivor.events().awaitChange(second.id(), NodeState.DEAD, reportBound(cluster));
            assertEquals(1, survivor.membership().alive().size());
        }
    }

    @Test
    void nodesOfTheCoordinatorsOwnProcessAreNeverDeclaredDead() throws Exception {
        // The home's embedded coordinator shares the home's process: silence there is this
        // process being slow, never a death. The same quick timeout, but asking processes.
        MembershipSettings askingProcesses = new MembershipSettings(QUICK.heartbeat(), QUICK.failureTimeout());
        try (TestCluster cluster = TestCluster.start(askingProcesses)) {
            Node home = cluster.join(Role.HOME);
            Node worker = cluster.join(Role.WORKER);
            assertTrue(home.membership().awaitAlive(2, LIVENESS));

            worker.crash();

            Thread.sleep(reportBound(cluster).toMillis());
            assertEquals(NodeState.ALIVE, home.membership().node(worker.id()).orElseThrow().getState());
            assertTrue(home.membership().status().getNodesList().stream()
                    .allMatch(n -> n.getState() == NodeState.ALIVE), "the coordinator's table");
        }
    }

    @Test
    void joinSucceedsWhileAnotherMemberIsDeadButNotYetDeclaredDead() throws Exception {
        // PATIENT: the crashed node stays in the table as alive for the whole test.
        try (TestCluster cluster = TestCluster.start(PATIENT)) {
            Node crashed = cluster.join(Role.WORKER);
            crashed.crash();

            Node next = cluster.join(Role.WORKER);

            assertTrue(next.id() > crashed.id());
            assertTrue(next.membership().node(crashed.id()).isPresent(), "the join reply lists every live member");
        }
    }

    @Test
    void membershipOutlivesItsCoordinator() throws Exception {
        try (TestCluster cluster = TestCluster.start(QUICK)) {
            Node home = cluster.join(Role.HOME);
            Node worker = cluster.join(Role.WORKER);
            assertTrue(home.membership().awaitAlive(2, LIVENESS));

            cluster.coordinator().close();

            Thread.sleep(reportBound(cluster).toMillis());
            assertFalse(home.membership().isLost());
            assertFalse(worker.membership().isLost());
            assertEquals(2, home.membership().alive().size(), "nobody is dead for want of a coordinator");
        }
    }

    @Test
    void membersRejoinACoordinatorRestartedAtTheSameAddressWithTheirIds() throws Exception {
        try (TestCluster cluster = TestCluster.start(PATIENT)) {
            Node home = cluster.join(Role.HOME);
            Node worker = cluster.join(Role.WORKER);

            cluster.restartCoordinator();

            assertTrue(home.membership().await(known -> statesAt(cluster).size() == 2, LIVENESS),
                    "the restarted coordinator's table: " + statesAt(cluster));
            assertEquals(Map.of(home.id(), NodeState.ALIVE, worker.id(), NodeState.ALIVE), statesAt(cluster));
            assertFalse(home.membership().isLost());
            assertFalse(worker.membership().isLost());
            Node newcomer = cluster.join(Role.WORKER);
            assertTrue(newcomer.id() > Math.max(home.id(), worker.id()), "ids stay unique: " + newcomer.id());
        }
    }

    @Test
    void aSecondHomeIsRefusedByARestartedCoordinatorOnceTheHomeRejoined() throws Exception {
        try (TestCluster cluster = TestCluster.start(PATIENT)) {
            Node home = cluster.join(Role.HOME);
            cluster.restartCoordinator();
            assertTrue(home.membership().await(known -> statesAt(cluster).size() == 1, LIVENESS));

            TransportException refused = assertThrows(TransportException.class, () -> cluster.join(Role.HOME));

            assertTrue(refused.getMessage().contains("already has a home (node " + home.id()), refused.getMessage());
        }
    }

    @Test
    void aNodeTheCoordinatorNoLongerHoldsAliveLearnsItWasExpelled() throws Exception {
        try (TestCluster cluster = TestCluster.start(PATIENT)) {
            Node node = cluster.join(Role.WORKER);
            // What a paused node finds when it resumes: its entry is no longer alive. (A node leaves
            // only for itself: the LEAVE goes out under its id, from another connection.)
            try (Endpoint sameId = Endpoint.open(cluster.config())) {
                sameId.nodeId(node.id());
                sameId.call(cluster.coordinatorAddress(), MembershipType.LEAVE_VALUE,
                        LeaveRequest.newBuilder().setNodeId(node.id()).build(), NodeTable.parser());
            }

            String reason = node.events().awaitLost(LIVENESS);

            assertTrue(reason.contains("expelled"), reason);
            assertTrue(node.membership().isLost());
        }
    }

    /** The coordinator's table, by id; empty while it does not answer. */
    private static Map<Integer, NodeState> statesAt(TestCluster cluster) {
        try (Endpoint asking = Endpoint.open(cluster.config())) {
            return asking.call(cluster.coordinatorAddress(), MembershipType.STATUS_VALUE,
                    StatusRequest.getDefaultInstance(), NodeTable.parser()).getNodesList().stream()
                    .collect(Collectors.toMap(NodeInfo::getId, NodeInfo::getState));
        } catch (TransportException e) {
            return Map.of();
        }
    }
}
