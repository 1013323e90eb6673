package dev.distvm.objectspace;

import dev.distvm.transport.Inbound;
import dev.distvm.transport.WireBuffer;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * At the home: the {@link Delegate} of each remote thread that took a shared monitor, which serves
 * that thread's monitor operations ({@code SPACE_MONITOR}), the interrupts of its waits
 * ({@code SPACE_INTERRUPT}) and lets go at the thread's end.
 */
final class Delegates {
    private final HomeSpace space;
    private final Map<Long, Delegate> delegates = new HashMap<>();

    Delegates(HomeSpace space) {
        this.space = space;
    }

    CompletableFuture<WireBuffer> monitor(Inbound message) {
        int node = message.sender();
        WireReader reader = space.read(node, SpaceMessages.body(message));
        ByteBuffer in = reader.body();
        Delegate.Op op = Delegate.Op.of(in.get());
        long thread = in.getLong();
        String threadName = reader.string();
        Object master = reader.ref();
        long timeout = in.getLong();
        Delegate delegate;
        synchronized (this) {
            delegate = delegates.computeIfAbsent(thread, t -> new Delegate(node, threadName));
        }
        if (op == Delegate.Op.EXIT) {
            // Here, not on the delegate: releases are applied in the order the worker made them.
            // The delegate still holds the monitor, so no other thread sees the master before this.
            space.applyRelease(node, reader);
        }
        Delegate.Work work = switch (op) {
            case ENTER -> interrupted -> refresh(node, false);
            case WAIT -> interrupted -> refresh(node, interrupted);
            default -> interrupted -> null;
        };
        CompletableFuture<WireBuffer> reply = new CompletableFuture<>();
        delegate.submit(new Delegate.Command(op, master, timeout, work, reply));
        return reply;
    }

    private WireBuffer refresh(int node, boolean interrupted) {
        return space.write(node, w -> {
            w.body().appendBoolean(interrupted);
            space.writeRefresh(node, w);
        });
    }

    WireBuffer interruptDelegate(Inbound message) {
        Delegate delegate;
        synchronized (this) {
            delegate = delegates.get(SpaceMessages.longOf(SpaceMessages.body(message)));
        }
        if (delegate != null) {
            delegate.interruptWait();
        }
        return null;
    }

    /**
     * The threads of {@code node} that took a shared monitor and have not ended: if that node is
     * lost, a monitor one of them holds is never let go here.
     */
    synchronized List<String> threadsOf(int node) {
        return delegates.values().stream().filter(d -> d.node() == node).map(Delegate::remoteThreadName).toList();
    }

    /** The remote thread {@code id} ended: its delegate, if it has one, lets go and ends. */
    void threadEnded(long id) {
        Delegate delegate;
        synchronized (this) {
            delegate = delegates.remove(id);
        }
        if (delegate != null) {
            delegate.submit(new Delegate.Command(Delegate.Op.END, null, 0, null, new CompletableFuture<>()));
        }
    }
}
