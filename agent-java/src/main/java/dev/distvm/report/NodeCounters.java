package dev.distvm.report;

import java.util.concurrent.atomic.LongAdder;

/**
 * What the rewritten program and the object space did on this node, for the run report: one
 * registry of counters that the object space adds to and the report reads.
 */
public final class NodeCounters {
    public static final LongAdder MONITOR_LOCAL = new LongAdder();
    public static final LongAdder MONITOR_REMOTE = new LongAdder();
    public static final LongAdder STATICS_FETCHED = new LongAdder();
    public static final LongAdder REFRESHES = new LongAdder();
    public static final LongAdder RELEASES = new LongAdder();
    public static final LongAdder OBJECT_BYTES_SENT = new LongAdder();
    public static final LongAdder OBJECT_BYTES_RECEIVED = new LongAdder();
    public static final LongAdder WRITES_TRACKED = new LongAdder();
    /** On a worker: the home said a release changed the masters; until then volatile reads read the copies. */
    public static final LongAdder VOLATILES_STALE_TOLD = new LongAdder();
    /** On a worker: snapshots that a home thread's volatile write overlapped, so read as stale. */
    public static final LongAdder PARTIAL_SNAPSHOTS = new LongAdder();
    /**
     * Messages that carried volatile writes toward other nodes' readers: a worker's release after
     * its volatile write or while its thread spins on a volatile read, the home's notices that the
     * workers' volatile reads must refresh.
     */
    public static final LongAdder VOLATILE_PUSHES = new LongAdder();

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
}
