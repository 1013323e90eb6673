package dev.distvm.objectspace;

/**
 * Whether this node wrote shared data since its last release began: what a worker thread that
 * spins on a volatile asks before it pushes the node's changes home ({@link WorkerRuntime#volatileRead}),
 * so that a spinning read on a node with nothing to push reads a flag and nothing else (it once
 * counted its reads in a thread-local and looked at the clock every sixteenth: 2.5 times a local
 * volatile read). A hint, never a guarantee: a write that misses it (one racing with a release
 * that clears it) goes home with the next release or the staleness bound's tick, as every write
 * did before the push existed. Arrays that JDK code may write at any time (aliased) leave it set
 * for good: their writes report nothing. One per node ({@link #NODE}), where the write hooks find it.
 */
final class UnreleasedWrites {
    static final UnreleasedWrites NODE = new UnreleasedWrites();

    private volatile boolean any;
    private volatile boolean alwaysUnknown;

    /** A write to shared data here; read first, so that a hot loop of writes does not write the flag's line each time. */
    void noted() {
        if (!any) {
            any = true;
        }
    }

    /** An array here is written by JDK code that reports nothing: the flag cannot tell any more. */
    void unknowable() {
        alwaysUnknown = true;
        any = true;
    }

    /** A release is about to scan: writes noted from now on are for the next one. */
    void releasing() {
        any = alwaysUnknown;
    }

    boolean any() {
        return any;
    }
}
