package dev.distvm.objectspace;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * On a worker, the volatile writes to copies that other threads of this node can already read
 * but whose releases are not sent yet ({@link WorkerRuntime#volatileWritten}). A thread that read
 * such a value waits until the release is sent before it goes on; the node is then stale, so its
 * next volatile read refreshes after the release, from masters that hold the write. Otherwise it
 * could read the write of its neighbour before the home has ordered it, and then an older value
 * of another volatile from its copies, while a thread on another node sees the two writes the
 * other way round (independent reads of independent writes), which one JVM never allows.
 */
final class VolatileWrites {
    private static final long POLL_NANOS = 5_000;

    /** Each writing thread's write in progress, by a number no other write has. */
    private final Map<Thread, Long> underway = new ConcurrentHashMap<>();
    private final AtomicLong numbers = new AtomicLong();

    /** The calling thread is about to write a volatile field of a copy. */
    void starting() {
        underway.put(Thread.currentThread(), numbers.incrementAndGet());
    }

    /** The calling thread's volatile write has its release sent and the node marked stale (or it failed: the run then stops). */
    void done() {
        underway.remove(Thread.currentThread());
    }

    /**
     * After a volatile read: waits for the writes in progress when it was made (not for later
     * ones, so a reader is never held back by a stream of new writes).
     */
    void awaitUnderway() {
        if (underway.isEmpty()) {
            return;
        }
        for (Map.Entry<Thread, Long> write : Map.copyOf(underway).entrySet()) {
            if (write.getKey() == Thread.currentThread()) {
                continue;
            }
            while (write.getValue().equals(underway.get(write.getKey()))) {
                LockSupport.parkNanos(POLL_NANOS); // the writer is between its store and its send
            }
        }
    }
}
