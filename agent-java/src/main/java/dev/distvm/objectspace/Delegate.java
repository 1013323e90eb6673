package dev.distvm.objectspace;

import dev.distvm.common.DaemonThreads;
import dev.distvm.transport.WireBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * At the home, the stand-in of one lease of a worker node ({@link MonitorLeases}): it takes a
 * master's real JVM monitor on that node's behalf and holds it until the node gives it back, so
 * home threads and remote threads exclude each other, and wait and notify each other, through the
 * JVM's own monitors. A wait of the node's thread is the delegate's wait, after which it holds the
 * monitor for the node again. One monitor at a time: the node asks through another lease for another.
 */
final class Delegate {
    enum Op {
        ENTER, EXIT, WAIT, NOTIFY, NOTIFY_ALL;

        /** The operation a monitor message names by its ordinal. */
        static Op of(byte ordinal) {
            Op[] all = values();
            if (ordinal < 0 || ordinal >= all.length) {
                throw new IllegalArgumentException("object-space message: unknown monitor operation " + ordinal);
            }
            return all[ordinal];
        }
    }

    /** One request of the remote thread; {@code work} runs on the delegate's thread. */
    record Command(Op op, Object master, long timeoutMillis, Work work, CompletableFuture<WireBuffer> reply) {}

    /**
     * What the delegate does for a command while it holds the monitor (apply a release, write a
     * refresh); {@code grant} is the delegate's current {@link #grant}.
     */
    @FunctionalInterface
    interface Work {
        WireBuffer run(boolean interrupted, long grant);
    }

    /** Told when the delegate takes or lets go of a master's monitor for its node (for a wait, or back after it), and when it notified on one. */
    interface Holds {
        void taken(Object master, Delegate holder, boolean afterWait);

        void letGo(Object master, Delegate holder, boolean forWait);

        void notified(Object master, Delegate holder, boolean all);
    }

    private final LinkedBlockingQueue<Command> commands = new LinkedBlockingQueue<>();
    /** The remote thread was interrupted during a wait that this delegate may not have begun yet. */
    private final AtomicBoolean interruptPending = new AtomicBoolean();
    private final Thread thread;
    private final int node;
    private final int lease;
    private final Holds holds;
    /**
     * How many times this delegate took a master's monitor for its node: at an enter, and again
     * after each wait. The answer of an enter or a wait names the grant it ends in, and a recall
     * the grant it asks back, so that the node can tell a recall that a wait answered since (the
     * delegate let the monitor go) from one it must still obey. Written by the delegate's thread only.
     */
    private volatile long grants;

    Delegate(int node, int lease, Holds holds) {
        this.node = node;
        this.lease = lease;
        this.holds = holds;
        thread = DaemonThreads.start("dist-delegate[node " + node + ", lease " + lease + "]", this::serve);
    }

    /** The node whose lease this is. */
    int node() {
        return node;
    }

    /** The lease's number on its node. */
    int lease() {
        return lease;
    }

    /** The number of the delegate's latest taking of a monitor (see {@link #grants}). */
    long grant() {
        return grants;
    }

    void submit(Command command) {
        commands.add(command);
    }

    /**
     * The remote thread was interrupted while it waits: interrupt the wait here, or the next one if
     * its command has not arrived yet (it is on its way: the remote thread is blocked in it).
     */
    void interruptWait() {
        interruptPending.set(true);
        InterruptGate.interrupt(thread);
    }

    private void serve() {
        try {
            Command command;
            while ((command = next()) != null) {
                if (command.op() == Op.ENTER) {
                    hold(command);
                } else {
                    command.reply().completeExceptionally(new IllegalStateException(
                            command.op() + " without holding the monitor"));
                }
            }
        } catch (RuntimeException | Error e) {
            commands.forEach(c -> c.reply().completeExceptionally(e));
        }
    }

    /** Holds {@code enter}'s monitor until its EXIT (the lease's return), serving what comes meanwhile. */
    private void hold(Command enter) {
        Object master = enter.master();
        synchronized (master) {
            grants++; // before taken(): a recall it sends asks for this grant back
            holds.taken(master, this, false);
            try {
                if (!answer(enter, false)) {
                    return; // the remote thread learns why and stops the run
                }
                Command exit = serveWhileHolding(master);
                if (exit != null) {
                    answer(exit, false);
                }
            } finally {
                holds.letGo(master, this, false);
            }
        }
    }

    private Command serveWhileHolding(Object master) {
        Command command;
        while ((command = next()) != null) {
            switch (command.op()) {
                case ENTER -> command.reply().completeExceptionally(new IllegalStateException(
                        "an enter through a lease that holds a monitor already"));
                case EXIT -> {
                    if (command.master() != master) {
                        command.reply().completeExceptionally(new IllegalStateException(
                                "a lease's return names another monitor than the one it holds"));
                        continue;
                    }
                    return command;
                }
                case WAIT -> answer(command, waitOn(master, command.timeoutMillis()));
                case NOTIFY -> {
                    master.notify();
                    holds.notified(master, this, false);
                    answer(command, false);
                }
                case NOTIFY_ALL -> {
                    master.notifyAll();
                    holds.notified(master, this, true);
                    answer(command, false);
                }
            }
        }
        return null;
    }

    /** Runs the command's work and replies with its result or its failure; true when it succeeded. */
    private boolean answer(Command command, boolean interrupted) {
        try {
            WireBuffer result = command.work().run(interrupted, grants);
            // Completing the reply sends it, on this thread.
            InterruptGate.writing(() -> command.reply().complete(result));
            return true;
        } catch (RuntimeException e) {
            command.reply().completeExceptionally(e);
            return false;
        }
    }

    /** Waits on the master; true when the wait ended by interruption. */
    private boolean waitOn(Object master, long timeoutMillis) {
        if (interruptPending.getAndSet(false)) {
            return true;
        }
        holds.letGo(master, this, true);
        try {
            master.wait(timeoutMillis);
            return false;
        } catch (InterruptedException e) {
            interruptPending.set(false);
            return true;
        } finally {
            grants++;
            holds.taken(master, this, true);
        }
    }

    private Command next() {
        while (true) {
            try {
                return commands.take();
            } catch (InterruptedException e) {
                // Meant for a wait: interruptPending keeps it for that wait.
            }
        }
    }
}
