package dev.distvm.objectspace;

import dev.distvm.report.NodeCounters;

/**
 * On a worker, whether its copies may hold an older value of a volatile than the masters (see
 * {@link WorkerRuntime#volatileRead}): so once the home said that a release reached the masters
 * ({@code SPACE_VOLATILES_STALE}), or once a home message brought a snapshot that a home thread's
 * volatile write overlapped ({@link HomeSpace#writeRefresh}: such a snapshot may hold one write and
 * not an earlier one, so it must not be read twice). A refresh whose snapshot was whole makes the
 * copies current again, unless the home spoke while it was underway.
 */
final class VolatileStaleness {
    private volatile boolean stale = true;
    /** The copies hold a snapshot that was not whole: a reader of one of its values refreshes before it goes on. */
    private volatile boolean partial;
    /** How many times the home said a release reached the masters; guarded by this. */
    private long told;

    boolean stale() {
        return stale;
    }

    boolean partial() {
        return partial;
    }

    void told() {
        NodeCounters.VOLATILES_STALE_TOLD.increment();
        markStale();
    }

    /**
     * Until a refresh asked after this answers, a volatile read here must refresh: the home said
     * the masters changed, or a thread here sent the release of its volatile write (the refresh
     * then follows it to the home).
     */
    synchronized void markStale() {
        told++;
        stale = true;
    }

    /** Before a refresh is asked for: what {@link #refreshed} needs to know whether the home spoke meanwhile. */
    synchronized long asking() {
        return told;
    }

    /**
     * A home message's snapshot is being applied (under the node lock, in the home's order). Called
     * before its first value is written: a reader that read one of them sees the mark after it.
     */
    void applying(boolean whole) {
        if (!whole) {
            NodeCounters.PARTIAL_SNAPSHOTS.increment();
            synchronized (this) {
                partial = true;
                stale = true;
            }
        }
    }

    /** The whole snapshot of the refresh asked for at {@code asked} ({@link #asking}) is applied. */
    synchronized void refreshed(long asked) {
        partial = false;
        if (told == asked) {
            stale = false;
        }
    }
}
