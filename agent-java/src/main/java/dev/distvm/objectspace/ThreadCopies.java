package dev.distvm.objectspace;

import dev.distvm.transport.WireBuffer;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;

/**
 * What a copy of a {@code Thread} object says of the thread: its name, priority, daemon flag and
 * id. A copy is made on a fresh unstarted thread's state ({@link Instances}), whose fields are the
 * JDK's, not slots that travel; without this, a placed thread that asked a peer of the program's
 * {@code Thread[]} its name read "Thread-12" of a thread made here, or dist's own. They travel in
 * the holder's header, so they are what they were when the copy was made: a later {@code setName}
 * on another node does not reach it.
 */
final class ThreadCopies {
    private static final Field TID = tidField();

    /**
     * Masters at the home of {@code Thread} objects a worker wrote for the first time after a
     * thread there had started them and they had ended: they never run again, so the home answers
     * for them without asking the workers ({@link ThreadsStartedOnWorkers#state}).
     */
    private static final WeakIdentityMap<Thread, Boolean> ENDED_ON_WORKERS = new WeakIdentityMap<>();

    /** {@code endedOnWorker}: a worker wrote it, after one of its threads had started it and it had ended. */
    record Identity(String name, int priority, boolean daemon, long id, boolean endedOnWorker) {
        void giveTo(Thread copy) {
            copy.setName(name);
            copy.setPriority(Math.max(Thread.MIN_PRIORITY, Math.min(Thread.MAX_PRIORITY, priority)));
            copy.setDaemon(daemon); // the copy is never started
            try {
                TID.setLong(copy, id); // the program's id of the thread, as getId() answers at the home
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private ThreadCopies() {}

    /** [name][priority][daemon][id][ended on a worker], after an object holder's header when the holder is a {@code Thread}. */
    static void writeIdentity(Thread thread, WireBuffer out) {
        out.appendString(thread.getName());
        out.appendInt(thread.getPriority());
        out.appendBoolean(thread.isDaemon());
        out.appendLong(Hooks.threadId(thread));
        out.appendBoolean(Hooks.onWorker() && thread.getState() == Thread.State.TERMINATED);
    }

    static Identity readIdentity(ByteBuffer in) {
        return new Identity(WireReader.string(in), in.getInt(), in.get() != 0, in.getLong(), in.get() != 0);
    }

    /** At the home: {@code master}, new, stands for a thread that ran and ended on a worker. */
    static void endedOnWorker(Thread master) {
        synchronized (ENDED_ON_WORKERS) {
            ENDED_ON_WORKERS.put(master, Boolean.TRUE);
        }
    }

    static boolean isEndedOnWorker(Thread thread) {
        synchronized (ENDED_ON_WORKERS) {
            return ENDED_ON_WORKERS.get(thread) != null;
        }
    }

    private static Field tidField() {
        try {
            Field tid = Thread.class.getDeclaredField("tid"); // JDK 17 and 25 alike
            tid.setAccessible(true); // the agent opens java.lang to dist
            return tid;
        } catch (NoSuchFieldException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
