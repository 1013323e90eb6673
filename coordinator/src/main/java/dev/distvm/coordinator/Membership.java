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
import dev.distvm.coordinator.proto.PeerPing;
import dev.distvm.coordinator.proto.PeerPong;
import dev.distvm.coordinator.proto.Role;
import dev.distvm.transport.AuthenticationException;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.Handler;
import dev.distvm.transport.Inbound;
import dev.distvm.transport.RemoteErrorException;
import dev.distvm.transport.RequestTimeoutException;
import dev.distvm.transport.TcpAddress;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * A node's side of the membership protocol: join, heartbeats carrying the load, the node events
 * the coordinator sends, and leave. It keeps a copy of the node table that node events update.
 *
 * <p>The coordinator is not needed for the run to go on: when it stops answering, this node keeps
 * working on its direct connections, watches the peers it depends on itself ({@link PeerWatch}),
 * keeps beating at the coordinator's address, and rejoins, with its id, a coordinator that comes
 * back there. Only expulsion ends a membership: the coordinator or a peer holds this node dead.
 */
public final class Membership implements AutoCloseable {
    /** What a node hears from its membership. Called on transport or heartbeat threads: don't block. */
    public interface Listener {
        /** A node joined, left or died (its state says which); each change is reported once. */
        void changed(NodeInfo node);

        /** This node was expelled: the coordinator, or a peer, holds it dead. It must stop. */
        void lost(String reason);
    }

    /** The id node events carry as their sender: the coordinator's endpoint is no member and has no node id. */
    private static final int COORDINATOR_ID = 0;
    /**
     * How long a join waits for the coordinator's answer. A coordinator that is not there fails the
     * join at once (the connection is refused); one that accepted the connection is there, and on a
     * busy machine its answer may take seconds: with twelve JVMs on two cores an MPI rank's join
     * waited more than 5 s, and the job failed with "no coordinator answered". A busy CPU must not
     * fail a run.
     */
    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(60);

    private final Endpoint endpoint;
    private final String coordinator;
    private final JoinRequest request;
    private final Listener listener;
    private final Map<Integer, NodeInfo> nodes = new ConcurrentHashMap<>();
    /**
     * {@link #alive()}, made again at each change of {@link #nodes} (under its lock): the home asks at
     * every thread start, and making it there was most of what a thread start costs dist on one node.
     */
    private volatile List<NodeInfo> aliveInOrder = List.of();
    private final ScheduledExecutorService heartbeats;
    private final LoadProbe probe = new LoadProbe();
    private final AtomicBoolean rejoining = new AtomicBoolean();
    private volatile int nodeId;
    private volatile MembershipSettings settings;
    private volatile PeerWatch peerWatch;
    private volatile boolean lost;
    /** Set as this node starts to leave: a heartbeat or ping answered after the leave is refused, which is no expulsion. */
    private volatile boolean leaving;
    private volatile boolean coordinatorAnswering = true;

    private Membership(Endpoint endpoint, String coordinator, JoinRequest request, Listener listener) {
        this.endpoint = endpoint;
        this.coordinator = coordinator;
        this.request = request;
        this.listener = listener;
        this.heartbeats = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("dist-heartbeat"));
    }

    private void joined(JoinReply reply) {
        this.nodeId = reply.getNodeId();
        this.settings = new MembershipSettings(Duration.ofMillis(reply.getHeartbeatMillis()),
                Duration.ofMillis(reply.getFailureTimeoutMillis()));
        reply.getNodesList().forEach(this::merge);
        heartbeats.scheduleAtFixedRate(this::beat, 0, reply.getHeartbeatMillis(), TimeUnit.MILLISECONDS);
        peerWatch = new PeerWatch(endpoint, nodeId, settings, this::watchedPeers, new PeerWatch.Verdicts() {
            @Override
            public void dead(NodeInfo peer, String cause) {
                Log.warn("node " + nodeId + " declares node " + peer.getId() + " (" + peer.getRole().name().toLowerCase()
                        + ", pid " + peer.getPid() + ") dead: " + cause);
                declared(peer.toBuilder().setState(NodeState.DEAD).build());
            }

            @Override
            public void expelled(String reason) {
                lose(reason);
            }
        });
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
        // Caught here, the mistake names its fix; caught by a peer, it is a later "cannot reach tcp://127.0.0.1".
        if (TcpAddress.isLoopback(endpoint.address()) && !TcpAddress.isLoopback(coordinator)) {
            throw new TransportException("this node listens on " + endpoint.address() + ", on loopback, but joins the"
                    + " coordinator at " + coordinator + ", which is not: nodes on other hosts could not reach it."
                    + " Start it with --bind tcp://ADDRESS, ADDRESS being this host's address on the cluster's"
                    + " network (agent option bind=), or with --bind tcp://0.0.0.0 --advertise tcp://ADDRESS");
        }
        JoinRequest request = JoinRequest.newBuilder()
                .setRole(role)
                .putAllLabels(labels)
                .setAddress(endpoint.address())
                .setPid(ProcessHandle.current().pid())
                .setHost(DeathEvidence.HOST)
                .build();
        // Node events and pings may overtake the join reply: the handlers are in place before the request leaves.
        Membership membership = new Membership(endpoint, coordinator, request, listener);
        endpoint.registerImmediate(MembershipType.NODE_EVENT_VALUE, message -> {
            if (message.sender() != COORDINATOR_ID) {
                throw new Handler.RefusedException("node events come from the coordinator, not from node " + message.sender());
            }
            membership.onEvent(message.decode(NodeEvent.parser()));
            return null;
        });
        endpoint.registerImmediate(MembershipType.PEER_PING_VALUE, membership::pinged);
        JoinReply reply;
        try {
            reply = endpoint.call(coordinator, MembershipType.JOIN_VALUE, request, JoinReply.parser(), JOIN_TIMEOUT);
        } catch (RuntimeException e) {
            endpoint.unregister(MembershipType.NODE_EVENT_VALUE); // so that the endpoint may try again
            endpoint.unregister(MembershipType.PEER_PING_VALUE);
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
        return aliveInOrder;
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

    /** Whether this node was expelled from the cluster. */
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
        if (node.getState() == NodeState.ALIVE) {
            if (merge(node)) {
                listener.changed(node);
            }
        } else {
            declared(node);
        }
    }

    /** A node left or died, as the coordinator or this node's own watch says: reported once. */
    private void declared(NodeInfo ended) {
        if (merge(ended)) {
            endpoint.disconnect(ended.getAddress());
            listener.changed(ended);
        }
    }

    /**
     * A node's state only moves forward (ALIVE to LEFT or DEAD): late news of it alive is ignored.
     * True when this changed what this node knows of it.
     */
    private boolean merge(NodeInfo node) {
        synchronized (nodes) {
            NodeInfo known = nodes.get(node.getId());
            boolean news = known == null || known.getState() != node.getState();
            if (known == null || known.getState() == NodeState.ALIVE) {
                nodes.put(node.getId(), node);
                aliveInOrder = nodes.values().stream()
                        .filter(n -> n.getState() == NodeState.ALIVE)
                        .sorted((a, b) -> Integer.compare(a.getId(), b.getId()))
                        .toList();
            } else {
                news = false;
            }
            nodes.notifyAll();
            return news;
        }
    }

    /** Which peers this node watches itself: the home its workers, a worker its home. */
    private List<NodeInfo> watchedPeers() {
        NodeInfo me = self();
        return alive().stream()
                .filter(n -> n.getId() != nodeId)
                .filter(n -> me == null || me.getRole() == Role.HOME || n.getRole() == Role.HOME)
                .toList();
    }

    /** A peer's ping: answered, unless this node holds the sender dead (then the sender learns it was expelled). */
    private PeerPong pinged(Inbound message) throws Handler.RefusedException {
        int sender = message.decode(PeerPing.parser()).getNodeId();
        NodeInfo known = nodes.get(sender);
        if (known != null && known.getState() != NodeState.ALIVE) {
            throw new Handler.RefusedException("node " + sender + " is " + known.getState().name().toLowerCase()
                    + " as far as node " + nodeId + " knows (declared dead after a silence past the failure timeout,"
                    + " or left)");
        }
        PeerWatch watch = peerWatch;
        if (watch != null) {
            watch.heard(sender);
        }
        return PeerPong.getDefaultInstance();
    }

    private void beat() {
        if (lost) {
            return;
        }
        Heartbeat beat = Heartbeat.newBuilder().setNodeId(nodeId).setLoad(probe.sample()).build();
        endpoint.request(coordinator, MembershipType.HEARTBEAT_VALUE, beat, settings.failureTimeout())
                .whenComplete((reply, failure) -> {
                    if (failure == null) {
                        answered(reply.decode(HeartbeatReply.parser()));
                    } else if (failure instanceof RemoteErrorException refused && refused.code() == ErrorCode.REFUSED) {
                        lose("the coordinator expelled this node: " + refused.getMessage());
                    } else if (coordinatorAnswering) {
                        coordinatorAnswering = false;
                        Log.warn("node " + nodeId + ": the coordinator at " + coordinator + " does not answer ("
                                + failure.getMessage() + "); this node goes on with its direct connections and"
                                + " keeps trying that address");
                    }
                });
    }

    private void answered(HeartbeatReply reply) {
        if (!coordinatorAnswering) {
            coordinatorAnswering = true;
            Log.info("node " + nodeId + ": the coordinator at " + coordinator + " answers again");
        }
        if (reply.getRejoin()) {
            rejoin();
        }
    }

    /** Joins a coordinator that restarted and has no record of this node, with the id this node has. */
    private void rejoin() {
        if (!rejoining.compareAndSet(false, true)) {
            return;
        }
        JoinRequest again = request.toBuilder().setNodeId(nodeId).build();
        endpoint.request(coordinator, MembershipType.JOIN_VALUE, again, JOIN_TIMEOUT).whenComplete((reply, failure) -> {
            rejoining.set(false);
            if (failure == null) {
                reply.decode(JoinReply.parser()).getNodesList().forEach(node -> {
                    if (node.getId() != nodeId && merge(node)) {
                        listener.changed(node);
                    }
                });
                Log.info("node " + nodeId + " rejoined the coordinator at " + coordinator);
            } else if (failure instanceof RemoteErrorException refused && refused.code() == ErrorCode.REFUSED) {
                lose("the restarted coordinator at " + coordinator + " refused this node back: " + refused.getMessage());
            }
        });
    }

    private void lose(String reason) {
        if (leaving) {
            Log.debug("node " + nodeId + " is leaving; ignored: " + reason);
            return;
        }
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
        leaving = true;
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
        PeerWatch watch = peerWatch;
        if (watch != null) {
            watch.close();
        }
        heartbeats.shutdown();
        try {
            heartbeats.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
