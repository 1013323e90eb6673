package dev.distvm.objectspace;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * On a worker, the home monitors this node holds: a lock near its users. When a thread of this
 * node takes a copy's monitor, a delegate at the home takes the master's for the node (a lease)
 * and keeps it after the thread lets go, so the next enter on this node, by any of its threads,
 * needs no message; this node's threads contend for the copy's local monitor first (lock
 * cohorting). The lease goes back to the home, with the node's release, when the home asks for it
 * (another node wants the monitor, or a thread notified at the home waits for it), when nobody
 * here entered since the previous review (every millisecond), when it has been held for
 * {@link #LONGEST_HOLD_NANOS} (a home thread waiting for the master's monitor cannot ask, so this
 * bounds its wait), or when no placed thread runs here any more.
 *
 * <p>The state of a copy's lease changes only under the copy's local monitor: a thread holding
 * that monitor is the only one of this node that may use the lease, so a return, which takes the
 * monitor first, never takes it from under a thread that holds it.
 */
final class MonitorLeases {
    static final long LONGEST_HOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /** One hold of a master's monitor by this node, through the home delegate that {@code id} names. */
    static final class Lease {
        final int id;
        final Object copy;
        /** Enters on this node while it held the lease; read by the tick without the copy's monitor (a stale read costs a return, never coherence). */
        private long entries;
        private long entriesAtLastReview;
        private long grantedAt;
        volatile boolean returnWanted;
        private boolean returnScheduled;
        /**
         * The home delegate's number of the grant this node holds, and the highest grant a recall
         * asked back (guarded by this object): a recall of an earlier grant was answered by a wait
         * since, in which the delegate let the monitor go, and asks for nothing any more.
         */
        private long grant;
        private long recalledGrant = -1;
        /**
         * Whether a thread took the monitor through the lease since it was granted (guarded by the
         * copy's monitor): until then it is not given back, or the thread it was granted to could
         * find it gone each time it woke, and never get on.
         */
        private boolean used;
        /** The thread that last took the monitor through this lease (guarded by the copy's monitor). */
        private Thread lastUser;

        private Lease(int id, Object copy) {
            this.id = id;
            this.copy = copy;
        }
    }

    /** A copy's monitor on this node: the lease it holds, and whether a thread is asking the home for one. */
    static final class Held {
        Lease owner;
        boolean requesting;
    }

    /** Gives a lease back: sends the node's release with the return; called holding the copy's monitor. */
    interface Giver {
        void giveBack(Lease lease);
    }

    private final Map<Object, Held> byCopy = new IdentityHashMap<>();
    /** Copies whose lease the home recalled: threads of other nodes use their monitors (guarded by this). */
    private final WeakIdentityMap<Object, Boolean> recalledCopies = new WeakIdentityMap<>();
    /** Leases granted, asked for, or lent to a wait, by id: where a recall finds its lease. */
    private final Map<Integer, Lease> byId = new HashMap<>();
    private final ArrayDeque<Integer> freeIds = new ArrayDeque<>();
    private int nextId;
    private final Executor returns;
    private final Giver giver;
    private final long longestHoldNanos;
    /** Whether threads here wait on an object's local monitor, a wait that began before it was a copy. */
    private final Predicate<Object> waitedOnLocally;

    MonitorLeases(Executor returns, Giver giver, long longestHoldNanos, Predicate<Object> waitedOnLocally) {
        this.returns = returns;
        this.giver = giver;
        this.longestHoldNanos = longestHoldNanos;
        this.waitedOnLocally = waitedOnLocally;
    }

    /** The state of {@code copy}'s monitor here, made when missing; the caller holds the copy's monitor. */
    synchronized Held held(Object copy) {
        return byCopy.computeIfAbsent(copy, c -> new Held());
    }

    /** The state of {@code copy}'s monitor here, or null; read without the copy's monitor, it is a hint. */
    synchronized Held peek(Object copy) {
        return byCopy.get(copy);
    }

    /** A new lease of {@code copy}'s master to ask the home for, through a delegate no other lease of this node uses now. */
    synchronized Lease newLease(Object copy) {
        Integer free = freeIds.poll();
        Lease lease = new Lease(free != null ? free : nextId++, copy);
        byId.put(lease.id, lease);
        return lease;
    }

    /** The home's delegate holds {@code lease}'s master for this node; the caller holds the copy's monitor. */
    void granted(Lease lease, long grant) {
        Held held = held(lease.copy);
        if (held.owner != null) {
            throw new IllegalStateException("dist: the home granted a monitor this node holds already");
        }
        synchronized (this) {
            lease.grant = grant;
            // A recall of this grant may have come before its answer; one of an earlier grant is spent.
            lease.returnWanted = lease.recalledGrant >= grant;
        }
        held.owner = lease;
        lease.grantedAt = System.nanoTime();
        lease.entriesAtLastReview = lease.entries;
        lease.used = false;
    }

    /**
     * A lease of {@code holder}'s master for a thread of this node that holds its local monitor
     * since before it was shared, made as a release pushes the holder home (the home takes the
     * master's monitor before it applies the release): granted and used already, so that it goes
     * back like any other, once that thread has let go (a return takes the local monitor first).
     * Called before the holder is a copy, so no thread here uses its state meanwhile.
     */
    synchronized int heldFromBirth(Object holder) {
        Lease lease = newLease(holder);
        granted(lease, 0); // the home's first recall of it names a grant above 0
        lease.used = true;
        return lease.id;
    }

    /** Whether {@code lease} is to go back before this node's next enter; the caller holds the copy's monitor. */
    static boolean toGiveBack(Lease lease) {
        return lease.returnWanted && lease.used;
    }

    /** How a thread came to hold a monitor through a lease, for the run report. */
    enum HandOver {
        /** The thread that used the lease last takes it again. */
        NONE,
        /** From another thread of this node, no message. */
        WITHIN_NODE,
        /** The first use since the home granted the lease: the monitor came from elsewhere. */
        ACROSS_NODES
    }

    /** The calling thread of this node takes the monitor through {@code lease}; the caller holds the copy's monitor. */
    static HandOver use(Lease lease) {
        lease.entries++;
        boolean justGranted = !lease.used;
        lease.used = true;
        Thread previous = lease.lastUser;
        lease.lastUser = Thread.currentThread();
        if (justGranted) {
            return HandOver.ACROSS_NODES;
        }
        return previous == lease.lastUser ? HandOver.NONE : HandOver.WITHIN_NODE;
    }

    /**
     * Gives the lease of {@code held} back to the home; the caller holds the copy's monitor, so no
     * thread of this node holds the master's through it. Not while threads here wait on the local
     * monitor in a wait that began before the object was shared: a notify at the home would not
     * reach them. They are woken instead (a spurious wake-up, which the JLS allows), their next
     * wait is the home's, through this lease, and the lease goes back at a later review. Returns
     * whether it went back.
     */
    boolean giveBack(Held held) {
        Lease lease = held.owner;
        if (waitedOnLocally.test(lease.copy)) {
            lease.copy.notifyAll();
            return false;
        }
        held.owner = null;
        giver.giveBack(lease);
        synchronized (this) {
            byId.remove(lease.id);
            freeIds.push(lease.id); // the delegate serves its next enter after this return
            if (!held.requesting) {
                byCopy.remove(lease.copy);
            }
        }
        return true;
    }

    /**
     * The home asks for lease {@code id} back, as of its {@code grant}th grant: returned once no
     * thread here holds it, unless a wait has let the monitor go since (see {@link Lease#grant}).
     * A recall of an id returned meanwhile and given to another monitor costs a return, no more.
     */
    void recalled(int id, long grant) {
        Lease lease;
        synchronized (this) {
            lease = byId.get(id);
            if (lease == null) {
                return;
            }
            lease.recalledGrant = Math.max(lease.recalledGrant, grant);
            if (grant < lease.grant) {
                return;
            }
            lease.returnWanted = true;
            recalledCopies.put(lease.copy, Boolean.TRUE);
        }
        scheduleReturn(lease);
    }

    /** Whether the home ever recalled a lease of {@code copy}'s monitor from this node: other nodes use it. */
    synchronized boolean everRecalled(Object copy) {
        return recalledCopies.get(copy) != null;
    }

    /** Whether this node holds any lease (some may be on their way back). */
    synchronized boolean anyHeld() {
        for (Held held : byCopy.values()) {
            if (held.owner != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * Every millisecond while the node is busy ({@link StalenessBound}): leases nobody here entered
     * since the previous review, held longer than the longest hold, or held while no placed thread
     * runs here, go back.
     */
    void review(boolean noneRunning) {
        List<Lease> due = new ArrayList<>();
        long now = System.nanoTime();
        synchronized (this) {
            for (Held held : byCopy.values()) {
                Lease lease = held.owner;
                if (lease == null) {
                    continue;
                }
                long entries = lease.entries;
                boolean returnable = noneRunning || entries == lease.entriesAtLastReview || now - lease.grantedAt >= longestHoldNanos;
                if (returnable && lease.used) { // a lease granted but not used yet: see used
                    due.add(lease);
                }
                lease.entriesAtLastReview = entries;
            }
        }
        for (Lease lease : due) {
            lease.returnWanted = true;
            scheduleReturn(lease);
        }
    }

    /** Returns the lease off the caller's thread: taking the copy's monitor may wait for a thread that holds it. */
    void scheduleReturn(Lease lease) {
        synchronized (this) {
            if (lease.returnScheduled) {
                return;
            }
            lease.returnScheduled = true;
        }
        returns.execute(() -> {
            synchronized (lease.copy) {
                synchronized (this) {
                    lease.returnScheduled = false;
                }
                Held held = peek(lease.copy);
                if (held != null && held.owner == lease && toGiveBack(lease)) {
                    giveBack(held); // an unused one goes back when the thread it was granted to lets go
                }
            }
        });
    }
}
