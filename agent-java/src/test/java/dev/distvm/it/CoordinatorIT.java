package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.coordinator.proto.JoinReply;
import dev.distvm.coordinator.proto.JoinRequest;
import dev.distvm.coordinator.proto.MembershipType;
import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.coordinator.proto.NodeState;
import dev.distvm.coordinator.proto.NodeTable;
import dev.distvm.coordinator.proto.Role;
import dev.distvm.coordinator.proto.StatusRequest;
import dev.distvm.transport.AuthenticationException;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.OpenerHandshake;
import dev.distvm.transport.TransportConfig;
import dev.distvm.transport.TransportException;
import dev.distvm.transport.proto.Envelope;
import dev.distvm.transport.proto.ErrorCode;
import dev.distvm.transport.proto.ErrorReply;
import dev.distvm.transport.proto.Kind;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A coordinator process with worker processes joined to it: failure detection of a killed worker,
 * and refusal of malformed frames, wrong protocol versions and wrong secrets while it keeps serving.
 */
class CoordinatorIT {
    /** Less than the default failure timeout of 30 s: a death found by evidence, not by the timeout. */
    private static final Duration EVIDENCE_DEADLINE = Duration.ofSeconds(20);

    private final ClusterSecret secret = ClusterSecret.random();
    private final List<Jvm> processes = new ArrayList<>();
    private String address;
    private Jvm coordinator;
    private Endpoint client;

    @BeforeEach
    void startCoordinator() throws Exception {
        address = "tcp://127.0.0.1:" + freePort();
        coordinator = coordinator();
        client = Endpoint.open(TransportConfig.loopback(secret));
    }

    /** A coordinator process at {@code address}, with the default failure detection unless options say otherwise. */
    private Jvm coordinator(String... options) throws Exception {
        List<String> arguments = new ArrayList<>(List.of("-jar", Jvm.DIST_JAR.toString(), "coordinator", "--bind", address));
        arguments.addAll(List.of(options));
        Jvm started = started(Jvm.start(Map.of(ClusterSecret.ENV, secret.value()), arguments));
        started.awaitLine("coordinator listening at " + address, Duration.ofSeconds(60));
        return started;
    }

    @AfterEach
    void stopEverything() {
        if (client != null) {
            client.close();
        }
        processes.forEach(Jvm::close);
    }

    private Jvm started(Jvm jvm) {
        processes.add(jvm);
        return jvm;
    }

    private Jvm worker(String clusterSecret) throws IOException {
        return started(Jvm.start(Map.of(ClusterSecret.ENV, clusterSecret), List.of(
                "-javaagent:" + Jvm.DIST_JAR + "=role=worker,join=" + address, "-cp", Jvm.DIST_JAR.toString(),
                "dev.distvm.agent.WorkerMain")));
    }

    private NodeTable status() {
        try {
            return client.call(address, MembershipType.STATUS_VALUE, StatusRequest.getDefaultInstance(),
                    NodeTable.parser(), Duration.ofSeconds(30));
        } catch (TransportException e) {
            throw new AssertionError("no status from the coordinator at " + address + ": " + e.getMessage() + "\n"
                    + coordinator.output(), e);
        }
    }

    private Optional<NodeInfo> nodeWithPid(long pid) {
        return status().getNodesList().stream().filter(n -> n.getPid() == pid).findFirst();
    }

    private NodeInfo awaitState(long pid, NodeState state, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<NodeInfo> node = nodeWithPid(pid);
            if (node.isPresent() && node.get().getState() == state) {
                return node.get();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("pid " + pid + " not " + state + " within " + timeout + "; table: " + status());
            }
            Thread.sleep(20);
        }
    }

    @Test
    void aKilledWorkerIsDeclaredDeadOnTheEvidenceBeforeTheFailureTimeout() throws Exception {
        Jvm victim = worker(secret.value());
        Jvm survivor = worker(secret.value());
        awaitState(victim.pid(), NodeState.ALIVE, Duration.ofSeconds(60));
        awaitState(survivor.pid(), NodeState.ALIVE, Duration.ofSeconds(60));

        victim.process().destroyForcibly();
        victim.process().waitFor();
        awaitState(victim.pid(), NodeState.DEAD, EVIDENCE_DEADLINE);
        assertEquals(NodeState.ALIVE, nodeWithPid(survivor.pid()).orElseThrow().getState());
        coordinator.awaitLine("declared dead: suspected after \\d+ ms of silence, and its process " + victim.pid()
                + " has exited", Duration.ofSeconds(5));

        Jvm cli = started(Jvm.start(Map.of(ClusterSecret.ENV, secret.value()),
                List.of("-jar", Jvm.DIST_JAR.toString(), "status", "--coordinator", address)));
        assertEquals(0, cli.awaitExit(Duration.ofSeconds(30)), cli.output());
        String table = String.join("\n", cli.stdout());
        assertTrue(table.matches("(?s).*worker\\s+dead\\s+" + victim.pid() + ".*"), table);
        assertTrue(table.matches("(?s).*worker\\s+alive\\s+" + survivor.pid() + ".*"), table);
    }

    @Test
    void aWorkerStoppedPastTheFailureTimeoutLearnsItWasExpelledWhenItResumesAndExits() throws Exception {
        coordinator.close();
        coordinator.process().waitFor();
        coordinator = coordinator("--failure-timeout", "2000");
        Jvm stopped = worker(secret.value());
        awaitState(stopped.pid(), NodeState.ALIVE, Duration.ofSeconds(60));

        SlowNodeIT.signal("STOP", stopped.pid());
        try {
            awaitState(stopped.pid(), NodeState.DEAD, Duration.ofSeconds(60));
        } finally {
            SlowNodeIT.signal("CONT", stopped.pid());
        }

        assertEquals(3, stopped.awaitExit(Duration.ofSeconds(60)), stopped.output());
        stopped.awaitLine("the coordinator expelled this node: .*node \\d+ was declared dead in this cluster \\(silent past",
                Duration.ofSeconds(1));
    }

    @Test
    void aHomeJoinsARunningCoordinatorUsesItsWorkerAndTheWorkerEndsWhenTheHomeIsKilled() throws Exception {
        Jvm worker = worker(secret.value());
        awaitState(worker.pid(), NodeState.ALIVE, Duration.ofSeconds(60));

        Jvm firstHome = home("itapp.InvokeEverywhere");
        assertEquals(0, firstHome.awaitExit(Duration.ofSeconds(60)), firstHome.output());
        assertRanOn(worker, firstHome);
        assertExited(worker, "after its home ended normally");

        Jvm secondWorker = worker(secret.value());
        awaitState(secondWorker.pid(), NodeState.ALIVE, Duration.ofSeconds(60));
        Jvm killedHome = home("itapp.Sleeper");
        killedHome.awaitLine("sleeper started", Duration.ofSeconds(60));
        killedHome.process().destroyForcibly();
        killedHome.process().waitFor();
        assertExited(secondWorker, "after its home was killed");
    }

    /** A home joined to this test's coordinator, running {@code mainClass} from the test classes. */
    private Jvm home(String mainClass) throws IOException {
        return started(Jvm.start(Map.of(ClusterSecret.ENV, secret.value()), List.of(
                "-javaagent:" + Jvm.DIST_JAR + "=join=" + address, "-cp", Jvm.TEST_CLASSES.toString(), mainClass)));
    }

    /** itapp.InvokeEverywhere's home printed what RemoteWork answered on the worker, loaded from the home. */
    private static void assertRanOn(Jvm worker, Jvm home) {
        assertTrue(home.stdout().stream().anyMatch(line -> line.matches(
                "  describe: pid=" + worker.pid() + " loader=dist-remote sum=385 .*")), home.output());
    }

    /** Workers end once their home ends, however it ends: before the failure timeout, on evidence. */
    private static void assertExited(Jvm worker, String when) throws InterruptedException {
        if (!worker.process().waitFor(EVIDENCE_DEADLINE.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)) {
            throw new AssertionError("worker " + worker.pid() + " still running " + EVIDENCE_DEADLINE.toSeconds() + " s "
                    + when + "\n" + worker.output());
        }
    }

    @Test
    void aCoordinatorKilledAndRestartedMidRunTakesItsMembersBackAndTheRunEndsRight() throws Exception {
        Jvm home = started(Jvm.start(Map.of(ClusterSecret.ENV, secret.value()), List.of(
                "-agentpath:" + Jvm.NATIVE, "-javaagent:" + Jvm.DIST_JAR + "=nodes=3,join=" + address,
                "-cp", Jvm.TEST_CLASSES.toString(), "itapp.SteadyWork", "20")));
        home.awaitLine("steady started", Duration.ofSeconds(120));
        List<Long> members = status().getNodesList().stream().map(NodeInfo::getPid).toList();
        assertEquals(3, members.size(), status().toString());

        coordinator.process().destroyForcibly();
        coordinator.process().waitFor();
        Thread.sleep(3_000); // beats go unanswered for a while: nobody may stop for it
        coordinator = coordinator();

        awaitAlive(members, Duration.ofSeconds(60));
        assertEquals(0, home.awaitExit(Duration.ofMinutes(5)), home.output());
        assertEquals(List.of("total=" + itapp.SteadyWork.expectedTotal(20) + " processes=3"),
                home.stdout().stream().filter(l -> l.startsWith("total=")).toList(), home.output());
        Jvm cli = started(Jvm.start(Map.of(ClusterSecret.ENV, secret.value()),
                List.of("-jar", Jvm.DIST_JAR.toString(), "status", "--coordinator", address)));
        assertEquals(0, cli.awaitExit(Duration.ofSeconds(60)), cli.output());
        String table = String.join("\n", cli.stdout());
        for (long pid : members) {
            assertTrue(table.contains(" " + pid), "pid " + pid + " in\n" + table);
        }
    }

    private void awaitAlive(List<Long> pids, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!pids.stream().allMatch(pid -> nodeWithPid(pid).map(n -> n.getState() == NodeState.ALIVE).orElse(false))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not all of " + pids + " rejoined within " + timeout + "; table: " + status());
            }
            Thread.sleep(100);
        }
    }

    @Test
    void aWrongClusterSecretIsRefusedWithAClearErrorAndTheCoordinatorKeepsServing() throws Exception {
        Jvm intruder = worker("not-the-secret");
        assertEquals(1, intruder.awaitExit(Duration.ofSeconds(60)), intruder.output());
        intruder.awaitLine("refused to admit this node: cannot connect to " + address
                + ": authentication failed: this node does not share the cluster secret", Duration.ofSeconds(1));
        intruder.awaitLine("DIST_SECRET", Duration.ofSeconds(1));

        Jvm member = worker(secret.value());
        awaitState(member.pid(), NodeState.ALIVE, Duration.ofSeconds(60));
    }

    @Test
    void nodesWithoutTheSecretAreNotAdmittedAndARunningProgramIsUnaffected() throws Exception {
        Jvm worker = worker(secret.value());
        awaitState(worker.pid(), NodeState.ALIVE, Duration.ofSeconds(60));
        Jvm home = home("itapp.InvokeEverywhere");
        Jvm intruder = worker("not-the-secret");
        JoinRequest join = JoinRequest.newBuilder().setRole(Role.WORKER).setAddress("tcp://127.0.0.1:1").setPid(4242)
                .build();
        try (Endpoint stranger = Endpoint.open(TransportConfig.loopback(ClusterSecret.random()))) {
            AuthenticationException refused = assertThrows(AuthenticationException.class, () -> stranger.call(address,
                    MembershipType.JOIN_VALUE, join, JoinReply.parser(), Duration.ofSeconds(30)));
            assertTrue(refused.getMessage().contains("authentication failed"), refused.getMessage());
        }

        assertEquals(1, intruder.awaitExit(Duration.ofSeconds(60)), intruder.output());
        intruder.awaitLine("refused to admit this node: .*authentication failed", Duration.ofSeconds(1));
        assertEquals(0, home.awaitExit(Duration.ofSeconds(120)), home.output());
        List<String> nodes = home.stdout().stream().filter(line -> line.startsWith("node ")).toList();
        assertEquals(2, nodes.size(), home.output());
        assertRanOn(worker, home);
        List<Long> admitted = status().getNodesList().stream().map(NodeInfo::getPid).toList();
        assertEquals(Set.of(worker.pid(), home.pid()), Set.copyOf(admitted), "only the members, never the intruders");
    }

    @Test
    void malformedFramesAndWrongVersionsGetErrorRepliesOnAConnectionThatKeepsServing() throws Exception {
        try (SocketChannel raw = SocketChannel.open(new InetSocketAddress("127.0.0.1", port(address)))) {
            OpenerHandshake.authenticate(raw, address, secret, Endpoint.HANDSHAKE_MAGIC);

            writeFrame(raw, "this is not an envelope at all".getBytes(StandardCharsets.US_ASCII));
            assertError(readFrame(raw), ErrorCode.MALFORMED);

            writeFrame(raw, statusRequest(99, 7).toByteArray());
            Envelope versionError = readFrame(raw);
            assertError(versionError, ErrorCode.VERSION_MISMATCH);
            assertEquals(7, versionError.getCorrelation(), "the error answers the request it refuses");

            writeFrame(raw, statusRequest(Endpoint.PROTOCOL_VERSION, 9).toByteArray());
            Envelope reply = readFrame(raw);
            assertEquals(Kind.REPLY, reply.getKind(), reply.toString());
            assertEquals(9, reply.getCorrelation());
            NodeTable.parseFrom(reply.getBody());
        }
        status(); // and other clients are still served
    }

    private static Envelope statusRequest(int version, long correlation) {
        return Envelope.newBuilder().setVersion(version).setCorrelation(correlation)
                .setType(MembershipType.STATUS_VALUE).setKind(Kind.REQUEST)
                .setBody(StatusRequest.getDefaultInstance().toByteString()).build();
    }

    private static void assertError(Envelope envelope, ErrorCode code) throws IOException {
        assertEquals(Kind.ERROR, envelope.getKind(), envelope.toString());
        ErrorReply error = ErrorReply.parseFrom(envelope.getBody());
        assertEquals(code, error.getCode(), error.getMessage());
        assertTrue(!error.getMessage().isBlank(), "the error says why");
    }

    private static void writeFrame(SocketChannel channel, byte[] body) throws IOException {
        ByteBuffer frame = ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).flip();
        while (frame.hasRemaining()) {
            channel.write(frame);
        }
    }

    private static Envelope readFrame(SocketChannel channel) throws IOException {
        ByteBuffer header = readFully(channel, 4);
        return Envelope.parseFrom(readFully(channel, header.getInt()).array());
    }

    private static ByteBuffer readFully(SocketChannel channel, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                throw new IOException("connection closed after " + buffer.position() + " of " + length + " bytes");
            }
        }
        return buffer.flip();
    }

    private static int port(String address) {
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
