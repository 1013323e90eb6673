package dist.objectspace;

import java.util.concurrent.atomic.LongAdder;

/** What the rewritten program and the object space did on this node, for the run report. */
public final class NodeCounters {
    static final LongAdder MONITOR_LOCAL = new LongAdder();
    static final LongAdder MONITOR_REMOTE = new LongAdder();
    static final LongAdder STATICS_FETCHED = new LongAdder();
    static final LongAdder REFRESHES = new LongAdder();
    static final LongAdder RELEASES = new LongAdder();
    static final LongAdder OBJECT_BYTES_SENT = new LongAdder();
    static final LongAdder OBJECT_BYTES_RECEIVED = new LongAdder();
    static final LongAdder WRITES_TRACKED = new LongAdder();

    private NodeCounters() {}

    /**
     * Re-entries of shared monitors on a worker: served by this node alone, without a message.
     * Monitor operations on local objects are not counted: they cost what they cost on one JVM,
     * and a count would cost more than the operation.
     */
    public static long localMonitorOperations() {
        return MONITOR_LOCAL.sum();
    }

    /** Enters of shared monitors on a worker, whose monitor is taken at the home. */
    public static long remoteMonitorOperations() {
        return MONITOR_REMOTE.sum();
    }

    /** Times a thread here waited for a class's statics from the home (the object faults of this design). */
    public static long staticsFetched() {
        return STATICS_FETCHED.sum();
    }

    /** Acquires that asked the home for what changed (monitor enters, waits, volatile reads). */
    public static long refreshes() {
        return REFRESHES.sum();
    }

    /** Releases that sent changes home (monitor exits, waits, volatile writes, thread ends). */
    public static long releases() {
        return RELEASES.sum();
    }

    /** Bytes of object-space messages (object state, changes, monitor operations) sent and received. */
    public static long objectBytesSent() {
        return OBJECT_BYTES_SENT.sum();
    }

    public static long objectBytesReceived() {
        return OBJECT_BYTES_RECEIVED.sum();
    }

    /** Writes to shared things that reported themselves (to be compared at the next release or refresh). */
    public static long writesTracked() {
        return WRITES_TRACKED.sum();
    }

    /**
     * Frees what the program no longer reaches, for a report of what is held: full collections,
     * and on a worker, the home told which copies went (which may free masters there).
     */
    public static void collectGarbage() throws InterruptedException {
        WorkerRuntime worker = Hooks.worker;
        if (worker != null) {
            worker.collector().settle();
        }
        System.gc();
        HomeRuntime home = Hooks.home;
        if (home != null) {
            home.awaitCollected();
        }
    }

    /** Shared things whose master is here (at the home) and copies held here (on a worker). */
    public static long homedObjects() {
        HomeRuntime home = Hooks.home;
        return home == null ? 0 : home.homedObjects();
    }

    public static long cachedCopies() {
        WorkerRuntime worker = Hooks.worker;
        return worker == null ? 0 : worker.space().copyCount();
    }

    /** Copies freed on this worker that the home has not forgotten yet. */
    public static long tombstones() {
        WorkerRuntime worker = Hooks.worker;
        return worker == null ? 0 : worker.space().tombstoneCount();
    }
}
