package dev.distvm.common;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * dist's own threads. All are daemons: dist runs inside the user's JVM, and the program's end
 * (its last non-daemon thread) is what ends that JVM, never a thread dist left behind. Names
 * start with {@code dist-} so that a thread dump, the run report and tests can tell them apart.
 *
 * <pre>{@code
 * ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("dist-heartbeat"));
 * DaemonThreads.start("dist-copy-collector", this::run);
 * }</pre>
 */
public final class DaemonThreads {
    /**
     * The group of dist's threads: beside the program's main group, under the JVM's root, so that
     * {@code Thread.activeCount()} and {@code Thread.enumerate} in the program count only its own
     * threads, as on a JVM without dist (a main that waits for the count to drop to 1 waits forever
     * when dist's threads are in its group).
     */
    private static final ThreadGroup GROUP = new ThreadGroup(root(), "dist");

    private DaemonThreads() {}

    /** The group of dist's threads, for a thread class of dist's own that cannot come from {@link #create}. */
    public static ThreadGroup group() {
        return GROUP;
    }

    private static ThreadGroup root() {
        ThreadGroup group = Thread.currentThread().getThreadGroup();
        while (group.getParent() != null) {
            group = group.getParent();
        }
        return group;
    }

    /** A factory whose threads all bear {@code name} (for an executor of one thread, or of one kind). */
    public static ThreadFactory named(String name) {
        return body -> create(name, body);
    }

    /** A factory whose threads are named {@code prefix1}, {@code prefix2}, ... in the order made. */
    public static ThreadFactory numbered(String prefix) {
        AtomicInteger made = new AtomicInteger();
        return body -> create(prefix + made.incrementAndGet(), body);
    }

    /** A daemon thread, not started yet. */
    public static Thread create(String name, Runnable body) {
        Thread thread = new Thread(GROUP, body, name);
        thread.setDaemon(true);
        return thread;
    }

    /** Starts {@code body} on a daemon thread of its own. */
    public static Thread start(String name, Runnable body) {
        Thread thread = create(name, body);
        thread.start();
        return thread;
    }
}
