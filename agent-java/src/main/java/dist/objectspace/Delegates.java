package dist.objectspace;

import dist.node.proto.SpaceMessage;
import dist.transport.Inbound;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
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

    CompletableFuture<SpaceMessage> monitor(Inbound message) throws IOException {
        int node = message.sender();
        WireReader reader = space.read(node, SpaceMessages.bytes(message));
        DataInputStream in = reader.body();
        Delegate.Op op = Delegate.Op.values()[in.readUnsignedByte()];
        long thread = in.readLong();
        String threadName = in.readUTF();
        Object master = reader.ref();
        long timeout = in.readLong();
        Delegate delegate;
        synchronized (this) {
            delegate = delegates.computeIfAbsent(thread, t -> new Delegate(threadName));
        }
        if (op == Delegate.Op.EXIT) {
            // Here, not on the delegate: releases are applied in the order the worker made them.
            // The delegate still holds the monitor, so no other thread sees the master before this.
            space.applyRelease(node, reader);
        }
        Delegate.Work work = switch (op) {
            case ENTER -> interrupted -> refresh(node, false);
            case WAIT -> interrupted -> refresh(node, interrupted);
            default -> interrupted -> new byte[0];
        };
        CompletableFuture<byte[]> reply = new CompletableFuture<>();
        delegate.submit(new Delegate.Command(op, master, timeout, work, reply));
        return reply.thenApply(SpaceMessages::wrap);
    }

    private byte[] refresh(int node, boolean interrupted) {
        return space.write(node, w -> {
            try {
                w.body().writeBoolean(interrupted);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            space.writeRefresh(node, w);
        });
    }

    SpaceMessage interruptDelegate(Inbound message) {
        Delegate delegate;
        synchronized (this) {
            delegate = delegates.get(SpaceMessages.longOf(SpaceMessages.bytes(message)));
        }
        if (delegate != null) {
            delegate.interruptWait();
        }
        return SpaceMessages.wrap(new byte[0]);
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
