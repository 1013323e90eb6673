package dev.distvm.report;

import dev.distvm.common.Log;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/**
 * Where each application thread this node started ran, and why: for the run report, as it happens
 * with {@code verbose}, and counted per node for the line the home prints at the end of a run.
 */
public final class ThreadPlacement {
    private static final BoundedRecords<String> DECISIONS = new BoundedRecords<>();
    /** Threads the home placed, by the node they ran on; those kept home (for a reason) counted apart. */
    private static final Map<Integer, LongAdder> RAN_ON = new ConcurrentHashMap<>();
    private static final LongAdder KEPT_HOME = new LongAdder();

    private ThreadPlacement() {}

    /** The home placed {@code thread} on {@code node} (the home's own id when it runs there by choice). */
    public static void placed(String thread, int node, boolean home) {
        RAN_ON.computeIfAbsent(node, n -> new LongAdder()).increment();
        record(thread + ": node " + node + (home ? " (home)" : ""));
    }

    /** The home kept {@code thread} though the placement chose another node, and why. */
    public static void keptHome(String thread, String why) {
        KEPT_HOME.increment();
        record(thread + ": kept home: " + why);
    }

    /** A placed thread on a worker started {@code thread}, which runs there. */
    public static void startedByPlacedThread(String thread) {
        record(thread + ": started by a placed thread, runs on its node");
    }

    private static void record(String decision) {
        DECISIONS.add(decision);
        if (Log.isVerbose()) { // a thread start's only cost of this otherwise
            Log.info("thread " + decision);
        }
    }

    /** The first placement decisions of this node, in order, as "thread name: decision". */
    public static List<String> decisions() {
        return DECISIONS.listed();
    }

    /** How many decisions came after those listed. */
    public static long notListed() {
        return DECISIONS.notListed();
    }

    /**
     * One line saying where the threads the home started ran, as {@code threads ran on: node 1
     * (home) 3 + 1 kept home, node 2 4}; null when it started none. Threads that placed threads
     * started on workers are not the home's to count (the run report lists them per node).
     */
    public static String summary(int homeNode) {
        Map<Integer, Long> ran = new TreeMap<>();
        RAN_ON.forEach((node, count) -> ran.put(node, count.sum()));
        long kept = KEPT_HOME.sum();
        if (ran.isEmpty() && kept == 0) {
            return null;
        }
        ran.putIfAbsent(homeNode, 0L);
        return "threads ran on: " + ran.entrySet().stream()
                .map(e -> e.getKey() == homeNode
                        ? "node " + e.getKey() + " (home) " + e.getValue() + (kept > 0 ? " + " + kept + " kept home" : "")
                        : "node " + e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", "))
                + (kept > 0 && !Log.isVerbose() ? " (--verbose says why a thread was kept home)" : "");
    }
}
