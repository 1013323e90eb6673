package dev.distvm.objectspace;

import java.util.function.IntPredicate;

/**
 * How much one fault fetches: the run of missing pieces (chunks of an array, elements of an array
 * of arrays) from the faulting one on, a few at first; while faults go on where an earlier fetch
 * ended (a thread walking the array), half as many as that walk has fetched so far, up to a largest
 * window, so that what a walk fetches beyond where it stops is at most a third of it (or the
 * largest window); a few again when a fault continues no walk. Several walks are followed at once
 * (threads walking their own bands of one array take turns faulting). Not thread-safe: its
 * owner's monitor guards it.
 */
final class FetchWalk {
    /** Walks followed at once; a fault that continues none replaces the one least recently continued. */
    private static final int WALKS = 4;

    private final int firstWindow;
    private final int largestWindow;
    /** Per walk: the pieces it fetched, the piece after its last fetch (where a fault continues it), when it last went on. */
    private final int[] walked = new int[WALKS];
    private final int[] continuesAt = new int[WALKS];
    private final long[] lastUsed = new long[WALKS];
    private long faults;

    FetchWalk(int firstWindow, int largestWindow) {
        this.firstWindow = firstWindow;
        this.largestWindow = largestWindow;
        java.util.Arrays.fill(continuesAt, -1); // no walk yet: no fault continues one
    }

    /** The pieces [from, to) a fault at piece {@code at} of {@code count} fetches: at least that one. */
    int[] run(int at, int count, IntPredicate missing) {
        int walk = walkContinuedAt(at);
        int window = Math.min(largestWindow, Math.max(firstWindow, walked[walk] / 2));
        int end = at;
        while (end < count && end - at < window && missing.test(end)) {
            end++;
        }
        end = Math.max(end, at + 1);
        walked[walk] += end - at;
        continuesAt[walk] = end;
        lastUsed[walk] = ++faults;
        return new int[] {at, end};
    }

    private int walkContinuedAt(int at) {
        int oldest = 0;
        for (int w = 0; w < WALKS; w++) {
            if (continuesAt[w] == at) {
                return w;
            }
            oldest = lastUsed[w] < lastUsed[oldest] ? w : oldest;
        }
        walked[oldest] = 0;
        return oldest;
    }
}
