package dev.distvm.objectspace;

import java.lang.reflect.Method;

/**
 * What a thread on a worker asks of a thread that runs on another node: {@code join},
 * {@code isAlive}, {@code getState} and {@code interrupt}. Only the home knows where each thread
 * it started runs and whether it ended (and asks the workers about one a worker's thread started,
 * {@link ThreadsStartedOnWorkers}), so the question is a forwarded call on the home's
 * {@code Thread} ({@link ForwardedCalls}): the worker's release goes first and the answer carries
 * a refresh, so a join that returned, or an {@code isAlive} that answered false, shows the joined
 * thread's writes (JLS 17.4.4), and an interrupt publishes the interrupter's writes. A thread
 * ({@code chain} joining the thread it continues, peers polling each other's {@code isAlive})
 * that did this stopped the run.
 */
final class ThreadsElsewhere {
    private static final Method JOIN = method("join", long.class);
    private static final Method IS_ALIVE = method("isAlive");
    private static final Method GET_STATE = method("getState");
    private static final Method INTERRUPT = method("interrupt");

    private ThreadsElsewhere() {}

    private static Method method(String name, Class<?>... parameters) {
        try {
            return AtHome.class.getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** {@code thread.join(millis)} (0: no limit), {@code millis} checked and rounded as {@link Hooks} does. */
    static void join(WorkerRuntime worker, Thread thread, long millis) throws InterruptedException {
        ask(worker, thread, JOIN, millis);
    }

    static boolean isAlive(WorkerRuntime worker, Thread thread) {
        return (Boolean) askUninterruptibly(worker, thread, IS_ALIVE);
    }

    static Thread.State state(WorkerRuntime worker, Thread thread) {
        return Thread.State.valueOf((String) askUninterruptibly(worker, thread, GET_STATE));
    }

    static void interrupt(WorkerRuntime worker, Thread thread) {
        askUninterruptibly(worker, thread, INTERRUPT);
    }

    private static Object ask(WorkerRuntime worker, Thread thread, Method method, Object... arguments)
            throws InterruptedException {
        try {
            return worker.forwardedCall(thread, method, arguments);
        } catch (InterruptedException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("the home answered " + method.getName() + " of a thread with " + e, e);
        }
    }

    /** Questions that cannot throw {@code InterruptedException}: an interrupt while asked stays pending. */
    private static Object askUninterruptibly(WorkerRuntime worker, Thread thread, Method method) {
        try {
            return ask(worker, thread, method);
        } catch (InterruptedException e) {
            throw new IllegalStateException("the home's answer to " + method.getName() + " was interrupted", e);
        }
    }

    /**
     * The home's side: a question about {@code thread}, run on a thread of the home's
     * ({@link ForwardedCallsAtHome}) through {@link Hooks}, as the home's own threads ask it.
     * Public methods: these are what a worker may call ({@link ForwardedCalls#method}).
     */
    public static final class AtHome {
        private final Thread thread;

        AtHome(Thread thread) {
            this.thread = thread;
        }

        public void join(long millis) throws InterruptedException {
            Hooks.join(thread, millis);
        }

        public boolean isAlive() {
            return Hooks.isAlive(thread);
        }

        public String getState() {
            return Hooks.threadState(thread).name();
        }

        public void interrupt() {
            Hooks.interrupt(thread);
        }
    }
}
