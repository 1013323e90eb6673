package dist.gos;

import dist.common.Log;
import dist.coordinator.Membership;
import dist.coordinator.proto.NodeInfo;
import dist.coordinator.proto.NodeState;
import dist.node.ApplicationThreads;
import dist.node.Exits;
import dist.node.proto.NodeMessageType;
import dist.transport.Endpoint;
import dist.transport.Inbound;
import dist.transport.WireBuffer;
import dist.transport.proto.Kind;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The home's object-space runtime: places application threads, serves workers' releases,
 * refreshes, statics and monitor operations, prints what placed threads print, and stands in for
 * the logical threads it placed elsewhere ({@code join}, {@code isAlive}, {@code interrupt}).
 */
final class HomeRuntime {
    private final Endpoint endpoint;
    private final Membership membership;
    private final HomeSpace space;
    private final PrintStream out;
    private final PrintStream err;
    /** Every placed thread the program still reaches, ended ones included (join, isAlive and getState answer for them). */
    private final WeakIdentityMap<Thread, Placed> placedByThread = new WeakIdentityMap<>();
    /** The placed threads that have not ended, by id. */
    private final Map<Long, Placed> placedById = new HashMap<>();
    private final Map<Long, Delegate> delegates = new HashMap<>();
    private final List<Thread> startedHere = new ArrayList<>();
    /** The thread that runs {@code main} (null when dist was attached late): it counts as the home's load. */
    private final Thread mainThread;
    private int nextChoice;

    /** A thread placed on a worker, as the home sees it; once ended, it lets go of the thread. */
    private static final class Placed {
        Thread shell;
        final NodeInfo node;
        boolean ended;

        Placed(Thread shell, NodeInfo node) {
            this.shell = shell;
            this.node = node;
        }
    }

    HomeRuntime(Endpoint endpoint, Membership membership, ClassLoader loader, Thread mainThread) {
        this.endpoint = endpoint;
        this.mainThread = mainThread;
        this.membership = membership;
        this.space = new HomeSpace(endpoint.nodeId(), loader);
        this.out = System.out;
        this.err = System.err;
        SpaceMessages.serveAtOnce(endpoint, NodeMessageType.SPACE_THREAD_END_VALUE, m -> oneWay(m, () -> threadEnded(m)));
        SpaceMessages.serveAtOnce(endpoint, NodeMessageType.SPACE_FLUSH_VALUE,
                m -> oneWay(m, () -> space.applyRelease(m.sender(), space.read(m.sender(), SpaceMessages.body(m)))));
        SpaceMessages.serveAtOnce(endpoint, NodeMessageType.SPACE_DROP_VALUE,
                m -> SpaceMessages.of(space.drop(m.sender(), SpaceMessages.bytes(SpaceMessages.body(m)))));
        SpaceMessages.serveAtOnce(endpoint, NodeMessageType.SPACE_REFRESH_VALUE,
                m -> space.write(m.sender(), w -> space.writeVolatileReadRefresh(m.sender(), w)));
        SpaceMessages.serve(endpoint, NodeMessageType.SPACE_STATICS_VALUE, m -> CompletableFuture.supplyAsync(() -> statics(m)));
        // Enters and waits are answered; exits (with their release) and notifies travel one way.
        SpaceMessages.serve(endpoint, NodeMessageType.SPACE_MONITOR_VALUE, m -> m.kind() == Kind.REQUEST ? monitor(m)
                : CompletableFuture.completedFuture(oneWay(m, () -> monitor(m))));
        SpaceMessages.serveAtOnce(endpoint, NodeMessageType.SPACE_INTERRUPT_VALUE, this::interruptDelegate);
        SpaceMessages.serveAtOnce(endpoint, NodeMessageType.SPACE_OUTPUT_VALUE, this::output);
        SpaceMessages.serveAtOnce(endpoint, NodeMessageType.SPACE_STOP_VALUE, this::stop);
        HomeInput.serve(endpoint);
    }

    // ---- threads --------------------------------------------------------------------------

    /** Starts an application thread where the placement policy says; every decision is recorded. */
    @SuppressWarnings("deprecation") // getId: threadId() is Java 19+
    void start(Thread thread) {
        NodeInfo node = choose();
        if (node.getId() != endpoint.nodeId()) {
            try {
                WireBuffer message = space.write(node.getId(), w -> {
                    w.body().appendLong(thread.getId());
                    w.body().appendString(thread.getName());
                    w.body().appendBoolean(thread.isDaemon());
                    w.body().appendInt(thread.getPriority());
                    ThreadTasks.write(thread, w);
                    // Everything that happened-before start() must be visible to the thread,
                    // in the copies that node holds already too: the start is an acquire there.
                    space.writeRefresh(node.getId(), w);
                });
                Placed placed = new Placed(thread, node);
                synchronized (this) {
                    placedByThread.put(thread, placed);
                    placedById.put(thread.getId(), placed);
                }
                startThere(thread, node, message);
                return;
            } catch (UnsharableException e) {
                ThreadPlacement.record(thread.getName() + ": kept home: " + e.getMessage());
            }
        } else {
            ThreadPlacement.record(thread.getName() + ": node " + node.getId() + " (home)");
        }
        synchronized (this) {
            startedHere.add(thread);
        }
        thread.start();
        ApplicationThreads.started(thread);
    }

    /**
     * Sends a placed thread to its node. If that fails, the worker holds neither the thread nor
     * what the message carried, and the home counts it as sent: the run ends, and this thread (the
     * program's, in Thread.start) waits for the end rather than go on with a thread that never ran.
     */
    private void startThere(Thread thread, NodeInfo node, WireBuffer message) {
        try {
            SpaceMessages.call(endpoint, node.getAddress(), NodeMessageType.SPACE_THREAD_START_VALUE, message,
                    java.time.Duration.ofSeconds(30));
        } catch (RuntimeException e) {
            endRun(node.getId(), 70, "thread " + thread.getName() + " could not be started on node " + node.getId()
                    + ": " + e.getMessage());
            Exits.awaitExit();
        }
        ThreadPlacement.record(thread.getName() + ": node " + node.getId());
    }

    /**
     * The least-loaded alive node, round-robin among equals; the home is one of them. A node's load
     * is the application threads running there, the home's {@code main} included: a program whose
     * main starts three threads and computes a fourth share itself has four busy threads.
     */
    private synchronized NodeInfo choose() {
        List<NodeInfo> nodes = new ArrayList<>(membership.alive());
        nodes.sort(Comparator.comparingInt(NodeInfo::getId));
        Map<Integer, Integer> load = new HashMap<>();
        startedHere.removeIf(t -> !t.isAlive());
        load.put(endpoint.nodeId(), startedHere.size() + (mainThread != null && mainThread.isAlive() ? 1 : 0));
        for (Placed placed : placedById.values()) {
            if (!placed.ended) {
                load.merge(placed.node.getId(), 1, Integer::sum);
            }
        }
        int least = Integer.MAX_VALUE;
        for (NodeInfo node : nodes) {
            least = Math.min(least, load.getOrDefault(node.getId(), 0));
        }
        for (int i = 0; i < nodes.size(); i++) {
            NodeInfo candidate = nodes.get((nextChoice + i) % nodes.size());
            if (load.getOrDefault(candidate.getId(), 0) == least) {
                nextChoice = (nextChoice + i + 1) % nodes.size();
                return candidate;
            }
        }
        throw new IllegalStateException("no alive node, not even the home");
    }

    void written(Object master) {
        space.written(master);
    }

    void volatileWritten(Object master) {
        space.volatileWritten(master);
    }

    long homedObjects() {
        return space.masterCount();
    }

    /** After a full collection: the masters it freed leave the registry (for the report). */
    void awaitCollected() throws InterruptedException {
        space.awaitCollected(200);
    }

    int identityHash(Object object) {
        return space.identityHash(object);
    }

    synchronized boolean isPlaced(Thread thread) {
        return placedByThread.get(thread) != null;
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
        // The thread's node interrupts it; if it is in a wait on a shared object, it passes the
        // interrupt on to its delegate here (only it knows whether the interrupt was consumed).
        SpaceMessages.send(endpoint, placed.node.getAddress(), NodeMessageType.SPACE_INTERRUPT_VALUE,
                SpaceMessages.ofLong(thread.getId()));
    }

    private void threadEnded(Inbound message) {
        WireReader reader = space.read(message.sender(), SpaceMessages.body(message));
        ByteBuffer in = reader.body();
        long id = in.getLong();
        Throwable uncaught = in.get() != 0 ? UncaughtExceptions.read(in, space.loader()) : null;
        space.applyRelease(message.sender(), reader);
        Placed placed;
        Delegate delegate;
        synchronized (this) {
            placed = placedById.get(id);
            delegate = delegates.remove(id);
        }
        if (delegate != null) {
            delegate.submit(new Delegate.Command(Delegate.Op.END, null, 0, null, new CompletableFuture<>()));
        }
        if (uncaught == null) {
            ended(placed, id);
            return;
        }
        // The thread's handler (its own, else its group's, which calls the default one or prints
        // the stack trace) runs here, where the logical thread is, before a join of the thread
        // returns, as on one JVM. It is the program's code and may block, which this reader thread
        // must not: it runs on a thread of its own, named as the logical thread.
        Thread shell = placed.shell;
        Thread handler = new Thread(() -> {
            try {
                shell.getUncaughtExceptionHandler().uncaughtException(shell, uncaught);
            } catch (Throwable ignored) {
                // the JVM ignores what an uncaught-exception handler throws
            } finally {
                ended(placed, id);
            }
        }, shell.getName());
        handler.start();
    }

    /** The logical thread ended: joins return, and nothing here keeps its Thread any more. */
    private synchronized void ended(Placed placed, long id) {
        placed.ended = true;
        placed.shell = null;
        placedById.remove(id);
        notifyAll();
    }

    // ---- object space -----------------------------------------------------------------------

    /**
     * Handles a message its worker sent without waiting for an answer (a release, a monitor exit
     * with its release, a notify): when it fails nobody is there to hear why, and the masters may
     * no longer hold what the program wrote, so the run stops here with the reason. It runs on the
     * reader thread of the message's connection, in the order sent.
     */
    private WireBuffer oneWay(Inbound message, Runnable work) {
        try {
            work.run();
        } catch (RuntimeException e) {
            endRun(message.sender(), 70, "the home cannot apply what node " + message.sender()
                    + " sent, so the run cannot go on coherently: " + e);
        }
        return null;
    }

    private WireBuffer statics(Inbound message) {
        try {
            WireReader reader = space.read(message.sender(), SpaceMessages.body(message));
            Class<?> type = Class.forName(reader.string(), true, space.loader());
            return space.write(message.sender(), w -> w.ref(type));
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("statics request: " + e, e);
        }
    }

    private CompletableFuture<WireBuffer> monitor(Inbound message) {
        int node = message.sender();
        WireReader reader = space.read(node, SpaceMessages.body(message));
        ByteBuffer in = reader.body();
        Delegate.Op op = Delegate.Op.values()[Byte.toUnsignedInt(in.get())];
        long thread = in.getLong();
        String threadName = reader.string();
        Object master = reader.ref();
        long timeout = in.getLong();
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

    private WireBuffer interruptDelegate(Inbound message) {
        Delegate delegate;
        synchronized (this) {
            delegate = delegates.get(SpaceMessages.longOf(SpaceMessages.body(message)));
        }
        if (delegate != null) {
            delegate.interruptWait();
        }
        return null;
    }

    // ---- home-only things -------------------------------------------------------------------

    private WireBuffer output(Inbound message) {
        byte[] bytes = SpaceMessages.bytes(SpaceMessages.body(message));
        PrintStream stream = bytes[0] == 2 ? err : out;
        stream.write(bytes, 1, bytes.length - 1);
        stream.flush();
        return null;
    }

    private WireBuffer stop(Inbound message) {
        ByteBuffer in = SpaceMessages.body(message);
        endRun(message.sender(), in.getInt(), WireReader.string(in));
        return null;
    }

    /** Ends the run with {@code status} because of {@code node}, saying why (if anything) on stderr and in the report. */
    private void endRun(int node, int status, String why) {
        RunStops.record(node, status, why);
        if (!why.isEmpty()) {
            err.println("[dist] error: " + why);
        }
        out.flush();
        err.flush();
        Exits.exitSoon(status, "node " + node + " ended the run with status " + status);
    }

    /** The membership event that matters here: a node holding placed threads died. */
    void nodeChanged(NodeInfo node) {
        if (node.getState() == NodeState.DEAD) {
            synchronized (this) {
                for (Placed placed : placedById.values()) {
                    if (!placed.ended && placed.node.getId() == node.getId()) {
                        Log.warn("node " + node.getId() + " died while running thread " + placed.shell.getName());
                        Exits.exitSoon(1, "a node running application threads died; the run cannot go on");
                        return;
                    }
                }
            }
        }
    }
}
