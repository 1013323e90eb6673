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
import dev.distvm.transport.AuthenticationException;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.RemoteErrorException;
import dev.distvm.transport.RequestTimeoutException;
import dev.distvm.transport.TransportException;
import dev.distvm.transport.proto.ErrorCode;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A node's side of the membership protocol: join, heartbeats carrying the load, the node events
 * the coordinator sends, and leave. It keeps a copy of the node table that node events update.
 */
public final class Membership implements AutoCloseable {
    /** What a node hears from its membership. Called on transport or heartbeat threads: don't block. */
    public interface Listener {
        /** A node joined, left or died (its state says which). */
        void changed(NodeInfo node);

        /** This node can no longer be a member: the coordinator is gone or expelled it. */
        void lost(String reason);
    }

    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(5);

    private final Endpoint endpoint;
    private final String coordinator;
    private final Listener listener;
    private final Map<Integer, NodeInfo> nodes = new ConcurrentHashMap<>();
    private final ScheduledExecutorService heartbeats;
    private final LoadProbe probe = new LoadProbe();
    private volatile int nodeId;
    private volatile long failureTimeoutNanos;
    private volatile long lastAnsweredNanos;
    private volatile boolean lost;
    private volatile long coordinatorPid;
    private volatile String coordinatorHost = "";

    private Membership(Endpoint endpoint, String coordinator, Listener listener) {
        this.endpoint = endpoint;
        this.coordinator = coordinator;
        this.listener = listener;
        this.heartbeats = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("dist-heartbeat"));
    }

    private void joined(JoinReply reply) {
        this.nodeId = reply.getNodeId();
        this.failureTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(reply.getFailureTimeoutMillis());
        this.coordinatorPid = reply.getCoordinatorPid();
        this.coordinatorHost = reply.getCoordinatorHost();
        this.lastAnsweredNanos = System.nanoTime();
        reply.getNodesList().forEach(this::merge);
        heartbeats.scheduleAtFixedRate(this::beat, 0, reply.getHeartbeatMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Joins the cluster whose coordinator listens at {@code coordinator}. The endpoint gets its
     * node id and a handler for node events.
     *
     * @throws TransportException with a message naming the cause when the join is refused or unanswered
     */
    public static Membership join(Endpoint endpoint, String coordinator, Role role, Listener listener) {
        return join(endpoint, coordinator, role, Map.of(), listener);
    }

    /** Joins with labels that every member will see in this node's {@link NodeInfo}. */
    public static Membership join(Endpoint endpoint, String coordinator, Role role, Map<String, String> labels,
                                  Listener listener) {
        JoinRequest request = JoinRequest.newBuilder()
                .setRole(role)
                .putAllLabels(labels)
                .setAddress(endpoint.address())
                .setPid(ProcessHandle.current().pid())
                .setHost(LocalProcesses.HOST)
                .build();
        // Node events may overtake the join reply: the handler is in place before the request leaves.
        Membership membership = new Membership(endpoint, coordinator, listener);
        endpoint.registerImmediate(MembershipType.NODE_EVENT_VALUE, message -> {
            membership.onEvent(message.decode(NodeEvent.parser()));
            return null;
        });
        JoinReply reply;
        try {
            reply = endpoint.call(coordinator, MembershipType.JOIN_VALUE, request, JoinReply.parser(), JOIN_TIMEOUT);
        } catch (RuntimeException e) {
            endpoint.unregister(MembershipType.NODE_EVENT_VALUE); // so that the endpoint may try again
            throw joinFailure(coordinator, e);
        }
        endpoint.nodeId(reply.getNodeId());
        membership.joined(reply);
        return membership;
    }

    /** The join failure as the user should read it: what went wrong and what to do. */
    private static RuntimeException joinFailure(String coordinator, RuntimeException failure) {
        if (failure instanceof RequestTimeoutException) {
            return new TransportException("no coordinator answered at " + coordinator + " within "
                    + JOIN_TIMEOUT.toSeconds() + " s; is `dist coordinator --bind " + coordinator + "` running?", failure);
        }
        if (failure instanceof AuthenticationException refused) {
            return new TransportException("the coordinator at " + coordinator + " refused to admit this node: "
                    + refused.getMessage() + " (set " + ClusterSecret.ENV + " to the coordinator's secret)", refused);
        }
        if (failure instanceof RemoteErrorException refused) {
            return new TransportException("the coordinator at " + coordinator + " refused to admit this node: "
                    + refused.getMessage(), refused);
        }
        if (failure instanceof TransportException) {
            return new TransportException(failure.getMessage() + "; is `dist coordinator --bind " + coordinator
                    + "` running?", failure);
        }
        return failure;
    }

    public int nodeId() {
        return nodeId;
    }

    public NodeInfo self() {
        return nodes.get(nodeId);
    }

    /** The live nodes as this node last heard, ordered by id. */
    public List<NodeInfo> alive() {
        return nodes.values().stream()
                .filter(n -> n.getState() == NodeState.ALIVE)
                .sorted((a, b) -> Integer.compare(a.getId(), b.getId()))
                .toList();
    }

    /** Every node this node has heard of, alive or not, ordered by id. */
    public List<NodeInfo> known() {
        return nodes.values().stream().sorted((a, b) -> Integer.compare(a.getId(), b.getId())).toList();
    }

    public Optional<NodeInfo> node(int id) {
        return Optional.ofNullable(nodes.get(id));
    }

    /** Waits until {@code count} nodes are alive; false if the time ran out first. */
    public boolean awaitAlive(int count, Duration timeout) throws InterruptedException {
        return await(known -> known.stream().filter(n -> n.getState() == NodeState.ALIVE).count() >= count, timeout);
    }

    /**
     * Waits until the nodes this node has heard of (alive or not) satisfy {@code condition};
     * false if the time ran out or membership was lost first.
     */
    public boolean await(Predicate<Collection<NodeInfo>> condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (nodes) {
            while (!condition.test(List.copyOf(nodes.values()))) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || lost) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(nodes, left);
            }
        }
        return true;
    }

    /** Whether this node lost the cluster (expelled, or its coordinator stopped answering). */
    public boolean isLost() {
        return lost;
    }

    /** The coordinator's full table, including nodes that left or died. */
    public NodeTable status() {
        return endpoint.call(coordinator, MembershipType.STATUS_VALUE,
                dev.distvm.coordinator.proto.StatusRequest.getDefaultInstance(), NodeTable.parser());
    }

    private void onEvent(NodeEvent event) {
        NodeInfo node = event.getNode();
        merge(node);
        if (node.getState() != NodeState.ALIVE) {
            endpoint.disconnect(node.getAddress());
        }
        listener.changed(node);
    }

    /** A node's state only moves forward (ALIVE to LEFT or DEAD): late news of it alive is ignored. */
    private void merge(NodeInfo node) {
        synchronized (nodes) {
            NodeInfo known = nodes.get(node.getId());
            if (known == null || known.getState() == NodeState.ALIVE || node.getState() != NodeState.ALIVE) {
                nodes.put(node.getId(), node);
            }
            nodes.notifyAll();
        }
    }

    private void beat() {
        if (lost) {
            return;
        }
        Heartbeat beat = Heartbeat.newBuilder().setNodeId(nodeId).setLoad(probe.sample()).build();
        endpoint.request(coordinator, MembershipType.HEARTBEAT_VALUE, beat, Duration.ofNanos(failureTimeoutNanos))
                .whenComplete((reply, failure) -> {
                    if (failure == null) {
                        lastAnsweredNanos = System.nanoTime();
                        reply.decode(HeartbeatReply.parser());
                    } else if (failure instanceof RemoteErrorException refused && refused.code() == ErrorCode.REFUSED) {
                        lose("the coordinator expelled this node: " + refused.getMessage());
                    }
                });
        long silent = System.nanoTime() - lastAnsweredNanos;
        if (silent > failureTimeoutNanos && !coordinatorSlowButAlive(silent)) {
            lose("the coordinator at " + coordinator + " has not answered for more than "
                    + TimeUnit.NANOSECONDS.toMillis(failureTimeoutNanos) + " ms");
        }
    }

    /**
     * A coordinator in this very process (embedded in the home) is never lost by silence; one in
     * another live process of this host is given {@link LocalProcesses#patience}: the machine is busy.
     */
    private boolean coordinatorSlowButAlive(long silentNanos) {
        if (coordinatorPid == ProcessHandle.current().pid() && LocalProcesses.HOST.equals(coordinatorHost)) {
            return true;
        }
        return LocalProcesses.alive(coordinatorHost, coordinatorPid)
                && silentNanos < LocalProcesses.patience(Duration.ofNanos(failureTimeoutNanos)).toNanos();
    }

    private void lose(String reason) {
        if (!lost) {
            lost = true;
            synchronized (nodes) {
                nodes.notifyAll();
            }
            listener.lost(reason);
        }
    }

    /** Leaves the cluster politely; a coordinator that does not answer is not waited for long. */
    public void leave() {
        stopHeartbeats();
        if (lost) {
            return;
        }
        try {
            endpoint.call(coordinator, MembershipType.LEAVE_VALUE, LeaveRequest.newBuilder().setNodeId(nodeId).build(),
                    NodeTable.parser(), Duration.ofSeconds(1));
        } catch (TransportException e) {
            Log.debug("leave was not acknowledged: " + e.getMessage());
        }
    }

    @Override
    public void close() {
        stopHeartbeats();
    }

    /**
     * Without interrupting a heartbeat being sent: the transport writes on the caller's thread, and
     * an interrupt during a write closes the connection, which the leave that follows needs.
     */
    private void stopHeartbeats() {
        heartbeats.shutdown();
        try {
            heartbeats.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
