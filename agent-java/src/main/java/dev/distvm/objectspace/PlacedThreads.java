package dev.distvm.objectspace;

import dev.distvm.common.DaemonThreads;
import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.exit.Exits;
import dev.distvm.node.proto.NodeMessageType;
import dev.distvm.transport.Endpoint;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The home's record of the threads it placed on workers. The Thread object at the home stays the
 * logical thread: {@code join}, {@code isAlive}, {@code getState} and {@code interrupt} of it answer
 * from here (asking the node it runs on where needed), until and after it ends.
 */
final class PlacedThreads {
    private final Endpoint endpoint;
    /** Every placed thread the program still reaches, ended ones included (join, isAlive and getState answer for them). */
    private final WeakIdentityMap<Thread, Placed> placedByThread = new WeakIdentityMap<>();
    /** The placed threads that have not ended, by id. */
    private final Map<Long, Placed> placedById = new HashMap<>();
    /** Where ends are recorded ({@link #threadEnded}): off the transport's reader. */
    private final ExecutorService endings = Executors.newCachedThreadPool(DaemonThreads.named("dist-thread-ends"));

    /** A thread placed on a worker, as the home sees it; once ended, it lets go of the thread. */
    private static final class Placed {
        Thread shell;
        /** The class of what it runs, which {@link ShortThreads} judges by. */
        final Class<?> task;
        final NodeInfo node;
        /** The node's answer to the start: until it came, the node may not know the thread yet. */
        final CompletableFuture<?> started;
        boolean ended;

        Placed(Thread shell, Class<?> task, NodeInfo node, CompletableFuture<?> started) {
            this.shell = shell;
            this.task = task;
            this.node = node;
            this.started = started;
        }

        /** Waits until the node runs the thread (a failed start ends the run, which this waits for). */
        void awaitStarted() {
            try {
                SpaceMessages.await(started);
            } catch (IllegalStateException e) {
                Exits.awaitExit();
            }
        }
    }

    PlacedThreads(Endpoint endpoint) {
        this.endpoint = endpoint;
    }

    @SuppressWarnings("deprecation") // getId: threadId() is Java 19+
    synchronized void placed(Thread thread, Class<?> task, NodeInfo node, CompletableFuture<?> started) {
        Placed placed = new Placed(thread, task, node, started);
        placedByThread.put(thread, placed);
        placedById.put(thread.getId(), placed);
    }

    /** Adds one to the load of each node for each placed thread that runs there. */
    synchronized void addLoad(Map<Integer, Integer> load) {
        for (Placed placed : placedById.values()) {
            if (!placed.ended) {
                load.merge(placed.node.getId(), 1, Integer::sum);
            }
        }
    }

    synchronized boolean isPlaced(Thread thread) {
        return placedByThread.get(thread) != null;
    }

    /** The placed threads not ended whose group is {@code group} or one of its subgroups, as {@code ThreadGroup.activeCount} counts. */
    synchronized List<Thread> aliveIn(ThreadGroup group) {
        List<Thread> alive = new ArrayList<>();
        for (Placed placed : placedById.values()) {
            ThreadGroup own = placed.shell == null ? null : placed.shell.getThreadGroup();
            if (!placed.ended && own != null && group != null && group.parentOf(own)) {
                alive.add(placed.shell);
            }
        }
        return alive;
    }

    synchronized boolean isAlive(Thread thread) {
        Placed placed = placedByThread.get(thread);
        return placed == null ? thread.isAlive() : !placed.ended;
    }

    /** Joins a placed thread: returns when it ended or after {@code millis} (0: no limit). */
    synchronized void join(Thread thread, long millis) throws InterruptedException {
        Placed placed = placedByThread.get(thread);
        long deadline = System.currentTimeMillis() + millis;
        while (!placed.ended) {
            long left = millis == 0 ? 0 : deadline - System.currentTimeMillis();
            if (millis != 0 && left <= 0) {
                return;
            }
            wait(left);
        }
    }

    /** The state of a placed thread, asked of the node it runs on. */
    @SuppressWarnings("deprecation")
    Thread.State threadState(Thread thread) {
        Placed placed;
        synchronized (this) {
            placed = placedByThread.get(thread);
            if (placed.ended) {
                return Thread.State.TERMINATED;
            }
        }
        placed.awaitStarted();
        ByteBuffer state = SpaceMessages.call(endpoint, placed.node.getAddress(), NodeMessageType.SPACE_THREAD_STATE_VALUE,
                SpaceMessages.ofLong(thread.getId()), java.time.Duration.ofSeconds(30));
        synchronized (this) {
            return placed.ended ? Thread.State.TERMINATED : Thread.State.values()[state.get(0)];
        }
    }

    @SuppressWarnings("deprecation")
    void interrupt(Thread thread) {
        Placed placed;
        synchronized (this) {
            placed = placedByThread.get(thread);
        }
        if (placed.ended) {
            return;
        }
        placed.awaitStarted(); // an interrupt sent before the start's answer could find no thread there
        // The thread's node interrupts it; if it is in a wait on a shared object, it passes the
        // interrupt on to its delegate here (only it knows whether the interrupt was consumed).
        SpaceMessages.send(endpoint, placed.node.getAddress(), NodeMessageType.SPACE_INTERRUPT_VALUE,
                SpaceMessages.ofLong(thread.getId()));
    }

    /**
     * The placed thread {@code id} ended on its node, named {@code name} (it may have renamed itself)
     * and having thrown {@code uncaught} (or null). What follows needs the logical thread's monitor
     * ({@code setName} is synchronized, and the end notifies the thread's waiters, as the JVM does
     * at a thread's exit), which the program may hold: a {@code Thread} subclass used as a mailbox
     * whose lease a node holds (the transport's reader waited for it while the lease's return queued
     * behind it, and the run hung). So it runs off the caller, the transport's reader thread: the
     * thread's handler (its own, else its group's, which calls the default one or prints the stack
     * trace), the program's code, on a thread of its own named as the logical thread; else on
     * {@link #endings}. A join returns once the name is set and the handler ran, as on one JVM.
     * Returns the class of what the thread ran.
     */
    Class<?> threadEnded(long id, String name, Throwable uncaught) {
        Placed placed;
        synchronized (this) {
            placed = placedById.get(id);
        }
        Thread shell = placed.shell;
        if (uncaught == null) {
            endings.execute(() -> {
                rename(shell, name);
                ended(placed, id);
            });
            return placed.task;
        }
        Thread handler = new Thread(() -> {
            try {
                rename(shell, name);
                shell.getUncaughtExceptionHandler().uncaughtException(shell, uncaught);
            } catch (Throwable ignored) {
                // the JVM ignores what an uncaught-exception handler throws
            } finally {
                ended(placed, id);
            }
        }, name);
        handler.start();
        return placed.task;
    }

    /** It renamed itself on its node: the program asks its Thread here. */
    private static void rename(Thread shell, String name) {
        if (!shell.getName().equals(name)) {
            shell.setName(name);
        }
    }

    /**
     * The logical thread ended: joins return, and nothing here keeps its Thread any more. As the
     * JVM does when a thread exits, its Thread object's monitor is notified: a program may wait on
     * it, as {@code join} itself does ({@code synchronized (t) { while (t.isAlive()) t.wait(); }}).
     * Outside this object's lock: the program may hold that monitor while it asks {@link #isAlive}.
     */
    private void ended(Placed placed, long id) {
        Thread shell;
        synchronized (this) {
            shell = placed.shell;
            if (shell != null) {
                ThreadFields.markEnded(shell); // before a join or isAlive can say it ended
            }
            placed.ended = true;
            placed.shell = null;
            placedById.remove(id);
            notifyAll();
        }
        if (shell != null) {
            synchronized (shell) {
                shell.notifyAll();
            }
        }
    }

    /**
     * The names of the placed threads that run on {@code node} and have not ended: if that node
     * is lost, their work is lost with it.
     */
    synchronized List<String> runningOn(int node) {
        List<String> names = new ArrayList<>();
        for (Placed placed : placedById.values()) {
            if (!placed.ended && placed.node.getId() == node) {
                names.add(placed.shell.getName());
            }
        }
        return names;
    }
}
