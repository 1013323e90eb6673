package dev.distvm.objectspace;

import dev.distvm.common.DaemonThreads;
import dev.distvm.exit.Exits;
import dev.distvm.node.proto.NodeMessageType;
import dev.distvm.report.FlightEvents;
import dev.distvm.report.MonitorHandOverCounts;
import dev.distvm.report.NodeCounters;
import dev.distvm.report.RemoteMonitorEnterEvent;
import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * On a worker, the monitors of copies: a copy's monitor is its local JVM monitor plus its master's
 * at the home, which this node holds through a lease ({@link MonitorLeases}): this node's threads
 * contend locally first, and an enter needs a message only when the node does not hold the
 * master's monitor already. Waits ask the home through the lease, which the wait lends to the
 * delegate that waits there; notifies travel one way; re-entries need no message
 * ({@link HeldMonitors}).
 */
final class CopyMonitors {
    /** Whether each node has its own instances of a class's values (see {@link #eachNodeHasItsOwn(Object)}), per class. */
    private static final ClassValue<Boolean> OWN_ON_EACH_NODE = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return eachNodeHasItsOwn(type) || type.isHidden() || ImmutableCollections.isOneOf(type); // hidden: a lambda
        }
    };
    private final WorkerRuntime runtime;
    private final HomeConnection toHome;
    private final WorkerSpace space;
    /** The held monitors of threads that are not a {@link WorkerThread} (see {@link #heldByThisThread}). */
    private final ThreadLocal<HeldMonitors> held = ThreadLocal.withInitial(() -> new HeldMonitors(1));
    /**
     * Wakes a thread that waits on a copy's local monitor for the home's answer (see
     * {@link #monitor}), and gives leases back; not the transport's reader, which must never
     * block, and the monitor may be busy: a thread that held it since before the copy was shared
     * holds it as long as it likes. A cached pool then: a thread per wake-up or return in
     * progress, so one busy monitor never delays another's.
     */
    private final ExecutorService answers = Executors.newCachedThreadPool(DaemonThreads.named("dist-monitor-answer"));
    /** Threads waiting for the home to grant a monitor they enter ({@link #stateOf}). */
    private final Set<Thread> entering = ConcurrentHashMap.newKeySet();
    private final MonitorLeases leases;
    private final WaitShares waitShares = new WaitShares();
    /** Objects threads of this node wait on with the JVM's own wait (see {@link #waitLocally}), with how many wait. */
    private final Map<Object, Integer> localWaits = new IdentityHashMap<>();

    CopyMonitors(WorkerRuntime runtime, HomeConnection toHome, WorkerSpace space) {
        this.runtime = runtime;
        this.toHome = toHome;
        this.space = space;
        this.leases = new MonitorLeases(answers, lease -> runtime.coherently(() -> runtime.release(
                NodeMessageType.SPACE_MONITOR_VALUE, w -> monitorHeader(w, Delegate.Op.EXIT, lease.id, lease.copy, 0))),
                MonitorLeases.LONGEST_HOLD_NANOS, this::waitedOnLocally);
    }

    MonitorLeases leases() {
        return leases;
    }

    /**
     * Whether this call of a waiting synchronized method of the copy {@code copy} is better run at
     * the home ({@link HomeCalls}): threads of other nodes use its monitor (the home recalled it from
     * here once), most recent calls waited ({@link WaitShares}), and the calling thread does not
     * hold it (the home's call would wait for this node's lease, which this thread keeps). A call
     * that runs here is counted now, its wait when it waits; one at the home when it returns.
     * While calls go home, the node takes no lease for them: one it holds goes back at the home's
     * recall (the call asks for the monitor there).
     */
    boolean betterCalledAtHome(Object copy) {
        if (Thread.holdsLock(copy) || !leases.everRecalled(copy)) {
            return false;
        }
        if (waitShares.mostlyWait(copy)) {
            return true;
        }
        waitShares.called(copy, false);
        return false;
    }

    /** A call of a waiting method of {@code copy} ran at the home; {@code waited}: it waited there. */
    void calledAtHome(Object copy, boolean waited) {
        waitShares.called(copy, waited);
    }

    private HeldMonitors heldByThisThread() {
        return Thread.currentThread() instanceof WorkerThread thread ? thread.held : held.get();
    }

    /**
     * {@code lock}'s local monitor was just taken: for a copy, this node must hold the home's
     * too; if it does not, ask for it (one thread at a time: the others wait for its answer).
     */
    void entered(Object lock) {
        if (lock instanceof Class<?> type && !Slots.isJdk(type)) {
            // static synchronized: the class's monitor is the home's, like its statics
            runtime.fetchStatics(type);
        }
        HeldMonitors mine = heldByThisThread();
        if (!isCopy(lock, mine)) {
            if (eachNodeHasItsOwn(lock)) {
                runtime.stop(Exits.CANNOT_RUN_COHERENTLY, "thread " + Thread.currentThread().getName()
                        + " on a worker locked " + describe(lock) + (lock instanceof Enum<?>
                                ? ", an enum constant, which every node makes itself"
                                : ", which travels between nodes by value")
                        + ", so each node has its own and the lock would not exclude threads of other nodes; lock"
                        + " another object instead (or run the program with --nodes 1)");
            }
            return;
        }
        if (mine.holds(lock)) {
            mine.enteredLocally();
        } else {
            holdLease(lock, mine, true);
        }
        mine.entered(lock);
    }

    /**
     * Whether {@code lock} is a copy. A copy this thread holds or entered last answers first (it
     * stays a copy while the thread's record keeps it reachable): a hot synchronized method on a
     * worker then asks neither the object's class for its meta (three class-value look-ups an enter)
     * nor, for an array, a plain {@code Object} or a JDK thread-local, which have no meta, the
     * registry, which takes the space's lock.
     */
    private boolean isCopy(Object lock, HeldMonitors mine) {
        return mine.lastState(lock) != null || mine.holds(lock) || space.isCopy(lock);
    }

    /**
     * Whether {@code lock} is a value that is not one object cluster-wide: a string, boxed value,
     * enum constant, lambda or immutable collection arrives on each node as that node's own object, and a JDK class has
     * no statics the home shares. A thread of this node locking one would exclude only this
     * node's threads: a silent wrong answer, so the run stops instead.
     */
    private static boolean eachNodeHasItsOwn(Object lock) {
        if (lock instanceof Class<?> type) {
            return Slots.isJdk(type);
        }
        return OWN_ON_EACH_NODE.get(lock.getClass()); // asked at every enter of a local object's monitor: cached per class
    }


    /** Whether each node has its own instances of {@code type}'s values: strings, boxed values, enum constants. */
    static boolean eachNodeHasItsOwn(Class<?> type) {
        return type != Class.class && WireWriter.BY_VALUE.contains(type) || Enum.class.isAssignableFrom(type);
    }

    private static String describe(Object lock) {
        if (lock instanceof Class<?> type) {
            return "the class object " + type.getName();
        }
        if (lock instanceof Enum<?> constant) {
            return constant.getDeclaringClass().getName() + "." + constant.name();
        }
        return lock instanceof String text && text.length() <= 40 ? "the string \"" + text + "\"" : "a " + lock.getClass().getName();
    }

    /**
     * Makes sure this node holds {@code lock}'s master monitor for the calling thread, which holds
     * the local one: through the lease the node holds, else one it asks for (or another thread of
     * this node is asking for). A lease the home recalled goes back first when {@code mayYield},
     * so that a node whose threads keep entering still lets the monitor go; a thread uses a lease
     * granted to it whatever, or no thread would ever get on.
     */
    private void holdLease(Object lock, HeldMonitors mine, boolean mayYield) {
        MonitorLeases.Held state = mine.lastState(lock);
        if (state == null || state.owner == null) {
            state = leases.held(lock);
        }
        if (mayYield && state.owner != null && MonitorLeases.toGiveBack(state.owner) && leases.giveBack(state)) {
            state = leases.held(lock);
        }
        boolean interrupted = false;
        boolean asked = false;
        if (state.owner == null) { // the slow path only: the fast one stays free of the set
            entering.add(Thread.currentThread());
            try {
                while (state.owner == null) {
                    if (state.requesting) {
                        interrupted |= awaitLocally(lock); // another thread's answer serves this one too
                    } else {
                        NodeCounters.MONITOR_REMOTE.increment();
                        NodeCounters.REFRESHES.increment();
                        asked = true;
                        state.requesting = true;
                        MonitorLeases.Lease lease = leases.newLease(lock);
                        RemoteMonitorEnterEvent event = FlightEvents.recording() ? RemoteMonitorEnterEvent.starting() : null;
                        interrupted |= runtime.coherently(() -> monitor(Delegate.Op.ENTER, lease, 0));
                        if (event != null) {
                            event.ended(lock);
                        }
                    }
                    state = leases.held(lock);
                }
            } finally {
                entering.remove(Thread.currentThread());
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt(); // an enter is not interruptible: the interrupt stays pending
        }
        switch (MonitorLeases.use(state.owner)) {
            case WITHIN_NODE -> MonitorHandOverCounts.withinNode(lock);
            case ACROSS_NODES -> MonitorHandOverCounts.acrossNodes(lock);
            case NONE -> { }
        }
        mine.remember(lock, state);
        if (!asked) {
            mine.enteredLocally();
        }
    }

    /**
     * {@code thread}'s state as the program sees it: a thread waiting for the home to grant a
     * monitor it is entering waits on the copy's local monitor, which the JVM calls {@code WAITING};
     * on one JVM it is {@code BLOCKED} (a peer polling for it spun forever).
     */
    Thread.State stateOf(Thread thread) {
        Thread.State state = thread.getState();
        return state == Thread.State.WAITING && entering.contains(thread) ? Thread.State.BLOCKED : state;
    }

    /** Waits on {@code lock}'s local monitor, held; returns whether an interrupt came meanwhile (kept for the caller). */
    private static boolean awaitLocally(Object lock) {
        try {
            lock.wait();
            return false;
        } catch (InterruptedException e) {
            return true;
        }
    }

    /**
     * {@code lock}'s local monitor was just let go: the node keeps the home's (its lease), unless
     * the home asked for it back, which happens once this was the last hold here.
     */
    void exited(Object lock) {
        // Only copies enter a thread's held monitors, and nothing is to be done for one it does not
        // hold as shared: the thread's own list answers, without asking whether the object is a copy.
        HeldMonitors mine = heldByThisThread();
        if (mine.exitedLast(lock)) {
            MonitorLeases.Held state = mine.lastState(lock);
            if (state == null) {
                state = leases.peek(lock);
            }
            MonitorLeases.Lease lease = state != null ? state.owner : null;
            if (lease != null && lease.returnWanted) {
                leases.scheduleReturn(lease);
            }
        }
    }

    /**
     * Whether this thread holds {@code lock} as a shared monitor: its wait and notify are the home's.
     * A thread that holds a copy's local monitor since before the copy was shared (it made a
     * request, locked it, published it, and now waits on it for the reply) takes it as a shared
     * one here, through the node's lease: the one that holds the master's since the object was
     * pushed home, or one it asks for.
     */
    boolean holdsShared(Object lock) {
        HeldMonitors mine = heldByThisThread();
        if (!isCopy(lock, mine)) {
            return false;
        }
        if (mine.holds(lock)) {
            return true;
        }
        if (!Thread.holdsLock(lock)) {
            return false; // the JVM's own wait or notify throws
        }
        holdLease(lock, mine, false);
        mine.entered(lock);
        return true;
    }

    /**
     * A wait on an object that is not a copy: the JVM's own, counted while it lasts, since the
     * object may become shared meanwhile; its node's lease then wakes it rather than go back
     * ({@link MonitorLeases#giveBack}), and the thread's next wait is the home's.
     */
    void waitLocally(Object lock, long millis, int nanos) throws InterruptedException {
        synchronized (localWaits) {
            localWaits.merge(lock, 1, Integer::sum);
        }
        try {
            lock.wait(millis, nanos);
        } finally {
            synchronized (localWaits) {
                localWaits.computeIfPresent(lock, (waited, waiters) -> waiters == 1 ? null : waiters - 1);
            }
        }
    }

    private boolean waitedOnLocally(Object lock) {
        synchronized (localWaits) {
            return localWaits.containsKey(lock);
        }
    }

    /**
     * A wait lends the node's lease to the delegate, which waits on the master at the home and
     * holds it again when the wait ends: the answer grants the lease back. Another thread of this
     * node may take the local monitor before this one has it back, and use that lease (and let it
     * go): so the thread makes sure again that the node holds the master's monitor.
     */
    void await(Object copy, long millis) throws InterruptedException {
        NodeCounters.REFRESHES.increment();
        waitShares.waited(copy);
        MonitorLeases.Held state = leases.held(copy);
        MonitorLeases.Lease lease = state.owner;
        state.owner = null; // other threads here may ask for the monitor meanwhile, through another lease
        runtime.release();
        boolean interrupted = runtime.coherently(() -> monitor(Delegate.Op.WAIT, lease, millis));
        holdLease(copy, heldByThisThread(), false);
        if (interrupted) {
            throw new InterruptedException();
        }
    }

    /**
     * A notify of a shared monitor this thread holds travels one way (the delegate notifies before
     * it serves the lease's next command: a return, a wait). Returns false when {@code lock} is
     * not a copy: the JVM's own notify applies.
     */
    boolean notify(Object lock, boolean all) {
        if (!space.isCopy(lock)) {
            return false;
        }
        if (!holdsShared(lock)) {
            lock.notifyAll(); // not held: the JVM throws
            return true;
        }
        int lease = leases.held(lock).owner.id;
        // Under the node lock: the lease may hold the master's since a release being written now pushes the copy home.
        runtime.coherently(() -> space.withLock(() -> {
            WireWriter writer = new WireWriter(space);
            monitorHeader(writer, all ? Delegate.Op.NOTIFY_ALL : Delegate.Op.NOTIFY, lease, lock, 0);
            toHome.send(NodeMessageType.SPACE_MONITOR_VALUE, writer.finish());
        }));
        if (waitedOnLocally(lock)) {
            lock.notifyAll(); // waits that began before the copy was shared: woken, their next wait is the home's
        }
        return true;
    }

    /**
     * Sends an enter or a wait through {@code lease} and waits for the home's answer, which
     * carries a refresh and grants the lease. The thread holds the copy's local monitor and waits
     * on it, which lets go of it meanwhile: another thread of this node may then enter (and wait
     * for this answer too, or use a lease this node holds), and notify a waiter; and no thread
     * holds a local monitor while it waits for the home's (a waiter woken at the home holds the
     * home's monitor before it gets the local one back: a thread holding the local one while
     * waiting for the home's would wait forever). The answer is applied off this thread, before it
     * is woken: home messages are applied in order, and a later one must not wait for this thread
     * to get the local monitor back from a thread that holds it, locally, since before the copy was
     * shared. An interrupt of this thread during a wait is passed on to the delegate; returns
     * whether the operation ended by interruption.
     */
    private boolean monitor(Delegate.Op op, MonitorLeases.Lease lease, long millis) {
        Object copy = lease.copy;
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        // Written and sent under the node lock: the copy may be one of this node's own objects that
        // a release being written now pushes home, and the home must have it before this names it.
        space.withLock(() -> {
            WireWriter writer = new WireWriter(space);
            monitorHeader(writer, op, lease.id, copy, millis);
            return toHome.request(NodeMessageType.SPACE_MONITOR_VALUE, writer.finish());
        }).whenCompleteAsync((reply, failure) -> {
            try {
                if (failure != null) {
                    throw new IllegalStateException("dist: the home failed a monitor operation: " + failure, failure);
                }
                Answer granted = applyMonitorAnswer(SpaceMessages.body(reply));
                synchronized (copy) {
                    MonitorLeases.Held state = leases.held(copy);
                    if (op == Delegate.Op.ENTER) {
                        state.requesting = false;
                    }
                    leases.granted(lease, granted.grant());
                }
                answer.complete(granted.interrupted());
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
                    toHome.send(NodeMessageType.SPACE_INTERRUPT_VALUE, SpaceMessages.ofLong(lease.id));
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

    /** What the home answered an enter or a wait: whether the wait was interrupted, and the grant it ends in. */
    private record Answer(boolean interrupted, long grant) {}

    /** Applies the refresh a monitor answer carries. */
    private Answer applyMonitorAnswer(ByteBuffer message) {
        return space.receive(message, (reader, acknowledged) -> {
            Answer answer = new Answer(reader.body().get() != 0, reader.body().getLong());
            space.applyChanges(reader, acknowledged);
            return answer;
        });
    }

    private void monitorHeader(WireWriter writer, Delegate.Op op, int lease, Object copy, long millis) {
        writer.body().appendByte((byte) op.ordinal());
        writer.body().appendInt(lease);
        writer.ref(copy);
        writer.body().appendLong(millis);
    }
}
