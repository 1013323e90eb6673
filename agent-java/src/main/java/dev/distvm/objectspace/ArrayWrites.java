package dev.distvm.objectspace;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Which chunks of one shared array were written since they were last looked at, so that a release
 * or a refresh compares those chunks with their twin and not the whole array ("writes cost what
 * was written"). The rewritten code marks a chunk after every store into it ({@link ArrayStores});
 * JDK code that the application hands the array to marks all of it when the call returns, and an
 * array that JDK code may write later (one wrapped in a buffer or a list) counts as written
 * everywhere at every look.
 *
 * <p>A mark is a byte per chunk, stored with release semantics after the element's store, and
 * taken with an atomic exchange: a scanner that takes a mark sees the stores before it, and a
 * store whose mark comes after the exchange leaves the mark for the next scan. At the home several
 * views (one per worker) look at one master at different times: each look first sweeps the marks
 * into the number of the sweep that found them ({@link #sweep}), and a view compares the chunks
 * swept after its previous look.
 */
final class ArrayWrites {
    /** Elements per chunk: 8 KiB of doubles, small enough that one written element costs little to compare. */
    static final int CHUNK_SHIFT = 10;
    private static final VarHandle MARKS = MethodHandles.arrayElementVarHandle(byte[].class);
    private static final int[] NOTHING = new int[0];

    private final int length;
    private final byte[] marks;
    /** JDK code may write the array at any time: every look compares it whole. */
    private volatile boolean aliased;
    /** Home only: per chunk, the sweep that last found it written; and the number of sweeps so far. */
    private long[] sweptIn;
    private long sweeps;
    /** The latest sweep that found a chunk written (0: none yet); volatile for {@link #unwrittenSince}. */
    private volatile long lastSweepThatFound;

    ArrayWrites(int length) {
        this.length = length;
        this.marks = new byte[chunks(length)];
    }

    static int chunks(int length) {
        return (length + (1 << CHUNK_SHIFT) - 1) >>> CHUNK_SHIFT;
    }

    /** After a store into element {@code index} (a valid index: the store succeeded). */
    void stored(int index) {
        MARKS.setRelease(marks, index >>> CHUNK_SHIFT, (byte) 1);
        UnreleasedWrites.NODE.noted();
    }

    /** After code that may have written any element (a JDK method the array was passed to). */
    void storedAll() {
        for (int c = 0; c < marks.length; c++) {
            MARKS.setRelease(marks, c, (byte) 1);
        }
        UnreleasedWrites.NODE.noted();
    }

    /** After a write to [from, to) that did not go through rewritten code (a worker's release applied at the home). */
    void stored(int from, int to) {
        if (to > from) {
            for (int c = from >>> CHUNK_SHIFT; c <= (to - 1) >>> CHUNK_SHIFT; c++) {
                MARKS.setRelease(marks, c, (byte) 1);
            }
            UnreleasedWrites.NODE.noted();
        }
    }

    void alias() {
        aliased = true;
        UnreleasedWrites.NODE.unknowable();
    }

    /**
     * A worker's release: the element ranges written since the last call, as [from, to) pairs, and
     * the marks cleared; null when the whole array must be compared.
     */
    int[] take() {
        if (aliased) {
            return null;
        }
        Ranges ranges = null;
        for (int c = 0; c < marks.length; c++) {
            if ((byte) MARKS.getOpaque(marks, c) != 0 && (byte) MARKS.getAndSet(marks, c, (byte) 0) != 0) {
                ranges = Ranges.add(ranges, c, length);
            }
        }
        return ranges == null ? NOTHING : ranges.toArray();
    }

    /**
     * The home: moves the marks into this sweep's number and returns it; a view that compared
     * after sweep {@code n} then compares {@link #sweptAfter}(n).
     */
    synchronized long sweep() {
        long sweep = ++sweeps;
        for (int c = 0; c < marks.length; c++) {
            if ((byte) MARKS.getOpaque(marks, c) == 0) {
                continue;
            }
            lastSweepThatFound = sweep; // before the mark goes: a look that finds it gone finds this (unwrittenSince)
            if ((byte) MARKS.getAndSet(marks, c, (byte) 0) != 0) {
                if (sweptIn == null) {
                    sweptIn = new long[marks.length];
                }
                sweptIn[c] = sweep;
            }
        }
        return sweep;
    }

    /**
     * The home: true when a {@link #sweep} now would find no chunk written and {@link #sweptAfter}
     * {@code (since)} would then be empty, so a view may skip both (most shared arrays at most
     * scans). A mark stored after this look stays for the next. A mark found gone was taken by
     * another view's sweep, which recorded itself first: reading the marks with acquire, and the
     * record after them, this look sees that sweep's number and does not skip what it found.
     */
    boolean unwrittenSince(long since) {
        if (aliased) {
            return false;
        }
        for (int c = 0; c < marks.length; c++) {
            if ((byte) MARKS.getAcquire(marks, c) != 0) {
                return false;
            }
        }
        return lastSweepThatFound <= since;
    }

    /** The home: the ranges swept after sweep {@code since} (see {@link #sweep}); null for the whole array. */
    synchronized int[] sweptAfter(long since) {
        if (aliased) {
            return null;
        }
        Ranges ranges = null;
        if (sweptIn != null) {
            for (int c = 0; c < sweptIn.length; c++) {
                if (sweptIn[c] > since) {
                    ranges = Ranges.add(ranges, c, length);
                }
            }
        }
        return ranges == null ? NOTHING : ranges.toArray();
    }

    /** The number of the latest sweep (0 before the first). */
    synchronized long sweeps() {
        return sweeps;
    }

    /** Adjacent chunks merged into one range. */
    private static final class Ranges {
        private int[] pairs = new int[8];
        private int size;

        /** {@code ranges} with the chunk added; made on the first chunk, as most looks find none. */
        static Ranges add(Ranges ranges, int chunk, int length) {
            Ranges to = ranges == null ? new Ranges() : ranges;
            to.addChunk(chunk, length);
            return to;
        }

        void addChunk(int chunk, int length) {
            int from = chunk << CHUNK_SHIFT;
            int to = Math.min(length, from + (1 << CHUNK_SHIFT));
            if (size > 0 && pairs[size - 1] == from) {
                pairs[size - 1] = to;
                return;
            }
            if (size == pairs.length) {
                pairs = Arrays.copyOf(pairs, size * 2);
            }
            pairs[size++] = from;
            pairs[size++] = to;
        }

        int[] toArray() {
            return Arrays.copyOf(pairs, size);
        }
    }
}
