package dev.distvm.objectspace;

import dev.distvm.common.DaemonThreads;
import dev.distvm.exit.Exits;
import dev.distvm.node.proto.NodeMessageType;
import dev.distvm.report.ApplicationThreads;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.Inbound;
import dev.distvm.transport.WireBuffer;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The threads the home placed on this worker: each starts from the home's message (its task and a
 * refresh: the start is an acquire here), runs as its logical thread ({@code currentThread()}
 * answers the home's Thread), and ends with a release that carries its uncaught exception home.
 */
final class ThreadsPlacedHere {
    private final WorkerRuntime runtime;
    private final Endpoint endpoint;
    private final WorkerSpace space;
    private final Map<Long, Thread> running = new ConcurrentHashMap<>();
    /** How much CPU a placed thread used, for {@link ShortThreads} (waiting for other nodes is not computing). */
    private static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();
    /** The local thread that runs each placed Thread subclass's copy here (an identity map: the copies hash by the hook). */
    private final Map<Thread, Thread> runningFor = Collections.synchronizedMap(new IdentityHashMap<>());
    /**
     * Starts are read on threads of their own: each is applied once every earlier message of the
     * home has been ({@link WorkerSpace#receive}, which also starts the threads in that order), and
     * two threads of the home that start threads here at once send their starts in either order.
     * On one thread, a start that arrived before the earlier one waited for it forever, and the
     * earlier one waited behind it (the home's starts timed out and the run stopped).
     */
    private final ExecutorService starter = Executors.newCachedThreadPool(DaemonThreads.named("dist-thread-starter"));

    /**
     * The JVM's {@code main} thread group, where a program's threads are unless it made groups of its
     * own: placed threads, and the thread state of copies of its Thread subclasses, are made there,
     * so that a thread prints (its group is in {@code Thread.toString()}) as at the home.
     */
    static final ThreadGroup PROGRAM_GROUP = programGroup();
    /** The program's thread groups as this node has them, made as placed threads name them. */
    private final ThreadGroups groups = new ThreadGroups(PROGRAM_GROUP);

    /** The logical thread a worker thread runs for. */
    record PlacedHere(long id, String name, Thread logical) {}

    ThreadsPlacedHere(WorkerRuntime runtime, Endpoint endpoint, Senders fromHome, WorkerSpace space) {
        this.runtime = runtime;
        this.endpoint = endpoint;
        this.space = space;
        // Decoding may load classes from the home: a blocking call, so not on the transport's reader.
        SpaceMessages.serve(endpoint, fromHome, NodeMessageType.SPACE_THREAD_START_VALUE,
                m -> CompletableFuture.supplyAsync(() -> startPlaced(m), starter));
        SpaceMessages.serveAtOnce(endpoint, fromHome, NodeMessageType.SPACE_INTERRUPT_VALUE, m -> {
            Thread thread = running.get(SpaceMessages.longOf(SpaceMessages.body(m)));
            if (thread != null) {
                runtime.interruptArrived(); // before the thread can see it
                InterruptGate.interrupt(thread);
            }
            return null;
        });
        SpaceMessages.serve(endpoint, fromHome, NodeMessageType.SPACE_THREAD_ASKED_VALUE,
                m -> CompletableFuture.supplyAsync(() -> startedHere(SpaceMessages.longOf(SpaceMessages.body(m))), starter));
        SpaceMessages.serveAtOnce(endpoint, fromHome, NodeMessageType.SPACE_THREAD_STATE_VALUE, m -> {
            Thread thread = running.get(SpaceMessages.longOf(SpaceMessages.body(m)));
            // Not running here any more: it ended, and its end is on its way to the home.
            Thread.State state = thread == null ? Thread.State.TERMINATED : runtime.monitors().stateOf(thread);
            return SpaceMessages.of(new byte[] {(byte) state.ordinal()});
        });
    }

    /**
     * The home asks about the {@code Thread} object {@code id}, which it did not start
     * ({@link ThreadsStartedOnWorkers}): its state if a thread here started it. Unless it runs, this
     * node's release goes first (off the transport's reader: a release is a send), so a join at the
     * home that sees it ended sees what it wrote.
     */
    private WireBuffer startedHere(long id) {
        Object held = space.byId(id);
        Thread.State state = held instanceof Thread thread && thread.getState() != Thread.State.NEW
                ? runtime.monitors().stateOf(thread) : null;
        if (!ThreadsStartedOnWorkers.isAlive(state == null ? Thread.State.NEW : state)) {
            runtime.release();
        }
        return SpaceMessages.of(new byte[] {state == null ? ThreadsStartedOnWorkers.NOT_STARTED_HERE : (byte) state.ordinal()});
    }

    private WireBuffer startPlaced(Inbound message) {
        space.receive(SpaceMessages.body(message), (reader, acknowledged) -> {
            long id = reader.body().getLong();
            String name = reader.string();
            boolean daemon = reader.body().get() != 0;
            int priority = reader.body().getInt();
            long stackSize = reader.body().getLong();
            ThreadGroup group = groups.read(reader.body());
            ProgramEnvironment.apply(reader.body());
            Runnable task = ThreadTasks.read(reader);
            int staticsSent = reader.body().getInt(); // installed as the message arrived, like fetched ones
            WireReader.bounded(reader.body(), staticsSent);
            for (int i = 0; i < staticsSent; i++) {
                reader.ref();
            }
            space.applyChanges(reader, acknowledged); // what happened-before start(), into copies held here
            Thread thread = TaskFrames.thread(group, name, stackSize, new PlacedTask(id, name, daemon, priority, task));
            thread.setDaemon(daemon);
            thread.setPriority(priority);
            thread.setContextClassLoader(space.loader());
            running.put(id, thread);
            runtime.threadPlaced();
            thread.start();
            return null;
        });
        return null;
    }

    /** A placed thread's work around its task: the task runs between, called from a frame stack traces do not show. */
    private final class PlacedTask implements TaskFrames.Around {
        private final long id;
        private final String name;
        private final boolean daemon;
        private final int priority;
        private final Runnable task;
        private Thread logical;
        private long began;

        PlacedTask(long id, String name, boolean daemon, int priority, Runnable task) {
            this.id = id;
            this.name = name;
            this.daemon = daemon;
            this.priority = priority;
            this.task = task;
        }

        @Override
        public void before() {
            logical = task instanceof Thread subclass ? subclass : Thread.currentThread();
            if (logical != Thread.currentThread()) {
                // The copy of the program's Thread was made without its constructor: it says what the home's says.
                logical.setName(name);
                logical.setDaemon(daemon);
                logical.setPriority(priority);
            }
            ((WorkerThread) Thread.currentThread()).placed = new PlacedHere(id, name, logical);
            runningFor.put(logical, Thread.currentThread());
            ApplicationThreads.placed(Thread.currentThread(), id);
            began = CPU.getCurrentThreadCpuTime();
        }

        @Override
        public Runnable task() {
            return task;
        }

        /** {@code thrown}: the task's uncaught exception, whose handler runs at the home, where the logical thread lives. */
        @Override
        public void after(Throwable thrown) {
            long ranNanos = CPU.getCurrentThreadCpuTime() - began;
            ((WorkerThread) Thread.currentThread()).held.countEnters(); // before the home hears of the end (and may ask for the report)
            System.out.flush();
            System.err.flush();
            try {
                runtime.release(NodeMessageType.SPACE_THREAD_END_VALUE, w -> {
                    w.body().appendLong(id);
                    w.body().appendLong(ranNanos); // the home keeps threads of a task that computes briefly (ShortThreads)
                    ProgramEnvironment.writeLeftByThreads(w.body());
                    w.body().appendString(logical.getName()); // what it may have renamed itself to
                    w.body().appendBoolean(thrown != null);
                    if (thrown != null) {
                        UncaughtExceptions.write(thrown, w.body(), space.loader());
                    }
                });
            } catch (RuntimeException | Error e) {
                // An end that does not reach the home leaves its join waiting forever: stop the run
                // instead, also when the release could not be written (an OutOfMemoryError).
                runtime.stop(Exits.CANNOT_RUN_COHERENTLY, "thread " + name + " on node " + endpoint.nodeId()
                        + " cannot end coherently: " + WorkerRuntime.reason(e));
            } finally {
                running.remove(id);
                runningFor.remove(logical);
            }
        }
    }

    /** What this node knows of the placed thread that calls, or null when it is not one ({@link WorkerThread}). */
    private static PlacedHere placedHere() {
        return Thread.currentThread() instanceof WorkerThread thread ? thread.placed : null;
    }

    Thread currentThread() {
        PlacedHere here = placedHere();
        return here == null ? Thread.currentThread() : here.logical();
    }

    private static ThreadGroup programGroup() {
        ThreadGroup root = DaemonThreads.group().getParent();
        ThreadGroup[] groups = new ThreadGroup[root.activeGroupCount() + 8];
        int count = root.enumerate(groups, false);
        for (int i = 0; i < count; i++) {
            if (groups[i].getName().equals("main")) {
                return groups[i];
            }
        }
        return root;
    }

    /**
     * The thread that runs {@code thread}'s code on this node: the local thread running a placed
     * Thread subclass's copy, or {@code thread} itself if it is this node's own or was started here;
     * null for a copy of a thread that runs elsewhere (or has not started here yet, or ended).
     */
    Thread runningHere(Thread thread) {
        PlacedHere here = placedHere();
        if (here != null && thread == here.logical()) {
            return Thread.currentThread(); // a thread about itself (a spin on isInterrupted()): no shared map's lock
        }
        Thread running = runningFor.get(thread);
        if (running != null) {
            return running;
        }
        // A copy started here (a placed thread's own Thread object, shared since, or a copy it
        // started) runs here itself; a placed thread's copy is never started.
        return space.isCopy(thread) && thread.getState() == Thread.State.NEW ? null : thread;
    }

    @SuppressWarnings("deprecation")
    long threadId(Thread thread) {
        PlacedHere here = placedHere();
        if (here != null && thread == here.logical()) {
            return here.id();
        }
        return thread.getId();
    }

    /** Whether no placed thread runs here (a staleness tick then has nothing to carry). */
    boolean noneRunning() {
        return running.isEmpty();
    }

    /** The names of the placed threads running here. */
    List<String> runningNames() {
        return running.values().stream().map(Thread::getName).toList();
    }
}
