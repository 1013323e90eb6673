package dev.distvm.coordinator;

import dev.distvm.common.DaemonThreads;
import dev.distvm.common.Log;
import dev.distvm.coordinator.proto.Heartbeat;
import dev.distvm.coordinator.proto.HeartbeatReply;
import dev.distvm.coordinator.proto.JoinReply;
import dev.distvm.coordinator.proto.JoinRequest;
import dev.distvm.coordinator.proto.LeaveRequest;
import dev.distvm.coordinator.proto.MembershipType;
import dev.distvm.coordinator.proto.NodeEvent;
import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.coordinator.proto.NodeState;
import dev.distvm.coordinator.proto.NodeTable;
import dev.distvm.coordinator.proto.Role;
import dev.distvm.coordinator.proto.StatusRequest;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.Handler;
import dev.distvm.transport.Inbound;
import dev.distvm.transport.TcpAddress;
import dev.distvm.transport.TransportException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps the node table: admits nodes (the transport has already checked the cluster secret),
 * hears their heartbeats and load, suspects the silent ones and declares them dead when that is
 * certain or their failure timeout has passed ({@link FailureDetector}), and tells every node about
 * each change. It runs as its own process ({@code dist coordinator}) or embedded in the home JVM,
 * on an endpoint of its own either way. It is never on an object access path, and a running
 * program does not need it: a coordinator that restarts at the same address rebuilds its table
 * from the members that rejoin it.
 */
public final class Coordinator implements AutoCloseable {
    private final Endpoint endpoint;
    private final MembershipSettings settings;
    private final Members table;
    private final FailureDetector detector;
    private final ScheduledExecutorService detection;
    private final long startedMillis = System.currentTimeMillis();
    private MetricsEndpoint metrics;

    private Coordinator(Endpoint endpoint, MembershipSettings settings, boolean homeIsNumberOne) {
        this.endpoint = endpoint;
        this.settings = settings;
        this.table = new Members(homeIsNumberOne);
        this.detector = new FailureDetector(settings, "coordinator", System.nanoTime());
        endpoint.registerImmediate(MembershipType.JOIN_VALUE, this::join);
        endpoint.registerImmediate(MembershipType.LEAVE_VALUE, this::leave);
        endpoint.registerImmediate(MembershipType.HEARTBEAT_VALUE, this::heartbeat);
        endpoint.registerImmediate(MembershipType.STATUS_VALUE, this::status);
        this.detection = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("dist-failure-detector"));
        long period = settings.checkPeriod().toMillis();
        detection.scheduleAtFixedRate(this::declareDeaths, period, period, TimeUnit.MILLISECONDS);
    }

    /** Serves the membership protocol on {@code endpoint}, which this coordinator then owns. */
    public static Coordinator start(Endpoint endpoint, MembershipSettings settings) {
        return new Coordinator(endpoint, settings, false);
    }

    /** As {@link #start}, embedded in a home, whose node is number 1 even when one of its workers joins first. */
    public static Coordinator startForItsHome(Endpoint endpoint, MembershipSettings settings) {
        return new Coordinator(endpoint, settings, true);
    }

    public String address() {
        return endpoint.address();
    }

    /**
     * Serves the node table as OpenMetrics text at {@code http://AT/metrics} until this coordinator
     * closes; returns the endpoint (its URL names the port when {@code at} asked for any).
     */
    public synchronized MetricsEndpoint serveMetrics(InetSocketAddress at) throws IOException {
        if (metrics != null) {
            throw new IllegalStateException("metrics are served at " + metrics.url() + " already");
        }
        metrics = MetricsEndpoint.start(at, () -> OpenMetricsText.format(snapshot()));
        return metrics;
    }

    private JoinReply join(Inbound message) throws Handler.RefusedException {
        JoinRequest request = message.decode(JoinRequest.parser());
        if (!request.getAddress().matches("tcp://\\S+:\\d{1,5}") || request.getPid() <= 0) {
            throw new Handler.RefusedException("a join must say where the node listens (tcp://HOST:PORT) and its pid;"
                    + " this one says '" + request.getAddress() + "', pid " + request.getPid());
        }
        // Reached here on loopback (a coordinator bound to 0.0.0.0), such a node passed its own check in Membership.join.
        if (TcpAddress.isLoopback(request.getAddress()) && !TcpAddress.isLoopback(endpoint.address())) {
            throw new Handler.RefusedException("the node would tell the cluster to reach it at " + request.getAddress()
                    + ", on loopback, but the cluster's coordinator is at " + endpoint.address() + ", off loopback:"
                    + " nodes on other hosts could not reach it. Start it with --bind tcp://ADDRESS, ADDRESS being"
                    + " its host's address on the cluster's network (agent option bind=)");
        }
        if (request.getRole() == Role.HOME) {
            Optional<NodeInfo> home = table.aliveHome();
            if (home.isPresent() && home.get().getId() != request.getNodeId()) {
                throw new Handler.RefusedException("this cluster already has a home (node " + home.get().getId()
                        + ", pid " + home.get().getPid() + "); start another coordinator for a second program");
            }
        }
        NodeInfo node = request.getNodeId() == 0 ? table.add(request, System.currentTimeMillis()) : rejoin(request);
        detector.watch(node, System.nanoTime());
        Log.debug("coordinator: node " + node.getId() + " (" + node.getRole() + ", pid " + node.getPid() + ") "
                + (request.getNodeId() == 0 ? "joined" : "rejoined"));
        announce(node);
        return JoinReply.newBuilder()
                .setNodeId(node.getId())
                .addAllNodes(table.alive())
                .setHeartbeatMillis((int) settings.heartbeat().toMillis())
                .setFailureTimeoutMillis((int) settings.failureTimeout().toMillis())
                .build();
    }

    private NodeInfo rejoin(JoinRequest request) throws Handler.RefusedException {
        try {
            return table.rejoin(request, System.currentTimeMillis());
        } catch (Members.RejoinRefused e) {
            throw new Handler.RefusedException("this coordinator cannot take back node " + request.getNodeId()
                    + ": " + e.getMessage());
        }
    }

    private NodeTable leave(Inbound message) throws Handler.RefusedException {
        LeaveRequest request = message.decode(LeaveRequest.parser());
        if (request.getNodeId() != message.sender()) {
            throw new Handler.RefusedException("node " + message.sender() + " cannot leave for node " + request.getNodeId()
                    + "; a node leaves only for itself");
        }
        table.end(request.getNodeId(), NodeState.LEFT).ifPresent(this::ended);
        return snapshot();
    }

    private HeartbeatReply heartbeat(Inbound message) throws Handler.RefusedException {
        Heartbeat beat = message.decode(Heartbeat.parser());
        Optional<NodeState> state = table.state(beat.getNodeId());
        if (state.isEmpty()) {
            return HeartbeatReply.newBuilder().setTableVersion(table.version()).setRejoin(true).build();
        }
        if (table.heard(beat.getNodeId(), beat.getLoad()).isEmpty()) {
            throw new Handler.RefusedException("node " + beat.getNodeId() + (state.get() == NodeState.LEFT
                    ? " left this cluster" : " was declared dead in this cluster (silent past the failure timeout of "
                    + settings.failureTimeout().toMillis() + " ms, or its death was certain)"));
        }
        detector.heard(beat.getNodeId(), System.nanoTime());
        return HeartbeatReply.newBuilder().setTableVersion(table.version()).build();
    }

    private NodeTable status(Inbound message) {
        message.decode(StatusRequest.parser());
        return snapshot();
    }

    private NodeTable snapshot() {
        return NodeTable.newBuilder()
                .addAllNodes(table.all())
                .setCoordinatorStartedMillis(startedMillis)
                .setNowMillis(System.currentTimeMillis())
                .setTableVersion(table.version())
                .putAllSuspectedSilentMillis(detector.suspicions(System.nanoTime()))
                .setFailureTimeoutMillis(settings.failureTimeout().toMillis())
                .build();
    }

    private void declareDeaths() {
        try {
            for (FailureDetector.Death death : detector.check(System.nanoTime())) {
                table.end(death.node().getId(), NodeState.DEAD).ifPresent(node -> {
                    Log.info("coordinator: node " + node.getId() + " (" + node.getRole().name().toLowerCase() + ", pid "
                            + node.getPid() + ") declared dead: " + death.cause());
                    ended(node);
                });
            }
        } catch (RuntimeException e) {
            Log.warn("failure detector: " + e);
        }
    }

    private void ended(NodeInfo node) {
        detector.forget(node.getId());
        announce(node);
        endpoint.disconnect(node.getAddress());
    }

    /** Tells every live node (but the subject itself) about a change of the table. */
    private void announce(NodeInfo node) {
        NodeEvent event = NodeEvent.newBuilder().setNode(node).setTableVersion(table.version()).build();
        for (NodeInfo member : table.alive()) {
            if (member.getId() != node.getId()) {
                try {
                    endpoint.send(member.getAddress(), MembershipType.NODE_EVENT_VALUE, event);
                } catch (TransportException e) {
                    // that member is unreachable: the failure detector will declare it in its turn
                    Log.debug("coordinator: could not tell node " + member.getId() + ": " + e.getMessage());
                }
            }
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            if (metrics != null) {
                metrics.close();
            }
        }
        detection.shutdownNow();
        endpoint.close();
    }
}
