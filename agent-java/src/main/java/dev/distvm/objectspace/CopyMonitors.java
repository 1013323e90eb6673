package dev.distvm.objectspace;

import dev.distvm.common.DaemonThreads;
import dev.distvm.node.proto.NodeMessageType;
import dev.distvm.report.NodeCounters;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * On a worker, the monitors of copies: a copy's monitor is its local JVM monitor plus its master's
 * at the home, which a delegate there holds for the thread (lock cohorting: this node's threads
 * contend locally first). Enters and waits ask the home; exits send their release; notifies travel
 * one way; re-entries need no message ({@link HeldMonitors}).
 */
final class CopyMonitors {
    private final WorkerRuntime runtime;
    private final HomeConnection toHome;
    private final WorkerSpace space;
    private final ThreadsPlacedHere threads;
    private final ThreadLocal<HeldMonitors> held = ThreadLocal.withInitial(HeldMonitors::new);
    /**
     * Wakes a thread that waits on a copy's local monitor for the home's answer (see
     * {@link #monitor}); not the transport's reader, which must never block, and the monitor may be
     * busy: a thread that held it since before the copy was shared holds it as long as it likes.
     * A cached pool then: a thread per wake-up in progress, so one busy monitor never delays
     * another's answer.
     */
    private final ExecutorService answers = Executors.newCachedThreadPool(DaemonThreads.named("dist-monitor-answer"));

    CopyMonitors(WorkerRuntime runtime, HomeConnection toHome, WorkerSpace space, ThreadsPlacedHere threads) {
        this.runtime = runtime;
        this.toHome = toHome;
        this.space = space;
        this.threads = threads;
    }

    /**
     * {@code lock}'s local monitor was just taken: for a copy, take the home's too (a copy's
     * monitor is both, so this node's threads contend locally before one of them asks the home).
     */
    void entered(Object lock) {
        if (lock instanceof Class<?> type && !Slots.isJdk(type)) {
            // static synchronized: the class's monitor is the home's, like its statics
            runtime.fetchStatics(type);
        }
        if (!space.isCopy(lock)) {
            return;
        }
        HeldMonitors mine = held.get();
        if (mine.holds(lock)) {
            NodeCounters.MONITOR_LOCAL.increment();
        } else {
            NodeCounters.MONITOR_REMOTE.increment();
            NodeCounters.REFRESHES.increment();
            if (runtime.coherently(() -> monitor(Delegate.Op.ENTER, lock, 0))) {
                Thread.currentThread().interrupt(); // an enter is not interruptible: the interrupt stays pending
            }
        }
        mine.entered(lock);
    }

    /**
     * {@code lock}'s local monitor was just let go: the last exit of a shared monitor sends the
     * release, and the delegate lets go of the home's once the home applied it (a thread of this
     * node that took the local monitor meanwhile asks the home, which answers after that). A copy
     * whose local monitor this thread took before it was shared was never taken at the home.
     */
    void exited(Object lock) {
        if (!space.isCopy(lock)) {
            return;
        }
        HeldMonitors mine = held.get();
        if (mine.holds(lock) && !mine.exited(lock)) {
            runtime.coherently(() -> runtime.release(NodeMessageType.SPACE_MONITOR_VALUE,
                    w -> monitorHeader(w, Delegate.Op.EXIT, lock, 0)));
        }
    }

    /** Whether this thread holds {@code lock} as a shared monitor: its wait and notify are the home's. */
    boolean holdsShared(Object lock) {
        return space.isCopy(lock) && held.get().holds(lock);
    }

    void await(Object copy, long millis) throws InterruptedException {
        NodeCounters.REFRESHES.increment();
        runtime.release();
        if (runtime.coherently(() -> monitor(Delegate.Op.WAIT, copy, millis))) {
            throw new InterruptedException();
        }
    }

    /**
     * A notify of a shared monitor this thread holds travels one way (the delegate notifies before
     * it serves this thread's next command: an exit, a wait). Returns false when {@code lock} is
     * not a copy: the JVM's own notify applies.
     */
    boolean notify(Object lock, boolean all) {
        if (!space.isCopy(lock)) {
            return false;
        }
        if (!held.get().holds(lock)) {
            // Locked here since before it was shared, or not at all (the JVM then throws): the JVM's
            // own notify, but of all its waiters, since threads entering or waiting on the copy wait
            // on this monitor for the home's answers too, and one of them must not take a
            // notification meant for the program. A spurious wake-up is allowed; a lost one is not.
            lock.notifyAll();
            return true;
        }
        WireWriter writer = new WireWriter(space);
        monitorHeader(writer, all ? Delegate.Op.NOTIFY_ALL : Delegate.Op.NOTIFY, lock, 0);
        runtime.coherently(() -> toHome.send(NodeMessageType.SPACE_MONITOR_VALUE, writer.finish()));
        return true;
    }

    /**
     * Sends an enter or a wait and waits for the home's answer, which carries a refresh. The
     * thread holds the copy's local monitor and waits on it, which lets go of it meanwhile: another
     * thread of this node may then enter, and notify a waiter; and no thread holds a local monitor
     * while it waits for the home's (a waiter woken at the home holds the home's monitor before it
     * gets the local one back: a thread holding the local one while waiting for the home's would
     * wait forever). The answer is applied off this thread, before it is woken: home messages are
     * applied in order, and a later one must not wait for this thread to get the local monitor
     * back from a thread that holds it, locally, since before the copy was shared. An interrupt of
     * this thread during a wait is passed on to the delegate; returns whether the operation ended
     * by interruption.
     */
    private boolean monitor(Delegate.Op op, Object copy, long millis) {
        WireWriter writer = new WireWriter(space);
        monitorHeader(writer, op, copy, millis);
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        toHome.request(NodeMessageType.SPACE_MONITOR_VALUE, writer.finish()).whenCompleteAsync((reply, failure) -> {
            try {
                if (failure != null) {
                    throw new IllegalStateException("dist: the home failed a monitor operation: " + failure, failure);
                }
                answer.complete(applyMonitorAnswer(SpaceMessages.body(reply)));
            } catch (RuntimeException | Error e) {
                answer.completeExceptionally(e); // the thread must wake whatever happened
            }
            synchronized (copy) {
                copy.notifyAll();
            }
        }, answers);
        boolean passedOn = false;
        while (!answer.isDone()) {
            try {
                copy.wait();
            } catch (InterruptedException e) {
                if (!passedOn) {
                    passedOn = true;
                    if (op != Delegate.Op.WAIT) {
                        continue; // only a wait is interruptible; the interrupt stays pending (below)
                    }
                    toHome.send(NodeMessageType.SPACE_INTERRUPT_VALUE,
                            SpaceMessages.ofLong(threads.threadId(threads.currentThread())));
                }
            }
        }
        boolean interrupted;
        try {
            interrupted = answer.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw (RuntimeException) e.getCause();
        }
        if (passedOn && !interrupted) {
            Thread.currentThread().interrupt(); // not a wait, or notified and interrupted at once: it stays pending
        }
        return interrupted;
    }

    /** Applies the refresh a monitor answer carries; returns whether the wait it answers was interrupted. */
    private boolean applyMonitorAnswer(ByteBuffer message) {
        return space.receive(message, (reader, acknowledged) -> {
            boolean wasInterrupted = reader.body().get() != 0;
            space.applyChanges(reader, acknowledged);
            return wasInterrupted;
        });
    }

    private void monitorHeader(WireWriter writer, Delegate.Op op, Object copy, long millis) {
        writer.body().appendByte((byte) op.ordinal());
        writer.body().appendLong(threads.threadId(threads.currentThread()));
        writer.body().appendString(threads.currentThread().getName());
        writer.ref(copy);
        writer.body().appendLong(millis);
    }
}
