package dev.distvm.profile;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Where dist would place each profiled thread on a cluster of 2, 4 and 8 nodes, for the what-if at
 * one node: as {@code PlacementPolicy} places them, the program's main thread at the home (node 0),
 * each other thread on the least-loaded node (load: the live threads placed there, main counted at
 * the home), round-robin among equals. In a profiled run the home places each thread as it starts,
 * in the order dist would; a thread started before profiling began (attach) is placed at its first
 * sampled access, and sees the load of that moment. A thread the object space would keep at the
 * home ({@link #keepHome}) goes there, its turn used up as dist uses it.
 *
 * <p>The three nodes of a thread travel packed in one int, three bits a cluster size.
 */
final class PredictedPlacement {
    static final int[] NODE_COUNTS = {2, 4, 8};

    private record Placed(WeakReference<Thread> thread, int nodes) {
        /** Whether it loads its node: placed threads load it from before they start until they end. */
        boolean loads() {
            Thread placed = thread.get();
            return placed != null && placed.getState() != Thread.State.TERMINATED;
        }
    }

    private final WeakReference<Thread> main;
    private final List<Placed> live = new ArrayList<>();
    /** Threads the object space would keep at the home: what they run reaches an object it cannot share. */
    private final Set<Thread> keptHome = Collections.newSetFromMap(new WeakHashMap<>());
    private final Map<Thread, Integer> placed = new WeakHashMap<>();
    private final int[] nextChoice = new int[NODE_COUNTS.length];

    /** {@code main}: the thread that runs the program's main method, or null when there is none (it ended). */
    PredictedPlacement(Thread main) {
        this.main = new WeakReference<>(main);
    }

    static int node(int nodes, int cluster) {
        return (nodes >>> (3 * cluster)) & 7;
    }

    /**
     * {@code thread}, not started yet, would stay at the home: as dist does, its turn in the round
     * is used up and it loads the home.
     */
    synchronized void keepHome(Thread thread) {
        keptHome.add(thread);
    }

    /** Places {@code thread} unless it was placed before; returns its node in each cluster, packed. */
    synchronized int place(Thread thread) {
        Thread mainThread = main.get();
        if (thread == mainThread) {
            return 0;
        }
        Integer before = placed.get(thread);
        if (before != null) {
            return before;
        }
        live.removeIf(other -> !other.loads());
        boolean home = keptHome.contains(thread);
        int nodes = 0;
        for (int cluster = 0; cluster < NODE_COUNTS.length; cluster++) {
            int[] load = new int[NODE_COUNTS[cluster]];
            if (mainThread != null && mainThread.isAlive()) {
                load[0]++;
            }
            for (Placed other : live) {
                load[node(other.nodes(), cluster)]++;
            }
            int least = Integer.MAX_VALUE;
            for (int count : load) {
                least = Math.min(least, count);
            }
            for (int i = 0; i < load.length; i++) {
                int candidate = (nextChoice[cluster] + i) % load.length;
                if (load[candidate] == least) {
                    nextChoice[cluster] = (candidate + 1) % load.length;
                    nodes |= (home ? 0 : candidate) << (3 * cluster);
                    break;
                }
            }
        }
        live.add(new Placed(new WeakReference<>(thread), nodes));
        placed.put(thread, nodes);
        return nodes;
    }
}
