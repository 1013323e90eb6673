package dist.gos;

import dist.node.ApplicationThreads;

/**
 * The runtime side of the rewriter's single-system-image transformations: rewritten application
 * code calls these in place of field and static accesses that may need the object space, monitor
 * operations, {@code wait/notify}, thread operations, identity hashes and {@code System.exit}.
 * Public because application classes link to it; every method keeps the single-JVM meaning of the
 * operation it replaces.
 *
 * <p>Until the object space exists every application thread runs at the home ({@link ThreadPlacement}
 * says so in the run report), so no object is a copy, statics are valid, and every monitor is the
 * JVM's own: each hook does exactly what the instruction it replaces did, plus counting. That is
 * what the instrumentation-overhead benchmark measures.
 */
public final class Hooks {
    private Hooks() {}

    // ---- objects and statics ----------------------------------------------------------------

    /** A read or write reached a copy that was never fetched. */
    public static void fault(Object object) {
        // Nothing is shared yet (see ThreadPlacement), so no object can be a copy: a fault means the
        // class was transformed against a different runtime, and going on would read stale data.
        throw new IllegalStateException("dist: object of " + object.getClass().getName()
                + " is marked as a remote copy, but this runtime shares no objects; rebuild dist.jar");
    }

    /** A static field of {@code owner} was used where the statics are not valid. */
    public static void staticFault(Class<?> owner) {
        // Statics are valid everywhere while the program runs on its home alone.
    }

    public static void beforeVolatileRead(Object holder) {}

    public static void afterVolatileRead() {}

    public static void beforeVolatileWrite() {}

    public static void afterVolatileWrite(Object holder) {}

    /** Whether {@code <clinit>} of {@code owner} runs in this JVM (it runs once, at the home). */
    public static boolean runClassInitializer(Class<?> owner) {
        return true;
    }

    public static int identityHashCode(Object object) {
        return System.identityHashCode(object);
    }

    // ---- monitors ---------------------------------------------------------------------------

    /** Returns the object whose JVM monitor the caller takes: the object itself while it is local. */
    public static Object monitorEnter(Object lock) {
        NodeCounters.MONITOR_LOCAL.increment();
        return lock;
    }

    public static void monitorEntered(Object taken) {}

    public static Object monitorExit(Object lock) {
        return lock;
    }

    public static void wait(Object lock) throws InterruptedException {
        lock.wait();
    }

    public static void wait(Object lock, long millis) throws InterruptedException {
        lock.wait(millis);
    }

    public static void wait(Object lock, long millis, int nanos) throws InterruptedException {
        lock.wait(millis, nanos);
    }

    public static void notify(Object lock) {
        lock.notify();
    }

    public static void notifyAll(Object lock) {
        lock.notifyAll();
    }

    // ---- threads ----------------------------------------------------------------------------

    public static void start(Thread thread) {
        ThreadPlacement.start(thread);
        ApplicationThreads.started(thread);
    }

    public static void join(Thread thread) throws InterruptedException {
        thread.join();
    }

    public static void join(Thread thread, long millis) throws InterruptedException {
        thread.join(millis);
    }

    public static void join(Thread thread, long millis, int nanos) throws InterruptedException {
        thread.join(millis, nanos);
    }

    public static boolean isAlive(Thread thread) {
        return thread.isAlive();
    }

    @SuppressWarnings("deprecation") // Thread.threadId() is Java 19+; dist runs on 17
    public static long threadId(Thread thread) {
        return thread.getId();
    }

    public static void interrupt(Thread thread) {
        thread.interrupt();
    }

    public static Thread currentThread() {
        return Thread.currentThread();
    }

    public static void sleep(long millis) throws InterruptedException {
        Thread.sleep(millis);
    }

    public static void sleep(long millis, int nanos) throws InterruptedException {
        Thread.sleep(millis, nanos);
    }

    // ---- the end of the program -------------------------------------------------------------

    public static void exit(int status) {
        System.exit(status);
    }

    public static void exit(Runtime runtime, int status) {
        runtime.exit(status);
    }

    public static void halt(Runtime runtime, int status) {
        runtime.halt(status);
    }
}
