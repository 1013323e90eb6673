package dev.distvm.objectspace;

import dev.distvm.coordinator.Membership;
import dev.distvm.coordinator.proto.NodeInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the home starts an application thread: the least-loaded alive node, round-robin among
 * equals; the home is one of them. A node's load is the application threads running there, the
 * home's {@code main} included: a program whose main starts three threads and computes a fourth
 * share itself has four busy threads.
 */
final class PlacementPolicy {
    private final Membership membership;
    private final int homeId;
    /** The thread that runs {@code main}: it counts as the home's load. */
    private final Thread mainThread;
    private final PlacedThreads placed;
    private final List<Thread> startedHere = new ArrayList<>();
    private int nextChoice;

    PlacementPolicy(Membership membership, int homeId, Thread mainThread, PlacedThreads placed) {
        this.membership = membership;
        this.homeId = homeId;
        this.mainThread = mainThread;
        this.placed = placed;
    }

    synchronized NodeInfo choose() {
        List<NodeInfo> nodes = membership.alive(); // ordered by id
        startedHere.removeIf(t -> !t.isAlive());
        if (nodes.size() == 1) {
            return nodes.get(0); // the home alone (--nodes 1): a thread start costs what it costs on one JVM
        }
        Map<Integer, Integer> load = new HashMap<>();
        load.put(homeId, startedHere.size() + (mainThread.isAlive() ? 1 : 0));
        placed.addLoad(load);
        int least = Integer.MAX_VALUE;
        for (NodeInfo node : nodes) {
            least = Math.min(least, load.getOrDefault(node.getId(), 0));
        }
        for (int i = 0; i < nodes.size(); i++) {
            NodeInfo candidate = nodes.get((nextChoice + i) % nodes.size());
            if (load.getOrDefault(candidate.getId(), 0) == least) {
                nextChoice = (nextChoice + i + 1) % nodes.size();
                return candidate;
            }
        }
        throw new IllegalStateException("no alive node, not even the home");
    }

    /** An application thread that runs at the home: it counts as the home's load while it lives. */
    synchronized void startedHere(Thread thread) {
        startedHere.add(thread);
    }
}
