package dev.distvm.profile;

import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Which sampled accesses would cross the network with each thread on a node of its own: those of a
 * thread to an object that another thread wrote since this one last touched it (the thread's copy
 * would be stale, as in a write-invalidate protocol). An object only read, however many threads
 * read it, costs nothing after it was copied; a thread's own data costs nothing. Per object: a
 * version raised by each sampled write, its last writer, and the version each of the last
 * {@link #THREADS} threads to touch it saw.
 *
 * <p>A fixed table probed by identity hash, without a global lock (counting every access, all
 * threads are in it at once): it never keeps an object alive and never grows with the program. A
 * full neighbourhood forgets an object, and two threads that place the same object at once may each
 * keep their own entry; with more than {@link #THREADS} threads on one object, the one that touched
 * it least recently is forgotten, and its next access counts as remote.
 */
final class SharingTable {
    private static final int SIZE = 1 << 16;
    private static final int PROBES = 8;
    private static final int THREADS = 8;

    /** An object, weakly, with its version and what its last threads saw of it. */
    private static final class Entry extends WeakReference<Object> {
        private int version;
        private long lastWriter;
        private final long[] threads = new long[THREADS];
        private final int[] seen = new int[THREADS];
        private int placed;

        Entry(Object object) {
            super(object);
        }

        /** Records the access; whether it would be remote. */
        synchronized boolean access(long threadId, boolean write) {
            int slot = slotOf(threadId);
            boolean remote = version > (slot < 0 ? 0 : seen[slot]) && lastWriter != threadId;
            if (write) {
                version++;
                lastWriter = threadId;
            }
            if (slot < 0) {
                slot = placed++ % THREADS;
                threads[slot] = threadId;
            }
            seen[slot] = version;
            return remote;
        }

        private int slotOf(long threadId) {
            for (int i = 0; i < Math.min(placed, THREADS); i++) {
                if (threads[i] == threadId) {
                    return i;
                }
            }
            return -1;
        }
    }

    private final AtomicReferenceArray<Entry> slots = new AtomicReferenceArray<>(SIZE);

    /** Records that {@code threadId} read or wrote {@code object}; says whether the access would be remote. */
    boolean touch(Object object, long threadId, boolean write) {
        return entry(object).access(threadId, write);
    }

    private Entry entry(Object object) {
        int start = System.identityHashCode(object);
        for (int probe = 0; probe < PROBES; probe++) {
            Entry entry = slots.get((start + probe) & (SIZE - 1));
            if (entry != null && entry.get() == object) {
                return entry;
            }
        }
        Entry placed = new Entry(object);
        for (int probe = 0; probe < PROBES; probe++) {
            int slot = (start + probe) & (SIZE - 1);
            Entry entry = slots.get(slot);
            if ((entry == null || entry.get() == null) && slots.compareAndSet(slot, entry, placed)) {
                return placed;
            }
        }
        slots.set((start + (int) (Thread.currentThread().getId() & (PROBES - 1))) & (SIZE - 1), placed);
        return placed;
    }
}
