package dist.gos;

import dist.common.DaemonThreads;
import dist.node.ApplicationThreads;
import dist.node.Exits;
import dist.node.proto.NodeMessageType;
import dist.transport.Endpoint;
import dist.transport.Inbound;
import dist.transport.WireBuffer;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * A worker's object-space runtime: runs the threads the home places here, keeps their copies
 * coherent at acquire and release, takes shared monitors at the home, and sends what the threads
 * print to the home.
 */
final class WorkerRuntime {
    private final Endpoint endpoint;
    private final Supplier<String> home;
    private final WorkerSpace space;
    private final CopyCollector collector;
    private final Map<Long, Thread> running = new ConcurrentHashMap<>();
    private final ThreadLocal<PlacedHere> placedHere = new ThreadLocal<>();
    private final ThreadLocal<HeldMonitors> held = ThreadLocal.withInitial(HeldMonitors::new);
    /**
     * Wakes a thread that waits on a copy's local monitor for the home's answer (see
     * {@link #monitor}); not the transport's reader, which must never block, and the monitor may be
     * busy: a thread that held it since before the copy was shared holds it as long as it likes.
     * A cached pool then: a thread per wake-up in progress, so one busy monitor never delays
     * another's answer.
     */
    private final ExecutorService answers = Executors.newCachedThreadPool(DaemonThreads.named("dist-monitor-answer"));
    private final ExecutorService starter = Executors.newSingleThreadExecutor(DaemonThreads.named("dist-thread-starter"));

    /** The logical thread a worker thread runs for. */
    private record PlacedHere(long id, String name, Thread logical) {}

    WorkerRuntime(Endpoint endpoint, Supplier<String> home, ClassLoader loader) {
        this.endpoint = endpoint;
        this.home = home;
        this.space = new WorkerSpace(endpoint::nodeId, loader);
        this.collector = new CopyCollector(space, request -> SpaceMessages.bytes(SpaceMessages.call(endpoint, home.get(),
                NodeMessageType.SPACE_DROP_VALUE, SpaceMessages.of(request), Duration.ofSeconds(60))));
        collector.start();
        // Decoding may load classes from the home: a blocking call, so not on the transport's reader.
        SpaceMessages.serve(endpoint, NodeMessageType.SPACE_THREAD_START_VALUE,
                m -> CompletableFuture.supplyAsync(() -> startPlaced(m), starter));
        SpaceMessages.serveAtOnce(endpoint, NodeMessageType.SPACE_INTERRUPT_VALUE, m -> {
            Thread thread = running.get(SpaceMessages.longOf(SpaceMessages.body(m)));
            if (thread != null) {
                InterruptGate.interrupt(thread);
            }
            return null;
        });
        SpaceMessages.serveAtOnce(endpoint, NodeMessageType.SPACE_THREAD_STATE_VALUE, m -> {
            Thread thread = running.get(SpaceMessages.longOf(SpaceMessages.body(m)));
            // Not running here any more: it ended, and its end is on its way to the home.
            Thread.State state = thread == null ? Thread.State.TERMINATED : thread.getState();
            return SpaceMessages.of(new byte[] {(byte) state.ordinal()});
        });
        StalenessBound.start(this::tick);
        System.setOut(new PrintStream(new RemoteOutput(1), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new RemoteOutput(2), true, StandardCharsets.UTF_8));
        System.setIn(new RemoteInput(endpoint, home));
    }

    WorkerSpace space() {
        return space;
    }

    CopyCollector collector() {
        return collector;
    }

    // ---- placed threads ---------------------------------------------------------------------

    private WireBuffer startPlaced(Inbound message) {
        space.receive(SpaceMessages.body(message), (reader, acknowledged) -> {
            long id = reader.body().getLong();
            String name = reader.string();
            boolean daemon = reader.body().get() != 0;
            int priority = reader.body().getInt();
            Runnable task = ThreadTasks.read(reader, space.loader());
            space.applyChanges(reader, acknowledged); // what happened-before start(), into copies held here
            Thread thread = new Thread(() -> runPlaced(id, name, task), name);
            thread.setDaemon(daemon);
            thread.setPriority(priority);
            thread.setContextClassLoader(space.loader());
            running.put(id, thread);
            thread.start();
            return null;
        });
        return null;
    }

    private void runPlaced(long id, String name, Runnable task) {
        Thread logical = task instanceof Thread subclass ? subclass : Thread.currentThread();
        placedHere.set(new PlacedHere(id, name, logical));
        ApplicationThreads.placed(Thread.currentThread(), id);
        Throwable uncaught = null;
        try {
            task.run();
        } catch (Throwable e) {
            uncaught = e; // its handler runs at the home, where the logical thread lives
        }
        Throwable thrown = uncaught;
        System.out.flush();
        System.err.flush();
        try {
            release(NodeMessageType.SPACE_THREAD_END_VALUE, w -> {
                w.body().appendLong(id);
                w.body().appendBoolean(thrown != null);
                if (thrown != null) {
                    UncaughtExceptions.write(thrown, w.body());
                }
            });
        } catch (RuntimeException e) {
            stop(70, "thread " + name + " on node " + endpoint.nodeId() + " cannot end coherently: " + reason(e));
        } finally {
            running.remove(id);
        }
    }

    Thread currentThread() {
        PlacedHere here = placedHere.get();
        return here == null ? Thread.currentThread() : here.logical();
    }

    @SuppressWarnings("deprecation")
    long threadId(Thread thread) {
        PlacedHere here = placedHere.get();
        if (here != null && thread == here.logical()) {
            return here.id();
        }
        return thread.getId();
    }

    // ---- coherence --------------------------------------------------------------------------

    /** A release: everything written here since the last one goes home before this returns. */
    void release() {
        coherently(() -> release(NodeMessageType.SPACE_FLUSH_VALUE, w -> {}));
    }

    /** Sends the release without waiting: the home applies it before anything this node sends later. */
    private void release(int type, java.util.function.Consumer<WireWriter> header) {
        NodeCounters.RELEASES.increment();
        space.release(header, bytes -> SpaceMessages.send(endpoint, home.get(), type, bytes));
    }

    /**
     * A release of whatever changed and a refresh, while placed threads run here and share
     * something: what keeps staleness bounded for threads that never synchronize ({@link StalenessBound}).
     */
    private void tick() {
        if (running.isEmpty() || !space.holdsCopies()) {
            return;
        }
        try {
            if (space.releaseChanges(bytes -> SpaceMessages.send(endpoint, home.get(), NodeMessageType.SPACE_FLUSH_VALUE, bytes))) {
                NodeCounters.RELEASES.increment();
            }
            refreshNow();
        } catch (RuntimeException e) {
            // The tick carries what the placed threads wrote: the failure is theirs, so name them.
            stop(70, "thread " + String.join(", ", running.values().stream().map(Thread::getName).toList()) + " on node "
                    + endpoint.nodeId() + " cannot go on coherently: " + reason(e));
        }
    }

    /** An acquire: what others released to the home becomes visible here. */
    void refresh() {
        coherently(this::refreshNow);
    }

    private void refreshNow() {
        NodeCounters.REFRESHES.increment();
        ByteBuffer reply = SpaceMessages.call(endpoint, home.get(), NodeMessageType.SPACE_REFRESH_VALUE,
                new WireWriter(space).finish(), Duration.ofSeconds(60));
        space.receive(reply, (reader, acknowledged) -> {
            space.applyChanges(reader, acknowledged);
            return null;
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
        ByteBuffer reply = SpaceMessages.call(endpoint, home.get(), NodeMessageType.SPACE_STATICS_VALUE,
                request.finish(), Duration.ofSeconds(60));
        space.receive(reply, (reader, acknowledged) -> null);
    }

    // ---- monitors of shared objects ---------------------------------------------------------

    /**
     * {@code lock}'s local monitor was just taken: for a copy, take the home's too (a copy's
     * monitor is both, so this node's threads contend locally before one of them asks the home).
     */
    void entered(Object lock) {
        if (lock instanceof Class<?> type && !Slots.isJdk(type)) {
            // static synchronized: the class's monitor is the home's, like its statics
            fetchStatics(type);
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
            if (coherently(() -> monitor(Delegate.Op.ENTER, lock, 0))) {
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
            coherently(() -> release(NodeMessageType.SPACE_MONITOR_VALUE, w -> monitorHeader(w, Delegate.Op.EXIT, lock, 0)));
        }
    }

    /** Whether this thread holds {@code lock} as a shared monitor: its wait and notify are the home's. */
    boolean holdsShared(Object lock) {
        return space.isCopy(lock) && held.get().holds(lock);
    }

    void await(Object copy, long millis) throws InterruptedException {
        NodeCounters.REFRESHES.increment();
        release();
        if (coherently(() -> monitor(Delegate.Op.WAIT, copy, millis))) {
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
        coherently(() -> SpaceMessages.send(endpoint, home.get(), NodeMessageType.SPACE_MONITOR_VALUE, writer.finish()));
        return true;
    }

    private void coherently(Runnable operation) {
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
    private <T> T coherently(Supplier<T> operation) {
        try {
            return operation.get();
        } catch (RuntimeException e) {
            stop(70, "thread " + currentThread().getName() + " on node " + endpoint.nodeId()
                    + " cannot go on coherently: " + reason(e));
            throw e; // not reached: stop waits for the end of the run
        }
    }

    private static String reason(Throwable e) {
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
        SpaceMessages.request(endpoint, home.get(), NodeMessageType.SPACE_MONITOR_VALUE, writer.finish(),
                SpaceMessages.BLOCKING).whenCompleteAsync((reply, failure) -> {
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
                    SpaceMessages.send(endpoint, home.get(), NodeMessageType.SPACE_INTERRUPT_VALUE,
                            SpaceMessages.ofLong(threadId(currentThread())));
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
        writer.body().appendLong(threadId(currentThread()));
        writer.body().appendString(currentThread().getName());
        writer.ref(copy);
        writer.body().appendLong(millis);
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
            SpaceMessages.send(endpoint, home.get(), NodeMessageType.SPACE_STOP_VALUE, message);
        } catch (RuntimeException e) {
            // The home is gone already: the run is ending, and this worker with it.
        }
        Exits.awaitExit(); // the home ends the run, and this worker with it
    }

    /** System.out/err of this worker, sent to the home in order (one connection, one sender). */
    private final class RemoteOutput extends java.io.OutputStream {
        private final PrintStream ownError = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.err), true);
        private final byte stream;

        RemoteOutput(int stream) {
            this.stream = (byte) stream;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            WireBuffer message = new WireBuffer(len + 1);
            message.appendByte(stream);
            message.appendBytes(b, off, len);
            try {
                SpaceMessages.send(endpoint, home.get(), NodeMessageType.SPACE_OUTPUT_VALUE, message);
            } catch (RuntimeException e) {
                // The home is gone (the run is ending): this worker's own error stream is all there is.
                ownError.write(b, off, len);
            }
        }
    }
}
