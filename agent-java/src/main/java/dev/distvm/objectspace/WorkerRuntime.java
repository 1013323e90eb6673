package dev.distvm.objectspace;

import dev.distvm.exit.Exits;
import dev.distvm.exit.HomeEndedException;
import dev.distvm.io.WorkerStreams;
import dev.distvm.node.proto.NodeMessageType;
import dev.distvm.report.ArrayFaultEvent;
import dev.distvm.report.FlightEvents;
import dev.distvm.report.MonitorHandOverCounts;
import dev.distvm.report.NodeCounters;
import dev.distvm.report.OnDemandCounts;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.WireBuffer;
import dev.distvm.transport.Inbound;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A worker's object-space runtime: keeps the copies of the threads the home placed here
 * ({@link ThreadsPlacedHere}) coherent at acquire (a refresh, a statics fetch) and release, and
 * bounded in staleness, with their monitors' help ({@link CopyMonitors}); when it cannot, it stops
 * the run with the reason rather than compute with data that is not coherent.
 */
final class WorkerRuntime {
    private final Endpoint endpoint;
    private final HomeConnection toHome;
    private final WorkerSpace space;
    private final CopyCollector collector;
    private final ThreadsPlacedHere threads;
    private final CopyMonitors monitors;
    private final VolatileWrites volatileWrites = new VolatileWrites();
    private final StalenessBound stalenessBound = new StalenessBound(new StalenessBound.Node() {
        @Override
        public boolean tick() {
            return WorkerRuntime.this.tick();
        }

        @Override
        public void between() {
            monitors.leases().review(threads.noneRunning());
        }
    });
    /**
     * A thread that reads a volatile and finds nothing new is likely waiting for another node, which
     * may be waiting for this one's plain writes (a barrier's flags): they go home now, at most
     * every {@link #WAITING_RELEASE_NANOS}, rather than at the next staleness tick.
     */
    private static final long WAITING_RELEASE_NANOS = 200_000;
    private volatile long lastWaitingRelease;
    /**
     * While the node has writes to push, a spinning thread looks at the clock for that push once in
     * this many of its reads: the clock costs about 30 ns here. Counted racily by all spinners
     * (a lost count only moves a look), and only while there is something to push.
     */
    private static final int READS_PER_CLOCK_LOOK = 16;
    private int readsUntilClockLook;
    /** Numbers this node's forwarded calls, so that an interrupt names the one it is for. */
    private final AtomicLong forwardedCalls = new AtomicLong();
    /** Interrupts the home sent for threads here, and through which of them a refresh followed ({@link #interruptSeen}). */
    private final AtomicLong interruptsArrived = new AtomicLong();
    private final AtomicLong interruptsAcquired = new AtomicLong();

    WorkerRuntime(Endpoint endpoint, Supplier<String> home, Senders fromHome, ClassLoader loader) {
        this.endpoint = endpoint;
        this.toHome = new HomeConnection(endpoint, home);
        this.space = new WorkerSpace(endpoint::nodeId, loader);
        ArrayStores.useRegistry(space::arrayWrites);
        ArrayReads.useRegistry(space::absentChunks, this::fetch);
        this.collector = new CopyCollector(space,
                request -> SpaceMessages.bytes(toHome.call(NodeMessageType.SPACE_DROP_VALUE, SpaceMessages.of(request),
                        Duration.ofSeconds(60))));
        collector.start();
        this.threads = new ThreadsPlacedHere(this, endpoint, fromHome, space);
        this.monitors = new CopyMonitors(this, toHome, space);
        space.leasesFromBirthThrough(monitors.leases()::heldFromBirth);
        SpaceMessages.serveAtOnce(endpoint, fromHome, NodeMessageType.SPACE_VOLATILES_STALE_VALUE, m -> {
            space.volatiles.told();
            return null;
        });
        SpaceMessages.serveAtOnce(endpoint, fromHome, NodeMessageType.SPACE_MONITOR_RECALL_VALUE, m -> {
            ByteBuffer recall = SpaceMessages.body(m);
            monitors.leases().recalled(recall.getInt(), recall.getLong());
            return null;
        });
        stalenessBound.start();
        WorkerStreams.redirect(toHome);
    }

    WorkerSpace space() {
        return space;
    }

    CopyCollector collector() {
        return collector;
    }

    ThreadsPlacedHere threads() {
        return threads;
    }

    CopyMonitors monitors() {
        return monitors;
    }

    // ---- coherence --------------------------------------------------------------------------

    /** A release: everything written here since the last one goes home before this returns. */
    void release() {
        coherently(() -> release(NodeMessageType.SPACE_FLUSH_VALUE, w -> {}));
    }

    /** Sends the release without waiting: the home applies it before anything this node sends later. */
    void release(int type, java.util.function.Consumer<WireWriter> header) {
        NodeCounters.RELEASES.increment();
        space.release(header, bytes -> toHome.send(type, bytes));
    }

    /** A release, one way, only if some copy changed since the last one; returns whether it was sent. */
    private boolean releaseChanges() {
        if (space.releaseChanges(bytes -> toHome.send(NodeMessageType.SPACE_FLUSH_VALUE, bytes))) {
            NodeCounters.RELEASES.increment();
            return true;
        }
        return false;
    }

    /** A thread was placed here: the staleness bound ticks for it from now on. */
    void threadPlaced() {
        stalenessBound.wake();
    }

    /**
     * A release of whatever changed and a refresh, while placed threads run here and share
     * something: what keeps staleness bounded for threads that never synchronize ({@link StalenessBound}).
     * Returns whether there may be work at the next tick: a placed thread runs, or a lease is still held.
     */
    private boolean tick() {
        boolean noneRunning = threads.noneRunning();
        if (noneRunning || !space.holdsCopies()) {
            return !noneRunning || monitors.leases().anyHeld();
        }
        try {
            releaseChanges();
            refreshNow();
        } catch (RuntimeException e) {
            // The tick carries what the placed threads wrote: the failure is theirs, so name them.
            stop(Exits.CANNOT_RUN_COHERENTLY, "thread " + String.join(", ", threads.runningNames()) + " on node "
                    + endpoint.nodeId() + " cannot go on coherently: " + reason(e));
        }
        return true;
    }

    /** The home sent an interrupt for a thread here (which is interrupted next). */
    void interruptArrived() {
        interruptsArrived.incrementAndGet();
    }

    /**
     * A thread here saw an interrupt (an {@code isInterrupted()} or {@code Thread.interrupted()} that
     * answered true, an {@code InterruptedException}): an interrupt synchronizes-with every point
     * where a thread determines it (JLS 17.4.4), so what the interrupting thread wrote before it must
     * be visible now. Interrupts from the home come from its threads, whose writes are in the
     * masters: a refresh, once per interrupt that arrived since the last (a copy is the node's, so one
     * thread's refresh serves every thread here). A cancelled thread that reported what the
     * canceller had set read its copy's old value.
     */
    void interruptSeen() {
        long arrived = interruptsArrived.get();
        if (arrived > interruptsAcquired.get()) {
            refresh();
            interruptsAcquired.accumulateAndGet(arrived, Math::max);
        }
    }

    /** An acquire: what others released to the home becomes visible here. */
    void refresh() {
        coherently(this::refreshNow);
    }

    /**
     * Before a volatile read of a copy: a refresh only if the home said a release reached the
     * masters since the last one. Otherwise the copy holds the value of the last write in the
     * volatiles' total order that this node can have seen: every path by which a newer write
     * happens-before this read brought a refresh here (a monitor's grant, a thread's start, this
     * thread's own volatile write), and the home's word arrives within a round trip of the write,
     * so a spinning thread sends no message while nothing changes and sees a write about one
     * round trip after it. A volatile read may read an older value than the newest in real time;
     * the total order of volatile accesses stays, since every refresh is a snapshot of the masters
     * with each release whole, and a volatile write waits for the home (see {@link #volatileWritten}).
     */
    void volatileRead() {
        if (space.volatiles.stale()) {
            refresh();
            return;
        }
        if (!UnreleasedWrites.NODE.any() || --readsUntilClockLook > 0) {
            return; // nothing to push, or not yet time to look at the clock
        }
        readsUntilClockLook = READS_PER_CLOCK_LOOK;
        long now = System.nanoTime();
        if (now - lastWaitingRelease >= WAITING_RELEASE_NANOS) {
            lastWaitingRelease = now;
            if (coherently(this::releaseChanges)) {
                NodeCounters.VOLATILE_PUSHES.increment();
            }
        }
    }

    /**
     * After a volatile write to a copy: the release, sent one way, and this node's copies marked
     * stale, so that the next volatile read here refreshes; the refresh follows the release on the
     * connection, so the home has applied the write when it answers. Without that, two threads on
     * two nodes could each write one volatile and then read the other's old value from their
     * copies (Dekker's mutual exclusion), which one JVM never allows. (Waiting for a refresh here
     * instead made every volatile write a round trip: a single-producer queue's consumer paid one
     * per item on top of its reads.) The release carries the field written even when the value
     * equals what the copy held ({@link Twin#volatileWriteStarting}).
     */
    void volatileWritten(Object holder, boolean begun, String owner, String field) {
        int slot = begun ? Slots.of(holder).fieldSlot(owner, field) : -1;
        if (slot >= 0) {
            space.volatileWriteEnded(holder, slot);
        } else {
            space.written(holder);
        }
        try {
            release();
            NodeCounters.VOLATILE_PUSHES.increment();
            space.volatiles.markStale();
        } finally {
            volatileWrites.done();
        }
    }

    /**
     * Before a volatile write to a copy: from now until its release is sent, readers here wait for
     * it, and no home message overwrites the field (see {@link Twin#volatileWriteStarting}).
     */
    void volatileWriteStarting(Object holder, String owner, String field) {
        volatileWrites.starting();
        int slot = Slots.of(holder).fieldSlot(owner, field);
        if (slot >= 0) {
            space.volatileWriteStarting(holder, slot);
        }
    }

    /**
     * After any volatile read here: waits for a home message being applied (the value just read
     * may be one it wrote, and the reader must not go on to data the same message has yet to
     * write) and for the volatile writes of this node whose releases are not sent yet
     * ({@link VolatileWrites}; once sent, the node is stale and the next volatile read refreshes
     * after them); then, if the value may come from a snapshot that was not whole, a refresh, so
     * that what this thread reads next is no older than what it just read.
     */
    void afterVolatileRead() {
        space.awaitApplied();
        volatileWrites.awaitUnderway();
        if (space.volatiles.partial()) {
            refresh();
        }
    }

    private void refreshNow() {
        // Taken before asking: the home's word about a release after this refresh's snapshot
        // may arrive before the reply, and must not be lost.
        long asked = space.volatiles.asking();
        NodeCounters.REFRESHES.increment();
        ByteBuffer reply = toHome.call(NodeMessageType.SPACE_REFRESH_VALUE, new WireWriter(space).finish(),
                Duration.ofSeconds(60));
        space.receive(reply, (reader, acknowledged) -> {
            if (space.applyChanges(reader, acknowledged)) {
                space.volatiles.refreshed(asked);
            }
            return null;
        });
    }

    /**
     * A fault: fetches chunks [from, to) of an array this worker got on demand from the home and
     * applies them (in the order of the home's messages, like any other) before it returns.
     */
    private void fetch(Object array, AbsentChunks chunks, int from, int to) {
        coherently(() -> {
            WireWriter request = new WireWriter(space);
            request.body().appendLong(chunks.id);
            request.body().appendInt(from);
            request.body().appendInt(to);
            ArrayFaultEvent event = FlightEvents.recording() ? ArrayFaultEvent.starting() : null;
            ByteBuffer reply = toHome.call(NodeMessageType.SPACE_FETCH_VALUE, request.finish(), Duration.ofSeconds(60));
            OnDemandCounts.fetched(array.getClass(), to - from, reply.remaining());
            if (event != null) {
                event.ended(array.getClass(), to - from, reply.remaining());
            }
            space.receive(reply, (reader, acknowledged) -> {
                space.applyFetched(reader, acknowledged);
                return null;
            });
        });
    }

    /**
     * Fetches the statics of {@code type} and of its application superclasses (a static field
     * named through a subclass lives in the class that declares it) from the home, unless they
     * arrived already. Enums and interfaces keep their own (see {@link Hooks#runClassInitializer}).
     */
    void fetchStatics(Class<?> type) {
        if (space.installed(type)) {
            return; // the common case (a static synchronized method's every call): no node lock
        }
        coherently(() -> space.withLock(() -> {
            for (Class<?> c = type; c != null && !Slots.isJdk(c); c = c.getSuperclass()) {
                if (!c.isEnum() && !c.isInterface() && !space.installed(c)) {
                    fetchStaticsOf(c);
                }
            }
        }));
    }

    private void fetchStaticsOf(Class<?> type) {
        NodeCounters.STATICS_FETCHED.increment();
        WireWriter request = new WireWriter(space);
        request.body().appendString(type.getName());
        ByteBuffer reply = toHome.call(NodeMessageType.SPACE_STATICS_VALUE, request.finish(), Duration.ofSeconds(60));
        space.receive(reply, (reader, acknowledged) -> null);
    }

    /**
     * Runs {@code method} on the home's instance of a synchronizer this node holds a copy of
     * ({@link ForwardedCalls}) and returns what it returned, or throws what it threw. The node's
     * release goes first (the home applies it before the call, which follows it on the connection),
     * and the answer carries a refresh, applied before this returns: a {@code countDown} or an
     * {@code await} orders this thread's writes and reads with the other threads' on every node as
     * on one JVM. An interrupt while the call runs is passed on to the home's thread that runs it;
     * unless the call consumed it ({@link ForwardedCalls.Outcome#interruptsCaller}), it stays
     * pending here, as on one JVM.
     */
    Object forwardedCall(Object copy, Method method, Object[] arguments) throws Throwable {
        return forwardedCall(copy, method, ForwardedCalls.key(method), arguments);
    }

    /** Whether this call of a waiting synchronized method of {@code self} runs at the home ({@link HomeCalls}). */
    boolean callsHome(Object self) {
        return space.isCopy(self) && monitors.betterCalledAtHome(self);
    }

    /**
     * Runs the waiting synchronized method {@code key} on the home's master of the copy
     * {@code self}, as a forwarded call: the release first, the answer's refresh applied before this
     * returns, an interrupt passed on, so the call orders this thread's reads and writes with the
     * other threads' as the monitor would have. What it throws has this thread's frames below the method's.
     */
    Object callHome(Object self, String key, Object[] arguments) throws Throwable {
        MonitorHandOverCounts.calledAtHome(self);
        try {
            return forwardedCall(self, HomeCalls.method(self.getClass(), key), key, arguments);
        } catch (Throwable thrown) { // what the method threw at the home
            HomeCalls.asIfThrownHere(thrown, key);
            throw thrown;
        }
    }

    private Object forwardedCall(Object copy, Method method, String key, Object[] arguments) throws Throwable {
        release();
        long asked = space.volatiles.asking();
        long call = forwardedCalls.incrementAndGet();
        WireWriter request = new WireWriter(space);
        request.body().appendLong(call);
        request.ref(copy);
        request.body().appendString(key);
        ForwardedCalls.writeArguments(request.body(), method, arguments);
        CompletableFuture<Inbound> answer =
                coherently(() -> toHome.request(NodeMessageType.SPACE_FORWARDED_CALL_VALUE, request.finish()));
        boolean passedOn = false;
        Inbound reply = null;
        while (reply == null) {
            try {
                reply = answer.get();
            } catch (InterruptedException e) {
                if (!passedOn) {
                    passedOn = true;
                    coherently(() -> toHome.send(NodeMessageType.SPACE_FORWARDED_CALL_VALUE, SpaceMessages.ofLong(call)));
                }
            } catch (ExecutionException e) {
                coherently(() -> {
                    throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                });
            }
        }
        ByteBuffer body = SpaceMessages.body(reply);
        ForwardedCalls.Outcome outcome = coherently(() -> space.receive(body, (reader, acknowledged) -> {
            ForwardedCalls.Outcome read = ForwardedCalls.Outcome.read(reader.body(), method, space.loader());
            if (space.applyChanges(reader, acknowledged)) {
                space.volatiles.refreshed(asked);
            }
            return read;
        }));
        if (HomeCalls.isHomeCall(key)) {
            monitors.calledAtHome(copy, outcome.waited());
        }
        if (outcome.interruptsCaller(passedOn)) {
            Thread.currentThread().interrupt();
        }
        if (outcome.thrown() != null) {
            throw outcome.thrown();
        }
        return outcome.result();
    }

    void coherently(Runnable operation) {
        coherently(() -> {
            operation.run();
            return null;
        });
    }

    /**
     * Runs an object-space operation; when it fails (an object of a class dist cannot share yet,
     * the home refusing or gone) the run stops with the reason: going on would compute with data
     * that is not coherent.
     */
    <T> T coherently(Supplier<T> operation) {
        try {
            return operation.get();
        } catch (RuntimeException e) {
            stop(Exits.CANNOT_RUN_COHERENTLY, "thread " + threads.currentThread().getName() + " on node "
                    + endpoint.nodeId() + " cannot go on coherently: " + reason(e));
            throw e; // not reached: stop waits for the end of the run
        }
    }

    /** What a failed object-space operation says to the user: the unsharable class and why, if that was it. */
    static String reason(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof UnsharableException) {
                return t.getMessage();
            }
        }
        String message = String.valueOf(e.getMessage());
        // The home's refusal arrives as text: keep the part that names the class and the reason.
        String marker = UnsharableException.class.getSimpleName() + ": ";
        int at = message.indexOf(marker);
        return at >= 0 ? message.substring(at + marker.length()) : message;
    }

    // ---- the end ----------------------------------------------------------------------------

    /** Ends the whole run with {@code status}; the home prints {@code why} (if any) and exits. */
    void stop(int status, String why) {
        System.out.flush();
        System.err.flush();
        WireBuffer message = new WireBuffer();
        message.appendInt(status);
        message.appendString(why.length() > 16_000 ? why.substring(0, 16_000) : why);
        try {
            toHome.send(NodeMessageType.SPACE_STOP_VALUE, message);
        } catch (RuntimeException e) {
            if (HomeEndedException.causedBy(e)) {
                // What failed was work for a run that is over (a lease going back as the home left): not an error.
                Exits.exitSoon(0, "the home ended the run; this worker stops");
                Exits.awaitExit();
            }
            // Nobody is left to end the run for this worker: waiting for that would wait forever. The
            // home is gone, so the run's own report is gone with it: one line says why this worker ends.
            String firstLine = why.lines().findFirst().orElse("");
            System.err.println("[dist] error: " + (firstLine.length() > 300 ? firstLine.substring(0, 300) + " ..." : firstLine)
                    + " (the home is unreachable: " + e.getMessage() + ")");
            Exits.exitSoon(status, "the home is unreachable; this worker stops");
        }
        Exits.awaitExit(); // the home ends the run, and this worker with it
    }
}
