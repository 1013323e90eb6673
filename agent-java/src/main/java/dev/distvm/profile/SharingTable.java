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
 * <p>The same model at the node level gives the what-if for dist's placement at 2, 4 and 8 nodes
 * ({@link PredictedPlacement}): an access is remote there when the last write was made on another
 * node and no thread of this node touched the object since (the node's copy is stale).
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
    /** In {@link #touch}'s answer: remote with each thread on a node of its own. */
    static final int REMOTE = 1;

    /** An object, weakly, with its version and what its last threads saw of it. */
    private static final class Entry extends WeakReference<Object> {
        private int version;
        private long lastWriter;
        private int lastWriterNodes;
        private final long[] threads = new long[THREADS];
        private final int[] threadNodes = new int[THREADS];
        private final int[] seen = new int[THREADS];
        private int placed;

        Entry(Object object) {
            super(object);
        }

        /** Records the access; says where it would be remote (see {@link #touch}). */
        synchronized int access(long threadId, int nodes, boolean write) {
            int slot = slotOf(threadId);
            int answer = version > (slot < 0 ? 0 : seen[slot]) && lastWriter != threadId ? REMOTE : 0;
            // A thread that saw the latest write is on a node that saw it: only a remote access can be one at a node.
            for (int cluster = 0; answer != 0 && cluster < PredictedPlacement.NODE_COUNTS.length; cluster++) {
                int writerNode = PredictedPlacement.node(lastWriterNodes, cluster);
                if (writerNode != PredictedPlacement.node(nodes, cluster) && !seenOnNode(nodes, cluster)) {
                    answer |= (2 << cluster) | writerNode << (4 + 3 * cluster);
                }
            }
            if (write) {
                version++;
                lastWriter = threadId;
                lastWriterNodes = nodes;
            }
            if (slot < 0) {
                slot = placed++ % THREADS;
                threads[slot] = threadId;
                threadNodes[slot] = nodes;
            }
            seen[slot] = version;
            return answer;
        }

        /** Whether a thread on this node, in the cluster of the given size, touched the object since its last write. */
        private boolean seenOnNode(int nodes, int cluster) {
            int node = PredictedPlacement.node(nodes, cluster);
            for (int i = 0; i < Math.min(placed, THREADS); i++) {
                if (seen[i] == version && PredictedPlacement.node(threadNodes[i], cluster) == node) {
                    return true;
                }
            }
            return false;
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

    /**
     * Records that {@code threadId}, placed at {@code nodes} ({@link PredictedPlacement}), read or
     * wrote {@code object}. Says where the access would be remote: {@link #REMOTE} with each thread
     * on a node of its own, and for the cluster sizes {@link #remoteAt} and {@link #writerNodeAt}.
     */
    int touch(Object object, long threadId, int nodes, boolean write) {
        return entry(object).access(threadId, nodes, write);
    }

    /** Whether {@link #touch}'s answer says remote at {@code PredictedPlacement.NODE_COUNTS[cluster]} nodes. */
    static boolean remoteAt(int answer, int cluster) {
        return (answer & (2 << cluster)) != 0;
    }

    /** For an access remote at that cluster size: the node of the object's last writer. */
    static int writerNodeAt(int answer, int cluster) {
        return (answer >>> (4 + 3 * cluster)) & 7;
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
