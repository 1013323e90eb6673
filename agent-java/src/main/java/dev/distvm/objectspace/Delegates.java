package dev.distvm.objectspace;

import dev.distvm.transport.Inbound;
import dev.distvm.transport.WireBuffer;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * At the home: the {@link Delegate} of each monitor lease of a worker node ({@link MonitorLeases}),
 * which serves the lease's monitor operations ({@code SPACE_MONITOR}) and the interrupts of its
 * waits ({@code SPACE_INTERRUPT}); and which lease holds each master's monitor, so that whoever
 * else asks for that monitor makes its node give the lease back ({@code SPACE_MONITOR_RECALL}).
 */
final class Delegates implements Delegate.Holds {
    /** Asks a node to give back one of its leases. */
    interface Recall {
        /** Asks {@code node} for {@code lease} back, as granted the {@code grant}th time (see {@link Delegate#grant}). */
        void recall(int node, int lease, long grant);
    }

    /** A recall decided under this object's lock and sent after it. */
    private record Recalled(Delegate holder, long grant) {}

    private final HomeSpace space;
    private final Recall recall;
    private final Map<Long, Delegate> delegates = new HashMap<>();
    /** Masters whose monitor a lease holds, and enters asked for through another lease meanwhile: guarded by this. */
    private final Map<Object, Holder> holders = new IdentityHashMap<>();

    /**
     * Who holds a master's monitor for a node, and who will want it: enters asked for through
     * other leases, and delegates in a wait on it, some of which a notify woke (they take the
     * monitor back before their wait returns, so they cannot ask; a notify counts them).
     */
    private static final class Holder {
        Delegate delegate;
        boolean recalled;
        int asking;
        int waiting;
        int woken;

        boolean unused() {
            return delegate == null && asking == 0 && waiting == 0;
        }
    }

    Delegates(HomeSpace space, Recall recall) {
        this.space = space;
        this.recall = recall;
    }

    CompletableFuture<WireBuffer> monitor(Inbound message) {
        int node = message.sender();
        WireReader reader = space.read(node, SpaceMessages.body(message));
        ByteBuffer in = reader.body();
        Delegate.Op op = Delegate.Op.of(in.get());
        int lease = in.getInt();
        Object master = reader.ref();
        long timeout = in.getLong();
        Delegate delegate = delegate(node, lease);
        if (op == Delegate.Op.EXIT) {
            // Here, not on the delegate: releases are applied in the order the worker made them.
            // The delegate still holds the monitor, so no other thread sees the master before this.
            space.applyRelease(node, reader);
        } else if (op == Delegate.Op.ENTER) {
            asking(master);
        }
        Delegate.Work work = switch (op) {
            case ENTER -> (interrupted, grant) -> refresh(node, false, grant);
            case WAIT -> (interrupted, grant) -> refresh(node, interrupted, grant);
            default -> (interrupted, grant) -> null;
        };
        CompletableFuture<WireBuffer> reply = new CompletableFuture<>();
        delegate.submit(new Delegate.Command(op, master, timeout, work, reply));
        return reply;
    }

    /**
     * {@code node} pushed {@code master} home while one of its threads held the monitor: the
     * node's {@code lease} takes the master's before the message that pushed it is applied. Nobody
     * else can hold it yet (it was just made), so this waits only for the delegate's thread.
     */
    void holdFromBirth(int node, int lease, Object master) {
        Delegate delegate = delegate(node, lease);
        CompletableFuture<WireBuffer> taken = new CompletableFuture<>();
        delegate.submit(new Delegate.Command(Delegate.Op.ENTER, master, 0, (interrupted, grant) -> null, taken));
        taken.join();
    }

    /** The delegate of {@code node}'s lease {@code lease}, made when it serves its first command. */
    private synchronized Delegate delegate(int node, int lease) {
        return delegates.computeIfAbsent(key(node, lease), k -> new Delegate(node, lease, this));
    }

    private static long key(int node, int lease) {
        return ((long) node << 32) | (lease & 0xFFFF_FFFFL);
    }

    private WireBuffer refresh(int node, boolean interrupted, long grant) {
        return space.write(node, w -> {
            w.body().appendBoolean(interrupted);
            w.body().appendLong(grant);
            space.writeRefresh(node, w);
        });
    }

    /** A lease asks for {@code master}'s monitor: the lease that holds it (if one does) is recalled. */
    private void asking(Object master) {
        Recalled recalled;
        synchronized (this) {
            Holder holder = holders.computeIfAbsent(master, m -> new Holder());
            holder.asking++;
            recalled = recallOnce(holder);
        }
        sendRecall(recalled);
    }

    /**
     * A thread of the home is about to take {@code master}'s monitor (a program's method a worker
     * runs here, {@link HomeCalls}): the lease that holds it, if one does, is recalled. One that a
     * node is granted after this goes back at its node's review, as for any thread of the home.
     */
    void wanted(Object master) {
        Recalled recalled;
        synchronized (this) {
            Holder holder = holders.get(master);
            recalled = holder != null ? recallOnce(holder) : null;
        }
        sendRecall(recalled);
    }

    @Override
    public void taken(Object master, Delegate holder, boolean afterWait) {
        Recalled recalled;
        synchronized (this) {
            Holder h = holders.computeIfAbsent(master, m -> new Holder());
            h.delegate = holder;
            h.recalled = false;
            if (afterWait) {
                h.waiting--;
                h.woken = Math.max(0, h.woken - 1);
            } else if (h.asking > 0) {
                h.asking--;
            }
            recalled = h.asking > 0 || h.woken > 0 ? recallOnce(h) : null;
        }
        sendRecall(recalled);
    }

    @Override
    public void letGo(Object master, Delegate holder, boolean forWait) {
        synchronized (this) {
            Holder h = holders.get(master);
            if (h == null || h.delegate != holder) {
                return;
            }
            h.delegate = null;
            if (forWait) {
                h.waiting++;
            }
            if (h.unused()) {
                holders.remove(master);
            }
        }
    }

    /** Woken waiters need the monitor back, from the lease that holds it. */
    @Override
    public void notified(Object master, Delegate holder, boolean all) {
        Recalled recalled;
        synchronized (this) {
            Holder h = holders.get(master);
            if (h == null || h.delegate != holder) {
                return;
            }
            h.woken = all ? h.waiting : Math.min(h.waiting, h.woken + 1);
            recalled = recallOnce(h);
        }
        sendRecall(recalled);
    }

    private static Recalled recallOnce(Holder holder) {
        if (holder.delegate == null || holder.recalled) {
            return null;
        }
        holder.recalled = true;
        return new Recalled(holder.delegate, holder.delegate.grant());
    }

    private void sendRecall(Recalled recalled) {
        if (recalled != null) {
            recall.recall(recalled.holder().node(), recalled.holder().lease(), recalled.grant());
        }
    }

    WireBuffer interruptDelegate(Inbound message) {
        Delegate delegate;
        synchronized (this) {
            delegate = delegates.get(key(message.sender(), (int) SpaceMessages.longOf(SpaceMessages.body(message))));
        }
        if (delegate != null) {
            delegate.interruptWait();
        }
        return null;
    }

    /**
     * The classes of the masters whose monitors {@code node} holds here: if that node is lost, they
     * are never let go.
     */
    synchronized List<String> monitorsOf(int node) {
        return holders.entrySet().stream()
                .filter(e -> e.getValue().delegate != null && e.getValue().delegate.node() == node)
                .map(e -> e.getKey().getClass().getName()).toList();
    }
}
