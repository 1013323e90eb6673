package dev.distvm.coordinator;

import static dev.distvm.coordinator.TestCluster.LIVENESS;
import static dev.distvm.coordinator.TestCluster.PATIENT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.coordinator.TestCluster.Node;
import dev.distvm.coordinator.proto.HeartbeatReply;
import dev.distvm.coordinator.proto.JoinReply;
import dev.distvm.coordinator.proto.JoinRequest;
import dev.distvm.coordinator.proto.MembershipType;
import dev.distvm.coordinator.proto.NodeEvent;
import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.coordinator.proto.NodeState;
import dev.distvm.coordinator.proto.NodeTable;
import dev.distvm.coordinator.proto.Role;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.TransportException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Joining, leaving and the node table, against a real coordinator on loopback. */
class MembershipTest {
    @Test
    void nodesThatJoinGetDistinctIdsAndEachSeesAllTheOthers() throws Exception {
        try (TestCluster cluster = TestCluster.start(PATIENT)) {
            List<Node> nodes = List.of(cluster.join(Role.HOME), cluster.join(Role.WORKER), cluster.join(Role.WORKER));
            Set<Integer> ids = nodes.stream().map(Node::id).collect(Collectors.toSet());

            assertEquals(3, ids.size(), "ids are distinct: " + ids);
            for (Node node : nodes) {
                assertTrue(node.id() > 0, "0 means 'not joined' on the wire");
                assertEquals(node.id(), node.endpoint().nodeId(), "the endpoint stamps the id it was given");
                assertEquals(node.endpoint().address(), node.membership().self().getAddress());
                assertTrue(node.membership().awaitAlive(3, LIVENESS), "node " + node.id() + " sees only "
                        + node.membership().alive());
                assertEquals(ids, node.membership().alive().stream().map(NodeInfo::getId).collect(Collectors.toSet()));
            }
            Node first = nodes.get(0);
            for (Node later : nodes.subList(1, 3)) {
                NodeInfo joined = first.events().awaitChange(later.id(), NodeState.ALIVE, LIVENESS);
                assertEquals(Role.WORKER, joined.getRole());
            }
        }
    }

    @Test
    void nodeThatLeavesIsReportedLeftToTheOthers() throws Exception {
        try (TestCluster cluster = TestCluster.start(PATIENT)) {
            Node home = cluster.join(Role.HOME);
            Node worker = cluster.join(Role.WORKER);
            assertTrue(home.membership().awaitAlive(2, LIVENESS));

            worker.membership().leave();

            NodeInfo left = home.events().awaitChange(worker.id(), NodeState.LEFT, LIVENESS);
            assertEquals(worker.endpoint().address(), left.getAddress());
            assertEquals(List.of(home.id()), home.membership().alive().stream().map(NodeInfo::getId).toList());
        }
    }

    @Test
    void idOfANodeThatLeftIsNotGivenToTheNextNode() throws Exception {
        try (TestCluster cluster = TestCluster.start(PATIENT)) {
            Node first = cluster.join(Role.WORKER);
            first.membership().leave();

            Node next = cluster.join(Role.WORKER);

            assertNotEquals(first.id(), next.id());
        }
    }

    @Test
    void secondHomeIsRefusedSayingTheClusterAlreadyHasOne() throws Exception {
        try (TestCluster cluster = TestCluster.start(PATIENT)) {
            Node home = cluster.join(Role.HOME);

            TransportException refused = assertThrows(TransportException.class, () -> cluster.join(Role.HOME));

            assertTrue(refused.getMessage().contains("already has a home"), refused.getMessage());
            assertTrue(refused.getMessage().contains("node " + home.id()), "names the home there is: " + refused.getMessage());
            assertTrue(cluster.join(Role.WORKER).id() > 0, "workers are still admitted");
        }
    }

    @Test
    void homeThatLeftMakesRoomForANewHome() throws Exception {
        try (TestCluster cluster = TestCluster.start(PATIENT)) {
            cluster.join(Role.HOME).membership().leave();

            Node second = cluster.join(Role.HOME);

            assertEquals(Role.HOME, second.membership().self().getRole());
        }
    }

    @Test
    void joinWithAnotherClusterSecretFailsNamingTheVariableToSet() throws Exception {
        try (TestCluster cluster = TestCluster.start(PATIENT)) {
            Endpoint stranger = cluster.endpoint(ClusterSecret.of("not this cluster's secret"));

            TransportException refused = assertThrows(TransportException.class, () -> cluster.join(stranger, Role.WORKER));

            assertTrue(refused.getMessage().contains(ClusterSecret.ENV), refused.getMessage());
            assertTrue(refused.getMessage().contains("refused to admit this node: cannot connect to " + cluster.coordinatorAddress()
                    + ": authentication failed"), refused.getMessage());
        }
    }

    @Test
    void aNodeOnLoopbackJoiningACoordinatorOffLoopbackFailsNamingBindBeforeItTellsPeersALoopbackAddress()
            throws Exception {
        try (TestCluster cluster = TestCluster.start(PATIENT)) {
            // TEST-NET-1 (RFC 5737): nothing answers there, and the refusal must come before any attempt.
            String offLoopback = "tcp://192.0.2.1:7000";

            TransportException refused = assertThrows(TransportException.class,
                    () -> Membership.join(cluster.endpoint(), offLoopback, Role.WORKER, new RecordingListener()));

            assertTrue(refused.getMessage().contains("on loopback, but joins the coordinator at " + offLoopback),
                    refused.getMessage());
            assertTrue(refused.getMessage().contains("--bind tcp://ADDRESS"), refused.getMessage());
            assertTrue(refused.getMessage().contains("--advertise tcp://ADDRESS"), refused.getMessage());
        }
    }

    @Test
    void aCoordinatorReachedOffLoopbackRefusesANodeOnLoopbackThatJoinedItThroughLoopback() throws Exception {
        try (TestCluster cluster = TestCluster.start(PATIENT);
             Coordinator advertised = Coordinator.start(Endpoint.open(cluster.config()
                     .withAdvertisedAddress("tcp://192.0.2.1")), PATIENT)) {
            String port = advertised.address().substring(advertised.address().lastIndexOf(':') + 1);

            TransportException refused = assertThrows(TransportException.class, () -> Membership.join(
                    cluster.endpoint(), "tcp://127.0.0.1:" + port, Role.WORKER, new RecordingListener()));

            assertTrue(refused.getMessage().contains("on loopback, but the cluster's coordinator is at "
                    + advertised.address() + ", off loopback"), refused.getMessage());
            assertTrue(refused.getMessage().contains("--bind tcp://ADDRESS"), refused.getMessage());
        }
    }

    @Test
    void joinToAnAddressWhereNoCoordinatorListensFailsNamingTheAddress() throws Exception {
        try (TestCluster cluster = TestCluster.start(PATIENT)) {
            String nobody = addressWhereNothingListens();

            TransportException failed = assertThrows(TransportException.class,
                    () -> Membership.join(cluster.endpoint(), nobody, Role.WORKER, new RecordingListener()));

            assertTrue(failed.getMessage().contains(nobody), failed.getMessage());
        }
    }

    @Test
    void joinCanBeRetriedOnTheSameEndpointAfterAFailedAttempt() throws Exception {
        try (TestCluster cluster = TestCluster.start(PATIENT)) {
            Endpoint endpoint = cluster.endpoint();
            String nobody = addressWhereNothingListens();
            assertThrows(TransportException.class,
                    () -> Membership.join(endpoint, nobody, Role.WORKER, new RecordingListener()));

            Node node = cluster.join(endpoint, Role.WORKER);

            assertTrue(node.id() > 0);
        }
    }

    private static Map<Integer, NodeState> states(NodeTable table) {
        return table.getNodesList().stream().collect(Collectors.toMap(NodeInfo::getId, NodeInfo::getState));
    }

    private static String addressWhereNothingListens() throws IOException {
        try (ServerSocketChannel probe = ServerSocketChannel.open()) {
            probe.bind(new InetSocketAddress("127.0.0.1", 0));
            return "tcp://127.0.0.1:" + ((InetSocketAddress) probe.getLocalAddress()).getPort();
        }
    }

    @Test
    void nodeEventThatOvertakesTheJoinReplyIsNotLost() throws Exception {
        try (TestCluster cluster = TestCluster.start(PATIENT)) {
            // A coordinator driven by hand forces an order a real one produces only by chance: news of
            // a node that joined after this one's reply was built arrives before that reply does.
            Endpoint coordinator = cluster.endpoint();
            Endpoint joiner = cluster.endpoint();
            RecordingListener events = new RecordingListener();
            NodeInfo later = NodeInfo.newBuilder().setId(2).setRole(Role.WORKER).setAddress(coordinator.address())
                    .setState(NodeState.ALIVE).build();
            coordinator.registerImmediate(MembershipType.HEARTBEAT_VALUE, m -> HeartbeatReply.getDefaultInstance());
            coordinator.register(MembershipType.JOIN_VALUE, m -> {
                JoinRequest request = m.decode(JoinRequest.parser());
                coordinator.send(request.getAddress(), MembershipType.NODE_EVENT_VALUE,
                        NodeEvent.newBuilder().setNode(later).build());
                return CompletableFuture.supplyAsync(() -> {
                    awaitDealtWith(later, joiner, events);
                    return joinReply(request);
                });
            });

            Node node = cluster.join(joiner, coordinator.address(), Role.WORKER, events);

            node.events().awaitChange(later.getId(), NodeState.ALIVE, LIVENESS);
            assertEquals(List.of(1, 2), node.membership().alive().stream().map(NodeInfo::getId).toList());
        }
    }

    /** Until the joiner has either reported the event or refused it (a refusal counts as rejected). */
    private static void awaitDealtWith(NodeInfo event, Endpoint joiner, RecordingListener events) {
        long deadline = System.nanoTime() + LIVENESS.toNanos();
        while (joiner.counters().rejected() == 0 && events.changes().stream().noneMatch(n -> n.getId() == event.getId())) {
            if (System.nanoTime() - deadline > 0) {
                return; // the test's own wait will report what is missing
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static JoinReply joinReply(JoinRequest request) {
        NodeInfo self = NodeInfo.newBuilder().setId(1).setRole(request.getRole()).setAddress(request.getAddress())
                .setState(NodeState.ALIVE).build();
        return JoinReply.newBuilder().setNodeId(1).addNodes(self).setHeartbeatMillis(100)
                .setFailureTimeoutMillis((int) PATIENT.failureTimeout().toMillis()).build();
    }

    @Test
    void statusListsEveryNodeThatEverJoinedWithItsState() throws Exception {
        try (TestCluster cluster = TestCluster.start(PATIENT)) {
            Node home = cluster.join(Role.HOME);
            Node stays = cluster.join(Role.WORKER);
            Node leaves = cluster.join(Role.WORKER);
            leaves.membership().leave();

            NodeTable table = home.membership().status();

            Map<Integer, NodeInfo> byId = table.getNodesList().stream()
                    .collect(Collectors.toMap(NodeInfo::getId, Function.identity()));
            assertEquals(Set.of(home.id(), stays.id(), leaves.id()), byId.keySet());
            assertEquals(NodeState.ALIVE, byId.get(home.id()).getState());
            assertEquals(NodeState.ALIVE, byId.get(stays.id()).getState());
            assertEquals(NodeState.LEFT, byId.get(leaves.id()).getState());
            for (Node node : Stream.of(home, stays, leaves).toList()) {
                NodeInfo listed = byId.get(node.id());
                assertEquals(node.endpoint().address(), listed.getAddress());
                assertEquals(ProcessHandle.current().pid(), listed.getPid());
            }
            assertEquals(Role.HOME, byId.get(home.id()).getRole());
            assertEquals(Role.WORKER, byId.get(stays.id()).getRole());
            assertEquals(states(table), states(stays.membership().status()), "every member is shown the same table");
        }
    }
}
