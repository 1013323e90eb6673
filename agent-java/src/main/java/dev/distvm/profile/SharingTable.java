package dev.distvm.profile;

import java.lang.ref.WeakReference;

/**
 * Which sampled objects more than one thread has touched. A fixed table probed by identity hash:
 * it never keeps an object alive, never grows with the program, and forgets the least recently
 * placed object of a full neighbourhood, so an object touched rarely among many may be taken for
 * unshared (an undercount, never an invented sharing).
 */
final class SharingTable {
    private static final int SIZE = 1 << 16;
    private static final int PROBES = 8;

    private final WeakReference<?>[] objects = new WeakReference<?>[SIZE];
    private final long[] firstThread = new long[SIZE];
    private final boolean[] shared = new boolean[SIZE];
    private int nextEviction;

    /** Records that {@code threadId} touched {@code object}; says whether another thread has touched it too. */
    synchronized boolean touch(Object object, long threadId) {
        int start = System.identityHashCode(object) & (SIZE - 1);
        int free = -1;
        for (int probe = 0; probe < PROBES; probe++) {
            int slot = (start + probe) & (SIZE - 1);
            WeakReference<?> reference = objects[slot];
            Object there = reference == null ? null : reference.get();
            if (there == object) {
                if (firstThread[slot] != threadId) {
                    shared[slot] = true;
                }
                return shared[slot];
            }
            if (there == null && free < 0) {
                free = slot;
            }
        }
        if (free < 0) {
            free = (start + nextEviction++ % PROBES) & (SIZE - 1);
        }
        objects[free] = new WeakReference<>(object);
        firstThread[free] = threadId;
        shared[free] = false;
        return false;
    }
}
