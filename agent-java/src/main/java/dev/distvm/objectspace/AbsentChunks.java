package dev.distvm.objectspace;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Which chunks of one array copy on a worker are absent: the home has not sent their values (the
 * array came on demand, see {@link HomeSpace}), or it told this worker they changed since. Reading
 * or writing an element of an absent chunk faults the chunk in first ({@link ArrayReads}); a write
 * too, because a release finds writes by comparing with the twin, which is stale for an absent
 * chunk (a value written that equals the stale one would not be found).
 *
 * <p>A fault fetches a run of absent chunks from the faulting one on ({@link FetchWalk}: growing
 * while a thread walks the array, several threads' walks followed at once). The flags are read
 * without a lock by every faulting read; they change under the copy's monitor, from the home's
 * messages (applied in order) and the fetches' answers.
 */
final class AbsentChunks {
    static final int CHUNK_SHIFT = ArrayWrites.CHUNK_SHIFT;

    /**
     * The home's word, in a change group, that elements [slot, slot + elements) of an array sent
     * on demand changed since this worker last fetched them (chunk-aligned; its values stay home).
     */
    record Changed(int elements) {}

    /** A holder's state in a message that sends the array on demand: which of its chunks are absent. */
    record Flags(byte[] absent) {}
    /** Chunks a fault fetches at first: 8 K elements, 64 KiB of doubles. */
    private static final int FIRST_WINDOW = 8;
    /** The most chunks one fetch asks for: a million elements. */
    private static final int LARGEST_WINDOW = 1024;
    private static final VarHandle FLAGS = MethodHandles.arrayElementVarHandle(byte[].class);

    final long id;
    final int length;
    private final byte[] absent;
    private int absentCount;
    /** Chunks fetched: the home sends their changes from then on, so they are never absent again. */
    private final java.util.BitSet followed;
    /** Every chunk is followed: handing the array to JDK code needs nothing more. */
    private volatile boolean allFollowed;
    private final FetchWalk walk = new FetchWalk(FIRST_WINDOW, LARGEST_WINDOW);
    /** {@link ArrayReads}' table entry (guarded there): the array's identity hash, whether it is in, the next in its chain. */
    int incompleteAs;
    boolean inTable;
    volatile AbsentChunks nextIncomplete;

    /** {@code absent}: a flag per chunk (non-zero: absent), which this takes over. */
    AbsentChunks(long id, int length, byte[] absent) {
        if (absent.length != chunks(length)) {
            throw new IllegalArgumentException("object-space message: " + absent.length + " chunk flags for an array of "
                    + length + " elements");
        }
        this.id = id;
        this.length = length;
        this.absent = absent;
        this.followed = new java.util.BitSet(absent.length);
        for (byte flag : absent) {
            if (flag != 0) {
                absentCount++;
            }
        }
    }

    static int chunks(int length) {
        return ArrayWrites.chunks(length);
    }

    /** Whether element {@code index} lies in an absent chunk; false for an index out of bounds (the access throws). */
    boolean absent(int index) {
        return index >= 0 && index < length && (byte) FLAGS.getOpaque(absent, index >>> CHUNK_SHIFT) != 0;
    }

    synchronized boolean anyAbsent() {
        return absentCount > 0;
    }

    /** The home said chunks [from, to) changed: returns whether the array had no absent chunk before. */
    synchronized boolean lose(int from, int to) {
        boolean wasWhole = absentCount == 0;
        for (int c = Math.max(0, from); c < Math.min(to, absent.length); c++) {
            if (absent[c] == 0) {
                FLAGS.setRelease(absent, c, (byte) 1);
                absentCount++;
            }
        }
        return wasWhole && absentCount > 0;
    }

    /** Chunks [from, to) arrived (their values applied): returns whether the array has no absent chunk now. */
    synchronized boolean arrived(int from, int to) {
        boolean hadAbsent = absentCount > 0;
        for (int c = Math.max(0, from); c < Math.min(to, absent.length); c++) {
            if (absent[c] != 0) {
                FLAGS.setRelease(absent, c, (byte) 0);
                absentCount--;
            }
        }
        followed.set(Math.max(0, from), Math.max(0, Math.min(to, absent.length)));
        allFollowed = followed.cardinality() == absent.length;
        return hadAbsent && absentCount == 0;
    }

    /** The chunks [from, to) a fault at {@code index} fetches: the absent run from its chunk on, at most the window. */
    synchronized int[] toFetch(int index) {
        return walk.run(index >>> CHUNK_SHIFT, absent.length, c -> absent[c] != 0);
    }

    /**
     * Every run of chunks not fetched yet (absent, or here without the home following them: zeros that
     * came with the array, this node's own writes), as [from, to) pairs of at most the largest window:
     * what handing the array to JDK code fetches, so that no chunk of it goes absent afterwards while
     * JDK code may still hold it.
     */
    int[] unfollowedRuns() {
        return allFollowed ? new int[0] : unfollowedRunsNow();
    }

    private synchronized int[] unfollowedRunsNow() {
        int[] runs = new int[8];
        int size = 0;
        for (int c = followed.nextClearBit(0); c < absent.length; c = followed.nextClearBit(c)) {
            int end = Math.min(Math.min(followed.nextSetBit(c) < 0 ? absent.length : followed.nextSetBit(c), absent.length),
                    c + LARGEST_WINDOW);
            if (size == runs.length) {
                runs = java.util.Arrays.copyOf(runs, size * 2);
            }
            runs[size++] = c;
            runs[size++] = end;
            c = end;
        }
        return java.util.Arrays.copyOf(runs, size);
    }
}
