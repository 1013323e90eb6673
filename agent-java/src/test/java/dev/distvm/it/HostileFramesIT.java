package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.coordinator.proto.JoinRequest;
import dev.distvm.coordinator.proto.MembershipType;
import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.coordinator.proto.NodeState;
import dev.distvm.coordinator.proto.NodeTable;
import dev.distvm.coordinator.proto.Role;
import dev.distvm.coordinator.proto.StatusRequest;
import dev.distvm.node.proto.ClassReply;
import dev.distvm.node.proto.ClassRequest;
import dev.distvm.node.proto.NodeMessageType;
import dev.distvm.node.proto.NodeReport;
import dev.distvm.node.proto.ReportRequest;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.Inbound;
import dev.distvm.transport.RemoteErrorException;
import dev.distvm.transport.TransportConfig;
import dev.distvm.transport.WireBuffer;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A peer that holds the cluster secret but is no node of the run sends malformed bodies of every
 * message type the coordinator, the home and a worker handle, as requests and one way, while the
 * program waits: every request is answered (refused, or failed with a reason), nothing joins,
 * every node still answers, and the program then runs on both nodes to its right result.
 */
class HostileFramesIT {
    /** An id no node of the run has: the coordinator numbers nodes from 1. */
    private static final int STRANGER = 9_999;
    /** Long enough for a loaded machine; a request still unanswered after it is a hang. */
    private static final Duration ANSWER = Duration.ofSeconds(60);

    private final ClusterSecret secret = ClusterSecret.random();
    private final List<Jvm> processes = new ArrayList<>();
    private Endpoint hostile;

    @AfterEach
    void stopEverything() {
        if (hostile != null) {
            hostile.close();
        }
        processes.forEach(Jvm::close);
    }

    @Test
    void malformedBodiesOfEveryTypeAreRefusedAndTheRunEndsRight() throws Exception {
        String coordinator;
        try (ServerSocket socket = new ServerSocket(0)) {
            coordinator = "tcp://127.0.0.1:" + socket.getLocalPort();
        }
        Map<String, String> environment = Map.of(ClusterSecret.ENV, secret.value());
        started(Jvm.start(environment, List.of("-jar", Jvm.DIST_JAR.toString(), "coordinator", "--bind", coordinator)))
                .awaitLine("coordinator listening at " + coordinator, Duration.ofSeconds(60));
        Jvm worker = started(Jvm.start(environment, List.of("-javaagent:" + Jvm.DIST_JAR + "=role=worker,join=" + coordinator,
                "-cp", Jvm.DIST_JAR.toString(), "dev.distvm.agent.WorkerMain")));
        hostile = Endpoint.open(TransportConfig.loopback(secret));
        hostile.nodeId(STRANGER);
        awaitMembers(coordinator, 1, Duration.ofSeconds(60));
        Jvm home = started(Jvm.start(environment, List.of("-agentpath:" + Jvm.NATIVE,
                "-javaagent:" + Jvm.DIST_JAR + "=join=" + coordinator, "-cp", Jvm.TEST_CLASSES.toString(),
                "itapp.SharedCounter")));
        home.awaitLine("shared counter ready", Duration.ofSeconds(60));
        List<NodeInfo> members = awaitMembers(coordinator, 2, Duration.ofSeconds(60));
        String homeAddress = addressOf(members, Role.HOME);
        String workerAddress = addressOf(members, Role.WORKER);

        List<Integer> types = new ArrayList<>();
        Arrays.stream(MembershipType.values()).filter(t -> t != MembershipType.UNRECOGNIZED).forEach(t -> types.add(t.getNumber()));
        Arrays.stream(NodeMessageType.values()).filter(t -> t != NodeMessageType.UNRECOGNIZED).forEach(t -> types.add(t.getNumber()));
        List<Outcome> outcomes = new ArrayList<>();
        for (int type : types) {
            outcomes.addAll(attack(coordinator, "coordinator", type));
            outcomes.addAll(attack(homeAddress, "home", type));
            outcomes.addAll(attack(workerAddress, "worker", type));
        }
        assertEquals(3 * types.size() * malformedBodies(0).size(), outcomes.size());
        for (Outcome outcome : outcomes) {
            outcome.assertAnswered();
        }

        assertEquals(members, awaitMembers(coordinator, 2, Duration.ofSeconds(10)), "the attack changed the members");
        for (String node : List.of(homeAddress, workerAddress)) {
            NodeReport report = hostile.call(node, NodeMessageType.NODE_REPORT_VALUE, ReportRequest.getDefaultInstance(),
                    NodeReport.parser(), ANSWER);
            assertTrue(report.getPid() > 0, "node at " + node + " answers a report request: " + report);
        }
        ClassReply helper = hostile.call(homeAddress, NodeMessageType.CLASS_BYTES_VALUE,
                ClassRequest.newBuilder().setResource("itapp/Helper.class").build(), ClassReply.parser(), ANSWER);
        assertTrue(helper.getFound(), "the home still serves classes");

        home.feedStdin("go\n");
        assertEquals(0, home.awaitExit(Duration.ofSeconds(120)), home.output());
        assertTrue(home.stdout().contains("count=2000"), home.output());
        assertFalse(home.output().contains("cannot go on coherently"), home.output());
        assertTrue(worker.process().waitFor(30, TimeUnit.SECONDS), "the worker ends with its home\n" + worker.output());
    }

    private Jvm started(Jvm jvm) {
        processes.add(jvm);
        return jvm;
    }

    private List<NodeInfo> awaitMembers(String coordinator, int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            NodeTable table = hostile.call(coordinator, MembershipType.STATUS_VALUE, StatusRequest.getDefaultInstance(),
                    NodeTable.parser(), ANSWER);
            List<NodeInfo> alive = table.getNodesList().stream().filter(n -> n.getState() == NodeState.ALIVE)
                    .map(n -> n.toBuilder().clearLoad().build()).toList();
            if (alive.size() >= count || System.nanoTime() > deadline) {
                assertEquals(count, alive.size(), "alive members: " + table);
                return alive;
            }
            Thread.sleep(100);
        }
    }

    private static String addressOf(List<NodeInfo> members, Role role) {
        return members.stream().filter(n -> n.getRole() == role).findFirst().orElseThrow().getAddress();
    }

    /** Every malformed body of one type to one node: each as a request (its answer kept) and one way. */
    private List<Outcome> attack(String node, String name, int type) {
        List<Outcome> outcomes = new ArrayList<>();
        for (byte[] body : malformedBodies(type)) {
            String what = name + " type " + type + " body " + Arrays.toString(Arrays.copyOf(body, Math.min(body.length, 16)))
                    + (body.length > 16 ? "... (" + body.length + " bytes)" : "");
            outcomes.add(new Outcome(what, hostile.request(node, type, buffer(body), ANSWER)));
            hostile.send(node, type, buffer(body));
        }
        return outcomes;
    }

    /**
     * Empty, random, huge and negative counts and lengths at the front (where every object-space
     * and raw body keeps its numbers), a protobuf field announcing 2 GiB, a negative id, a valid
     * join cut short, and a join that decodes but names no address and a negative pid.
     */
    private static List<byte[]> malformedBodies(int type) {
        Random random = new Random(type);
        List<byte[]> bodies = new ArrayList<>();
        bodies.add(new byte[0]);
        for (int length : new int[] {1, 7, 64, 4096}) {
            byte[] noise = new byte[length];
            random.nextBytes(noise);
            bodies.add(noise);
        }
        for (int count : new int[] {Integer.MAX_VALUE, -1, Integer.MIN_VALUE}) {
            ByteBuffer numbers = ByteBuffer.allocate(64);
            while (numbers.hasRemaining()) {
                numbers.putInt(count);
            }
            bodies.add(numbers.array());
        }
        // Object-space message numbers, then a body length that fits and a holder count that does not.
        bodies.add(ByteBuffer.allocate(32).putLong(1).putLong(0).putInt(0).putInt(Integer.MAX_VALUE).array());
        bodies.add(new byte[] {0x12, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07, 1, 2, 3});
        bodies.add(new byte[] {0x08, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff,
                (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x01});
        byte[] join = JoinRequest.newBuilder().setRole(Role.WORKER).setAddress("tcp://127.0.0.1:1").setPid(1).build().toByteArray();
        bodies.add(Arrays.copyOf(join, join.length / 2));
        bodies.add(JoinRequest.newBuilder().setRole(Role.WORKER).setPid(-1).build().toByteArray()); // decodes; says nothing true
        return bodies;
    }

    private static WireBuffer buffer(byte[] body) {
        WireBuffer buffer = new WireBuffer(body.length);
        buffer.appendBytes(body);
        return buffer;
    }

    /** A request's answer: a reply, or an error reply that says why; silence or a lost connection fails. */
    private record Outcome(String what, CompletableFuture<Inbound> answer) {
        void assertAnswered() throws InterruptedException {
            try {
                answer.get();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof RemoteErrorException refused) || refused.getMessage().isBlank()) {
                    throw new AssertionError("no answer to " + what + ": " + e.getCause(), e.getCause());
                }
            }
        }
    }
}
