package dist.gos;

import dist.node.ApplicationThreads;
import dist.node.Exits;
import dist.node.proto.NodeMessageType;
import dist.transport.Endpoint;
import dist.transport.Inbound;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
    private final ThreadLocal<Object> standIn = ThreadLocal.withInitial(Object::new);
    private final ThreadLocal<HeldMonitors> held = ThreadLocal.withInitial(HeldMonitors::new);
    private final ExecutorService starter = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "dist-thread-starter");
        t.setDaemon(true);
        return t;
    });

    /** The logical thread a worker thread runs for. */
    private record PlacedHere(long id, String name, Thread logical) {}

    WorkerRuntime(Endpoint endpoint, Supplier<String> home, ClassLoader loader) {
        this.endpoint = endpoint;
        this.home = home;
        this.space = new WorkerSpace(endpoint::nodeId, loader);
        this.collector = new CopyCollector(space, request -> SpaceMessages.call(endpoint, home.get(),
                NodeMessageType.SPACE_DROP_VALUE, request, Duration.ofSeconds(60)));
        collector.start();
        // Decoding may load classes from the home: a blocking call, so not on the transport's reader.
        endpoint.register(NodeMessageType.SPACE_THREAD_START_VALUE,
                m -> CompletableFuture.supplyAsync(() -> startPlaced(m), starter));
        endpoint.registerImmediate(NodeMessageType.SPACE_INTERRUPT_VALUE, m -> {
            Thread thread = running.get(SpaceMessages.longOf(SpaceMessages.bytes(m)));
            if (thread != null) {
                InterruptGate.interrupt(thread);
            }
            return SpaceMessages.wrap(new byte[0]);
        });
        endpoint.registerImmediate(NodeMessageType.SPACE_THREAD_STATE_VALUE, m -> {
            Thread thread = running.get(SpaceMessages.longOf(SpaceMessages.bytes(m)));
            // Not running here any more: it ended, and its end is on its way to the home.
            Thread.State state = thread == null ? Thread.State.TERMINATED : thread.getState();
            return SpaceMessages.wrap(new byte[] {(byte) state.ordinal()});
        });
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

    private dist.node.proto.SpaceMessage startPlaced(Inbound message) {
        space.receive(SpaceMessages.bytes(message), (reader, acknowledged) -> {
            try {
                long id = reader.body().readLong();
                String name = reader.body().readUTF();
                boolean daemon = reader.body().readBoolean();
                int priority = reader.body().readInt();
                Runnable task = ThreadTasks.read(reader, space.loader());
                Thread thread = new Thread(() -> runPlaced(id, name, task), name);
                thread.setDaemon(daemon);
                thread.setPriority(priority);
                thread.setContextClassLoader(space.loader());
                running.put(id, thread);
                thread.start();
                return null;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        return SpaceMessages.wrap(new byte[0]);
    }

    private void runPlaced(long id, String name, Runnable task) {
        Thread logical = task instanceof Thread subclass ? subclass : Thread.currentThread();
        placedHere.set(new PlacedHere(id, name, logical));
        ApplicationThreads.placed(Thread.currentThread(), id);
        String uncaught = null;
        try {
            task.run();
        } catch (Throwable e) {
            StringWriter text = new StringWriter();
            e.printStackTrace(new PrintWriter(text));
            uncaught = text.toString();
        }
        String finalUncaught = uncaught;
        System.out.flush();
        System.err.flush();
        try {
            release(NodeMessageType.SPACE_THREAD_END_VALUE, w -> {
                try {
                    w.body().writeLong(id);
                    w.body().writeBoolean(finalUncaught != null);
                    if (finalUncaught != null) {
                        byte[] utf8 = finalUncaught.getBytes(StandardCharsets.UTF_8);
                        w.body().writeInt(utf8.length);
                        w.body().write(utf8);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
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

    /** An acquire: what others released to the home becomes visible here. */
    void refresh() {
        coherently(this::refreshNow);
    }

    private void refreshNow() {
        NodeCounters.REFRESHES.increment();
        byte[] reply = SpaceMessages.call(endpoint, home.get(), NodeMessageType.SPACE_REFRESH_VALUE,
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
        try {
            request.body().writeUTF(type.getName());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] reply = SpaceMessages.call(endpoint, home.get(), NodeMessageType.SPACE_STATICS_VALUE,
                request.finish(), Duration.ofSeconds(60));
        space.receive(reply, (reader, acknowledged) -> null);
    }

    // ---- monitors of shared objects ---------------------------------------------------------

    /** A shared monitor: taken at the home by this thread's delegate, with a refresh; a re-entry is local. */
    Object enter(Object copy) {
        HeldMonitors mine = held.get();
        if (mine.holds(copy)) {
            NodeCounters.MONITOR_LOCAL.increment();
        } else {
            NodeCounters.MONITOR_REMOTE.increment();
            NodeCounters.REFRESHES.increment();
            if (coherently(() -> monitor(Delegate.Op.ENTER, copy, 0))) {
                Thread.currentThread().interrupt(); // an enter is not interruptible: the interrupt stays pending
            }
        }
        mine.entered(copy);
        return standIn.get();
    }

    /** The last exit carries the release; the delegate lets go of the monitor once the home applied it. */
    Object exit(Object copy) {
        if (!held.get().exited(copy)) {
            coherently(() -> release(NodeMessageType.SPACE_MONITOR_VALUE, w -> monitorHeader(w, Delegate.Op.EXIT, copy, 0)));
        }
        return standIn.get();
    }

    void await(Object copy, long millis) throws InterruptedException {
        held.get().requireHeld(copy);
        NodeCounters.REFRESHES.increment();
        release();
        if (coherently(() -> monitor(Delegate.Op.WAIT, copy, millis))) {
            throw new InterruptedException();
        }
    }

    /** One way: the delegate notifies before it serves this thread's next command (an exit, a wait). */
    void notify(Object copy, boolean all) {
        held.get().requireHeld(copy);
        WireWriter writer = new WireWriter(space);
        monitorHeader(writer, all ? Delegate.Op.NOTIFY_ALL : Delegate.Op.NOTIFY, copy, 0);
        coherently(() -> SpaceMessages.send(endpoint, home.get(), NodeMessageType.SPACE_MONITOR_VALUE, writer.finish()));
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
        return at >= 0 ? message.substring(at + marker.length()).replaceAll(" \\(message type \\d+\\)$", "") : message;
    }

    /**
     * Sends an enter or a wait and waits for the home's answer, applying the refresh it carries.
     * An interrupt of this thread during a wait is passed on to the delegate; returns whether the
     * operation ended by interruption.
     */
    private boolean monitor(Delegate.Op op, Object copy, long millis) {
        WireWriter writer = new WireWriter(space);
        monitorHeader(writer, op, copy, millis);
        var reply = SpaceMessages.request(endpoint, home.get(), NodeMessageType.SPACE_MONITOR_VALUE, writer.finish(),
                SpaceMessages.BLOCKING);
        boolean passedOn = false;
        byte[] bytes;
        while (true) {
            try {
                bytes = SpaceMessages.bytes(reply.get());
                break;
            } catch (InterruptedException e) {
                if (!passedOn) {
                    passedOn = true;
                    if (op != Delegate.Op.WAIT) {
                        continue; // only a wait is interruptible; the interrupt stays pending (below)
                    }
                    SpaceMessages.send(endpoint, home.get(), NodeMessageType.SPACE_INTERRUPT_VALUE,
                            SpaceMessages.longBytes(threadId(currentThread())));
                }
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException("dist: the home failed a monitor operation: " + e.getCause(), e.getCause());
            }
        }
        boolean interrupted = space.receive(bytes, (reader, acknowledged) -> {
            try {
                boolean wasInterrupted = reader.body().readBoolean();
                space.applyChanges(reader, acknowledged);
                return wasInterrupted;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        if (passedOn && !interrupted) {
            Thread.currentThread().interrupt(); // not a wait, or notified and interrupted at once: it stays pending
        }
        return interrupted;
    }

    private void monitorHeader(WireWriter writer, Delegate.Op op, Object copy, long millis) {
        try {
            writer.body().writeByte(op.ordinal());
            writer.body().writeLong(threadId(currentThread()));
            writer.body().writeUTF(currentThread().getName());
            writer.ref(copy);
            writer.body().writeLong(millis);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- the end ----------------------------------------------------------------------------

    /** Ends the whole run with {@code status}; the home prints {@code why} (if any) and exits. */
    void stop(int status, String why) {
        System.out.flush();
        System.err.flush();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(status);
            out.writeUTF(why.length() > 16_000 ? why.substring(0, 16_000) : why);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            SpaceMessages.send(endpoint, home.get(), NodeMessageType.SPACE_STOP_VALUE, bytes.toByteArray());
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
            byte[] message = new byte[len + 1];
            message[0] = stream;
            System.arraycopy(b, off, message, 1, len);
            try {
                SpaceMessages.send(endpoint, home.get(), NodeMessageType.SPACE_OUTPUT_VALUE, message);
            } catch (RuntimeException e) {
                // The home is gone (the run is ending): this worker's own error stream is all there is.
                ownError.write(b, off, len);
            }
        }
    }
}
