package dev.distvm.report;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * At the home: each worker's request to end the run (a {@code System.exit} there, or a case dist
 * cannot run coherently on a worker, with its reason), for the run report.
 */
public final class RunStops {
    private static final List<String> STOPS = new CopyOnWriteArrayList<>();

    private RunStops() {}

    public static void record(int node, int status, String why) {
        STOPS.add("node " + node + " ended the run with status " + status + (why.isEmpty() ? "" : ": " + why));
    }

    /** Each stop this node heard of, in arrival order. */
    public static List<String> all() {
        return List.copyOf(STOPS);
    }
}
