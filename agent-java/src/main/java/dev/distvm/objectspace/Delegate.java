package dev.distvm.objectspace;

import dev.distvm.common.DaemonThreads;
import dev.distvm.transport.WireBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * At the home, the stand-in of one remote thread for the monitors of shared objects: it takes the
 * masters' real JVM monitors on that thread's behalf and holds them until the thread exits, so
 * home threads and remote threads exclude each other, and wait and notify each other, through the
 * JVM's own monitors. Nested monitors are held by recursion, which matches Java's block structure.
 */
final class Delegate {
    enum Op {
        ENTER, EXIT, WAIT, NOTIFY, NOTIFY_ALL, END;

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

    /** What the delegate does for a command while it holds the monitor (apply a release, write a refresh). */
    @FunctionalInterface
    interface Work {
        WireBuffer run(boolean interrupted);
    }

    private final LinkedBlockingQueue<Command> commands = new LinkedBlockingQueue<>();
    /** The remote thread was interrupted during a wait that this delegate may not have begun yet. */
    private final AtomicBoolean interruptPending = new AtomicBoolean();
    private final Thread thread;
    private final int node;
    private final String remoteThreadName;

    Delegate(int node, String remoteThreadName) {
        this.node = node;
        this.remoteThreadName = remoteThreadName;
        thread = DaemonThreads.start("dist-delegate[" + remoteThreadName + "]", this::serve);
    }

    /** The node the remote thread runs on. */
    int node() {
        return node;
    }

    String remoteThreadName() {
        return remoteThreadName;
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
            while ((command = next()) != null && command.op() != Op.END) {
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

    /** Holds {@code enter}'s monitor until its EXIT, serving what comes meanwhile. */
    private void hold(Command enter) {
        Object master = enter.master();
        Command exit;
        synchronized (master) {
            if (!answer(enter, false)) {
                return; // the remote thread learns why and stops the run
            }
            exit = serveWhileHolding(master);
            if (exit == null) {
                return;
            }
            answer(exit, false);
        }
    }

    private Command serveWhileHolding(Object master) {
        Command command;
        while ((command = next()) != null) {
            switch (command.op()) {
                case ENTER -> hold(command);
                case EXIT -> {
                    if (command.master() != master) {
                        command.reply().completeExceptionally(new IllegalStateException(
                                "monitor exits out of order: the remote thread holds another monitor innermost"));
                        continue;
                    }
                    return command;
                }
                case WAIT -> answer(command, waitOn(master, command.timeoutMillis()));
                case NOTIFY -> {
                    master.notify();
                    answer(command, false);
                }
                case NOTIFY_ALL -> {
                    master.notifyAll();
                    answer(command, false);
                }
                case END -> {
                    return null;
                }
            }
        }
        return null;
    }

    /** Runs the command's work and replies with its result or its failure; true when it succeeded. */
    private static boolean answer(Command command, boolean interrupted) {
        try {
            WireBuffer result = command.work().run(interrupted);
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
        try {
            master.wait(timeoutMillis);
            return false;
        } catch (InterruptedException e) {
            interruptPending.set(false);
            return true;
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
