package dist.gos;

import java.util.concurrent.atomic.LongAdder;

/** What the rewritten program did on this node, for the run report. */
public final class NodeCounters {
    static final LongAdder MONITOR_LOCAL = new LongAdder();
    static final LongAdder MONITOR_REMOTE = new LongAdder();

    private NodeCounters() {}

    public static long localMonitorOperations() {
        return MONITOR_LOCAL.sum();
    }

    public static long remoteMonitorOperations() {
        return MONITOR_REMOTE.sum();
    }
}
