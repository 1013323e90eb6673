package dev.distvm.objectspace;

import dev.distvm.exit.Exits;
import dev.distvm.report.ApplicationThreads;
import dev.distvm.report.ThreadPlacement;
import java.util.Arrays;

/**
 * The runtime side of the rewriter's single-system-image transformations: rewritten application
 * code calls these around monitor operations, in place of {@code wait/notify}, thread operations,
 * identity hashes and {@code System.exit}, and where a field or static access needs the object
 * space. Public because application classes link to it. Each keeps the single-JVM meaning of what
 * it replaces: on the home (and without dist) it does just that, the home noting writes to shared
 * masters; on a worker, objects that are copies of the home's go through {@link WorkerRuntime}.
 */
public final class Hooks {
    static volatile HomeRuntime home;
    static volatile WorkerRuntime worker;
    /**
     * Whether this JVM is a worker, fixed before any application code runs ({@link ObjectSpace#declareRole}):
     * a constant the JIT folds, so that at the home and on one node the monitor hooks compile to
     * nothing and HotSpot coarsens and elides locks in hot loops as it does without dist.
     */
    private static final boolean ON_WORKER = ObjectSpace.isWorker();

    private Hooks() {}

    static boolean onWorker() {
        return ON_WORKER;
    }

    // ---- objects and statics ----------------------------------------------------------------

    /** A static field of {@code owner} was used where the statics are not valid. */
    public static void staticFault(Class<?> owner) {
        WorkerRuntime w = worker;
        if (w != null) {
            w.fetchStatics(owner);
        }
    }

    /** A write to a shared object or class (its state is not 0), reported after the store. */
    public static void written(Object holder) {
        WorkerRuntime w = worker;
        if (w != null) {
            w.space().written(holder);
            return;
        }
        HomeRuntime h = home;
        if (h != null) {
            h.written(holder);
        }
    }

    /**
     * A write to a shared object, with its meta as the put helper read it: a worker's {@code Copy}
     * record (or, for a clone that copied its original's, another object's), the home's id.
     */
    public static void written(Object holder, Object meta) {
        if (ON_WORKER) {
            WorkerRuntime w = worker;
            if (w != null) {
                w.space().written(holder, meta);
            }
            return;
        }
        HomeRuntime h = home;
        if (h != null) {
            h.written(holder, meta);
        }
    }

    // ---- array stores: after each store instruction, which stays the program's own ----
    // On a worker the rewriter faults the element's chunk in before a primitive store (arrayRead):
    // a write needs the chunk too (AbsentChunks says why); arrays of references always travel whole.

    /** After {@code array[index]} was stored: marks the element's chunk written if the array is shared. */
    public static void arrayStored(Object array, int index) {
        ArrayStores.stored(array, index);
    }

    // ---- array reads on a worker (the rewriter emits these there only) ----

    /** Before a primitive element read: its chunk is faulted in if it is absent here ({@link AbsentChunks}). */
    public static void arrayRead(Object array, int index) {
        ArrayReads.read(array, index);
    }

    /** Before JDK code is handed {@code array}: every absent chunk of it (or of the arrays it holds) is faulted in. */
    public static void arrayPassing(Object array) {
        ArrayReads.passing(array);
    }

    /** After a JDK method that was handed {@code array} returned: it may have written any element. */
    public static void arrayPassed(Object array) {
        ArrayStores.passed(array);
    }

    /** {@code array} was handed to JDK code that keeps it and may write it at any later time. */
    public static void arrayAliased(Object array) {
        ArrayStores.aliased(array);
    }

    public static void beforeVolatileRead(Object holder) {
        WorkerRuntime w = worker;
        if (w != null && w.space().isCopy(holder)) {
            w.volatileRead();
        }
    }

    public static void afterVolatileRead() {
        WorkerRuntime w = worker;
        if (w != null) {
            w.afterVolatileRead();
        }
    }

    /**
     * The release follows the write ({@link #afterVolatileWrite}), carrying everything before it.
     * Returns what the after-hook is handed: whether the write was counted as begun.
     */
    public static boolean beforeVolatileWrite(Object holder, String owner, String field) {
        if (holder instanceof Class<?> named) {
            holder = StaticsHolders.declaring(named, field);
        }
        WorkerRuntime w = worker;
        if (w != null) {
            if (w.space().isCopy(holder)) {
                w.volatileWriteStarting(holder, owner, field);
                return true;
            }
            return false;
        }
        HomeRuntime h = home;
        return h != null && h.volatileWriteBeginning(holder);
    }

    /** {@code owner} and {@code field} name the field as the write instruction did (owner as an internal name). */
    public static void afterVolatileWrite(Object holder, boolean begun, String owner, String field) {
        if (holder instanceof Class<?> named) {
            holder = StaticsHolders.declaring(named, field);
        }
        WorkerRuntime w = worker;
        if (w != null && w.space().isCopy(holder)) {
            w.volatileWritten(holder, begun, owner, field);
        } else {
            HomeRuntime h = home;
            if (h != null) {
                h.volatileWritten(holder, begun);
            }
        }
    }

    /**
     * Whether {@code <clinit>} of {@code owner} runs in this JVM: it runs once, at the home; a
     * worker fetches the statics it made instead. Enum constants are made on every node (they
     * travel by name), so enums initialize everywhere; so do interfaces, whose fields are final
     * constants the class file format does not let dist set.
     */
    public static boolean runClassInitializer(Class<?> owner) {
        if (worker == null) {
            return true;
        }
        if (owner.isInterface()) {
            // Not refused here: a worker initializes an interface that declares default methods with
            // any class implementing it, whose code may never touch the interface's fields (the
            // placement keeps home the threads whose code uses them).
            return true;
        }
        if (owner.isEnum()) {
            refusePerNodeStateOnWorker(owner);
            return true;
        }
        InjectedState.setClass(owner, InjectedState.NOT_FETCHED);
        return false;
    }

    public static int identityHashCode(Object object) {
        WorkerRuntime w = worker;
        if (w != null) {
            return w.space().identityHash(object);
        }
        HomeRuntime h = home;
        return h != null ? h.identityHash(object) : System.identityHashCode(object);
    }

    /** Whether this call of a synchronized method that waits runs at the object's home ({@link HomeCalls}); never at the home itself. */
    public static boolean callsHome(Object self) {
        if (ON_WORKER) {
            WorkerRuntime w = worker;
            return w != null && w.callsHome(self);
        }
        return false;
    }

    /** Runs the call at the object's home; throws what the method threw there, checked or not. */
    public static Object callHome(Object self, String key, Object[] arguments) {
        try {
            return worker.callHome(self, key, arguments);
        } catch (Throwable thrown) {
            throw ForwardedCalls.<RuntimeException>unchecked(thrown);
        }
    }

    /** A call of a worker's copy of a synchronizer whose calls run at the home ({@link ForwardedCalls}); copies exist only on workers. */
    static Object forwardedCall(Object copy, java.lang.reflect.Method method, Object[] arguments) throws Throwable {
        WorkerRuntime w = worker;
        if (w == null) {
            throw new IllegalStateException("a copy of a " + method.getDeclaringClass().getName() + " outside a worker");
        }
        return w.forwardedCall(copy, method, arguments);
    }

    /**
     * {@code object.hashCode()} called as {@code Object}'s: an application class's is the one the
     * rewriter gave it (or the program's own), but an array's, a plain {@code Object}'s and a JDK
     * thread-local's are the JDK's, the identity hash of this node's own instance: the shared one's is the home's.
     */
    public static int objectHashCode(Object object) {
        return InjectedState.hasMeta(object) ? object.hashCode() : identityHashCode(object);
    }

    // ---- monitors ----------------------------------------------------------------------------
    // The JVM monitor taken is always the object's own. Where there is no worker runtime (at the
    // home, on one node, without dist) these hooks do nothing else: a monitor costs what it costs
    // on one JVM. On a worker, a copy's monitor is its local monitor, which the node's threads
    // contend for first, plus the home's, which the holder of the local one takes through its delegate.

    /** Called holding {@code lock}'s JVM monitor, right after {@code monitorenter}. */
    public static void monitorEntered(Object lock) {
        if (ON_WORKER) {
            WorkerRuntime w = worker;
            if (w != null) {
                w.monitors().entered(lock);
            }
        }
    }

    /** Called right after {@code monitorexit} let go of {@code lock}'s JVM monitor. */
    public static void monitorExit(Object lock) {
        if (ON_WORKER) {
            WorkerRuntime w = worker;
            if (w != null) {
                w.monitors().exited(lock);
            }
        }
    }

    public static void wait(Object lock) throws InterruptedException {
        wait(lock, 0L);
    }

    public static void wait(Object lock, long millis) throws InterruptedException {
        WorkerRuntime w = worker;
        if (w == null) {
            HomeCalls.waiting();
            lock.wait(millis);
        } else if (w.monitors().holdsShared(lock)) {
            if (millis < 0) {
                throw new IllegalArgumentException("timeout value is negative");
            }
            w.monitors().await(lock, millis);
        } else {
            seeingInterrupts(() -> w.monitors().waitLocally(lock, millis, 0));
        }
    }

    public static void wait(Object lock, long millis, int nanos) throws InterruptedException {
        if (nanos < 0 || nanos > 999_999) {
            throw new IllegalArgumentException("nanosecond timeout value out of range");
        }
        WorkerRuntime w = worker;
        if (w == null) {
            HomeCalls.waiting();
            lock.wait(millis, nanos);
        } else if (w.monitors().holdsShared(lock)) {
            wait(lock, nanos > 0 && millis < Long.MAX_VALUE ? millis + 1 : millis);
        } else {
            seeingInterrupts(() -> w.monitors().waitLocally(lock, millis, nanos));
        }
    }

    public static void notify(Object lock) {
        WorkerRuntime w = worker;
        if (w == null || !w.monitors().notify(lock, false)) {
            lock.notify();
        }
    }

    public static void notifyAll(Object lock) {
        WorkerRuntime w = worker;
        if (w == null || !w.monitors().notify(lock, true)) {
            lock.notifyAll();
        }
    }

    // ---- threads ----------------------------------------------------------------------------

    public static void start(Thread thread) {
        HomeRuntime h = home;
        if (h != null) {
            h.start(thread);
        } else {
            if (worker != null) {
                ThreadPlacement.startedByPlacedThread(thread.getName());
            }
            thread.start();
            ApplicationThreads.started(thread);
        }
    }

    /**
     * At the home, who answers for a {@code Thread} it did not start (not placed, never started
     * here) that workers hold: a thread on a worker may have started it
     * ({@link ThreadsStartedOnWorkers}); null for any other thread.
     */
    private static ThreadsStartedOnWorkers startedOnWorkers(Thread thread) {
        HomeRuntime h = home;
        return h != null && h.startedOnWorkers().mayHaveStarted(thread, h.placed()) ? h.startedOnWorkers() : null;
    }

    /** At the home, a thread a worker started that still runs there: only that node could interrupt it or read its flag. */
    private static void refuseRunningOnAWorker(ThreadsStartedOnWorkers elsewhere, Thread thread, String operation) {
        if (ThreadsStartedOnWorkers.isAlive(elsewhere.state(thread))) {
            home.endRun(Exits.CANNOT_RUN_COHERENTLY, "thread " + Thread.currentThread().getName() + " called " + operation
                    + " on thread " + thread.getName() + ", which a thread on a worker started and which runs there; only"
                    + " that node could (start the thread from main, or run the program with --nodes 1)");
            Exits.awaitExit();
        }
    }

    public static void join(Thread thread) throws InterruptedException {
        join(thread, 0L);
    }

    public static void join(Thread thread, long millis) throws InterruptedException {
        HomeRuntime h = home;
        if (h != null && h.placed().isPlaced(thread)) {
            if (millis < 0) {
                throw new IllegalArgumentException("timeout value is negative");
            }
            h.placed().join(thread, millis);
            return;
        }
        ThreadsStartedOnWorkers elsewhere = startedOnWorkers(thread);
        if (elsewhere != null) {
            if (millis < 0) {
                throw new IllegalArgumentException("timeout value is negative");
            }
            elsewhere.join(thread, millis);
            return;
        }
        Thread here = runningHere(thread);
        if (here != null) {
            seeingInterrupts(() -> here.join(millis));
        } else if (millis < 0) {
            throw new IllegalArgumentException("timeout value is negative");
        } else {
            seeingInterrupts(() -> ThreadsElsewhere.join(worker, thread, millis));
        }
    }

    public static void join(Thread thread, long millis, int nanos) throws InterruptedException {
        if (nanos < 0 || nanos > 999_999) {
            throw new IllegalArgumentException("nanosecond timeout value out of range");
        }
        HomeRuntime h = home;
        if (h != null && (h.placed().isPlaced(thread) || startedOnWorkers(thread) != null)) {
            join(thread, nanos > 0 && millis < Long.MAX_VALUE ? millis + 1 : millis);
            return;
        }
        Thread here = runningHere(thread);
        if (here != null) {
            seeingInterrupts(() -> here.join(millis, nanos));
        } else {
            join(thread, nanos > 0 && millis >= 0 && millis < Long.MAX_VALUE ? millis + 1 : millis);
        }
    }

    public static boolean isAlive(Thread thread) {
        HomeRuntime h = home;
        if (h != null) {
            ThreadsStartedOnWorkers elsewhere = startedOnWorkers(thread);
            return elsewhere != null ? ThreadsStartedOnWorkers.isAlive(elsewhere.state(thread)) : h.placed().isAlive(thread);
        }
        Thread here = runningHere(thread);
        return here != null ? here.isAlive() : ThreadsElsewhere.isAlive(worker, thread);
    }

    /**
     * {@code Thread.getStackTrace()}: asked of the thread that runs it on this node (a placed
     * {@code Thread} subclass's object on a worker is a copy, not a started thread, whose stack is
     * empty), without dist's frames (this hook's, among them); a thread running on another node has
     * no stack here, as a thread not alive has none.
     */
    public static StackTraceElement[] stackTrace(Thread thread) {
        WorkerRuntime w = worker;
        Thread running = w == null ? thread : w.threads().runningHere(thread);
        if (running == null) {
            return new StackTraceElement[0];
        }
        return Arrays.stream(running.getStackTrace()).filter(frame -> !frame.getClassName().startsWith("dev.distvm."))
                .toArray(StackTraceElement[]::new);
    }

    /**
     * {@code Thread.activeCount()}: at the home, the threads of the caller's group alive there and
     * those placed on other nodes and not ended (dist's own threads are in a group of their own), so
     * that a main waiting for the count to drop waits for them all. A worker sees only its own
     * node's threads: a count from there would be wrong, so the run stops.
     */
    public static int activeCount() {
        return activeCount(Thread.currentThread().getThreadGroup());
    }

    /** {@code Thread.enumerate(Thread[])}: what {@link #activeCount()} counts, as many as fit. */
    public static int enumerate(Thread[] threads) {
        return enumerate(Thread.currentThread().getThreadGroup(), threads);
    }

    /** {@code group.activeCount()}: as {@link #activeCount()}, for that group and its subgroups. */
    public static int activeCount(ThreadGroup group) {
        HomeRuntime h = home;
        if (h != null) {
            return group.activeCount() + h.placed().aliveIn(group).size();
        }
        refuseCountOnWorker("activeCount");
        return group.activeCount();
    }

    /** {@code group.enumerate(Thread[])}: what {@link #activeCount(ThreadGroup)} counts, as many as fit. */
    public static int enumerate(ThreadGroup group, Thread[] threads) {
        HomeRuntime h = home;
        if (h == null) {
            refuseCountOnWorker("enumerate");
            return group.enumerate(threads);
        }
        int count = group.enumerate(threads);
        for (Thread placed : h.placed().aliveIn(group)) {
            if (count == threads.length) {
                break;
            }
            threads[count++] = placed;
        }
        return count;
    }

    /**
     * An enum with state ({@link PerNodeState}), initialized on a worker: its constants there would
     * be this node's own (the placement keeps home the threads whose code it sees use them).
     */
    private static void refusePerNodeStateOnWorker(Class<?> owner) {
        WorkerRuntime w = worker;
        PerNodeState.state(owner).ifPresent(state -> w.stop(Exits.CANNOT_RUN_COHERENTLY, "thread "
                + Thread.currentThread().getName() + " on a worker uses enum " + owner.getName() + ", whose"
                + " constants every node makes itself; their field " + state.getName() + " is state that would differ"
                + " between nodes (run the program with --nodes 1, or keep that state in a class)"));
    }

    private static void refuseCountOnWorker(String operation) {
        WorkerRuntime w = worker;
        if (w != null) {
            w.stop(Exits.CANNOT_RUN_COHERENTLY, "thread " + Thread.currentThread().getName() + " on a worker called "
                    + operation + "() of Thread or ThreadGroup, which must count the program's threads on every node;"
                    + " only threads at the home can (call it from main, or run the program with --nodes 1)");
        }
    }

    public static Thread.State threadState(Thread thread) {
        HomeRuntime h = home;
        if (h != null && h.placed().isPlaced(thread)) {
            return h.placed().threadState(thread);
        }
        ThreadsStartedOnWorkers elsewhere = startedOnWorkers(thread);
        if (elsewhere != null) {
            return elsewhere.state(thread);
        }
        Thread here = runningHere(thread);
        WorkerRuntime w = worker;
        if (w == null) {
            return here.getState();
        }
        return here != null ? w.monitors().stateOf(here) : ThreadsElsewhere.state(w, thread);
    }

    @SuppressWarnings("deprecation") // Thread.threadId() is Java 19+; dist runs on 17
    public static long threadId(Thread thread) {
        WorkerRuntime w = worker;
        return w != null ? w.threads().threadId(thread) : thread.getId();
    }

    public static void interrupt(Thread thread) {
        HomeRuntime h = home;
        if (h != null && h.placed().isPlaced(thread)) {
            h.placed().interrupt(thread);
        } else {
            ThreadsStartedOnWorkers elsewhere = startedOnWorkers(thread);
            if (elsewhere != null) {
                refuseRunningOnAWorker(elsewhere, thread, "interrupt");
                return; // not alive: an interrupt does nothing
            }
            Thread here = runningHere(thread);
            if (here != null) {
                InterruptGate.interrupt(here);
            } else {
                ThreadsElsewhere.interrupt(worker, thread);
            }
        }
    }

    /**
     * {@code thread.isInterrupted()}: on a worker, the flag of the thread that runs its code here,
     * which for a placed {@code Thread} subclass is not the copy of its object that the program
     * sees as {@code this}.
     */
    public static boolean isInterrupted(Thread thread) {
        return seen(onThisNode(thread, "isInterrupted").isInterrupted());
    }

    /** {@code Thread.interrupted()}: an interrupt seen is an acquire on a worker ({@link WorkerRuntime#interruptSeen}). */
    public static boolean interrupted() {
        return seen(Thread.interrupted());
    }

    private static boolean seen(boolean interrupted) {
        WorkerRuntime w = worker;
        if (interrupted && w != null) {
            w.interruptSeen();
        }
        return interrupted;
    }

    private interface Interruptible {
        void run() throws InterruptedException;
    }

    /** Runs a blocking call whose {@code InterruptedException}, thrown to the program, is an interrupt seen. */
    private static void seeingInterrupts(Interruptible call) throws InterruptedException {
        try {
            call.run();
        } catch (InterruptedException e) {
            seen(true);
            throw e;
        }
    }

    public static Thread currentThread() {
        WorkerRuntime w = worker;
        return w != null ? w.threads().currentThread() : Thread.currentThread();
    }

    public static void sleep(long millis) throws InterruptedException {
        seeingInterrupts(() -> Thread.sleep(millis));
    }

    public static void sleep(long millis, int nanos) throws InterruptedException {
        seeingInterrupts(() -> Thread.sleep(millis, nanos));
    }

    /**
     * The thread to ask about {@code thread} here: on a worker, the one that runs its code on this
     * node (for a placed {@code Thread} subclass, not the copy of its object that the program holds);
     * null for a thread that runs on another node, which only the home can answer for
     * ({@link ThreadsElsewhere}).
     */
    private static Thread runningHere(Thread thread) {
        WorkerRuntime w = worker;
        return w == null ? thread : w.threads().runningHere(thread);
    }

    /** {@link #runningHere}, for a question the home does not answer: about a thread elsewhere, the run stops. */
    private static Thread onThisNode(Thread thread, String operation) {
        // A thread about itself (a spin on isInterrupted()) is never one a worker started: no look-up.
        ThreadsStartedOnWorkers elsewhere = thread == Thread.currentThread() ? null : startedOnWorkers(thread);
        if (elsewhere != null) {
            refuseRunningOnAWorker(elsewhere, thread, operation);
        }
        Thread running = runningHere(thread);
        if (running == null) {
            worker.stop(Exits.CANNOT_RUN_COHERENTLY, "thread " + Thread.currentThread().getName() + " on a worker called "
                    + operation + " on thread " + thread.getName() + ", which runs on another node; only threads at the"
                    + " home can ask that of a thread on another node (ask it from main, or run the program with --nodes 1)");
        }
        return running;
    }

    // ---- native methods ---------------------------------------------------------------------

    /**
     * Called before each call of a native method of an application class. Its library and native
     * state are the home's: libraries are loaded by class initializers, which run at the home only
     * (see {@link #runClassInitializer}), and native state is outside the object space. So it runs
     * at the home, and a call on a worker stops the run, naming the method, before anything runs.
     */
    public static void nativeMethod(Class<?> owner, String name) {
        WorkerRuntime w = worker;
        if (w != null) {
            w.stop(Exits.CANNOT_RUN_COHERENTLY, "thread " + Thread.currentThread().getName()
                    + " on a worker called native method "
                    + owner.getName() + "." + name + "; native methods of application classes run only at the home,"
                    + " where their library and native state are (make the native calls from main, or run the program"
                    + " with --nodes 1)");
        }
    }

    // ---- the end of the program -------------------------------------------------------------

    public static void exit(int status) {
        WorkerRuntime w = worker;
        if (w != null) {
            w.stop(status, "");
        }
        System.exit(status);
    }

    public static void exit(Runtime runtime, int status) {
        WorkerRuntime w = worker;
        if (w != null) {
            w.stop(status, "");
        }
        runtime.exit(status);
    }

    public static void halt(Runtime runtime, int status) {
        WorkerRuntime w = worker;
        if (w != null) {
            w.stop(status, "");
        }
        runtime.halt(status);
    }
}
