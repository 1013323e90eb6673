package dev.distvm.report;

import dev.distvm.common.Log;
import java.util.List;

/** Where each application thread this node started ran, and why: for the run report, and as it happens with {@code verbose}. */
public final class ThreadPlacement {
    private static final BoundedRecords<String> DECISIONS = new BoundedRecords<>();

    private ThreadPlacement() {}

    public static void record(String decision) {
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
}
