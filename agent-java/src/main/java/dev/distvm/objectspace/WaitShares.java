package dev.distvm.objectspace;

/**
 * On a worker, per copy whose monitor other nodes use: how many of the recent calls of its waiting
 * synchronized methods ({@link HomeCalls}) waited. Where most of them wait (a barrier: all parties
 * but the last), a call runs at the home, one round trip; where few do (a bounded buffer that is
 * seldom full or empty), the node's lease serves runs of calls without a message and passes the
 * monitor between nodes only now and then, which costs less than a round trip per call.
 */
final class WaitShares {
    /** Calls counted before both counts are halved: the share follows what the program does now. */
    private static final int WINDOW = 32;
    /** Calls counted before the share decides anything. */
    private static final int FIRST_DECISION = 4;

    private final WeakIdentityMap<Object, int[]> byCopy = new WeakIdentityMap<>();

    /** A call of a waiting method of {@code copy} on this node; {@code waited}: it waited (in a call at the home: the home said so). */
    synchronized void called(Object copy, boolean waited) {
        int[] counts = byCopy.get(copy);
        if (counts == null) {
            counts = new int[2];
            byCopy.put(copy, counts);
        }
        if (++counts[0] >= WINDOW) {
            counts[0] /= 2;
            counts[1] /= 2;
        }
        if (waited) {
            counts[1] = Math.min(counts[0], counts[1] + 1);
        }
    }

    /** A thread of this node waited on {@code copy} through the node's lease (counted only where its calls are counted). */
    synchronized void waited(Object copy) {
        int[] counts = byCopy.get(copy);
        if (counts != null) {
            counts[1] = Math.min(counts[0], counts[1] + 1);
        }
    }

    /** Whether at least half of the recent calls of {@code copy}'s waiting methods waited. */
    synchronized boolean mostlyWait(Object copy) {
        int[] counts = byCopy.get(copy);
        return counts != null && counts[0] >= FIRST_DECISION && 2 * counts[1] >= counts[0];
    }
}
