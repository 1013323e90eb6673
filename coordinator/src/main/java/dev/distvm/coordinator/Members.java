package dev.distvm.coordinator;

import dev.distvm.coordinator.proto.JoinRequest;
import dev.distvm.coordinator.proto.Load;
import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.coordinator.proto.NodeState;
import dev.distvm.coordinator.proto.Role;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The coordinator's record of the cluster: every node that joined, its state and last load. Node
 * ids are handed out here, never reused within a coordinator's life; a coordinator that restarted
 * takes back the ids its members rejoin with and hands out new ones above the highest it has seen.
 * A home's embedded coordinator keeps number 1 for its home: the home launches its workers before
 * it joins, and a worker that was quicker took number 1, so "node 1" was not always the home (in
 * the run report, the ready line and the tests that read them). All methods are synchronized: the
 * table is touched by the transport loop and the failure detector.
 */
final class Members {
    /** A rejoin this table cannot take: the id is another node's, or its node was ended here. */
    static final class RejoinRefused extends Exception {
        RejoinRefused(String message) {
            super(message);
        }
    }

    private static final int HOME_ID = 1;

    private final Map<Integer, NodeInfo> nodes = new LinkedHashMap<>();
    private final boolean homeIsNumberOne;
    private int nextId;
    private long version;

    /** @param homeIsNumberOne the first home to join gets number 1 whoever joins before it */
    Members(boolean homeIsNumberOne) {
        this.homeIsNumberOne = homeIsNumberOne;
        this.nextId = homeIsNumberOne ? HOME_ID + 1 : 1;
    }

    synchronized NodeInfo add(JoinRequest request, long nowMillis) {
        if (homeIsNumberOne && request.getRole() == Role.HOME && !nodes.containsKey(HOME_ID)) {
            return put(HOME_ID, request, nowMillis);
        }
        return put(nextId, request, nowMillis);
    }

    /** Takes back a member of this cluster, with its id, after this coordinator restarted. */
    synchronized NodeInfo rejoin(JoinRequest request, long nowMillis) throws RejoinRefused {
        NodeInfo known = nodes.get(request.getNodeId());
        if (known == null) {
            return put(request.getNodeId(), request, nowMillis);
        }
        boolean same = known.getAddress().equals(request.getAddress()) && known.getPid() == request.getPid();
        if (!same) {
            throw new RejoinRefused("node id " + request.getNodeId() + " is already taken by pid " + known.getPid()
                    + " at " + known.getAddress());
        }
        if (known.getState() != NodeState.ALIVE) {
            throw new RejoinRefused("node " + known.getId() + " is " + known.getState().name().toLowerCase()
                    + " in this cluster");
        }
        return known; // its rejoin crossed an earlier one
    }

    private NodeInfo put(int id, JoinRequest request, long nowMillis) {
        NodeInfo node = NodeInfo.newBuilder()
                .setId(id)
                .setRole(request.getRole())
                .setAddress(request.getAddress())
                .setPid(request.getPid())
                .setHost(request.getHost())
                .putAllLabels(request.getLabelsMap())
                .setJoinedAtMillis(nowMillis)
                .setState(NodeState.ALIVE)
                .build();
        nodes.put(id, node);
        nextId = Math.max(nextId, id + 1);
        version++;
        return node;
    }

    synchronized Optional<NodeInfo> aliveHome() {
        return nodes.values().stream()
                .filter(n -> n.getRole() == Role.HOME && n.getState() == NodeState.ALIVE)
                .findFirst();
    }

    /** The node's state; empty when this table never heard of it. */
    synchronized Optional<NodeState> state(int id) {
        return Optional.ofNullable(nodes.get(id)).map(NodeInfo::getState);
    }

    /** Records a heartbeat's load; empty when the node is not a live member. */
    synchronized Optional<NodeInfo> heard(int id, Load load) {
        NodeInfo node = nodes.get(id);
        if (node == null || node.getState() != NodeState.ALIVE) {
            return Optional.empty();
        }
        NodeInfo updated = node.toBuilder().setLoad(load).build();
        nodes.put(id, updated);
        return Optional.of(updated);
    }

    /** Moves a live node to LEFT or DEAD; empty when it was not alive. */
    synchronized Optional<NodeInfo> end(int id, NodeState state) {
        NodeInfo node = nodes.get(id);
        if (node == null || node.getState() != NodeState.ALIVE) {
            return Optional.empty();
        }
        NodeInfo ended = node.toBuilder().setState(state).build();
        nodes.put(id, ended);
        version++;
        return Optional.of(ended);
    }

    synchronized List<NodeInfo> all() {
        return new ArrayList<>(nodes.values());
    }

    synchronized List<NodeInfo> alive() {
        return nodes.values().stream().filter(n -> n.getState() == NodeState.ALIVE).toList();
    }

    synchronized long version() {
        return version;
    }
}
