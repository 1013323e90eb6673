package dev.distvm.objectspace;

import dev.distvm.exit.Exits;
import java.lang.reflect.Method;

/**
 * What a thread on a worker asks of a thread that runs on another node: {@code join},
 * {@code isAlive}, {@code getState} and {@code interrupt}. Only the home knows where each thread
 * it started runs and whether it ended, so the question is a forwarded call on the home's
 * {@code Thread} ({@link ForwardedCalls}): the worker's release goes first and the answer carries
 * a refresh, so a join that returned, or an {@code isAlive} that answered false, shows the joined
 * thread's writes (JLS 17.4.4), and an interrupt publishes the interrupter's writes. A thread
 * ({@code chain} joining the thread it continues, peers polling each other's {@code isAlive})
 * that did this stopped the run.
 *
 * <p>The home answers only for the threads it started, placed or its own. A {@code Thread} it
 * holds that it never started may have been started by a thread on a worker from its copy (a placed
 * thread's {@code start} runs on its node, unseen by the home): the run stops rather than answer
 * "not started" for it.
 */
final class ThreadsElsewhere {
    /** The home's answer for a thread it did not start. */
    static final int UNKNOWN = -1;

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
        known(worker, thread, "join", (Integer) ask(worker, thread, JOIN, millis));
    }

    static boolean isAlive(WorkerRuntime worker, Thread thread) {
        return known(worker, thread, "isAlive", (Integer) askUninterruptibly(worker, thread, IS_ALIVE)) == 1;
    }

    static Thread.State state(WorkerRuntime worker, Thread thread) {
        String state = (String) askUninterruptibly(worker, thread, GET_STATE);
        known(worker, thread, "getState", state == null ? UNKNOWN : 1);
        return Thread.State.valueOf(state);
    }

    static void interrupt(WorkerRuntime worker, Thread thread) {
        known(worker, thread, "interrupt", (Integer) askUninterruptibly(worker, thread, INTERRUPT));
    }

    /** The answer, unless the home did not know the thread: then the run stops ({@code stop} does not return). */
    private static int known(WorkerRuntime worker, Thread thread, String operation, int answer) {
        if (answer == UNKNOWN) {
            worker.stop(Exits.CANNOT_RUN_COHERENTLY, "thread " + Thread.currentThread().getName() + " on a worker called "
                    + operation + " on thread " + thread.getName() + ", which the home did not start (a thread on a worker"
                    + " may have started it, or nobody has yet); only threads that main or other threads at the home started"
                    + " can be asked about from another node (start such threads from main, or run the program with --nodes 1)");
        }
        return answer;
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

        public int join(long millis) throws InterruptedException {
            if (!startedByHome()) {
                return UNKNOWN;
            }
            Hooks.join(thread, millis);
            return 1;
        }

        public int isAlive() {
            return !startedByHome() ? UNKNOWN : Hooks.isAlive(thread) ? 1 : 0;
        }

        public String getState() {
            return startedByHome() ? Hooks.threadState(thread).name() : null;
        }

        public int interrupt() {
            if (!startedByHome()) {
                return UNKNOWN;
            }
            Hooks.interrupt(thread);
            return 1;
        }

        private boolean startedByHome() {
            HomeRuntime home = Hooks.home;
            return home != null && !home.mayRunUnseen(thread);
        }
    }
}
