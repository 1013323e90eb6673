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
 * The coordinator's record of the cluster: every node that joined, its state and last load, and
 * when it was last heard from. Node ids are handed out here, never reused within a coordinator's
 * life. All methods are synchronized: the table is touched by the transport loop and the failure
 * detector.
 */
final class Members {
    private final Map<Integer, NodeInfo> nodes = new LinkedHashMap<>();
    private final Map<Integer, Long> lastHeardNanos = new LinkedHashMap<>();
    private int nextId = 1;
    private long version;

    synchronized NodeInfo add(JoinRequest request, long nowMillis, long nowNanos) {
        NodeInfo node = NodeInfo.newBuilder()
                .setId(nextId++)
                .setRole(request.getRole())
                .setAddress(request.getAddress())
                .setPid(request.getPid())
                .setHost(request.getHost())
                .putAllLabels(request.getLabelsMap())
                .setJoinedAtMillis(nowMillis)
                .setState(NodeState.ALIVE)
                .build();
        nodes.put(node.getId(), node);
        lastHeardNanos.put(node.getId(), nowNanos);
        version++;
        return node;
    }

    synchronized Optional<NodeInfo> aliveHome() {
        return nodes.values().stream()
                .filter(n -> n.getRole() == Role.HOME && n.getState() == NodeState.ALIVE)
                .findFirst();
    }

    /** Records a heartbeat; empty when the node is not a live member. */
    synchronized Optional<NodeInfo> heard(int id, Load load, long nowNanos) {
        NodeInfo node = nodes.get(id);
        if (node == null || node.getState() != NodeState.ALIVE) {
            return Optional.empty();
        }
        NodeInfo updated = node.toBuilder().setLoad(load).build();
        nodes.put(id, updated);
        lastHeardNanos.put(id, nowNanos);
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
        lastHeardNanos.remove(id);
        version++;
        return Optional.of(ended);
    }

    /** Live nodes silent for longer than the timeout. */
    synchronized NodeInfo get(int id) {
        return nodes.get(id);
    }

    synchronized List<Integer> silentSince(long deadlineNanos) {
        List<Integer> silent = new ArrayList<>();
        lastHeardNanos.forEach((id, heard) -> {
            if (heard - deadlineNanos < 0) {
                silent.add(id);
            }
        });
        return silent;
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
