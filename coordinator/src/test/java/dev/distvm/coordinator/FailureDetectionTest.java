package dev.distvm.coordinator;

import static dev.distvm.coordinator.TestCluster.LIVENESS;
import static dev.distvm.coordinator.TestCluster.MARGIN;
import static dev.distvm.coordinator.TestCluster.PATIENT;
import static dev.distvm.coordinator.TestCluster.QUICK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.coordinator.TestCluster.Node;
import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.coordinator.proto.NodeState;
import dev.distvm.coordinator.proto.Role;
import java.time.Duration;
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
    void silentNodeWhoseProcessLivesHereIsSuspectedNotDeclaredDead() throws Exception {
        // A node of this JVM that falls silent is a busy node (its process lives): the same quick
        // timeout, but asking the process, must not declare it dead, nor lose the coordinator.
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
    void membershipIsLostWhenItsCoordinatorGoesAway() throws Exception {
        try (TestCluster cluster = TestCluster.start(QUICK)) {
            Node node = cluster.join(Role.HOME);
            String coordinator = cluster.coordinatorAddress();

            cluster.coordinator().close();

            String reason = node.events().awaitLost(reportBound(cluster));
            assertTrue(reason.contains(coordinator), reason);
            assertFalse(node.membership().awaitAlive(2, LIVENESS), "a lost membership stops waiting at once");
        }
    }

    @Test
    void nodeUnknownToARestartedCoordinatorLearnsItWasExpelled() throws Exception {
        try (TestCluster cluster = TestCluster.start(PATIENT)) {
            Node node = cluster.join(Role.WORKER);

            cluster.restartCoordinator();

            String reason = node.events().awaitLost(LIVENESS);
            assertTrue(reason.contains("expelled"), reason);
        }
    }
}
