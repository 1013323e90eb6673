package dev.distvm.objectspace;

import dev.distvm.common.DaemonThreads;
import dev.distvm.common.Log;
import dev.distvm.coordinator.Membership;
import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.coordinator.proto.NodeState;
import dev.distvm.coordinator.proto.Role;
import dev.distvm.exit.Exits;
import dev.distvm.io.HomeInput;
import dev.distvm.io.HomeOutput;
import dev.distvm.node.proto.NodeMessageType;
import dev.distvm.profile.RunProfiler;
import dev.distvm.report.ApplicationThreads;
import dev.distvm.report.ArrayFaultServedEvent;
import dev.distvm.report.FlightEvents;
import dev.distvm.report.NodeCounters;
import dev.distvm.report.OnDemandCounts;
import dev.distvm.report.ThreadPlacement;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.Inbound;
import dev.distvm.transport.WireBuffer;
import dev.distvm.transport.proto.Kind;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The home's object-space runtime: serves workers' releases, refreshes and statics, starts
 * application threads where {@link PlacementPolicy} says, and hands monitor operations to the
 * {@link Delegates}, the logical threads it placed elsewhere to {@link PlacedThreads}, and a run
 * that cannot go on to {@link RunEnd}.
 */
final class HomeRuntime {
    private final Endpoint endpoint;
    private final HomeSpace space;
    private final StaticsInReach statics = new StaticsInReach();
    private final ShortThreads shortThreads = new ShortThreads();
    /** Made with the runtime, in dist's start before {@code main}: what the program sets later is its own. */
    private final ProgramEnvironment environment = ProgramEnvironment.atStart(
            List.of(ProcessHandle.current().info().arguments().orElse(new String[0])));
    private final PlacedThreads placed;
    private final ThreadsStartedOnWorkers startedOnWorkers;
    private final PlacementPolicy placement;
    private final Delegates delegates;
    private final RunEnd runEnd;
    /**
     * Sends what the home tells workers unasked (recall a monitor lease, your volatiles may be
     * stale) off the threads that decide it: a delegate holding a monitor, a transport reader, a
     * program's thread in a volatile write.
     */
    private final ExecutorService telling = Executors.newSingleThreadExecutor(DaemonThreads.named("dist-home-tells"));

    HomeRuntime(Endpoint endpoint, Membership membership, ClassLoader loader, Thread mainThread) {
        this.endpoint = endpoint;
        this.space = new HomeSpace(endpoint.nodeId(), loader);
        this.startedOnWorkers = new ThreadsStartedOnWorkers(endpoint, membership, space);
        ArrayStores.useRegistry(space::arrayWrites);
        this.placed = new PlacedThreads(endpoint);
        this.placement = new PlacementPolicy(membership, endpoint.nodeId(), mainThread, placed);
        this.delegates = new Delegates(space, (node, lease, grant) -> {
            WireBuffer recall = new WireBuffer(Integer.BYTES + Long.BYTES);
            recall.appendInt(lease);
            recall.appendLong(grant);
            tell(membership, node, NodeMessageType.SPACE_MONITOR_RECALL_VALUE, recall);
        });
        space.leasesFromBirthThrough(delegates::holdFromBirth);
        space.countWorkersThrough(() -> (int) membership.alive().stream().filter(n -> n.getRole() == Role.WORKER).count());
        space.tellStaleThrough(node -> {
            NodeCounters.VOLATILE_PUSHES.increment();
            tell(membership, node, NodeMessageType.SPACE_VOLATILES_STALE_VALUE, new WireBuffer(0));
        });
        PrintStream out = System.out;
        PrintStream err = System.err;
        this.runEnd = new RunEnd(out, err);
        Senders workers = new Senders("a worker of this run", id -> membership.node(id)
                .filter(n -> n.getRole() == Role.WORKER && n.getState() == NodeState.ALIVE).isPresent());
        SpaceMessages.serveAtOnce(endpoint, workers, NodeMessageType.SPACE_THREAD_END_VALUE, m -> oneWay(m, () -> threadEnded(m)));
        SpaceMessages.serveAtOnce(endpoint, workers, NodeMessageType.SPACE_FLUSH_VALUE,
                m -> oneWay(m, () -> space.applyRelease(m.sender(), space.read(m.sender(), SpaceMessages.body(m)))));
        SpaceMessages.serveAtOnce(endpoint, workers, NodeMessageType.SPACE_DROP_VALUE,
                m -> SpaceMessages.of(space.drop(m.sender(), SpaceMessages.bytes(SpaceMessages.body(m)))));
        SpaceMessages.serveAtOnce(endpoint, workers, NodeMessageType.SPACE_REFRESH_VALUE,
                m -> space.write(m.sender(), w -> space.writeVolatileReadRefresh(m.sender(), w)));
        SpaceMessages.serveAtOnce(endpoint, workers, NodeMessageType.SPACE_FETCH_VALUE, m -> {
            ByteBuffer asked = space.read(m.sender(), SpaceMessages.body(m)).body();
            long id = asked.getLong();
            int from = asked.getInt();
            int to = asked.getInt();
            Class<?>[] array = new Class<?>[1];
            ArrayFaultServedEvent event = FlightEvents.recording() ? ArrayFaultServedEvent.starting() : null;
            WireBuffer answer = space.write(m.sender(), w -> array[0] = space.writeFetched(m.sender(), id, from, to, w));
            OnDemandCounts.fetched(array[0], to - from, answer.length());
            if (event != null) {
                event.ended(m.sender(), array[0], to - from, answer.length());
            }
            return answer;
        });
        SpaceMessages.serve(endpoint, workers, NodeMessageType.SPACE_STATICS_VALUE, m -> CompletableFuture.supplyAsync(() -> statics(m)));
        // Enters and waits are answered; exits (with their release) and notifies travel one way.
        SpaceMessages.serve(endpoint, workers, NodeMessageType.SPACE_MONITOR_VALUE, m -> m.kind() == Kind.REQUEST ? delegates.monitor(m)
                : CompletableFuture.completedFuture(oneWay(m, () -> delegates.monitor(m))));
        SpaceMessages.serveAtOnce(endpoint, workers, NodeMessageType.SPACE_INTERRUPT_VALUE, delegates::interruptDelegate);
        SpaceMessages.serve(endpoint, workers, NodeMessageType.SPACE_FORWARDED_CALL_VALUE, new ForwardedCallsAtHome(space, delegates)::handle);
        HomeOutput output = new HomeOutput();
        SpaceMessages.serveAtOnce(endpoint, workers, NodeMessageType.SPACE_OUTPUT_VALUE, m -> {
            output.write(SpaceMessages.bytes(SpaceMessages.body(m)));
            return null;
        });
        SpaceMessages.serveAtOnce(endpoint, workers, NodeMessageType.SPACE_STOP_VALUE, runEnd::requested);
        HomeInput input = new HomeInput();
        SpaceMessages.serve(endpoint, workers, NodeMessageType.SPACE_INPUT_VALUE,
                m -> input.request(SpaceMessages.bytes(SpaceMessages.body(m))).thenApply(SpaceMessages::of));
    }

    private void tell(Membership membership, int node, int type, WireBuffer body) {
        membership.node(node).ifPresent(n -> telling.execute(() -> SpaceMessages.send(endpoint, n.getAddress(), type, body)));
    }

    // ---- threads --------------------------------------------------------------------------

    /** Starts an application thread where the placement policy says; every decision is recorded. */
    @SuppressWarnings("deprecation") // getId: threadId() is Java 19+
    void start(Thread thread) {
        NodeInfo node = placement.choose();
        if (node.getId() != endpoint.nodeId()) {
            try {
                Object root = ThreadTasks.root(thread);
                if (!shortThreads.tooShort(root.getClass())) {
                    startThere(thread, root.getClass(), node, startMessage(thread, root, node));
                    return;
                }
                ThreadPlacement.keptHome(thread.getName(), ShortThreads.KEPT_HOME);
            } catch (UnsharableException e) {
                ThreadPlacement.keptHome(thread.getName(), e.getMessage());
            }
        } else {
            ThreadPlacement.placed(thread.getName(), node.getId(), true);
            if (RunProfiler.active()) {
                tellProfilerWhatWouldKeepItHome(thread);
                RunProfiler.starting(thread);
            }
        }
        placement.startedHere(thread);
        thread.start();
        ApplicationThreads.started(thread);
    }

    /**
     * Profiling at one node: the object space's answer, had it been asked to place the thread on
     * another node (what it runs reaches an object it cannot share), for the profiler's what-if.
     * Looking never fails the program: what the search cannot look at is left unsaid.
     */
    private void tellProfilerWhatWouldKeepItHome(Thread thread) {
        try {
            refuseUnsharable(ThreadTasks.root(thread));
        } catch (UnsharableException e) {
            RunProfiler.keptHome(thread, e.getMessage());
        } catch (RuntimeException e) {
            Log.debug("profile: could not tell whether thread " + thread.getName() + " could be placed: " + e);
        }
    }

    /**
     * Throws {@link UnsharableException} when what {@code root} runs uses statics, or reaches an
     * object, that cannot be shared; else returns the statics its code uses.
     */
    private List<Class<?>> refuseUnsharable(Object root) {
        List<Class<?>> staticsUsed = statics.refuseUnsharable(root);
        space.refuseUnsharable(root);
        return staticsUsed;
    }

    /** The start of {@code thread} on {@code node}: what it runs and all it may see (throws {@link UnsharableException}). */
    @SuppressWarnings("deprecation") // getId: threadId() is Java 19+
    private WireBuffer startMessage(Thread thread, Object root, NodeInfo node) {
        List<Class<?>> staticsUsed = refuseUnsharable(root);
        long stackSize = ThreadFields.stackSize(thread); // a deep recursion may need what the program asked for
        return space.write(node.getId(), w -> {
            w.body().appendLong(thread.getId());
            w.body().appendString(thread.getName());
            w.body().appendBoolean(thread.isDaemon());
            w.body().appendInt(thread.getPriority());
            w.body().appendLong(stackSize);
            ThreadGroups.writePath(thread, w.body());
            environment.writeChanges(node.getId(), w.body());
            ThreadTasks.write(thread, root, w);
            // The statics its code uses, which it would fetch at once, one round trip each,
            // while the home's own threads compete with the answer for the home's CPU; the
            // ones the node holds already cost their id.
            w.body().appendInt(staticsUsed.size());
            staticsUsed.forEach(w::ref);
            // Everything that happened-before start() must be visible to the thread,
            // in the copies that node holds already too: the start is an acquire there.
            space.writeRefresh(node.getId(), w);
        });
    }

    /**
     * Sends a placed thread to its node and returns without waiting for the node's answer, as
     * {@code start()} returns before the new thread runs on one JVM: a program that starts one
     * thread per node does not wait a round trip and the node's class loading per thread before the
     * next (its own threads at the home among them) can start. What the thread may see travels in
     * the message itself, and the node applies the home's messages in the order they were written;
     * a question about the thread waits for the answer first ({@link PlacedThreads}). If the
     * message cannot be delivered, the worker holds neither the thread nor what it carried, and the
     * home counted it as sent: the run ends.
     */
    private void startThere(Thread thread, Class<?> task, NodeInfo node, WireBuffer message) {
        // Recorded before the message leaves: a short thread's end may arrive before the answer.
        CompletableFuture<Object> answered = new CompletableFuture<>();
        placed.placed(thread, task, node, answered);
        ThreadPlacement.placed(thread.getName(), node.getId(), false);
        answered.whenComplete((reply, failure) -> {
            if (failure != null) {
                runEnd.endRun(node.getId(), Exits.CANNOT_RUN_COHERENTLY, "thread " + thread.getName()
                        + " could not be started on node " + node.getId() + ": " + reason(failure));
            }
        });
        try {
            SpaceMessages.request(endpoint, node.getAddress(), NodeMessageType.SPACE_THREAD_START_VALUE, message,
                    java.time.Duration.ofSeconds(30)).whenComplete((reply, failure) -> {
                        if (failure != null) {
                            answered.completeExceptionally(failure);
                        } else {
                            answered.complete(reply);
                        }
                    });
        } catch (RuntimeException e) {
            answered.completeExceptionally(e);
        }
    }

    private static String reason(Throwable failure) {
        Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        return String.valueOf(cause.getMessage());
    }

    /** Ends the run from the home with {@code status}, printing {@code why}. */
    void endRun(int status, String why) {
        runEnd.endRun(endpoint.nodeId(), status, why);
    }

    /** Threads the home holds but did not start, which a thread on a worker may have started. */
    ThreadsStartedOnWorkers startedOnWorkers() {
        return startedOnWorkers;
    }

    /** The logical threads placed elsewhere: {@code join}, {@code isAlive}, {@code getState}, {@code interrupt}. */
    PlacedThreads placed() {
        return placed;
    }

    private void threadEnded(Inbound message) {
        WireReader reader = space.read(message.sender(), SpaceMessages.body(message));
        ByteBuffer in = reader.body();
        long id = in.getLong();
        long ranNanos = in.getLong();
        environment.applyFromWorker(message.sender(), in); // before the join that follows the end returns
        String name = WireReader.string(in);
        Throwable uncaught = in.get() != 0 ? UncaughtExceptions.read(in, space.loader()) : null;
        space.applyRelease(message.sender(), reader);
        shortThreads.ran(placed.threadEnded(id, name, uncaught), ranNanos);
    }

    // ---- object space -----------------------------------------------------------------------

    void written(Object master) {
        space.written(master);
    }

    void written(Object master, Object meta) {
        space.written(master, meta);
    }

    boolean volatileWriteBeginning(Object master) {
        return space.volatileWriteBeginning(master);
    }

    void volatileWritten(Object master, boolean begun) {
        space.volatileWritten(master, begun);
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
            runEnd.endRun(message.sender(), Exits.CANNOT_RUN_COHERENTLY, "the home cannot apply what node "
                    + message.sender() + " sent, so the run cannot go on coherently: " + e);
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

    /**
     * The membership event that matters here: a node that dies while it runs application threads
     * (placed there, or started there and holding a delegate here) takes their work with it, so
     * nothing waiting for them (a join, a monitor their delegate holds) would ever end, and a
     * result computed without them would be wrong: the run ends, naming the node and the threads.
     */
    void nodeChanged(NodeInfo node) {
        if (node.getState() != NodeState.DEAD) {
            return;
        }
        Set<String> lost = new LinkedHashSet<>(placed.runningOn(node.getId()));
        List<String> monitors = delegates.monitorsOf(node.getId());
        if (!lost.isEmpty() || !monitors.isEmpty()) {
            String what = lost.isEmpty() ? "" : "ran thread " + String.join(", ", lost);
            if (!monitors.isEmpty()) {
                what += (what.isEmpty() ? "" : " and ") + "held the monitor of " + monitors.size() + " object(s) (a "
                        + String.join(", a ", new LinkedHashSet<>(monitors)) + ")";
            }
            runEnd.endRun(node.getId(), Exits.NODE_LOST, "node " + node.getId() + " (pid " + node.getPid() + " on "
                    + node.getHost() + ") died while it " + what
                    + "; what it had not yet released is lost, so the run cannot finish correctly");
        }
    }
}
